"""Several salon nodes in one test process: shared leases, link hub and table bus.

Each node is a :class:`~zanzibar.salon.Salon` on the same database with its
own presence and lobby, as separate processes would have, and the ports that
carry messages between nodes shared the in-process way (``LocalLink`` on one
hub, one ``LocalBus``, one board of leases that a test can let lapse).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from zanzibar.cluster.local import (
    LocalBus,
    LocalLink,
    LocalLobby,
    LocalPresence,
    PresenceBoard,
    tell_granted,
    tell_released,
)
from zanzibar.cluster.ports import Envelope, Follower, Lease, LeaseWatcher
from zanzibar.cluster.wiring import NodePorts


class BoardLeases:
    """The :class:`~zanzibar.cluster.ports.Leases` port of one node on a shared board."""

    def __init__(
        self,
        node: str,
        board: dict[int, Lease],
        epochs: dict[int, int] | None = None,
        watchers: list[LeaseWatcher] | None = None,
        ttl_ms: int = 5000,
    ) -> None:
        self.node = node
        self.board = board
        #: As Redis's: the owner renews every third of it (it never lapses by itself here).
        self.ttl_ms = ttl_ms
        #: Epochs granted per table (shared by the nodes of a cluster, or this node's own).
        self.epochs = {} if epochs is None else epochs
        #: Who hears of grants and releases (every node's watchers, or this node's own).
        self.watchers: list[LeaseWatcher] = [] if watchers is None else watchers
        self._mine: list[LeaseWatcher] = []
        #: Tables whose lease the store forgot (:meth:`Cluster.forget_leases`): the next
        #: renewal reports them lost, as Redis's does after it restarted empty.
        self.forgotten: set[int] = set()

    async def acquire(self, table: int, floor: int = 0) -> Lease | None:
        if table in self.board:
            return None
        epoch = max(self.epochs.get(table, 0), floor) + 1
        self.epochs[table] = epoch
        lease = self.board[table] = Lease(table, self.node, epoch)
        await tell_granted(self.watchers, lease)
        return lease

    async def owner(self, table: int) -> Lease | None:
        return self.board.get(table)

    async def owners(self, tables: Sequence[int]) -> dict[int, Lease]:
        return {t: self.board[t] for t in tables if t in self.board}

    async def watch(self, watcher: LeaseWatcher) -> None:
        self.watchers.append(watcher)
        self._mine.append(watcher)

    async def renew(self) -> set[int]:
        lost, self.forgotten = self.forgotten, set()
        return lost

    async def vacant(self, tables: Sequence[int]) -> dict[int, bool]:
        return {t: t in self.epochs for t in tables if t not in self.board}

    async def release(self, table: int) -> bool:
        lease = self.board.get(table)
        if lease is None or lease.node != self.node:
            return False
        del self.board[table]
        await tell_released(self.watchers, lease)
        return True

    async def expire(self, lease: Lease) -> bool:
        if self.board.get(lease.table) != lease:
            return False
        del self.board[lease.table]
        await tell_released(self.watchers, lease)
        return True

    def held(self) -> dict[int, Lease]:
        return {t: lease for t, lease in self.board.items() if lease.node == self.node}

    async def close(self) -> None:
        """This node hears no more grants (as its Redis connection would close)."""
        for watcher in self._mine:
            if watcher in self.watchers:
                self.watchers.remove(watcher)
        self._mine.clear()

    def lapse(self) -> None:
        """This node stopped renewing (it hangs, or died): its leases expire, unannounced
        (as Redis expires a key)."""
        for table in list(self.held()):
            del self.board[table]


class NodeBus:
    """One node's handle on the shared in-process bus: closing it drops only its followers
    (as a process's own Redis connection would), not every node's."""

    def __init__(self, bus: LocalBus) -> None:
        self.bus = bus
        self._followed: set[tuple[int, Follower]] = set()

    async def publish(self, envelope: Envelope) -> None:
        await self.bus.publish(envelope)

    async def follow(self, table: int, follower: Follower, after: int) -> None:
        self._followed.add((table, follower))
        await self.bus.follow(table, follower, after)

    async def unfollow(self, table: int, follower: Follower) -> None:
        self._followed.discard((table, follower))
        await self.bus.unfollow(table, follower)

    async def since(self, table: int, after: int) -> list[Envelope] | None:
        return await self.bus.since(table, after)

    async def close(self) -> None:
        for table, follower in list(self._followed):
            await self.bus.unfollow(table, follower)
        self._followed.clear()


@dataclass
class Cluster:
    """What the nodes of one test share."""

    board: dict[int, Lease] = field(default_factory=dict)
    epochs: dict[int, int] = field(default_factory=dict)
    hub: dict[str, LocalLink] = field(default_factory=dict)
    bus: LocalBus = field(default_factory=LocalBus)
    leases: dict[str, BoardLeases] = field(default_factory=dict)
    #: Every node's lease watchers (a grant on one node is heard on all).
    watchers: list[LeaseWatcher] = field(default_factory=list)
    #: Nodes a test crashed (not to be stopped again).
    crashed: set[str] = field(default_factory=set)
    #: One presence for every node (None: each node counts only its own sockets).
    presence: PresenceBoard | None = None

    def forget_leases(self) -> None:
        """The lease store forgets everything, as Redis restarted without persistence:
        no lease, no epoch; each node finds its own lost at its next renewal."""
        for leases in self.leases.values():
            leases.forgotten |= set(leases.held())
        self.board.clear()
        self.epochs.clear()

    def ports(self, node: str, leases: Any = None) -> NodePorts:
        """A node's ports: its own presence and lobby, the shared rest."""
        if leases is None:
            leases = self.leases[node] = BoardLeases(node, self.board, self.epochs, self.watchers)
        return NodePorts(
            node=node,
            leases=leases,
            link=LocalLink(node, self.hub),
            bus=NodeBus(self.bus),
            presence=LocalPresence(node, self.presence),
            lobby=LocalLobby(),
            shared=True,
        )
