"""Following a table again for every socket of this node that follows it elsewhere.

Part of the socket's node's side of forwarding (:class:`~zanzibar.salon.forwarding.Forwarder`
inherits it; its file stays under the size the layout allows): after a table changed
hands, or after a hole in its bus (reported by the bus: :meth:`Refollows.gap`; or seen
by a socket: a live item past the one after its last, :meth:`Refollows._skips`), each
socket follows it again from the last ``seq`` it was sent, tried again while the table
is changing hands, given up by closing the socket (docs/cluster.md, "Any node takes
any socket").
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from zanzibar.engine.errors import ZanzibarError
from zanzibar.salon.connections import Connection
from zanzibar.salon.frames import CHANGING_HANDS, ITEM_TYPES

if TYPE_CHECKING:
    from zanzibar.salon.owner_watch import OwnerWatch
    from zanzibar.salon.remote import Host

log = logging.getLogger("zanzibar.salon.forwarding")

#: Seconds between two tries to follow again a table that is changing hands.
REFOLLOW_PAUSE = 0.5


class Refollows:
    """The re-follows of a :class:`~zanzibar.salon.forwarding.Forwarder`."""

    host: Host
    owners: OwnerWatch
    patience: float
    members: dict[int, set[int]]
    seqs: dict[tuple[int, int], int]
    _resyncing: set[int]
    _again: set[int]
    _held: dict[tuple[int, int], list[tuple[int, dict[str, Any]]]]
    _holes: dict[int, tuple[int, int | None]]
    _reached: dict[int, asyncio.Event]

    def _spawn(self, work: Any) -> None:
        raise NotImplementedError

    async def ask(
        self, table_id: int, body: dict[str, Any], conn: Connection, node: str | None = None
    ) -> None:
        raise NotImplementedError

    def _unfollowed(self, table_id: int, conn_id: int, keep: bool = False) -> None:
        raise NotImplementedError

    async def gap(self, table: int, after: int, before: int | None) -> None:
        """Versions were lost on the way (an owner killed between storing and publishing):
        every socket here follows the table again, its frames held until then (given at
        once, they would move its last ``seq`` past the lost items for good)."""
        log.warning("table %s: versions after %s were lost; following it again", table, after)
        self._holes[table] = (after, before)
        event = self._reached.pop(table, None)
        if event is not None:  # a command waiting for a lost version's frames: ask again
            event.set()
        for conn_id in self.members.get(table, ()):
            self._held.setdefault((conn_id, table), [])
        self._spawn(self.resync(table))

    def _lost(self, table_id: int, version: int) -> bool:
        """Whether the bus reported ``version`` of the table lost (it will never bring it)."""
        hole = self._holes.get(table_id)
        return hole is not None and hole[0] < version and (hole[1] is None or version < hole[1])

    def _skips(self, conn_id: int, table_id: int, message: Any) -> bool:
        """Whether a live item of ``table_id`` is numbered past the one after the last
        ``seq`` this socket was sent (items of one table are numbered without a hole, for
        every audience): given now, the client would have missed those between."""
        if not isinstance(message, dict) or message.get("table") != table_id:
            return False
        if message.get("type") not in ITEM_TYPES:
            return False
        seq = message.get("seq")
        sent = self.seqs.get((conn_id, table_id), -1)
        return isinstance(seq, int) and not isinstance(seq, bool) and sent >= 0 and seq > sent + 1

    def resyncs(self, table_id: int) -> bool:
        """Whether the sockets here following ``table_id`` are being followed again now."""
        return table_id in self._resyncing

    async def resync(self, table_id: int) -> None:
        """Every socket here that follows ``table_id`` follows it again from its last seq
        (asked again meanwhile, by a gap or a new owner: once more afterwards)."""
        if table_id in self._resyncing:
            self._again.add(table_id)  # what changed meanwhile needs a pass of its own
            return
        self._resyncing.add(table_id)
        try:
            await self._refollow_all(table_id)
            while table_id in self._again:
                self._again.discard(table_id)
                await self._refollow_all(table_id)
        finally:
            self._resyncing.discard(table_id)
            self._again.discard(table_id)
        await self.owners.resynced(table_id)

    async def _refollow_all(self, table_id: int) -> None:
        """Follow the table again for every socket here that follows it (see resync), all
        at once (one socket's retries do not hold the others back)."""
        conns = []
        for conn_id in list(self.members.get(table_id, ())):
            conn = self.host.gateway.connections.get(conn_id)
            if conn is None or conn.user is None:
                self._unfollowed(table_id, conn_id)
            else:
                conns.append(conn)
        await asyncio.gather(*(self._refollow(table_id, conn) for conn in conns))

    async def _refollow(self, table_id: int, conn: Connection) -> None:
        """Follow the table again for one socket from its last seq, until it works.

        Else it would miss what the lost versions held, or hear nothing more of
        a table its client believes it follows (a player who never sees his
        turn stalls the game). Tried again while Redis or the database is out
        of reach a moment, or while the table changes hands (refused
        ``not_found`` or ``internal``; on a lone node nobody else will take the
        table up, and a closed table lets the socket go). After
        :attr:`patience` s of failures the socket is closed (its client resumes).
        """
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.patience
        while not conn.closed and conn.id in self.members.get(table_id, ()):  # not let go
            since = self.seqs.get((conn.id, table_id), 0)
            try:
                await self.ask(table_id, {"type": "follow", "since": since}, conn)
                return
            except ZanzibarError as exc:
                failure: Exception = exc
                code = getattr(exc, "code", None)
                if (
                    not self.host.shared
                    or code not in CHANGING_HANDS
                    or (code == "not_found" and not await self.host.router.still_open(table_id))
                ):
                    log.warning("socket %s cannot follow table %s: %s", conn.id, table_id, exc)
                    self._unfollowed(table_id, conn.id)
                    return
            except Exception as exc:  # Redis or the database out of reach
                failure = exc
            if loop.time() > give_up:
                self._unfollowed(table_id, conn.id)
                conn.give_up(f"table {table_id} could not be followed again ({failure})")
                return
            log.warning("socket %s, table %s: follow failed (%s)", conn.id, table_id, failure)
            await asyncio.sleep(REFOLLOW_PAUSE)


__all__: list[str] = ["REFOLLOW_PAUSE", "Refollows"]
