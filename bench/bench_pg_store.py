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
best round of each side. Every row it writes is a new guest user with an id far
above the salon's (``--base``), so run it on a scratch database.

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


async def measure(url: str, base: int) -> dict[str, float]:
    """Milliseconds of this process's CPU per operation of each kind."""
    from sqlalchemy import insert, select, text

    from zanzibar.cluster.pg_ids import ids_for
    from zanzibar.salon import models as m
    from zanzibar.salon.persistence import Store
    from zanzibar.salon.tablestore import FENCE

    store = Store(url)
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

    async def change() -> None:
        v = version[0]
        seats = [{"user": base + 1, "name": "bench", "bot": None, "score": v}]
        fence = {"seats": seats, "version": v + 1, "fence_id": base}
        fence |= {"fence_epoch": 1, "fence_version": v}
        item = {"kind": "rolled", "dice": [4, 2, 1], "by": "bench"}
        items = [
            {"table_id": base, "seq": 2 * v + k, "channel": "game", "item": item, "created": 2.0}
            for k in (0, 1)
        ]
        await store.write([(FENCE, fence), (insert(m.history), items)])
        version[0] = v + 1

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
    try:
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
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(asyncio.run(measure(args.db, args.base))))
        return 0
    old = reference.extract(args.reference) if args.reference != "none" else None
    sides = [("this tree", reference.current_source())]
    if old is not None:
        sides.insert(0, (args.reference, old))
    best: dict[str, dict[str, float]] = {}
    try:
        for round_no in range(args.rounds):
            for index, (label, source) in enumerate(sides):
                base = args.base + (round_no * len(sides) + index) * 100_000
                got = reference.run_child(
                    source, Path(__file__), ["--db", args.db, "--base", str(base)]
                )
                print(
                    f"round {round_no + 1} {label:10s} "
                    + "  ".join(f"{kind} {got[kind]:.3f}" for kind in KINDS)
                )
                mine = best.setdefault(label, dict(got))
                for kind in KINDS:
                    mine[kind] = min(mine[kind], got[kind])
    finally:
        if old is not None:
            reference.discard(old)
    print("\nms of the process's CPU per operation (best round of each side)")
    print(f"{'':12s}" + "".join(f"{kind:>12s}" for kind in KINDS))
    for label, figures in best.items():
        print(f"{label:12s}" + "".join(f"{figures[kind]:12.3f}" for kind in KINDS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
