"""The ports in one process: what ``./salon`` on SQLite uses, with no other service.

Every method is cheap and never fails for a reason outside the process: the
bus calls followers at once, every lease is granted to the only node, presence
is a counter per user, the lobby a dict, ids count up from the database's
largest, limits are ``salon/chat.py``'s :class:`RateLimiter`.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from zanzibar.cluster.delivery import Deliveries
from zanzibar.cluster.ports import (
    Envelope,
    Follower,
    IdKind,
    Lease,
    LeaseWatcher,
    StaleVersion,
)

log = logging.getLogger(__name__)

#: Envelopes kept per table for late followers (as many as the Redis stream keeps).
KEPT = 1000


class LocalBus:
    """Followers are called during :meth:`publish`, in order; the last envelopes are kept."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._log: dict[int, deque[Envelope]] = {}
        self._last: dict[int, int] = {}
        self._deliveries = Deliveries(self.since)

    async def publish(self, envelope: Envelope) -> None:
        last = self._last.get(envelope.table, 0)
        if envelope.version <= last:
            raise StaleVersion(f"table {envelope.table}: version {envelope.version} <= {last}")
        self._last[envelope.table] = envelope.version
        self._log.setdefault(envelope.table, deque(maxlen=self.kept)).append(envelope)
        await self._deliveries.offer(envelope)

    async def follow(self, table: int, follower: Follower, after: int) -> None:
        await self._deliveries.add(table, follower, after)

    async def unfollow(self, table: int, follower: Follower) -> None:
        self._deliveries.remove(table, follower)

    async def since(self, table: int, after: int) -> list[Envelope] | None:
        last = self._last.get(table, 0)
        if after >= last:
            return []
        kept = self._log.get(table, deque())
        if not kept or kept[0].version > after + 1:
            return None
        return [e for e in kept if e.version > after]

    async def close(self) -> None:
        self._deliveries = Deliveries(self.since)


class LocalLeases:
    """The only node owns every table it asks for; epochs still grow per grant."""

    def __init__(self, node: str = "local") -> None:
        self.node = node
        self._leases: dict[int, Lease] = {}
        self._epochs: dict[int, int] = {}
        self._watchers: list[LeaseWatcher] = []

    async def acquire(self, table: int, floor: int = 0) -> Lease | None:
        if table in self._leases:
            return None
        epoch = max(self._epochs.get(table, 0), floor) + 1
        self._epochs[table] = epoch
        lease = self._leases[table] = Lease(table, self.node, epoch)
        await tell_granted(self._watchers, lease)
        return lease

    async def owner(self, table: int) -> Lease | None:
        return self._leases.get(table)

    async def owners(self, tables: Sequence[int]) -> dict[int, Lease]:
        return {t: self._leases[t] for t in tables if t in self._leases}

    async def watch(self, watcher: LeaseWatcher) -> None:
        self._watchers.append(watcher)

    async def renew(self) -> set[int]:
        return set()

    async def vacant(self, tables: Sequence[int]) -> dict[int, bool]:
        return {t: t in self._epochs for t in tables if t not in self._leases}

    async def release(self, table: int) -> bool:
        lease = self._leases.pop(table, None)
        if lease is None:
            return False
        await tell_released(self._watchers, lease)
        return True

    async def expire(self, lease: Lease) -> bool:
        if self._leases.get(lease.table) != lease:
            return False
        return await self.release(lease.table)

    def held(self) -> dict[int, Lease]:
        return dict(self._leases)

    async def close(self) -> None:
        self._leases.clear()
        self._watchers.clear()


async def tell_granted(watchers: Sequence[LeaseWatcher], lease: Lease) -> None:
    """Every watcher hears of a grant; one that fails does not keep it from the others."""
    for watcher in list(watchers):
        try:
            await watcher.granted(lease)
        except Exception:
            log.exception("a lease watcher failed on a grant")


async def tell_released(watchers: Sequence[LeaseWatcher], lease: Lease) -> None:
    """Every watcher hears of a release (as :func:`tell_granted`)."""
    for watcher in list(watchers):
        try:
            await watcher.released(lease)
        except Exception:
            log.exception("a lease watcher failed on a release")


class PresenceBoard:
    """What several in-process nodes share of presence: sockets per user and node.

    ``./salon`` has one node and a board of its own; tests of several salons in
    one process give each node's :class:`LocalPresence` the same board, so a user
    online on one node is online for all, as with Redis.
    """

    def __init__(self) -> None:
        #: user -> node -> sockets (users with none are left out)
        self.sockets: dict[int, dict[str, int]] = {}
        self.members: list[LocalPresence] = []

    async def tell(self, user: int, online: bool) -> None:
        """Every node's watchers hear that ``user`` came or went."""
        for member in list(self.members):
            for watcher in list(member._watchers):
                await watcher(user, online)


