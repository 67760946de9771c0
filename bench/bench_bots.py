"""Event-loop latency while chess bots think: worker threads vs worker processes.

The salon runs every table on one event loop; a bot that thinks in a thread
still holds the GIL most of the time, so the loop (every other table's
sockets, clocks, dice) waits behind the search. ``salon/bots.py`` therefore
sends slow levels to worker processes. This script measures what that buys:
a ticker task sleeps 5 ms again and again and records how late each wake-up
is (the loop's lag), while two Zanzibar-S bots of ``--level`` (two tables)
choose their moves at the same time, once in threads and once in processes.
The reference is the same ticker on an idle loop, measured in the same run.

Printed per mode: wall seconds for both moves, and the loop's lag p50 / p99 /
max in ms. The machine's other load shows in the idle reference.

Usage: ``.venv/bin/python bench/bench_bots.py [--level hard] [--moves 2]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from types import SimpleNamespace
from typing import Any

from zanzibar.engine.match import Match
from zanzibar.games import get_rules
from zanzibar.salon.bots import Thinker, bot_pool, remember_recipe, shutdown_bot_pool

TICK = 0.005


def positions(count: int) -> list[Match[Any, Any]]:
    """``count`` Zanzibar-S games a few quick moves in, each from its own seed."""
    rules = get_rules("zanzibar-s")
    games = []
    for seed in range(count):
        match = Match(rules, 2, None, seed=100 + seed)
        quick = {seat: rules.make_bot("casual", match.options, seat) for seat in (0, 1)}
        for _ in range(5):
            seat = match.to_act
            assert seat is not None
            match.act(seat, quick[seat].choose(match.state))
        games.append(match)
    return games


async def ticker(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(TICK)
        lags.append(max(0.0, time.perf_counter() - before - TICK))


def summary(lags: list[float]) -> str:
    if not lags:
        return "no ticks"
    ordered = sorted(lags)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"lag p50 {statistics.median(ordered) * 1000:6.1f} ms  p99 {p99 * 1000:6.1f} ms  "
        f"max {ordered[-1] * 1000:6.1f} ms  ({len(ordered)} ticks)"
    )


async def idle(seconds: float) -> list[float]:
    lags: list[float] = []
    stop = asyncio.Event()
    task = asyncio.create_task(ticker(lags, stop))
    await asyncio.sleep(seconds)
    stop.set()
    await task
    return lags


async def think(
    mode: str, level: str, games: list[Match[Any, Any]], moves: int
) -> tuple[float, list[float]]:
    rules = get_rules("zanzibar-s")
    thinker = Thinker(processes=mode == "process")
    thinker.average[("zanzibar-s", level)] = 1.0  # known slow: no inline first move
    bots = []
    for index, match in enumerate(games):
        bot = rules.make_bot(level, match.options, index)
        remember_recipe(bot, SimpleNamespace(rules=rules, options=match.options), level, index)  # type: ignore[arg-type]
        bots.append(bot)

    async def play(index: int) -> None:
        for _ in range(moves):
            state = games[index].state
            await thinker.choose("zanzibar-s", level, bots[index], state)

    lags: list[float] = []
    stop = asyncio.Event()
    tick = asyncio.create_task(ticker(lags, stop))
    started = time.perf_counter()
    await asyncio.gather(*(play(i) for i in range(len(games))))
    wall = time.perf_counter() - started
    stop.set()
    await tick
    assert thinker.placed[mode] == moves * len(games), thinker.placed
    return wall, lags


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="hard")
    parser.add_argument("--moves", type=int, default=1, help="moves per bot")
    parser.add_argument("--tables", type=int, default=2)
    args = parser.parse_args()
    games = positions(args.tables)
    # start the workers before measuring: a salon's pool is warm after its first slow move
    await asyncio.get_running_loop().run_in_executor(bot_pool(), os.getpid)
    print(
        f"{os.cpu_count()} cores; {args.tables} Zanzibar-S '{args.level}' bots, {args.moves} move(s) each"
    )
    reference = await idle(2.0)
    print(f"  idle loop (reference)           {summary(reference)}")
    for mode in ("thread", "process"):
        wall, lags = await think(mode, args.level, games, args.moves)
        print(f"  bots in {mode:8} {wall:6.2f} s wall    {summary(lags)}")
    shutdown_bot_pool()


if __name__ == "__main__":
    asyncio.run(main())
