"""``zanzibar sim|solve zilch``: all-bot simulation and exact solvers.

Terminal play is :mod:`zanzibar.cli.play` with the plugin :mod:`zanzibar.cli.games.zilch`.

* ``zanzibar sim zilch --games N --players K [--bots L ...] [--seed S] [--json]``:
  all-bot games, a progress bar on a terminal's stderr, win rates per seat and mean turns.
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
from typing import Any

from zanzibar.cli.main import make_parser
from zanzibar.cli.progress import add_progress_argument
from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.match import Match
from zanzibar.games import get_rules
from zanzibar.games.zilch.bots import LEVELS, make_bot
from zanzibar.games.zilch.options import SCHEMA, scoring_table
from zanzibar.games.zilch.scoring import zilch_ways

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


# -- sim -------------------------------------------------------------------------------------


def _progress(done: int, total: int, started: float) -> None:
    from zanzibar.cli.progress import progress_bar

    progress_bar(done, total, started)


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
    add_progress_argument(parser)
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
    result = simulate(options, seat_levels, args.games, args.seed, progress=not args.no_progress)
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
        if not sys.stderr.isatty():
            return  # progress on a terminal only, never carriage returns into a pipe
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
