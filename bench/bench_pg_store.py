"""The storage path of a node on PostgreSQL: CPU per read, per id, per commit, per group commit.

What a cluster node pays the database for each player action, measured apart
from the rest of the action: ``Store.read`` of one row, ``PgIds.next``, a
one-insert ``Store.write`` (one commit), eight concurrent one-insert writes
(one group commit), and a table's change as a move stores it when it commits
alone (its fenced UPDATE and two history items: "change"), with the CPU the
PostgreSQL server's backends spent on it beside ("change pg": read from
``/proc``, so only for a server on this machine; nan otherwise). Each side runs in a child process against the same running
PostgreSQL (``--db``, e.g. the one ``scripts/cluster up 1`` starts), the
reference being the package at ``--reference`` (``bench/reference.py``),
alternating round by round; CPU seconds of the child (``time.process_time``),
best round of each side. ``--stream TABLES,RATE,SECONDS`` measures instead a steady
stream of changes of many tables, as a node's load makes them: CPU of the node and of
the server per change, commits per change and the wait from write to commit
(``--spacing``: the writer's commit spacing, salon/pg_writer.py). ``--log`` adds a
game-log entry to every change (as a move stores one). ``--count N --group B`` makes N
changes, B tables' at a time (each group one commit: the same commits per change on both
sides, whatever the machine's load), and gives the CPU of the process and of the server
per change; with ``--worker`` it does nothing else, for cachegrind
(``bench/bench_pg_instructions.py`` counts the node's instructions per change that way).
Every row it writes is a new guest user with an id far above the salon's (``--base``), so
run it on a scratch database.

    .venv/bin/python bench/bench_pg_store.py --db postgresql+asyncpg://zanzibar@127.0.0.1:55432/zanzibar
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference

#: The commit before the PostgreSQL path was cut (pre-ping, a transaction per read, no merge).
REFERENCE_COMMIT = "b7e2e3d"

KINDS = ("read", "id", "commit", "group of 8", "change", "change pg")
#: The stream (``--stream``): changes of many tables at a steady rate, as a node's load makes.
STREAM = ("stream", "stream pg", "commits/change", "wait p50", "wait p99")
#: ``--count N --group B`` without ``--worker``: N changes, B a commit (ms per change).
COUNT = ("count", "count pg", "commits/change")


async def measure(
    url: str,
    base: int,
    stream: str = "",
    spacing: float | None = None,
    log: bool = False,
    count: int = 0,
    per_commit: int = 1,
) -> dict[str, float]:
    """Milliseconds of this process's CPU per operation of each kind (``stream``:
    "TABLES,RATE,SECONDS": those tables' changes, each table's one after the other,
    arriving at RATE a second in all (Poisson), instead of the kinds; ``spacing``: the
    writer's commit spacing instead of its default, where it has one)."""
    from sqlalchemy import insert, select, text

    from zanzibar.cluster.pg_ids import ids_for
    from zanzibar.salon import models as m
    from zanzibar.salon.persistence import Store
    from zanzibar.salon.play import INSERT_GAME_LOG
    from zanzibar.salon.tablestore import FENCE, INSERT_HISTORY

    store = Store(url)
    if spacing is not None and hasattr(store, "commit_spacing"):
        store.commit_spacing = spacing
    await store.start()
    ids = await ids_for(store)
    made = [base]

    def user() -> dict[str, Any]:
        made[0] += 1
        name = f"bench{made[0]}"
        return {"id": made[0], "name": name, "name_key": name, "password_hash": None}

    def row() -> dict[str, Any]:
        return user() | {"lang": "en", "guest": True, "created": 1.0}

    async def group() -> None:
        await asyncio.gather(*(store.write([(insert(m.users), row())]) for _ in range(8)))

    table = {"id": base, "game": "421", "preset": None, "options": {}, "capacity": 3}
    table |= {"private": False, "invite": None, "host_id": base + 1, "state": "playing"}
    table |= {"hold": False, "clock": None, "game_id": None, "seats": [], "banned": []}
    table |= {"created": 1.0, "closed": None, "epoch": 1, "version": 1}
    await store.write([(insert(m.users), row())])
    await store.write([(insert(m.tables), table)])
    version = [1]
    logged: set[int] = set()

    async def game_of(table_id: int) -> None:
        """The game whose log the table's changes add to (``--log``)."""
        game = {"id": table_id, "table_id": table_id, "game": "421", "options": {}}
        game |= {"seats": 3, "seed": 421, "outcome": None, "status": "running"}
        await store.write([(insert(m.games), game | {"started": 1.0, "finished": None})])
        logged.add(table_id)

    async def change(table_id: int = base) -> None:
        v = version[0] if table_id == base else versions[table_id]
        seats = [{"user": base + 1, "name": "bench", "bot": None, "score": v}]
        fence = {"seats": seats, "version": v + 1, "fence_id": table_id}
        fence |= {"fence_epoch": 1, "fence_version": v}
        item = {"kind": "rolled", "dice": [4, 2, 1], "by": "bench"}
        items = [
            {"table_id": table_id, "seq": 2 * v + k, "channel": "game", "item": item}
            | {"created": 2.0}
            for k in (0, 1)
        ]
        # the salon's own statements, built once (as change_ops and play.py use them)
        ops: list[Any] = [(FENCE, fence), (INSERT_HISTORY, items)]
        if log:
            if table_id not in logged:
                await game_of(table_id)
            entry = {"seat": v % 3, "action": {"kind": "roll", "keep": [4, 2]}, "t": 2.5}
            ops.append((INSERT_GAME_LOG, [{"game_id": table_id, "idx": v, "entry": entry}]))
        await store.write(ops)
        if table_id == base:
            version[0] = v + 1
        else:
            versions[table_id] = v + 1

    versions: dict[int, int] = {}

    one = select(m.users.c.id).where(m.users.c.id == base + 1)
    steps: dict[str, tuple[int, Callable[[], Awaitable[Any]]]] = {
        "commit": (200, lambda: store.write([(insert(m.users), row())])),
        "read": (300, lambda: store.read(one)),
        "id": (300, lambda: ids.next("private")),
        "group of 8": (40, group),
        "change": (600, change),
    }
    backends = text(
        "SELECT pid FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    out: dict[str, float] = {}
    if stream or count:
        steps = {}
    try:
        if count:
            out |= await _count(store, count, per_commit, table, change, versions, backends)
        if stream:
            out |= await _stream(store, stream, table, change, versions, backends)
        for kind, (count, step) in steps.items():
            await step()  # warm: statement caches, the pool
            pids = [r[0] for r in await store.read(backends)]
            server = _cpu_of(pids)
            started = time.process_time()
            for _ in range(count):
                await step()
            out[kind] = 1000 * (time.process_time() - started) / count
            if kind == "change":
                out["change pg"] = 1000 * (_cpu_of(pids) - server) / count
    finally:
        await store.stop()
    return out


async def _stream(
    store: Any,
    spec: str,
    table: dict[str, Any],
    change: Any,
    versions: dict[int, int],
    backends: Any,
) -> dict[str, float]:
    """Changes of many tables at a steady rate: CPU of this process and of the server per
    change, and commits per change (the group commit's gathering at that rate)."""
    import random

    from sqlalchemy import insert

    from zanzibar.salon import models as m

    count, rate, seconds = (float(x) for x in spec.split(","))
    ids = [int(table["id"]) + 1 + k for k in range(int(count))]
    await store.write([(insert(m.tables), [table | {"id": i} for i in ids])])
    versions.update(dict.fromkeys(ids, 1))
    rng = random.Random(421)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds

    waits: list[float] = []

    async def one_table(table_id: int) -> int:
        made = 0
        while True:
            await asyncio.sleep(rng.expovariate(rate / count))
            if loop.time() > deadline:
                return made
            sent = loop.time()
            await change(table_id)
            waits.append(loop.time() - sent)
            made += 1

    pids = [r[0] for r in await store.read(backends)]
    server, commits, started = _cpu_of(pids), store.commits, time.process_time()
    made = sum(await asyncio.gather(*(one_table(i) for i in ids)))
    return {
        "stream": 1000 * (time.process_time() - started) / made,
        "stream pg": 1000 * (_cpu_of(pids) - server) / made,
        "commits/change": (store.commits - commits) / made,
        # ms from a change's write to its commit (wall clock: follows the machine's load)
        "wait p50": 1000 * sorted(waits)[len(waits) // 2],
        "wait p99": 1000 * sorted(waits)[int(len(waits) * 0.99)],
    }


async def _count(
    store: Any,
    count: int,
    group: int,
    table: dict[str, Any],
    change: Any,
    versions: Any,
    backends: Any,
) -> dict[str, float]:
    """``count`` changes, ``group`` tables' at a time (one commit each group, the first
    group's changes warming the caches first): for counting instructions, and the CPU of
    this process and of the server per change at a set number of changes per commit."""
    from sqlalchemy import insert

    from zanzibar.salon import models as m

    ids = [int(table["id"]) + 1 + k for k in range(group)]
    await store.write([(insert(m.tables), [table | {"id": i} for i in ids])])
    versions.update(dict.fromkeys(ids, 1))
    await asyncio.gather(*(change(i) for i in ids))  # warm: plans, statements, the games
    pids = [r[0] for r in await store.read(backends)]
    commits, server, started = store.commits, _cpu_of(pids), time.process_time()
    for _ in range(count // group):
        await asyncio.gather(*(change(i) for i in ids))
    made = count // group * group
    return {
        "changes": made,
        "count": 1000 * (time.process_time() - started) / made,
        "count pg": 1000 * (_cpu_of(pids) - server) / made,
        "commits/change": (store.commits - commits) / made,
    }


def _cpu_of(pids: list[int]) -> float:
    """CPU seconds of these processes (nan if one cannot be read: not on this machine)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a scratch PostgreSQL (asyncpg URL)")
    parser.add_argument("--reference", default=REFERENCE_COMMIT)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--base", type=int, default=10_000_000)
    parser.add_argument(
        "--stream",
        default="",
        metavar="TABLES,RATE,SECONDS",
        help="instead: changes of TABLES tables, RATE a second in all, for SECONDS (a node's load)",
    )
    parser.add_argument(
        "--spacing", type=float, default=None, help="the writer's commit spacing (seconds)"
    )
    parser.add_argument("--log", action="store_true", help="a game-log entry in every change")
    parser.add_argument(
        "--count", type=int, default=0, help="instead: N changes, --group tables' a commit"
    )
    parser.add_argument("--group", type=int, default=1, help="tables changed per commit")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        got = measure(
            args.db, args.base, args.stream, args.spacing, args.log, args.count, args.group
        )
        print(json.dumps(asyncio.run(got)))
        return 0
    kinds = STREAM if args.stream else COUNT if args.count else KINDS
    old = reference.extract(args.reference) if args.reference != "none" else None
    sides = [("this tree", reference.current_source())]
    if old is not None:
        sides.insert(0, (args.reference, old))
    best: dict[str, dict[str, float]] = {}
    try:
        for round_no in range(args.rounds):
            for index, (label, source) in enumerate(sides):
                base = args.base + (round_no * len(sides) + index) * 100_000
                extra = ["--stream", args.stream] if args.stream else []
                if args.spacing is not None:
                    extra += ["--spacing", str(args.spacing)]
                if args.log:
                    extra.append("--log")
                if args.count:
                    extra += ["--count", str(args.count), "--group", str(args.group)]
                got = reference.run_child(
                    source, Path(__file__), ["--db", args.db, "--base", str(base), *extra]
                )
                print(
                    f"round {round_no + 1} {label:10s} "
                    + "  ".join(f"{kind} {got[kind]:.3f}" for kind in kinds)
                )
                mine = best.setdefault(label, dict(got))
                for kind in kinds:
                    mine[kind] = min(mine[kind], got[kind])
    finally:
        if old is not None:
            reference.discard(old)
    print("\nms of the process's CPU per operation (best round of each side)")
    print(f"{'':12s}" + "".join(f"{kind:>15s}" for kind in kinds))
    for label, figures in best.items():
        print(f"{label:12s}" + "".join(f"{figures[kind]:15.3f}" for kind in kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
