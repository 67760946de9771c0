"""Salon nodes of one shared salon in one test process (the live cluster tests).

Each node is a :class:`Salon` on the private PostgreSQL and Redis with its own
connections, leases and heartbeat, as a separate process would have; a node
is "killed" by :meth:`Salon.crash` (nothing more is written, its leases are
left to lapse) and its heartbeat stops without leaving ``zn:alive``, as after
``kill -9``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from _salonkit import Client, make_salon

from zanzibar.salon import Salon

#: The leases of the live tests: 1.5 s (production: 5 s), renewed every 0.5 s.
TTL_MS = 1500


@dataclass
class Cluster:
    """Salon nodes sharing one database and one Redis, each with its heartbeat."""

    db_url: str
    redis_url: str
    ttl_ms: int = TTL_MS
    salons: dict[str, Salon] = field(default_factory=dict)
    nodes: dict[str, Any] = field(default_factory=dict)

    async def start(self, name: str, lease_ttl_ms: int | None = None, **settings: Any) -> Salon:
        """Node ``name``, its leases of ``lease_ttl_ms`` (default: the cluster's ttl)."""
        from zanzibar.cluster.node import Node
        from zanzibar.cluster.redis_leases import RedisLeases
        from zanzibar.cluster.wiring import redis_ports

        node = Node(self.redis_url, name, ttl_ms=self.ttl_ms + 500)
        await node.start()
        self.nodes[name] = node
        ports = redis_ports(self.redis_url, name)
        await ports.leases.close()
        ports.leases = RedisLeases(self.redis_url, name, ttl_ms=lease_ttl_ms or self.ttl_ms)
        salon = make_salon(self.db_url, ports=ports, **settings)
        assert salon.reaper is not None
        salon.reaper.period = 0.2
        salon.reaper.step = 0.5
        salon.reaper.grace = self.ttl_ms / 3000 + 0.5
        await salon.start()
        self.salons[name] = salon
        return salon

    async def kill(self, name: str) -> None:
        """What ``kill -9`` leaves: leases and heartbeat lapse by themselves."""
        salon = self.salons.pop(name)
        node = self.nodes.pop(name)
        await salon.crash()
        await node._stop_beating()
        await node.redis.aclose()

    async def stop(self) -> None:
        for name in list(self.salons):
            await self.salons.pop(name).stop()
        for name in list(self.nodes):
            await self.nodes.pop(name).stop()

    def runner(self, table_id: int) -> str | None:
        """The node running ``table_id`` now (None: nobody)."""
        found = [n for n, s in self.salons.items() if table_id in s.tables]
        assert len(found) <= 1, f"table {table_id} runs on {found}"
        return found[0] if found else None


async def wait_for(what: Callable[[], Any], seconds: float, step: float = 0.05) -> Any:
    """``what()`` once it is truthy; AssertionError after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s")
        await asyncio.sleep(step)


async def sweeps(salons: list[Salon], count: int) -> None:
    """Wait until the reaper of each of ``salons`` has swept ``count`` more times."""
    reapers = [s.reaper for s in salons if s.reaper is not None]
    assert len(reapers) == len(salons)
    done = [r._sweeps + count + 1 for r in reapers]  # the count of a sweep running now, + 1
    await wait_for(lambda: all(r._sweeps >= n for r, n in zip(reapers, done, strict=True)), 60)


async def bot_table(salon: Salon, name: str, clock: bool = True) -> tuple[Client, int]:
    """A running race between ``name`` and a bot, with a turn clock of 0.6 s (scaled)."""
    host = await Client(salon, name).sign_in()
    table_id = (await host.ok("table.create", game="race", seats=2, options={"target": 100}))[
        "table"
    ]["id"]
    await host.ok("table.add_bot", table=table_id)
    if clock:
        await host.ok("table.clock", table=table_id, seconds=30)
    await host.ok("table.start", table=table_id)
    return host, table_id


def kinds(salon: Salon, table_id: int) -> list[Any]:
    return [i.data.get("kind") for i in salon.tables[table_id].history.items]
