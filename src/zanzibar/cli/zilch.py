"""``zanzibar play|sim|solve zilch``: terminal play, all-bot simulation, exact solvers.

* ``zanzibar play zilch [--preset P] [--bots N] [--level L] [--seed S] [--lang en|fr]``:
  one human (seat 1) against N bots, through :mod:`zanzibar.cli.terminal`. In a
  terminal single keys act (1-6 select a die, Shift+1-6 unselect, Space says
  the selection, R rolls, B banks, D repeats the roll, S scores, T turn, F1
  help, Ctrl+F1 rules); from a pipe, one typed command per line
  (``roll 1 4``, ``bank 2``, ``scores`` ...).
* ``zanzibar sim zilch --games N --players K [--bots L ...] [--seed S] [--json]``:
  all-bot games, a progress bar on stderr, win rates per seat and mean turns.
* ``zanzibar solve zilch --players 2 [--preset P] [--target T] [--json]``: the
  two-player optimal policy (solved or loaded from the cache), the first
  player's winning probability, iterations and time.
  ``zanzibar solve zilch --turn [--dice N] [--json]``: the exact expected score
  of one turn under the max-expected-score policy, and the zilch probability
  of one roll of 1 to 6 dice.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from zanzibar.cli.main import make_parser
from zanzibar.cli.terminal import Driver, KeyBinding, LocalDriver, Reply, Session, TerminalClient
from zanzibar.engine.errors import IllegalActionError, ZanzibarError
from zanzibar.engine.events import Event
from zanzibar.engine.i18n import LANGUAGES, Catalogue, translate
from zanzibar.engine.match import Match
from zanzibar.games import get_rules
from zanzibar.games.zilch.bots import LEVELS, make_bot
from zanzibar.games.zilch.options import SCHEMA, scoring_table
from zanzibar.games.zilch.scoring import counts_of, zilch_ways
from zanzibar.games.zilch.state import ZilchAction, ZilchState

_TEXT: Catalogue = {
    "en": {
        "you": "You",
        "bot": "Bot {n}",
        "no_die": "there is no die {n} to select",
        "selected": "selected: {dice} (dice {positions}), worth {value}",
        "selected_bad": "selected: {dice} (dice {positions}); these do not all score",
        "nothing": "nothing selected",
        "no_roll": "no dice to choose from",
        "last_roll": "last roll: {dice}",
        "select": "select die N to set aside",
        "unselect": "unselect die N",
        "selection": "say the selection and its value",
        "all": "select the best-scoring dice",
        "roll": "set the selection aside and roll the others (starts a turn)",
        "bank": "set the selection aside and bank the turn",
        "dice": "repeat the last roll",
        "keep": "select exactly these dice",
    },
    "fr": {
        "you": "Vous",
        "bot": "Robot {n}",
        "no_die": "il n'y a pas de dé {n} à choisir",
        "selected": "choix : {dice} (dés {positions}), vaut {value}",
        "selected_bad": "choix : {dice} (dés {positions}) ; ils ne marquent pas tous",
        "nothing": "aucun dé choisi",
        "no_roll": "aucun dé à choisir",
        "last_roll": "dernier lancer : {dice}",
        "select": "choisir le dé N à mettre de côté",
        "unselect": "retirer le dé N du choix",
        "selection": "dire le choix et sa valeur",
        "all": "choisir les dés qui marquent le plus",
        "roll": "mettre le choix de côté et relancer les autres (commence un tour)",
        "bank": "mettre le choix de côté et marquer le tour",
        "dice": "répéter le dernier lancer",
        "keep": "choisir exactement ces dés",
    },
}


def _t(lang: str, key: str, **values: Any) -> str:
    return translate(_TEXT, lang, key, **values)


def _help(key: str) -> dict[str, str]:
    return {lang: _TEXT[lang][key] for lang in LANGUAGES}


#: Single letters typed from a pipe stand for the same command as the key.
_LETTERS = {
    "r": "roll",
    "b": "bank",
    "a": "all",
    "d": "dice",
    "s": "scores",
    "t": "turn",
    "i": "status",
    "space": "selection",
}


class ZilchCommands:
    """Zilch's keys and typed commands for :class:`~zanzibar.cli.terminal.TerminalClient`.

    The selection (dice to set aside) lives here, in the client, until the
    player rolls or banks: the game only ever sees whole actions.
    """

    def __init__(self) -> None:
        self.selected: list[int] = []
        self.last_roll: tuple[int, ...] = ()

    def bindings(self) -> Sequence[KeyBinding]:
        """1-6, Shift+1-6, Space, A, R/Enter, B, D, and / for the rules."""
        out = [KeyBinding((str(n),), f"select {n}", _help("select")) for n in range(1, 7)]
        out += [
            KeyBinding((f"shift+{n}",), f"unselect {n}", _help("unselect")) for n in range(1, 7)
        ]
        out += [
            KeyBinding(("space",), "selection", _help("selection")),
            KeyBinding(("a",), "all", _help("all")),
            KeyBinding(("r", "enter"), "roll", _help("roll")),
            KeyBinding(("b",), "bank", _help("bank")),
            KeyBinding(("d",), "dice", _help("dice")),
            KeyBinding(
                ("/",), "rules", {"en": "the rules in force", "fr": "les règles en vigueur"}
            ),
        ]
        return out

    def command_help(self) -> Sequence[tuple[str, Mapping[str, str]]]:
        """Typed commands."""
        return [
            ("select N (or just N)", _help("select")),
            ("unselect N (or -N)", _help("unselect")),
            ("keep N [N ...]", _help("keep")),
            ("selection (sel)", _help("selection")),
            ("all", _help("all")),
            ("roll [N ...]", _help("roll")),
            ("bank [N ...]", _help("bank")),
            ("dice", _help("dice")),
        ]

    def on_events(self, events: Sequence[Event], session: Session) -> None:
        """A new roll clears the selection."""
        for event in events:
            if event.kind == "roll" and event.seat == session.seat:
                self.last_roll = tuple(event.get("dice", ()))
                self.selected = []
            elif event.kind == "roll":
                self.last_roll = tuple(event.get("dice", ()))

    def _positions(self, args: Sequence[str], state: ZilchState, lang: str) -> list[int]:
        out = []
        for word in args:
            if not word.isdigit() or not 1 <= int(word) <= len(state.roll):
                raise IllegalActionError(_t(lang, "no_die", n=word))
            out.append(int(word) - 1)
        return out

    def _say_selection(self, state: ZilchState, lang: str) -> str:
        if not self.selected:
            return _t(lang, "nothing")
        dice = " ".join(str(state.roll[i]) for i in self.selected)
        positions = " ".join(str(i + 1) for i in sorted(self.selected))
        value = state.config.table.score(counts_of(state.roll[i] for i in self.selected))
        if value is None:
            return _t(lang, "selected_bad", dice=dice, positions=positions)
        return _t(lang, "selected", dice=dice, positions=positions, value=value)

    def run(self, command: str, args: list[str], session: Session) -> Reply | None:
        """Handle one Zilch command."""
        state: ZilchState = session.state
        lang = session.lang
        if command.isdigit():
            command, args = "select", [command, *args]
        elif command.startswith("-") and command[1:].isdigit():
            command, args = "unselect", [command[1:], *(a.lstrip("-") for a in args)]
        command = _LETTERS.get(command, command)
        if command in {"scores", "turn", "status"}:
            return Reply((session.describe(command),))
        choosing = state.phase == "choose" and session.my_turn
        if command in {"select", "unselect", "keep", "all"} and not choosing:
            return Reply((_t(lang, "no_roll"),))
        if command == "select":
            for i in self._positions(args, state, lang):
                if i not in self.selected:
                    self.selected.append(i)
            return Reply((self._say_selection(state, lang),))
        if command == "unselect":
            for i in self._positions(args, state, lang):
                if i in self.selected:
                    self.selected.remove(i)
            return Reply((self._say_selection(state, lang),))
        if command == "keep":
            self.selected = list(dict.fromkeys(self._positions(args, state, lang)))
            return Reply((self._say_selection(state, lang),))
        if command == "all":
            from zanzibar.games.zilch.bots import selections

            keep, _ = max(selections(state), key=lambda kv: (kv[1], -len(kv[0])))
            self.selected = list(keep)
            return Reply((self._say_selection(state, lang),))
        if command in {"selection", "sel"}:
            return Reply((self._say_selection(state, lang) if choosing else _t(lang, "no_roll"),))
        if command == "dice":
            if not self.last_roll:
                return Reply((_t(lang, "no_roll"),))
            return Reply((_t(lang, "last_roll", dice=" ".join(map(str, self.last_roll))),))
        if command in {"roll", "bank"}:
            if args and choosing:
                self.selected = list(dict.fromkeys(self._positions(args, state, lang)))
            if state.phase == "start":
                return Reply(action=ZilchAction(command))
            return Reply(action=ZilchAction(command, tuple(sorted(self.selected))))
        return None


# -- play ----------------------------------------------------------------------------------


def _options(rules: Any, args: argparse.Namespace) -> dict[str, Any]:
    overrides = rules.options.parse_assignments(args.option)
    if getattr(args, "target", None) is not None:
        overrides["target"] = args.target
    resolved: dict[str, Any] = rules.options.resolve(args.preset, overrides)
    return resolved


def _add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preset", choices=[p.name for p in SCHEMA.presets], help="rule preset (default zilch5000)"
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="change one rule"
    )


def play(argv: list[str]) -> int:
    """Play Zilch in the terminal against bots."""
    parser = make_parser("play zilch", "Play Zilch 5000 against bots, one line per event.")
    parser.add_argument("game")
    _add_rule_arguments(parser)
    parser.add_argument("--bots", type=int, default=1, help="number of bot opponents (1-7)")
    parser.add_argument("--level", choices=LEVELS, default="expected", help="bot level")
    parser.add_argument("--seed", type=int, default=None, help="dice seed (replayable games)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument("--name", default=None, help="your name")
    args = parser.parse_args(argv[:1] + argv[1:])
    rules = get_rules("zilch")
    options = _options(rules, args)
    if not 1 <= args.bots <= 7:
        raise ZanzibarError("--bots must be between 1 and 7")
    seats = args.bots + 1
    match: Match[Any, Any] = Match(rules, seats, options, seed=args.seed)
    names = [args.name or _t(args.lang, "you")] + [
        _t(args.lang, "bot", n=n) for n in range(1, seats)
    ]
    bots = {seat: make_bot(args.level, options, seed=seat) for seat in range(1, seats)}
    driver = LocalDriver(match, bots, 0, names)
    client = TerminalClient(cast(Driver, driver), ZilchCommands(), lang=args.lang)
    return client.run()


# -- sim -------------------------------------------------------------------------------------


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // max(total, 1)
    rate = done / max(time.perf_counter() - started, 1e-9)
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {rate:.0f} games/s"
    )
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def simulate(
    options: Mapping[str, Any], levels: Sequence[str], games: int, seed: int, progress: bool = False
) -> dict[str, Any]:
    """Play ``games`` all-bot games (seat i plays ``levels[i]``); the statistics."""
    rules = get_rules("zilch")
    seats = len(levels)
    bots = {seat: make_bot(level, options, seed=seat) for seat, level in enumerate(levels)}
    wins = [0] * seats
    turns = 0
    started = time.perf_counter()
    for index in range(games):
        match: Match[Any, Any] = Match(rules, seats, options, seed=seed + index)
        match.play_bots(bots)
        for winner in match.state.winners:
            wins[winner] += 1
        turns += sum(match.state.turns)
        if progress and (index + 1 == games or (index + 1) % max(1, games // 100) == 0):
            _progress(index + 1, games, started)
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "players": seats,
        "bots": list(levels),
        "seed": seed,
        "wins": wins,
        "win_rates": [w / games for w in wins],
        "mean_turns": turns / games,
        "mean_turns_per_player": turns / games / seats,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds else None,
    }


def sim(argv: list[str]) -> int:
    """Simulate all-bot games."""
    parser = make_parser("sim zilch", "Simulate all-bot Zilch games.")
    parser.add_argument("game")
    _add_rule_arguments(parser)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--bots",
        nargs="+",
        default=["expected"],
        metavar="LEVEL",
        help=f"bot level per seat, repeated to fill the seats ({', '.join(LEVELS)}; commas work too)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    rules = get_rules("zilch")
    options = _options(rules, args)
    low, high = rules.seat_range(options)
    if not low <= args.players <= high:
        raise ZanzibarError(f"--players must be between {low} and {high}")
    if args.games < 1:
        raise ZanzibarError("--games must be at least 1")
    levels = [level for word in args.bots for level in word.split(",") if level]
    for level in levels:
        if level not in LEVELS:
            raise ZanzibarError(f"unknown bot level '{level}' (levels: {', '.join(LEVELS)})")
    seat_levels = [levels[i % len(levels)] for i in range(args.players)]
    result = simulate(options, seat_levels, args.games, args.seed, progress=not args.quiet)
    result["preset"] = SCHEMA.matching_preset(options)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{args.games} games, {args.players} players, preset {result['preset'] or 'custom'}")
    for seat, level in enumerate(seat_levels):
        print(
            f"  seat {seat + 1} ({level}): {result['wins'][seat]} wins, {100 * result['win_rates'][seat]:.1f} %"
        )
    print(
        f"  mean turns per game {result['mean_turns']:.1f} ({result['mean_turns_per_player']:.1f} per player)"
    )
    print(f"  {result['games_per_second']:.0f} games per second")
    return 0


# -- solve -----------------------------------------------------------------------------------


def solve(argv: list[str]) -> int:
    """Exact solvers: the two-player optimal policy, or one turn's expected score."""
    parser = make_parser("solve zilch", "Exact Zilch solvers.")
    parser.add_argument("game")
    _add_rule_arguments(parser)
    parser.add_argument(
        "--players", type=int, default=2, help="two-player win-probability solve (only 2)"
    )
    parser.add_argument("--target", type=int, default=None, help="change the target score")
    parser.add_argument("--turn", action="store_true", help="one turn's expected score instead")
    parser.add_argument("--dice", type=int, default=6, help="with --turn: dice of the first roll")
    parser.add_argument(
        "--cache", type=Path, default=None, help="cache file (default: in the cache dir)"
    )
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write a cache")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = get_rules("zilch")
    options = _options(rules, args)
    if args.turn:
        return _solve_turn(options, args.dice, args.json)
    if args.players != 2:
        raise ZanzibarError(
            "the win-probability solver handles two players; use --turn for any number"
        )
    return _solve_two(options, args)


