"""In-process benchmark of the salon service alone (no sockets): CPU per action and latency.

    .venv/bin/python bench/bench_salon.py --players 1000 --tables 300 --duration 15

Fake connections record when each message reaches ``send``. Each table seats
its players and one bot; players answer their turns after a random think time
with the action a bot of the game would choose. Printed, for the measured
window: actions per second, the latency from ``handle`` to the first event of
the action reaching every seat (p50/p90/p99/max), and the same-run references:
the engine alone applying the same number of actions (``Match.act``) and a bare
one-row SQLite commit through the same async engine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text

from zanzibar.engine.match import Match
from zanzibar.games import get_rules
from zanzibar.salon import Salon


def percentiles(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)

    def at(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return f"{at(0.5):8.2f} {at(0.9):8.2f} {at(0.99):8.2f} {ordered[-1]:8.2f} {len(ordered):7d}"


class Player:
    def __init__(self, name: str) -> None:
        self.name = name
        self.conn: Any = None
        self.got_event = asyncio.Event()
        self.table = 0

    async def send(self, message: dict[str, Any]) -> None:
        if message.get("type") == "game.event":
            self.got_event.set()


async def main(args: argparse.Namespace) -> None:
    rules = get_rules(args.game)
    workdir = Path(tempfile.mkdtemp(prefix="zanzibar-bench-"))
    salon = Salon(
        f"sqlite+aiosqlite:///{workdir / 'bench.sqlite3'}",
        bot_delay=args.bot_delay,
        round_pause=0,
        takeover_delay=60,
        lobby_delay=0.5,
    )
    await salon.start()
    players = [Player(f"P{i}") for i in range(args.players)]
    for player in players:
        session = await salon.guest(player.name)
        player.conn = await salon.connect(player.send)
        await salon.handle(player.conn, {"v": 1, "type": "hello", "token": session.token})
    per_table = max(1, args.players // args.tables)
    _low, high = rules.seat_range(rules.options.resolve())
    per_table = min(per_table, high - 1)
    tables: list[tuple[int, list[Player]]] = []
    index = 0
    for _ in range(args.tables):
        group = players[index : index + per_table]
        index += per_table
        if not group:
            break
        host = group[0]
        await salon.handle(
            host.conn, {"v": 1, "type": "table.create", "game": args.game, "seats": len(group) + 1}
        )
        table_id = max(salon.tables)
        for p in group[1:]:
            await salon.handle(p.conn, {"v": 1, "type": "table.join", "table": table_id})
        await salon.handle(host.conn, {"v": 1, "type": "table.add_bot", "table": table_id})
        await salon.handle(host.conn, {"v": 1, "type": "table.start", "table": table_id})
        for p in group:
            p.table = table_id
        tables.append((table_id, group))
    latencies: list[float] = []
    actions = [0]
    measuring = [False]
    brains: dict[int, Any] = {}
    stop_at = time.monotonic() + args.warmup + args.duration

    async def drive(table_id: int, group: list[Player]) -> None:
        rng = random.Random(table_id)
        while time.monotonic() < stop_at:
            await asyncio.sleep(rng.expovariate(1 / args.think))
            table = salon.tables.get(table_id)
            if table is None:
                return
            match = table.match
            if match is None:
                continue
            if match.is_over:
                await salon.handle(
                    group[0].conn, {"v": 1, "type": "table.start", "table": table_id}
                )
                continue
            seat = match.to_act
            if seat is None or table.state != "playing" or table.bot_level(seat) is not None:
                continue
            player = group[seat] if seat < len(group) else None
            if player is None:
                continue
            brain = brains.setdefault(
                table_id * 10 + seat, rules.make_bot(rules.bot_levels()[0], table.options, seat)
            )
            action = rules.action_to_json(brain.choose(match.state))
            for p in group:
                p.got_event.clear()
            started = time.perf_counter()
            await salon.handle(
                player.conn,
                {
                    "v": 1,
                    "type": "game.action",
                    "table": table_id,
                    "action": action,
                    "seq": len(match.log),
                },
            )
            try:
                await asyncio.wait_for(asyncio.gather(*(p.got_event.wait() for p in group)), 5)
            except TimeoutError:
                continue
            if measuring[0]:
                latencies.append((time.perf_counter() - started) * 1000)
                actions[0] += 1

    cpu0 = time.process_time()
    drivers = [asyncio.create_task(drive(tid, group)) for tid, group in tables]
    await asyncio.sleep(args.warmup)
    measuring[0] = True
    cpu_start, wall_start, commits_start = (
        time.process_time(),
        time.monotonic(),
        salon.store.commits,
    )
    busy_start = salon.store.busy_seconds
    await asyncio.gather(*drivers)
    wall = time.monotonic() - wall_start
    cpu = time.process_time() - cpu_start
    commits = salon.store.commits - commits_start
    writing = salon.store.busy_seconds - busy_start
    del cpu0

    # references, same run: the engine alone, and a bare commit
    match = Match(rules, 2, rules.options.resolve(), seed=1)
    bots = {s: rules.make_bot(rules.bot_levels()[0], match.options, s) for s in range(2)}
    engine_start = time.perf_counter()
    steps = 0
    while steps < max(actions[0], 1):
        if match.is_over:
            match = Match(rules, 2, rules.options.resolve(), seed=steps)
        seat = match.to_act
        assert seat is not None
        match.act(seat, bots[seat].choose(match.state))
        steps += 1
    engine_ms = (time.perf_counter() - engine_start) * 1000 / steps
    commit_times = []
    async with salon.store.engine.connect() as conn:
        await conn.execute(text("CREATE TABLE IF NOT EXISTS bench_ref (n INTEGER)"))
        await conn.commit()
        for n in range(200):
            t0 = time.perf_counter()
            await conn.execute(text("INSERT INTO bench_ref VALUES (:n)"), {"n": n})
            await conn.commit()
            commit_times.append((time.perf_counter() - t0) * 1000)
    await salon.stop()

    print(
        f"game {args.game}: {len(players)} players at {len(tables)} tables (+1 bot each), think {args.think}s, bot delay {args.bot_delay}s"
    )
    print(
        f"measured {wall:.1f} s: {actions[0]} player actions ({actions[0] / wall:.0f}/s), {commits} commits, salon CPU {cpu:.1f} s ({100 * cpu / wall:.0f}% of one core)"
    )
    print(
        f"the writer was busy {writing:.1f} s of {wall:.1f} s ({1000 * writing / max(commits, 1):.2f} ms per commit)"
    )
    print(f"{'':40} {'p50':>8} {'p90':>8} {'p99':>8} {'max':>8} {'n':>7}")
    print(f"{'handle -> event at every seat (ms)':40} {percentiles(latencies)}")
    print(f"{'reference: one-row commit (ms)':40} {percentiles(commit_times)}")
    print(f"reference: engine alone, Match.act with a bot's choice: {engine_ms:.3f} ms per action")
    if actions[0]:
        print(
            f"salon CPU per player action (incl. bots' moves): {1000 * cpu / actions[0]:.2f} ms; mean latency {statistics.mean(latencies):.2f} ms"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="zilch")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--bot-delay", type=float, default=0.5)
    asyncio.run(main(parser.parse_args()))
