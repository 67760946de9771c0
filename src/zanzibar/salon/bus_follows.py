"""A socket's node following the buses of the tables its sockets follow elsewhere.

Part of the socket's node's side of forwarding (:class:`~zanzibar.salon.forwarding.Forwarder`
inherits it; its file stays under the size the layout allows). A node follows a
table's bus once for all its sockets there: from the first follow answered (with the
version its answer gives) until its last socket there lets the table go. Leaving and
following again can cross: the unfollow runs beside the caller, and a follow made
before it ran was undone by it (its cursor dropped, its channel unsubscribed), so the
socket that followed heard nothing more of the table, with no error; a follow now waits
for it, a bounded while (:data:`UNFOLLOW_WAIT`): an unfollow that does not end then (Redis
out of reach) is cancelled, and one cancelled or failed counts as over (it undid nothing
later than itself). The wait was unbounded, and on a cancelled unfollow it raised its
``CancelledError`` into the follow's caller. An envelope from the bus being left is
dropped: the follow again reads from its own version on, and would repeat it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zanzibar.cluster.ports import Follower
    from zanzibar.salon.remote import Host

log = logging.getLogger("zanzibar.salon.forwarding")

#: Seconds a follow of a table's bus waits for this node's unfollow of it still on its way
#: (twice: before and after cancelling it).
UNFOLLOW_WAIT = 2.0


class BusFollows:
    """The bus follows of a :class:`~zanzibar.salon.forwarding.Forwarder`."""

    host: Host
    #: Table id -> ids of this node's sockets following it on another node.
    members: dict[int, set[int]]
    #: Table id -> (node, epoch) of the owner this node's sockets follow it on.
    owner_of: dict[int, tuple[str, int]]
    #: Table id -> the last version delivered by the bus.
    delivered: dict[int, int]
    _holes: dict[int, tuple[int, int | None]]
    _tasks: set[asyncio.Future[Any]]

    def _init_bus_follows(self) -> None:
        self.unfollow_wait = UNFOLLOW_WAIT
        #: The tables whose bus this node follows (from the first follow on).
        self._on_bus: set[int] = set()
        #: Table id -> this node's unfollow of its bus, while on its way.
        self._leaving: dict[int, asyncio.Future[Any]] = {}

    def _follower(self) -> Follower:
        raise NotImplementedError

    async def _follow_bus(self, table_id: int, after: int) -> None:
        """Follow the table's bus after ``after``, unless this node does already."""
        if table_id in self._on_bus:
            return
        self._on_bus.add(table_id)
        try:
            leaving = self._leaving.get(table_id)
            if leaving is not None:  # its unfollow would undo this follow: after it
                await self._unfollowed_bus(table_id, leaving)
            await self.host.ports.bus.follow(table_id, self._follower(), max(0, after))
        except BaseException:
            # not followed (Redis out of reach a moment): the next command or re-follow
            # follows it; counted as followed, its frames would never come
            self._on_bus.discard(table_id)
            raise

    async def _unfollowed_bus(self, table_id: int, leaving: asyncio.Future[Any]) -> None:
        """Wait (bounded) until this node's unfollow of the table's bus is over: cancelled
        if it takes too long. Raises if even that does not end it (the follow is not made:
        the next command or re-follow tries again)."""
        # asyncio.wait: neither the unfollow's failure nor its cancellation is raised here
        done, _ = await asyncio.wait({leaving}, timeout=self.unfollow_wait)
        if done:
            return
        log.warning(
            "table %s: unfollowing its bus took over %s s; cancelled", table_id, self.unfollow_wait
        )
        leaving.cancel()
        done, _ = await asyncio.wait({leaving}, timeout=self.unfollow_wait)
        if not done:
            raise ConnectionError(f"table {table_id}: its bus is still being unfollowed")

    def _leave_bus(self, table_id: int) -> None:
        """No socket here follows the table any more: this node stops following its bus."""
        self.members.pop(table_id, None)
        self.owner_of.pop(table_id, None)
        if table_id in self._on_bus:
            self._on_bus.discard(table_id)
            self.delivered.pop(table_id, None)
            self._holes.pop(table_id, None)
            task = self.host.start_task(self.host.ports.bus.unfollow(table_id, self._follower()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            self._leaving[table_id] = task
            task.add_done_callback(functools.partial(self._bus_left, table_id))

    def _bus_left(self, table_id: int, done: asyncio.Future[Any]) -> None:
        if self._leaving.get(table_id) is done:
            del self._leaving[table_id]


__all__: list[str] = ["BusFollows"]