class LocalPresence:
    """Sockets counted per user and node on a :class:`PresenceBoard`; nodes never die."""

    def __init__(self, node: str = "local", board: PresenceBoard | None = None) -> None:
        self.node = node
        self.board = PresenceBoard() if board is None else board
        self.board.members.append(self)
        self._watchers: list[Callable[[int, bool], Awaitable[None]]] = []

    async def attach(self, user: int) -> bool:
        nodes = self.board.sockets.setdefault(user, {})
        first = not nodes
        nodes[self.node] = nodes.get(self.node, 0) + 1
        if first:
            await self.board.tell(user, True)
        return first

    async def detach(self, user: int) -> bool:
        nodes = self.board.sockets.get(user, {})
        count = nodes.get(self.node, 0)
        if count <= 0:
            return False
        if count > 1:
            nodes[self.node] = count - 1
            return False
        del nodes[self.node]
        if nodes:
            return False
        del self.board.sockets[user]
        await self.board.tell(user, False)
        return True

    async def sync(self, counts: Mapping[int, int]) -> None:
        for user in set(counts) | {u for u, n in self.board.sockets.items() if self.node in n}:
            want = max(0, counts.get(user, 0))
            while self.board.sockets.get(user, {}).get(self.node, 0) < want:
                await self.attach(user)
            while self.board.sockets.get(user, {}).get(self.node, 0) > want:
                await self.detach(user)

    async def refresh(self) -> None:
        return None

    def online(self, user: int) -> bool:
        return user in self.board.sockets

    async def where(self, user: int) -> dict[str, int]:
        return dict(self.board.sockets.get(user, {}))

    def watch(self, callback: Callable[[int, bool], Awaitable[None]]) -> None:
        self._watchers.append(callback)

    async def heartbeat(self) -> None:
        return None

    async def live_nodes(self) -> list[str]:
        return sorted({member.node for member in self.board.members})

    async def reap(self) -> list[str]:
        return []

    async def close(self) -> None:
        if self in self.board.members:
            self.board.members.remove(self)


class LocalLobby:
    """A dict of summaries; watchers are called at once."""

    def __init__(self) -> None:
        self._summaries: dict[int, Mapping[str, Any]] = {}
        self._watchers: list[Callable[[int], Awaitable[None]]] = []

    async def put(self, table: int, summary: Mapping[str, Any] | None) -> None:
        if summary is None:
            if self._summaries.pop(table, None) is None:
                return
        else:
            self._summaries[table] = dict(summary)
        for watcher in list(self._watchers):
            await watcher(table)

    async def refresh(self) -> None:
        return None

    def summaries(self) -> dict[int, Mapping[str, Any]]:
        return dict(self._summaries)

    def watch(self, callback: Callable[[int], Awaitable[None]]) -> None:
        self._watchers.append(callback)

    async def close(self) -> None:
        return None


class LocalLink:
    """Nodes of one process: messages are handed over at once (used by tests of a router)."""

    def __init__(self, node: str = "local", hub: dict[str, LocalLink] | None = None) -> None:
        self.node = node
        #: The nodes that can reach each other (a fresh hub: only this one).
        self.hub: dict[str, LocalLink] = {} if hub is None else hub
        self._handler: Callable[[str, Mapping[str, Any]], Awaitable[None]] | None = None

    def serve(self, handler: Callable[[str, Mapping[str, Any]], Awaitable[None]]) -> None:
        self._handler = handler

    async def start(self) -> None:
        self.hub[self.node] = self

    async def send(self, node: str, message: Mapping[str, Any]) -> bool:
        target = self.hub.get(node)
        if target is None or target._handler is None:
            return False
        await target._handler(self.node, json.loads(json.dumps(message)))
        return True

    async def close(self) -> None:
        if self.hub.get(self.node) is self:
            del self.hub[self.node]


class LocalIds:
    """Counts up from the largest id in use, per kind (given at start: ``start[kind]``)."""

    def __init__(self, start: Mapping[str, int] | None = None) -> None:
        self._next: dict[str, int] = {kind: value for kind, value in (start or {}).items()}

    async def next(self, kind: IdKind) -> int:
        return self.take(kind)

    def take(self, kind: IdKind) -> int:
        """The next id at once (one process counts alone: nothing to wait for)."""
        value = self._next.get(kind, 1)
        self._next[kind] = value + 1
        return value


class LocalRateLimits:
    """``salon/chat.py``'s sliding window, behind the async port."""

    def __init__(
        self,
        count: int | None = None,
        window: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        # imported here: the salon's service imports this module, and importing
        # salon.chat first would import the service half-made (a circular import)
        from zanzibar.salon.chat import RATE_COUNT, RATE_WINDOW, RateLimiter

        self.limiter = RateLimiter(
            RATE_COUNT if count is None else count,
            RATE_WINDOW if window is None else window,
            clock,
        )

    async def check(self, key: int) -> None:
        self.limiter.check(key)

    async def record(self, key: int) -> None:
        self.limiter.record(key)
