"""Who runs each table a socket's node follows elsewhere: leases pushed, a slow check.

A socket's node (:mod:`zanzibar.salon.forwarding`) follows tables run by other
nodes; when one changes owner (its owner died and another node claimed it, or
its owner took its lost lease again under a new epoch) the sockets here must
follow it on the new owner, from the last ``seq`` each was sent. Each grant and
release of a lease is pushed to every node (:meth:`~zanzibar.cluster.ports.Leases.watch`:
``PUBLISH zl`` in the same Redis script as the grant), so the node hears of a
new owner at once instead of asking for the lease of every followed table
every half second (one ``GET`` per table and check, before). As a safety net for
an announcement lost on the way, the leases of every followed table are asked
for every few seconds in one batch (one ``MGET`` per 500 tables), and at once
after the connection to Redis came back. ``bench/bench_lease_watch.py`` counts
what that saves.

A lease that merely lapses is not announced (Redis expires keys silently):
the next claim is, within the lease's ttl and the reaper's step, and a command
sent meanwhile finds the owner gone by itself (the link says nobody listens).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from zanzibar.cluster.ports import Lease
from zanzibar.salon.remote import Host, RemoteSockets

log = logging.getLogger(__name__)


class Following(Protocol):
    """What the watch needs of the node's forwarder (salon/forwarding.py)."""

    host: Host
    node: str
    remote: RemoteSockets
    #: Table id -> ids of this node's sockets following it on another node.
    members: dict[int, set[int]]
    #: Table id -> (node, epoch) of the owner this node's sockets follow it on.
    owner_of: dict[int, tuple[str, int]]
    watch_period: float
    ping_period: float

    def resyncs(self, table_id: int) -> bool: ...
    async def resync(self, table_id: int) -> None: ...
    def _spawn(self, work: Any) -> None: ...


class OwnerWatch:
    """The :class:`~zanzibar.cluster.ports.LeaseWatcher` of a node's forwarder."""

    def __init__(self, following: Following) -> None:
        self.following = following
        self.task: asyncio.Task[None] | None = None
        #: Tables whose lease changed while they were being followed again: look again after.
        self._recheck: set[int] = set()
        #: Table id -> commands in flight to its owner, and the latest grant heard meanwhile
        #: (an answer from the old owner must not make the sockets follow it again).
        self._asking: dict[int, int] = {}
        self._grants: dict[int, Lease] = {}

    async def start(self) -> None:
        """Hear every grant and release from now on; ping and check now and then."""
        await self.following.host.ports.leases.watch(self)
        self.task = asyncio.ensure_future(self._watching())

    async def _watching(self) -> None:
        """Ping the nodes this one serves; now and then (a safety net) check the owners."""
        following = self.following
        loop = asyncio.get_running_loop()
        checked = loop.time()
        while True:
            await asyncio.sleep(min(following.ping_period, following.watch_period))
            try:
                if loop.time() - checked >= following.watch_period:
                    checked = loop.time()
                    await self.check_all()
                await following.remote.check_listeners()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("checking the owners of followed tables failed")

    async def check_all(self) -> None:
        """Who runs each table followed elsewhere, asked in one batch: a table that changed
        owner (or has none) without this node hearing of it is followed again."""
        followed = [t for t, members in self.following.members.items() if members]
        if not followed:
            return
        leases = await self.following.host.ports.leases.owners(followed)
        for table_id in followed:
            self.check(table_id, leases.get(table_id))

    def check(self, table_id: int, lease: Lease | None) -> None:
        """``lease`` is the table's lease now (None: nobody holds it): follow it again unless
        it is the owner its sockets here follow."""
        following = self.following
        if self.task is None or self.task.done() or not following.members.get(table_id):
            return  # stopped (or not started): nothing follows from here any more
        if following.resyncs(table_id):
            self._recheck.add(table_id)  # it may have followed the old owner: look again after
            return
        if lease is not None and (lease.node, lease.epoch) == following.owner_of.get(table_id):
            return
        router = following.host.router
        if lease is not None and lease.node == following.node and table_id not in router.actors:
            following._spawn(self._after_claim(table_id))  # being claimed here right now
            return
        following._spawn(following.resync(table_id))

    async def _after_claim(self, table_id: int) -> None:
        """This node is claiming a table its sockets follow elsewhere: once it runs here,
        they follow it here (if the claim failed, the next check finds the owner)."""
        router = self.following.host.router
        await router.claimed(table_id)
        if table_id in router.actors:
            self.check(table_id, None)

    async def resynced(self, table_id: int) -> None:
        """The sockets here were followed again: if the lease moved meanwhile, look again."""
        if table_id in self._recheck:
            self._recheck.discard(table_id)
            self.check(table_id, await self.following.host.ports.leases.owner(table_id))

    def asking(self, table_id: int, change: int) -> None:
        """A command for ``table_id`` was sent to its owner (+1) or answered or given up (-1)."""
        left = self._asking.pop(table_id, 0) + change
        if left > 0:
            self._asking[table_id] = left
        else:
            self._grants.pop(table_id, None)

    def answered(self, table_id: int) -> None:
        """The sockets follow ``table_id`` on the owner that answered: if another one was
        granted the table while the command was on its way, follow that one."""
        heard = self._grants.pop(table_id, None)
        if heard is not None:
            self.check(table_id, heard)

    # -- LeaseWatcher ------------------------------------------------------------------------

    async def granted(self, lease: Lease) -> None:
        """A lease was granted somewhere: a table followed here has a new owner (or epoch)."""
        if self._asking.get(lease.table):
            self._grants[lease.table] = lease  # the answer on its way may name the old owner
        if self.following.members.get(lease.table):
            self.check(lease.table, lease)

    async def released(self, lease: Lease) -> None:
        """A lease was given up: if it is the one this node's sockets follow, follow again."""
        following = self.following
        if following.members.get(lease.table) and following.owner_of.get(lease.table) == (
            lease.node,
            lease.epoch,
        ):
            self.check(lease.table, None)

    async def missed(self) -> None:
        """Grants may have been missed (the connection to Redis was lost): ask again."""
        if self.task is not None:
            self.following._spawn(self.check_all())


__all__: list[str] = ["OwnerWatch"]
