"""``zanzibar sim|solve 421``: the simulator and the solver.

Terminal play is :mod:`zanzibar.cli.play` with the plugin
:mod:`zanzibar.cli.games.dice421`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from zanzibar.cli.main import make_parser
from zanzibar.cli.progress import add_progress_argument
from zanzibar.engine.errors import IllegalActionError
from zanzibar.games.dice421.messages import dice_text
from zanzibar.games.dice421.quick import play_quick
from zanzibar.games.dice421.rules import RULES


def _resolve_options(preset: str | None, assignments: list[str]) -> dict[str, Any]:
    overrides = RULES.options.parse_assignments(assignments)
    resolved: dict[str, Any] = RULES.options.resolve(preset, overrides)
    return resolved


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
    from zanzibar.cli.progress import progress_bar

    progress_bar(done, total, started)


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
    add_progress_argument(parser)
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
