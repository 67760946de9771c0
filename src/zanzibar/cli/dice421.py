"""``zanzibar play|sim|solve 421``: the terminal game, the simulator and the solver.

``play`` runs the generic :mod:`zanzibar.cli.terminal` client with the 421 table
of keys (seed 000): 1-6 select a die to reroll, Shift+1-6 unselect, Space says
the selection, D repeats the last roll, S the scores, T whose turn; R or Enter
rolls, K keeps the throw. Piped input takes typed commands, one per line.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from zanzibar.cli.main import make_parser
from zanzibar.cli.terminal import KeyBinding, LocalDriver, Reply, Session, TerminalClient
from zanzibar.engine.errors import IllegalActionError
from zanzibar.engine.events import Event
from zanzibar.engine.i18n import LANGUAGES
from zanzibar.engine.match import Match
from zanzibar.games.dice421.messages import dice_text
from zanzibar.games.dice421.quick import play_quick
from zanzibar.games.dice421.rules import RULES
from zanzibar.games.dice421.state import ROLL_ALL, STOP, Roll, State

BOT_NAMES = ("Anna", "Bruno", "Chloé", "David", "Emma", "Félix", "Gaby", "Hugo", "Inès")

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "no_die": "There is no die {n}: 421 is played with three dice, 1 to 3.",
        "no_dice_yet": "Roll first: there are no dice to select yet.",
        "roll_first": "Roll at least once before stopping.",
        "not_yours": "It is not your turn: the dice are not yours to select.",
        "selected": "Reroll: {rerolled}. Keep: {kept}.",
        "none_selected": "No die selected: rolling rerolls all three.",
        "all": "all three",
        "none": "nothing",
        "no_roll": "Nobody has rolled yet.",
        "bad_number": "'{word}' is not a die number 1, 2 or 3.",
        "intro": "421, rules '{preset}': {players}. Press F1 or type help for the keys.",
        "you_name": "You",
    },
    "fr": {
        "no_die": "Il n'y a pas de dé {n} : le 421 se joue avec trois dés, 1 à 3.",
        "no_dice_yet": "Lancez d'abord : pas encore de dés à sélectionner.",
        "roll_first": "Lancez au moins une fois avant de vous arrêter.",
        "not_yours": "Ce n'est pas votre tour : ces dés ne sont pas à vous.",
        "selected": "Relancer : {rerolled}. Garder : {kept}.",
        "none_selected": "Aucun dé sélectionné : lancer relance les trois.",
        "all": "les trois",
        "none": "rien",
        "no_roll": "Personne n'a encore lancé.",
        "bad_number": "« {word} » n'est pas un numéro de dé 1, 2 ou 3.",
        "intro": "421, règles « {preset} » : {players}. F1 ou help pour les touches.",
        "you_name": "Vous",
    },
}


def _say(lang: str, key: str, **values: Any) -> str:
    return (_WORDS.get(lang) or _WORDS["en"])[key].format(**values)


class Dice421Commands:
    """The 421 keys and commands for :class:`~zanzibar.cli.terminal.TerminalClient`."""

    def __init__(self) -> None:
        self.selected: set[int] = set()
        self.last_roll: Event | None = None

    def bindings(self) -> Sequence[KeyBinding]:
        """Seed 000's keys, plus R/Enter to roll and K to keep."""
        digits = tuple(str(n) for n in range(1, 7))
        return (
            KeyBinding(
                digits,
                "select {digit}",
                {"en": "select a die to reroll (1-6)", "fr": "sélectionner un dé à relancer"},
            ),
            KeyBinding(
                tuple(f"shift+{d}" for d in digits),
                "unselect {digit}",
                {"en": "unselect a die", "fr": "désélectionner un dé"},
            ),
            KeyBinding(
                ("space",),
                "selection",
                {"en": "say the dice selected and kept", "fr": "répète les dés sélectionnés"},
            ),
            KeyBinding(
                ("d",), "dice", {"en": "repeat the last roll", "fr": "répète le dernier jet"}
            ),
            KeyBinding(
                ("r", "enter"),
                "roll",
                {"en": "roll the selected dice (all if none)", "fr": "lancer les dés choisis"},
            ),
            KeyBinding(("k",), "stop", {"en": "keep your throw, stop", "fr": "garder son jet"}),
        )

    def command_help(self) -> Sequence[tuple[str, Mapping[str, str]]]:
        """The typed commands of 421."""
        return (
            ("roll [1 2 3]", {"en": "roll those dice (all if none named)", "fr": "lancer ces dés"}),
            ("stop", {"en": "keep your throw", "fr": "garder son jet"}),
            ("select N / unselect N", {"en": "choose dice to reroll", "fr": "choisir les dés"}),
            ("selection", {"en": "the dice selected", "fr": "les dés sélectionnés"}),
            ("dice", {"en": "repeat the last roll", "fr": "répète le dernier jet"}),
        )

    def run(self, command: str, args: list[str], session: Session) -> Reply | None:
        """Handle a 421 command."""
        lang = session.lang
        if command in {"select", "unselect"}:
            return self._select(command == "select", args, session)
        if command == "selection":
            return Reply((self._selection_text(session),))
        if command == "dice":
            if self.last_roll is None:
                return Reply((_say(lang, "no_roll"),))
            rules = session.driver.rules
            return Reply((rules.render_event(self.last_roll, lang, session.seat, session.names),))
        if command == "roll":
            return Reply(action=self._roll_action(args, session))
        if command == "stop":
            state: State = session.state
            if session.my_turn and state.rolls == 0:
                return Reply((_say(lang, "roll_first"),))
            return Reply(action=STOP)
        return None

    def _positions(self, args: list[str], lang: str) -> list[int]:
        positions = []
        for word in args:
            if not word.isdigit() or not 1 <= int(word) <= 6:
                raise IllegalActionError(_say(lang, "bad_number", word=word))
            if int(word) > 3:
                raise IllegalActionError(_say(lang, "no_die", n=word))
            positions.append(int(word) - 1)
        return positions

    def _select(self, select: bool, args: list[str], session: Session) -> Reply:
        state: State = session.state
        if not session.my_turn:
            return Reply((_say(session.lang, "not_yours"),))
        if not state.dice:
            return Reply((_say(session.lang, "no_dice_yet"),))
        for position in self._positions(args, session.lang):
            if select:
                self.selected.add(position)
            else:
                self.selected.discard(position)
        return Reply((self._selection_text(session),))

    def _selection_text(self, session: Session) -> str:
        state: State = session.state
        lang = session.lang
        if not state.dice:
            return _say(lang, "no_dice_yet")
        if not self.selected:
            return _say(lang, "none_selected")
        rerolled = [state.dice[i] for i in sorted(self.selected)]
        kept = [state.dice[i] for i in range(3) if i not in self.selected]
        return _say(
            lang,
            "selected",
            rerolled=dice_text(rerolled) if len(rerolled) < 3 else _say(lang, "all"),
            kept=dice_text(kept) if kept else _say(lang, "none"),
        )

    def _roll_action(self, args: list[str], session: Session) -> Roll:
        state: State = session.state
        named = self._positions(args, session.lang)
        if state.rolls == 0:
            return ROLL_ALL
        positions = named if args else sorted(self.selected)
        return Roll(frozenset(positions)) if positions else ROLL_ALL

    def on_events(self, events: Sequence[Event], session: Session) -> None:
        """A new roll or a new turn clears the selection; remember the last roll."""
        for event in events:
            if event.kind == "roll":
                self.last_roll = event
                self.selected.clear()
            elif event.kind in {"next", "turn_start", "turn_end"}:
                self.selected.clear()


