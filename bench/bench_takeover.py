"""How long a killed node's tables stay unowned: ``kill -9`` of a real node, then wait.

Against a salon of several ``zanzibar serve --redis`` nodes (``scripts/cluster up 3``):
opens ``--tables`` tables, each with one bot and a turn clock, on node 1 (straight to
its port, not through the proxy), kills node 1 with SIGKILL (``scripts/cluster kill 1``),
and polls Redis until every table's lease names another node, then until every table's
game moved on (its stored version grew). Prints the times beside the reference: the
lease's ttl (what a takeover waited for before the reapers noticed a dead node by its
silent link; docs/cluster.md, "A node whose process is gone").

    scripts/cluster up 3
    set -a; eval "$(scripts/cluster env)"; set +a
    .venv/bin/python bench/bench_takeover.py --tables 20
    scripts/cluster start 1; scripts/cluster down
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from redis.asyncio import Redis
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from zanzibar.cluster.redis_leases import TTL_MS, parse
from zanzibar.salon import models as m

ROOT = Path(__file__).resolve().parent.parent


async def request(ws: Any, kind: str, **fields: Any) -> dict[str, Any]:
    """Send one message and return the reply carrying its id."""
    ident = f"{kind}-{time.monotonic_ns()}"
    await ws.send(json.dumps({"v": 1, "type": kind, "id": ident, **fields}))
    while True:
        message = json.loads(await ws.recv())
        if message.get("id") == ident:
            if message.get("type") == "error":
                raise RuntimeError(f"{kind}: {message}")
            return dict(message)


async def open_tables(base: str, count: int) -> tuple[list[Any], list[int]]:
    """``count`` tables with a bot and a 30 s clock, each hosted by its own guest."""
    sockets, tables = [], []
    async with httpx.AsyncClient(base_url=base) as http:
        for index in range(count):
            token = (await http.post("/api/guest", json={"name": f"Host{index}"})).json()["token"]
            ws = await websockets.connect(base.replace("http", "ws") + "/ws")
            await request(ws, "hello", token=token, lang="en")
            created = await request(ws, "table.create", game="421", seats=2)
            table = int(created["table"]["id"])
            await request(ws, "table.add_bot", table=table)
            await request(ws, "table.clock", table=table, seconds=30)
            await request(ws, "table.start", table=table)
            sockets.append(ws)
            tables.append(table)
    return sockets, tables


async def versions(db_url: str, tables: list[int]) -> dict[int, int]:
    engine = create_async_engine(db_url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                select(m.tables.c.id, m.tables.c.version).where(m.tables.c.id.in_(tables))
            )
            return {int(r.id): int(r.version) for r in rows}
    finally:
        await engine.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    node1 = os.environ["NODE1_URL"].rstrip("/")
    redis = Redis.from_url(os.environ["REDIS_URL"])
    db_url = os.environ["PG_URL"]
    sockets, tables = await open_tables(node1, args.tables)
    owners = {t: parse(t, await redis.get(f"zl:{t}")) for t in tables}
    assert all(o is not None and o.node == "n1" for o in owners.values()), owners
    await asyncio.sleep(1.0)
    before = await versions(db_url, tables)
    subprocess.run([str(ROOT / "scripts" / "cluster"), "kill", "1"], check=True)
    killed = time.monotonic()
    for ws in sockets:
        ws.transport.abort()
    taken: dict[int, float] = {}
    moved: dict[int, float] = {}
    while len(moved) < len(tables) and time.monotonic() - killed < args.timeout:
        for table in tables:
            if table not in taken:
                lease = parse(table, await redis.get(f"zl:{table}"))
                if lease is not None and lease.node != "n1":
                    taken[table] = time.monotonic() - killed
        now = await versions(db_url, tables)
        for table in taken:
            if table not in moved and now[table] > before[table]:
                moved[table] = time.monotonic() - killed
        await asyncio.sleep(0.1)
    owners_after = [parse(t, await redis.get(f"zl:{t}")) for t in tables]
    await redis.aclose()
    spread: dict[str, int] = {}
    for lease in owners_after:
        if lease is not None:
            spread[lease.node] = spread.get(lease.node, 0) + 1
    print(f"reference: lease ttl {TTL_MS / 1000:.1f} s (the wait when a lease has to lapse)")
    print(
        f"tables on the killed node: {len(tables)}; taken over: {len(taken)}; moved on: {len(moved)}"
    )
    if taken:
        print(
            f"owned again after: min {min(taken.values()):.2f} s, max {max(taken.values()):.2f} s"
        )
    if moved:
        print(
            f"game moving again after: min {min(moved.values()):.2f} s,"
            f" max {max(moved.values()):.2f} s"
        )
    print(f"new owners: {spread}")


if __name__ == "__main__":
    asyncio.run(main())
