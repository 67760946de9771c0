"""Benchmark: the full two-player optimal solve of Zilch 5000 (seed 004's rules).

Prints, measured in the same run on the same machine (wall clock and CPU time
of this process, so a busy machine shows as wall >> CPU):

* reference 1: the exact max-expected-score DP of one turn (three thresholds);
* reference 2: the same two-player solve with the target lowered to 2500;
* the full solve: target 5000, first player's winning probability, block
  evaluations ("iterations"), equivalent full sweeps, final residual.

``--busche`` also solves the rules of Busche & Neller's Farkle (1s, 5s and
triples only, first to bank 10,000 wins) and prints the first player's
winning chance beside their published 53.7 % (several minutes).

First, "before and after" (issue 15): the full solve with the code of main
before issue 15's speed-up (commit ``reference.BEFORE_ISSUE_15``, taken from git
at run time) and with the current code, each in its own child process,
alternating for ``--rounds`` rounds; each side's best round is printed in CPU
seconds (``time.process_time`` of the child: the machine is shared, and CPU
time is what other processes disturb least), with the ratio and both results.

Run: ``.venv/bin/python bench/bench_zilch_solve.py [--rounds R] [--busche] [--json]``.
The goals: under 60 seconds on two cores (issue 3), under 10 s of CPU with the
result unchanged to 12 digits (issue 15).
Nothing is read from or written to the solver cache.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import reference
from zanzibar.games.zilch.options import SCHEMA, scoring_table
from zanzibar.games.zilch.solver import SolverRules, solve
from zanzibar.games.zilch.turn_dp import build_model, expected_turn, scoring_unit

BUSCHE_PUBLISHED = 0.537


def _timed(work: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _turn_dp() -> float:
    options = SCHEMA.resolve()
    table = scoring_table(options)
    model = build_model(table, scoring_unit(table), False)
    return max(float(expected_turn(model, threshold).start[0]) for threshold in (0, 350, 500))


def _two_player(preset: str | None, target: int | None, cap: int = 3000) -> Any:
    overrides = {"target": target} if target else {}
    return solve(SolverRules.from_options(SCHEMA.resolve(preset, overrides), cap_points=cap))


def _worker() -> None:
    """Child process: the full solve; one JSON line with its CPU seconds and result."""
    solution, _, cpu = _timed(lambda: _two_player(None, None))
    print(json.dumps({"cpu_seconds": cpu, "first_player_win": solution.first_player_win}))


def _before_after(rounds: int) -> dict[str, Any] | None:
    """Old code and new code, alternating rounds; each side's least CPU time."""
    old_source = reference.extract()
    if old_source is None:
        return None
    script = Path(__file__).resolve()
    best = {"before": float("inf"), "after": float("inf")}
    value = {"before": 0.0, "after": 0.0}
    try:
        for _ in range(rounds):
            for side, source in (("before", old_source), ("after", reference.current_source())):
                answer = reference.run_child(source, script, [])
                best[side] = min(best[side], answer["cpu_seconds"])
                value[side] = answer["first_player_win"]
    finally:
        reference.discard(old_source)
    return {
        "reference_commit": reference.BEFORE_ISSUE_15,
        "rounds": rounds,
        "before_cpu_seconds": best["before"],
        "after_cpu_seconds": best["after"],
        "ratio": best["before"] / best["after"],
        "before_first_player_win": value["before"],
        "after_first_player_win": value["after"],
        "difference": abs(value["before"] - value["after"]),
    }


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busche", action="store_true", help="also solve Busche & Neller's Farkle")
    parser.add_argument("--rounds", type=int, default=2, help="before/after rounds (0: skip)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker()
        return
    compared = _before_after(args.rounds) if args.rounds > 0 else None
    if compared is not None and not args.json:
        print(
            f"full solve (seed 004), CPU seconds, best of {compared['rounds']} alternating rounds:"
        )
        print(
            f"  before (main at {compared['reference_commit']}): "
            f"{compared['before_cpu_seconds']:.2f} s   now: {compared['after_cpu_seconds']:.2f} s"
            f"   ratio {compared['ratio']:.2f}"
        )
        print(
            f"  first player wins: before {compared['before_first_player_win']!r}, "
            f"now {compared['after_first_player_win']!r} "
            f"(difference {compared['difference']:.1e})"
        )
    elif args.rounds > 0 and compared is None:
        print("before/after skipped: git cannot provide the reference commit here", file=sys.stderr)
    rows: list[dict[str, Any]] = []

    value, wall, cpu = _timed(_turn_dp)
    rows.append(
        {
            "name": "turn DP (expected score, 3 thresholds)",
            "wall": wall,
            "cpu": cpu,
            "detail": f"best expected turn {value:.2f}",
        }
    )
    for label, target in (
        ("two-player solve, target 2500", 2500),
        ("two-player solve, target 5000 (seed 004)", None),
    ):
        solution, wall, cpu = _timed(lambda target=target: _two_player(None, target))
        rows.append(
            {
                "name": label,
                "wall": wall,
                "cpu": cpu,
                "first_player_win": solution.first_player_win,
                "iterations": solution.iterations,
                "sweeps": solution.sweeps,
                "residual": solution.residual,
                "pairs": int(solution.W.size),
            }
        )
    if args.busche:
        solution, wall, cpu = _timed(lambda: _two_player("farkle_busche", None, cap=0))
        rows.append(
            {
                "name": "Busche & Neller Farkle, 10,000",
                "wall": wall,
                "cpu": cpu,
                "first_player_win": solution.first_player_win,
                "published": BUSCHE_PUBLISHED,
                "iterations": solution.iterations,
                "sweeps": solution.sweeps,
                "residual": solution.residual,
                "pairs": int(solution.W.size),
            }
        )
    if args.json:
        print(json.dumps({"before_after": compared, "rows": rows}, indent=2))
        return
    for row in rows:
        line = f"{row['name']:<44} wall {row['wall']:7.2f} s  cpu {row['cpu']:7.2f} s"
        if "first_player_win" in row:
            line += (
                f"  P1 wins {100 * row['first_player_win']:.3f} %  {row['pairs']} pairs"
                f"  {row['iterations']} block evals ({row['sweeps']:.1f} sweeps)"
                f"  residual {row['residual']:.1e}"
            )
            if "published" in row:
                line += f"  (published {100 * row['published']:.1f} %)"
        else:
            line += f"  {row['detail']}"
        print(line)


if __name__ == "__main__":
    main()
