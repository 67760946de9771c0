"""Benchmark: all-bot four-player 421 games per second on one core.

Measures the default (expert) bot playing whole games through the engine's
``Match`` (every action and every throw logged, so each game could be replayed),
and beside it, in the same run and on the same machine, the references:

* ``simple`` bot through ``Match`` (a rule of thumb, no probability tables);
* ``random`` play through ``Match`` (the cost of the rules and the log alone, per step);
* ``expert`` playing the very same games without the ``Match`` log
  (:func:`~zanzibar.games.dice421.quick.play_quick`, what ``zanzibar sim`` uses).

First, "before and after" (issue 15): the expert through ``Match`` with the code
of main before issue 15's speed-ups (commit ``reference.BEFORE_ISSUE_15``, taken
from git at run time) and with the current code, each in its own child process,
alternating for ``--rounds`` rounds; each side's best round is printed in games
per CPU second (``time.process_time`` of the child: the machine is shared, and
CPU time is what other processes disturb least), with the ratio.

Run: ``.venv/bin/python bench/bench_421.py [--games N] [--rounds R] [--preset salon|bar] [--json]``.
The goal (issues 2 and 15) is at least 1,000 games per second with the default bot
through ``Match``, on one core of a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import reference
from zanzibar.engine.match import Match
from zanzibar.games.dice421.bots import turn_model
from zanzibar.games.dice421.options import Config
from zanzibar.games.dice421.quick import play_quick
from zanzibar.games.dice421.rules import RULES

PLAYERS = 4


def _match_games(level: str, options: dict[str, Any], games: int, seed: int) -> tuple[float, int]:
    bots = {seat: RULES.make_bot(level, options, seed=seat) for seat in range(PLAYERS)}
    steps = 0
    started = time.perf_counter()
    for game in range(games):
        match = Match(RULES, PLAYERS, options, seed=seed + game)
        match.play_bots(bots)
        steps += len(match.log)
    return time.perf_counter() - started, steps


def _quick_games(level: str, options: dict[str, Any], games: int, seed: int) -> tuple[float, int]:
    """The same games without the Match's log (``play_quick``: same dice, same final states)."""
    bots = {seat: RULES.make_bot(level, options, seed=seat) for seat in range(PLAYERS)}
    steps = 0
    started = time.perf_counter()
    for game in range(games):
        _, actions, throws = play_quick(PLAYERS, options, bots, seed + game)
        steps += actions + throws
    return time.perf_counter() - started, steps


def _worker(args: argparse.Namespace) -> None:
    """Child process: warm up, then time the expert through Match; print one JSON line."""
    options = RULES.options.resolve(args.preset)
    _match_games("expert", options, args.warmup, seed=10**6)
    started = time.process_time()
    _, steps = _match_games("expert", options, args.games, 0)
    cpu = time.process_time() - started
    print(json.dumps({"cpu_seconds": cpu, "games": args.games, "steps": steps}))


def _before_after(args: argparse.Namespace) -> dict[str, Any] | None:
    """Old code and new code, alternating rounds; each side's best games per CPU second."""
    old_source = reference.extract()
    if old_source is None:
        return None
    script = Path(__file__).resolve()
    child_args = ["--games", str(args.games), "--warmup", str(args.warmup)]
    child_args += ["--preset", args.preset]
    best = {"before": 0.0, "after": 0.0}
    steps = {"before": 0, "after": 0}
    try:
        for _ in range(args.rounds):
            for side, source in (("before", old_source), ("after", reference.current_source())):
                answer = reference.run_child(source, script, child_args)
                best[side] = max(best[side], answer["games"] / answer["cpu_seconds"])
                steps[side] = answer["steps"]
    finally:
        reference.discard(old_source)
    return {
        "reference_commit": reference.BEFORE_ISSUE_15,
        "rounds": args.rounds,
        "before_games_per_cpu_second": best["before"],
        "after_games_per_cpu_second": best["after"],
        "ratio": best["after"] / best["before"],
        "same_games": steps["before"] == steps["after"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--warmup", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3, help="before/after rounds (0: skip)")
    parser.add_argument("--preset", default="salon")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args)
        return
    options = RULES.options.resolve(args.preset)
    compared = _before_after(args) if args.rounds > 0 else None

    warm_started = time.perf_counter()
    _match_games("expert", options, args.warmup, seed=10**6)
    warm_seconds = time.perf_counter() - warm_started
    plans = turn_model(Config.from_options(options)).cached_plans

    rows: list[tuple[str, Callable[[], tuple[float, int]], int]] = [
        ("expert (default), Match", lambda: _match_games("expert", options, args.games, 0), args.games),
        ("expert, same games unlogged", lambda: _quick_games("expert", options, args.games, 0), args.games),
        ("simple, Match", lambda: _match_games("simple", options, args.games, 0), args.games),
        ("random play, Match", lambda: _match_games("random", options, args.games // 3, 0), args.games // 3),
    ]  # fmt: skip
    results = []
    for name, run, games in rows:
        cpu_started = time.process_time()
        seconds, steps = run()
        cpu = time.process_time() - cpu_started
        results.append(
            {
                "bot": name,
                "games": games,
                "seconds": seconds,
                "cpu_seconds": cpu,
                "games_per_second": games / seconds,
                "games_per_cpu_second": games / cpu,
                "steps_per_game": steps / games,
                "microseconds_per_step": seconds / steps * 1e6,
            }
        )
    if args.json:
        report = {
            "preset": args.preset,
            "players": PLAYERS,
            "warmup_games": args.warmup,
            "warmup_seconds": warm_seconds,
            "cached_plans": plans,
            "results": results,
            "goal_games_per_second": 1000,
            "load_average": os.getloadavg(),
            "before_after": compared,
        }
        print(json.dumps(report, indent=2))
        return
    if compared is not None:
        print(
            f"expert through Match, games per CPU second (best of {compared['rounds']} "
            f"alternating rounds, {args.games} games after {args.warmup} of warm-up):"
        )
        print(
            f"  before (main at {compared['reference_commit']}): "
            f"{compared['before_games_per_cpu_second']:.0f}   now: "
            f"{compared['after_games_per_cpu_second']:.0f}   ratio {compared['ratio']:.2f}"
            + ("" if compared["same_games"] else "   (WARNING: the games differ)")
        )
    elif args.rounds > 0:
        print("before/after skipped: git cannot provide the reference commit here", file=sys.stderr)
    print(f"421, preset {args.preset}, {PLAYERS} players, one process (one core)")
    print(f"warm-up: {args.warmup} expert games in {warm_seconds:.2f} s, {plans} plans cached")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} cores (a busy machine slows every row)")
    print(
        f"{'bot':32} {'games':>6} {'games/s':>8} {'per CPU s':>9} {'steps/game':>10} {'us/step':>8}"
    )
    for row in results:
        print(
            f"{row['bot']:32} {row['games']:>6} {row['games_per_second']:>8.0f} "
            f"{row['games_per_cpu_second']:>9.0f} {row['steps_per_game']:>10.1f} "
            f"{row['microseconds_per_step']:>8.2f}"
        )
    for label, row in (("through Match", results[0]), ("unlogged", results[1])):
        wall, cpu = row["games_per_second"], row["games_per_cpu_second"]
        verdict = "meets it" if max(wall, cpu) >= 1000 else f"misses by {1000 - max(wall, cpu):.0f}"
        print(
            f"goal 1000 games/s with the default bot, {label}: "
            f"{wall:.0f} wall, {cpu:.0f} per CPU second: {verdict}"
        )


if __name__ == "__main__":
    main()