def _solve_two(options: Mapping[str, Any], args: argparse.Namespace) -> int:
    from zanzibar.games.zilch.solver import SolverRules, cache_path, load_or_solve

    rules = SolverRules.from_options(options)
    path = args.cache or cache_path(rules)
    started = time.perf_counter()

    def progress(fraction: float) -> None:
        sys.stderr.write(
            f"\rsolving: {100 * fraction:5.1f} % ({time.perf_counter() - started:.1f} s)"
        )
        if fraction >= 1:
            sys.stderr.write("\n")
        sys.stderr.flush()

    solution, loaded = load_or_solve(
        rules, path, progress=None if args.json else progress, use_cache=not args.no_cache
    )
    result = {
        "preset": SCHEMA.matching_preset(options),
        "target": options["target"],
        "first_player_win": solution.first_player_win,
        "iterations": solution.iterations,
        "residual": solution.residual,
        "solve_seconds": solution.seconds,
        "wall_seconds": time.perf_counter() - started,
        "loaded_from_cache": loaded,
        "cache": None if args.no_cache else str(path),
        "tie_break_first_player_win": solution.tie_break_first,
        "states": int(solution.W.size),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"first player wins {100 * solution.first_player_win:.3f} % under optimal play of both")
    print(
        f"  {solution.W.size} score pairs, {solution.iterations} block evaluations, residual {solution.residual:.1e}"
    )
    how = "loaded from the cache in" if loaded else "solved in"
    print(f"  {how} {result['wall_seconds']:.2f} s (solve took {solution.seconds:.2f} s)")
    if result["cache"]:
        print(f"  cache: {result['cache']}")
    return 0


