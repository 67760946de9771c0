"""The ports one salon node runs on, built together: in one process, or on Redis.

A salon takes one :class:`NodePorts`: ``./salon`` (and the fast tests) the
in-process set of :mod:`zanzibar.cluster.local`, where this node is the only
one; ``zanzibar serve --redis URL --node NAME`` the Redis set, shared with
every other node of the salon. The salon's table logic is the same on both:
only what these ports answer differs (who owns a table, who is online, which
tables the lobby lists, where a message to another node goes).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zanzibar.cluster.local import LocalBus, LocalLeases, LocalLink, LocalLobby, LocalPresence
from zanzibar.cluster.ports import Leases, Link, Lobby, Presence, TableBus, check_node_name

if TYPE_CHECKING:  # not at run time: the salon package imports this module
    from zanzibar.salon.limits import SharedLimits

log = logging.getLogger(__name__)


@dataclass
class NodePorts:
    """Leases, link, bus, presence and lobby of one node, started and closed together.

    ``shared``: other nodes may exist (the Redis set). A lone node owns every
    table of its database; a shared one owns only those it holds the lease of.
    """

    node: str
    leases: Leases
    link: Link
    bus: TableBus
    presence: Presence
    lobby: Lobby
    shared: bool = False
    #: Called in order by :meth:`start` (e.g. subscribing to Redis channels).
    starts: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    #: The per-account limits counted over every node (None: this node alone counts).
    limits: SharedLimits | None = None
    #: Called by :meth:`close` after the ports (what ``starts`` started beside them).
    closes: list[Callable[[], Awaitable[None]]] = field(default_factory=list)

    async def start(self) -> None:
        """Connect and subscribe (the link, presence and lobby follow their channels)."""
        for start in self.starts:
            await start()
        await self.link.start()

    async def close(self) -> None:
        """Stop listening and free connections; a failing close does not stop the others."""
        for port in (self.link, self.bus, self.presence, self.lobby, self.leases):
            try:
                await port.close()
            except Exception:
                log.exception("closing the %s port failed", type(port).__name__)
        for close in self.closes:
            try:
                await close()
            except Exception:
                log.exception("closing %s failed", close)


def local_ports(node: str = "local") -> NodePorts:
    """The in-process ports: this node is the salon's only one."""
    return NodePorts(
        node=check_node_name(node),
        leases=LocalLeases(node),
        link=LocalLink(node),
        bus=LocalBus(),
        presence=LocalPresence(node),
        lobby=LocalLobby(),
    )


def redis_ports(url: str, node: str) -> NodePorts:
    """The ports of one node of a salon shared over Redis at ``url`` (needs the cluster extra)."""
    # imported here: a salon without --redis never imports redis-py
    from zanzibar.cluster.redis_bus import RedisBus
    from zanzibar.cluster.redis_gate import RedisGate
    from zanzibar.cluster.redis_leases import RedisLeases
    from zanzibar.cluster.redis_limits import (
        RedisAddressSockets,
        RedisAddressTables,
        RedisCounts,
    )
    from zanzibar.cluster.redis_link import RedisLink
    from zanzibar.cluster.redis_lobby import RedisLobby
    from zanzibar.cluster.redis_presence import RedisPresence
    from zanzibar.salon.limits import SharedLimits

    check_node_name(node)
    presence = RedisPresence(url, node)
    lobby = RedisLobby(url)
    counts, gate, tables = RedisCounts(url, node), RedisGate(url), RedisAddressTables(url)
    sockets = RedisAddressSockets(url, node)
    return NodePorts(
        node=node,
        leases=RedisLeases(url, node),
        link=RedisLink(url, node),
        bus=RedisBus(url),
        presence=presence,
        lobby=lobby,
        shared=True,
        starts=[presence.start, lobby.start, counts.start, sockets.start],
        limits=SharedLimits(counts, gate, tables, sockets),
        closes=[counts.close, gate.close, tables.close, sockets.close],
    )


@contextlib.asynccontextmanager
async def running(ports: NodePorts) -> AsyncIterator[NodePorts]:
    """``async with running(ports):`` started, then closed (tests and tools)."""
    await ports.start()
    try:
        yield ports
    finally:
        await ports.close()