def _resolve_options(preset: str | None, assignments: list[str]) -> dict[str, Any]:
    overrides = RULES.options.parse_assignments(assignments)
    return RULES.options.resolve(preset, overrides)


def play(argv: list[str]) -> int:
    """``zanzibar play 421 [--preset P] [--option N=V ...] [--bots N] [--seed S] ...``."""
    parser = make_parser("play 421", "Play 421 / Zanzibar against bots in the terminal.")
    parser.add_argument("game")
    parser.add_argument("--preset", choices=[p.name for p in RULES.options.presets])
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--bots", type=int, default=2, help="number of bots (1-9)")
    parser.add_argument("--level", default=None, help="bot level (expert, simple, random)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument("--name", default=None)
    parser.add_argument("--delay", type=float, default=0.4, help="seconds between bot events")
    parser.add_argument(
        "--layout",
        choices=["qwerty", "azerty"],
        default="qwerty",
        help="keyboard layout for the digit keys (azerty: the unshifted & é \" ' ( - row)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.bots <= 9:
        parser.error("--bots must be between 1 and 9")
    options = _resolve_options(args.preset, args.option)
    level = args.level or RULES.bot_levels()[0]
    if level not in RULES.bot_levels():
        parser.error(f"--level must be one of {', '.join(RULES.bot_levels())}")
    match: Match[State, Any] = Match(RULES, args.bots + 1, options, args.seed)
    human = args.name or _say(args.lang, "you_name")
    names = [human, *[name for name in BOT_NAMES if name != human][: args.bots]]
    bots = {
        seat: RULES.make_bot(level, options, seed=match.rng.seed + seat)
        for seat in range(1, args.bots + 1)
    }
    driver = LocalDriver(match, bots, 0, names)
    commands = Dice421Commands()
    client = TerminalClient(driver, commands, lang=args.lang, delay=args.delay, layout=args.layout)
    preset = RULES.options.matching_preset(options) or "custom"
    try:
        print(_say(args.lang, "intro", preset=preset, players=", ".join(names)), flush=True)
        return client.run()
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as command-line tools do.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaces a dead stream
        return 1


# -- solve ---------------------------------------------------------------------------------


def parse_throw(text: str) -> tuple[int, int, int]:
    """``"4-2-1"``, ``"421"`` or ``"4,2,1"`` -> (4, 2, 1), highest first.

    >>> parse_throw("1-2-4"), parse_throw("665")
    ((4, 2, 1), (6, 6, 5))
    """
    digits = [c for c in text if not c.isspace() and c not in "-,/"]
    if len(digits) != 3 or any(c not in "123456" for c in digits):
        raise IllegalActionError(f"'{text}' is not a throw of three dice, e.g. 4-2-1")
    a, b, c = sorted((int(d) for d in digits), reverse=True)
    return (a, b, c)


def solve(argv: list[str]) -> int:
    """``zanzibar solve 421 --beat THROW --rolls N [--json]``: exact chase probability."""
    from zanzibar.games.dice421.combos import ranking
    from zanzibar.games.dice421.solver import chase, describe_decision

    parser = make_parser(
        "solve 421",
        "Exact probability that a player with up to N rolls, playing best, beats a throw "
        "made earlier in the turn (an equal later throw wins, as in the Salon's rules).",
    )
    parser.add_argument("game")
    parser.add_argument("--beat", required=True, help="the earlier throw, e.g. 4-2-1")
    parser.add_argument("--rolls", type=int, default=3, help="rolls allowed (1-10)")
    parser.add_argument(
        "--fiche-order", default="salon", choices=["salon", "fiche_first", "fiches_above"]
    )
    parser.add_argument(
        "--strict", action="store_true", help="an equal throw does not beat it (rampo tables)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not 1 <= args.rolls <= 10:
        parser.error("--rolls must be between 1 and 10")
    target = parse_throw(args.beat)
    result = chase(target, args.rolls, args.fiche_order, later_wins=not args.strict)
    after: list[dict[str, Any]] = []
    for throw in ranking(args.fiche_order):
        code, chance = result.decision_after_first_roll(throw)
        kind, rerolled = describe_decision(code, throw) if args.rolls > 1 else ("stop", [])
        after.append(
            {"throw": list(throw), "decision": kind, "reroll": rerolled, "probability": chance}
        )
    if args.json:
        print(
            json.dumps(
                {
                    "beat": list(target),
                    "rolls": args.rolls,
                    "tie_rule": "strict" if args.strict else "later_wins",
                    "fiche_order": args.fiche_order,
                    "probability": result.probability,
                    "percent": round(result.probability * 100, 2),
                    "first_decision": {"action": "roll", "dice": "all"},
                    "after_first_roll": after,
                }
            )
        )
        return 0
    tie = "strictly" if args.strict else "or equal it (a later equal throw wins)"
    print(f"Beat {dice_text(target)} {tie} with up to {args.rolls} roll(s), playing best:")
    print(f"probability {result.probability * 100:.2f} % ({result.probability:.6f})")
    print("Best first decision: roll all three dice (the first roll always does).")
    if args.rolls > 1:
        print("Then, holding after the first roll:")
        for row in after:
            what = "stop" if row["decision"] == "stop" else f"reroll {dice_text(row['reroll'])}"
            print(f"  {dice_text(row['throw'])}: {what} ({row['probability'] * 100:.2f} %)")
    return 0


# -- sim -----------------------------------------------------------------------------------


def _progress(done: int, total: int, started: float) -> None:
    """A plain-text progress bar on stderr (one line per tenth when it is not a terminal)."""
    if not sys.stderr.isatty() and done != total and done * 10 // total == (done - 1) * 10 // total:
        return
    width = 30
    filled = width * done // total
    rate = done / max(time.perf_counter() - started, 1e-9)
    bar = "#" * filled + "." * (width - filled)
    tty = sys.stderr.isatty()
    end = "\n" if done == total or not tty else ""
    start = "\r" if tty else ""
    sys.stderr.write(f"{start}[{bar}] {done}/{total} games, {rate:.0f} games/s{end}")
    sys.stderr.flush()


def simulate(
    games: int,
    players: int,
    options: Mapping[str, Any],
    levels: Sequence[str],
    seed: int,
    progress: bool = False,
) -> dict[str, Any]:
    """Play all-bot games; return the statistics ``sim`` prints."""
    bots = {seat: RULES.make_bot(levels[seat], options, seed + seat) for seat in range(players)}
    losses = [0] * players
    turns = actions = rolls = 0
    started = time.perf_counter()
    step = max(1, games // 100)
    for game in range(games):
        # The very game Match(RULES, players, options, seed + game) would play, unlogged.
        state, game_actions, game_rolls = play_quick(players, options, bots, seed + game)
        assert state.loser is not None
        losses[state.loser] += 1
        turns += state.turns
        actions += game_actions
        rolls += game_rolls
        if progress and ((game + 1) % step == 0 or game + 1 == games):
            _progress(game + 1, games, started)
    seconds = time.perf_counter() - started
    return {
        "game": "421",
        "games": games,
        "players": players,
        "preset": RULES.options.matching_preset(options),
        "options": dict(options),
        "bots": list(levels),
        "seed": seed,
        "losses": losses,
        "loss_rate": [n / games for n in losses],
        "mean_turns": turns / games,
        "mean_actions": actions / games,
        "mean_rolls": rolls / games,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds else 0.0,
    }


def sim(argv: list[str]) -> int:
    """``zanzibar sim 421 --games N --players K [--preset P] [--bots L,...] [--seed S] [--json]``."""
    parser = make_parser("sim 421", "Play all-bot games of 421 and print statistics.")
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", choices=[p.name for p in RULES.options.presets])
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument(
        "--bots", default=None, help="bot levels, one for all or one per seat: expert,simple,..."
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    args = parser.parse_args(argv)
    low, high = RULES.seat_range({})
    if not low <= args.players <= high:
        parser.error(f"--players must be between {low} and {high}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    levels = (args.bots or RULES.bot_levels()[0]).split(",")
    if len(levels) == 1:
        levels = levels * args.players
    if len(levels) != args.players:
        parser.error("--bots takes one level, or one level per player")
    for level in levels:
        if level not in RULES.bot_levels():
            parser.error(f"unknown bot level '{level}' (levels: {', '.join(RULES.bot_levels())})")
    options = _resolve_options(args.preset, args.option)
    stats = simulate(
        args.games, args.players, options, levels, args.seed, progress=not args.no_progress
    )
    if args.json:
        print(json.dumps(stats))
        return 0
    print(
        f"{stats['games']} games of 421, {stats['players']} players, "
        f"rules {stats['preset'] or 'custom'}, bots {','.join(levels)}, seed {args.seed}"
    )
    for seat, rate in enumerate(stats["loss_rate"]):
        print(f"  seat {seat + 1} ({levels[seat]}): lost {rate * 100:.1f} % of games")
    print(f"mean turns per game: {stats['mean_turns']:.2f}")
    print(
        f"mean game length: {stats['mean_actions']:.1f} player actions, "
        f"{stats['mean_rolls']:.1f} dice throws"
    )
    print(f"{stats['games_per_second']:.0f} games/s ({stats['seconds']:.2f} s)")
    return 0
