"""The ports under test, built per backend: in-process, or on the private Redis.

A "node" is one set of port objects: with Redis each node has its own
connections (as separate processes would), in-process every node shares the
one object (there is only one process).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from zanzibar.cluster.local import (
    LocalBus,
    LocalLeases,
    LocalLink,
    LocalLobby,
    LocalPresence,
    LocalRateLimits,
)
from zanzibar.cluster.ports import Envelope


@dataclass
class Backend:
    name: str
    redis_url: str | None
    _shared: dict[str, Any] = field(default_factory=dict)
    _opened: list[Any] = field(default_factory=list)

    @property
    def local(self) -> bool:
        return self.redis_url is None

    def _one(self, kind: str, make: Any) -> Any:
        if kind not in self._shared:
            self._shared[kind] = make()
        return self._shared[kind]

    def _open(self, port: Any) -> Any:
        self._opened.append(port)
        return port

    async def bus(self, kept: int = 1000) -> Any:
        if self.redis_url is None:
            return self._one("bus", lambda: LocalBus(kept))
        from zanzibar.cluster.redis_bus import RedisBus

        return self._open(RedisBus(self.redis_url, kept))

    async def leases(self, node: str, ttl_ms: int = 5000) -> Any:
        if self.redis_url is None:
            return self._one("leases", lambda: LocalLeases(node))
        from zanzibar.cluster.redis_leases import RedisLeases

        return self._open(RedisLeases(self.redis_url, node, ttl_ms))

    async def presence(self, node: str, ttl_ms: int = 6000) -> Any:
        if self.redis_url is None:
            return self._one("presence", lambda: LocalPresence(node))
        from zanzibar.cluster.redis_presence import RedisPresence

        presence = self._open(RedisPresence(self.redis_url, node, ttl_ms))
        await presence.start()
        return presence

    async def lobby(self) -> Any:
        if self.redis_url is None:
            return self._one("lobby", LocalLobby)
        from zanzibar.cluster.redis_lobby import RedisLobby

        lobby = self._open(RedisLobby(self.redis_url))
        await lobby.start()
        return lobby

    async def limits(self, count: int, window: float) -> Any:
        if self.redis_url is None:
            return self._one("limits", lambda: LocalRateLimits(count, window))
        from zanzibar.cluster.redis_limits import RedisRateLimits

        return self._open(RedisRateLimits(self.redis_url, "test", count, window))

    async def link(self, node: str) -> Any:
        if self.redis_url is None:
            hub = self._one("hub", dict)
            link = self._open(LocalLink(node, hub))
        else:
            from zanzibar.cluster.redis_link import RedisLink

            link = self._open(RedisLink(self.redis_url, node))
        return link

    async def close(self) -> None:
        for port in reversed(self._opened):
            await port.close()


async def eventually(check: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait until ``check()`` holds (messages between nodes take a moment)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        await asyncio.sleep(0.01)


class Recorder:
    """A follower that writes down what it was given."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []
        self.data: dict[int, Any] = {}

    async def deliver(self, envelope: Envelope) -> None:
        self.events.append(("v", envelope.version))
        self.data[envelope.version] = envelope.data

    async def gap(self, table: int, after: int, before: int | None) -> None:
        self.events.append(("gap", after, before))

    def versions(self) -> list[int]:
        return [e[1] for e in self.events if e[0] == "v"]


def env(version: int, table: int = 7, epoch: int = 1) -> Envelope:
    return Envelope(table, epoch, version, {"n": version, "text": f"été {version}"})