def _solve_turn(options: Mapping[str, Any], dice: int, as_json: bool) -> int:
    from zanzibar.games.zilch.turn_dp import build_model, expected_turn, scoring_unit

    if not 1 <= dice <= 6:
        raise ZanzibarError("--dice must be between 1 and 6")
    table = scoring_table(options)
    unit = scoring_unit(table, options["entry"], options["minimum"])
    model = build_model(table, unit, options["hot_dice_compulsory"])
    rows = {}
    for label, threshold in (
        ("no threshold", 0),
        ("entered", options["minimum"]),
        ("not entered", options["entry"]),
    ):
        turn = expected_turn(model, threshold)
        rows[label] = {"threshold": threshold, "expected": float(turn.R[0, dice - 1, 0])}
    zilch = {n: Fraction(zilch_ways(table, n), 6**n) for n in range(1, 7)}
    if as_json:
        print(
            json.dumps(
                {
                    "dice": dice,
                    "expected_score": rows,
                    "zilch": {
                        str(n): {"ways": zilch_ways(table, n), "of": 6**n, "probability": float(p)}
                        for n, p in zilch.items()
                    },
                },
                indent=2,
            )
        )
        return 0
    print(
        f"expected banked score of one turn started with {dice} dice (max-expected-score policy):"
    )
    for label, row in rows.items():
        print(f"  {label} (bank from {row['threshold']}): {row['expected']:.4f}")
    print("probability that one roll scores nothing (a zilch):")
    for n in range(1, 7):
        print(f"  {n} dice: {zilch_ways(table, n)}/{6**n} = {float(zilch[n]):.4f}")
    return 0
