"""Benchmark: all-bot Zilch games per second, each bot level side by side.

Two players, seed 004's rules (target 5000), whole games through the engine's
``Match`` (every action and every roll logged). Measured in the same run:

* ``simple`` against ``simple``: the reference (rules, log and a rule of thumb);
* ``expected`` against ``expected``: exact expected-score turn plans (cached);
* ``optimal`` against ``optimal``: the two-player solution (loaded from the
  cache, or solved first: that time is reported apart, not in games per second);
* ``expected`` three players: the level used for more than two players.

Also the win rate of the first-named level in the mixed pairings
(each level takes the first seat in half the games).

Games per second are given per wall-clock second and per CPU second of this
process (the machine may be shared). Run:
``.venv/bin/python bench/bench_zilch_sim.py [--games N] [--target T] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from zanzibar.cli.zilch import simulate
from zanzibar.games.zilch.bots import solution_for
from zanzibar.games.zilch.options import SCHEMA
from zanzibar.games.zilch.solver import SolverRules


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--target", type=int, default=5000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    options = SCHEMA.resolve(None, {"target": args.target})

    started = time.perf_counter()
    solution_for(SolverRules.from_options(options))
    prepare = time.perf_counter() - started

    rows: list[dict[str, Any]] = []
    for levels in (
        ["simple", "simple"],
        ["expected", "expected"],
        ["optimal", "optimal"],
        ["expected", "expected", "expected"],
    ):
        simulate(options, levels, 5, seed=10**6)  # warm the plan caches a little
        cpu = time.process_time()
        result = simulate(options, levels, args.games, seed=0)
        cpu = time.process_time() - cpu
        rows.append(
            {
                "bots": levels,
                "games_per_second": result["games_per_second"],
                "games_per_cpu_second": args.games / cpu,
                "first_seat_win": result["win_rates"][0],
                "mean_turns": result["mean_turns"],
            }
        )
    duels = []
    for one, two in (("expected", "simple"), ("optimal", "simple"), ("optimal", "expected")):
        first = simulate(options, [one, two], args.games, seed=1)
        second = simulate(options, [two, one], args.games, seed=10**5)
        duels.append(
            {
                "level": one,
                "against": two,
                "win_rate": (first["wins"][0] + second["wins"][1]) / (2 * args.games),
                "games": 2 * args.games,
            }
        )
    if args.json:
        print(
            json.dumps(
                {"target": args.target, "solution_seconds": prepare, "speed": rows, "duels": duels},
                indent=2,
            )
        )
        return
    print(f"target {args.target}; optimal policy ready in {prepare:.2f} s (cache or solve)")
    for row in rows:
        print(
            f"  {' vs '.join(row['bots']):<34} {row['games_per_second']:6.0f} games/s wall"
            f" {row['games_per_cpu_second']:6.0f} per CPU second"
            f"   first seat wins {100 * row['first_seat_win']:.1f} %   {row['mean_turns']:.1f} turns/game"
        )
    for duel in duels:
        print(
            f"  {duel['level']} against {duel['against']}: {100 * duel['win_rate']:.1f} % of {duel['games']} games"
        )


if __name__ == "__main__":
    main()
