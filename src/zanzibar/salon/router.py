"""Which actor runs a table, and handing it a command.

A table is run by exactly one node at a time, the holder of its lease
(:class:`zanzibar.cluster.ports.Leases`). The router keeps the actors of the
tables this node holds; a command for one of them goes straight into its
inbox, with no encoding. For any other table it asks the leases who owns it:
nobody means the table is run nowhere (its owner died, or it does not
exist): this node claims it and loads it from the database, or answers
``not_found``; another node means the command travels to that node
(:mod:`zanzibar.salon.forwarding`, over the
:class:`zanzibar.cluster.ports.Link`), which applies it and answers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping

from zanzibar.cluster.ports import Lease, Leases, Link
from zanzibar.l10n.msg import Msg
from zanzibar.salon.actor import TableActor, Transition
from zanzibar.salon.changes import Command
from zanzibar.salon.errors import SalonError
from zanzibar.salon.members import MemberIndex
from zanzibar.salon.tables import Table

log = logging.getLogger(__name__)

#: Seconds between two looks for the owner of a table whose lease the store forgot.
OWNER_POLL = 0.1


def renewal_grace(leases: Leases) -> float:
    """Seconds an owner may take to take back a lease the store forgot (Redis restarted
    empty): one renewal period (a third of the ttl) and a second of margin."""
    return float(getattr(leases, "ttl_ms", 5000)) / 3000 + 1.0


class Router:
    """The actors of the tables this node owns, and the way to the others."""

    def __init__(
        self,
        leases: Leases,
        link: Link | None = None,
        load: Callable[[int], Awaitable[TableActor | None]] | None = None,
        is_open: Callable[[int], Awaitable[bool]] | None = None,
    ) -> None:
        self.leases = leases
        self.link = link
        #: Loads a table this node just took the lease of, from the database (None: closed).
        self.load = load
        #: Whether a table is open in the database (None: not asked; claiming tells).
        self.is_open = is_open
        #: Seconds a table whose lease the store forgot is left to its owner to take back.
        self.grace = renewal_grace(leases)
        #: Hands a command for a table run by another node to that node (forwarding.py);
        #: None: such a command is refused.
        self.forward: Callable[[str, int, Command], Awaitable[None]] | None = None
        #: The tables this node runs, by id.
        self.actors: dict[int, TableActor] = {}
        #: Who sits at or watches which of them (kept by their actors: ActorServices.members).
        self.members = MemberIndex()
        #: The lease under which each local table runs.
        self.lease_of: dict[int, Lease] = {}
        #: Table id -> the lock of its claims here, kept while any caller holds or waits
        #: for it (:meth:`_claim_and_load`), and how many do.
        self._claiming: dict[int, asyncio.Lock] = {}
        self._claimers: dict[int, int] = {}
        #: Tables whose forgotten lease is being waited for: one look-up for all callers.
        self._awaiting: dict[int, asyncio.Future[Lease | None]] = {}

    @property
    def node(self) -> str:
        """This node's name."""
        return self.leases.node

    async def claim(self, table_id: int) -> Lease | None:
        """Take the lease of a table this node is about to run (None: another node holds it)."""
        lease = await self.leases.acquire(table_id)
        if lease is not None:
            self.lease_of[table_id] = lease
        return lease

    def run(self, actor: TableActor) -> None:
        """Run a claimed table here."""
        self.actors[actor.table.id] = actor

    async def release(self, table_id: int) -> None:
        """Stop running a table here (closed, or given up): its lease goes."""
        self.actors.pop(table_id, None)
        if self.lease_of.pop(table_id, None) is not None:
            await self.leases.release(table_id)

    def local(self, table_id: int | None) -> TableActor | None:
        """The actor of a table run here, if any."""
        if table_id is None:
            return None
        return self.actors.get(table_id)

    async def find(self, table_id: int | None) -> TableActor:
        """The actor of ``table_id``; ``not_found`` if it does not exist (or is closed).

        A table nobody runs (its owner died, its lease lapsed) is claimed
        here: lease, then a new epoch in the database (which fences the old
        owner), then loaded with its stored deadlines.
        """
        where = await self.locate(table_id)
        if isinstance(where, TableActor):
            return where
        raise SalonError(
            "internal", Msg("error-table-elsewhere", table=str(table_id), node=where.node)
        )

    async def locate(self, table_id: int | None) -> TableActor | Lease:
        """The actor of ``table_id`` if this node runs it (claiming it if nobody does),
        else the lease of the node that runs it; ``not_found`` if it does not exist."""
        actor = self.local(table_id)
        if actor is not None and not actor.closed:
            return actor
        if table_id is None:
            raise SalonError("not_found", Msg("error-no-such-table"))
        lease = await self.leases.owner(table_id)
        if lease is None and self.load is not None and not self._ours(table_id):
            lease = await self._await_owner(table_id)  # (a lone node claims nothing)
        if lease is None or lease.node == self.node:
            actor = await self._claim_and_load(table_id)
            if actor is not None:
                return actor
            # another node claimed it in the meantime (two nodes saw it vacant): it runs there
            lease = await self.leases.owner(table_id)
            if lease is None or lease.node == self.node:
                raise SalonError("not_found", f"there is no table {table_id}")
        return lease

    async def claimed(self, table_id: int) -> None:
        """Wait until a claim of ``table_id`` under way here (if any) is over."""
        lock = self._claiming.get(table_id)
        if lock is not None:
            async with lock:
                pass

    async def still_open(self, table_id: int) -> bool:
        """Whether the table is open in the database, run by some node (True if that
        cannot be known now: a ``not_found`` from an owner letting the table go at that
        moment is worth another try). A lone node: a table it does not run is not."""
        if self.is_open is None:
            return False
        try:
            return await self.is_open(table_id)
        except Exception:
            return True

    def _ours(self, table_id: int) -> bool:
        """Whether this node runs the table, or is taking its lease back (its actor is
        being reloaded in place, :class:`~zanzibar.salon.reaper.LeaseKeeper`)."""
        return table_id in self.actors or table_id in self.lease_of or table_id in self._claiming

    async def _await_owner(self, table_id: int) -> Lease | None:
        """Nobody holds the table's lease: whom to ask, or None to claim it here.

        A lease that lapsed or was released (its owner died or left) is
        claimed at once. A lease the store does not remember at all (Redis
        restarted empty) may belong to an owner that is still running and
        takes it back at its next renewal: that owner is waited for (at most
        :attr:`grace` seconds), as the reaper does, so that a Redis restart
        moves no table (a node whose sockets follow a table elsewhere would
        otherwise claim it at once, and every table would change hands).
        Callers waiting for one table share one look-up.
        """
        waiting = self._awaiting.get(table_id)
        if waiting is None:
            waiting = asyncio.ensure_future(self._look_for_owner(table_id))
            self._awaiting[table_id] = waiting
            waiting.add_done_callback(lambda _f: self._awaiting.pop(table_id, None))
        return await asyncio.shield(waiting)

    async def _look_for_owner(self, table_id: int) -> Lease | None:
        vacant = await self.leases.vacant([table_id])
        if table_id not in vacant:  # taken meanwhile
            return await self.leases.owner(table_id)
        if vacant[table_id]:
            return None  # lapsed or released: its owner is gone
        if self.is_open is not None and not await self.is_open(table_id):
            return None  # no such open table: the claim answers not_found
        loop = asyncio.get_running_loop()
        end = loop.time() + self.grace
        while loop.time() < end:
            await asyncio.sleep(OWNER_POLL)
            lease = await self.leases.owner(table_id)
            if lease is not None:
                log.info("table %s: its owner %s took its forgotten lease back", table_id, lease)
                return lease
        log.warning(
            "table %s: nobody took its forgotten lease back in %.1f s; claiming it on %s",
            table_id,
            self.grace,
            self.node,
        )
        return None

    async def adopt(self, table_id: int) -> TableActor | None:
        """Claim and load a table nobody runs (the reaper's way in); None if another node won."""
        return await self._claim_and_load(table_id)

    async def _claim_and_load(self, table_id: int) -> TableActor | None:
        """Claim and load a table, one caller at a time: the others then find its actor.

        The lock stays while any caller holds or waits for it. It used to go when the
        first claim's load ended, before that claim let the lease go after a failed load
        (the database restarting): a caller that came then made a new lock and claimed
        beside the one waiting on the old, and the node ran two actors of one table (each
        pushing its history to the same sockets: a client got items twice).
        """
        if self.load is None:
            return None
        lock = self._claiming.setdefault(table_id, asyncio.Lock())
        self._claimers[table_id] = self._claimers.get(table_id, 0) + 1
        try:
            async with lock:  # two commands for one unclaimed table: one claim
                return await self._claim_and_load_now(table_id)
        finally:
            left = self._claimers.pop(table_id) - 1
            if left:
                self._claimers[table_id] = left
            else:
                self._claiming.pop(table_id, None)

    async def _claim_and_load_now(self, table_id: int) -> TableActor | None:
        assert self.load is not None
        actor = self.local(table_id)
        if actor is not None and not actor.closed:
            return actor
        if self.lease_of.get(table_id) is None and await self.claim(table_id) is None:
            return None
        try:
            actor = await self.load(table_id)
        except Exception:
            await self.release(table_id)
            raise
        if actor is None:
            await self.release(table_id)
            return None
        self.run(actor)
        return actor

    async def call(self, table_id: int | None, transition: Transition, cmd: Command) -> None:
        """Hand ``cmd`` to the table's actor and wait until it is applied (or refused).

        A table run by another node: the command goes there (:attr:`forward`).
        """
        where = await self.locate(table_id)
        if isinstance(where, TableActor):
            if cmd.fresh:  # applied here at its first try: never resent, nothing to remember
                cmd = cmd.without_id()
            await where.call(transition, cmd)
            return
        if self.forward is None or table_id is None or cmd.conn is None:
            raise SalonError(
                "internal", Msg("error-table-elsewhere", table=str(table_id), node=where.node)
            )
        await self.forward(where.node, table_id, cmd)


class TablesView(Mapping[int, Table]):
    """The tables run here, read-only, by id (``salon.tables``)."""

    def __init__(self, router: Router) -> None:
        self._actors = router.actors

    def __getitem__(self, table_id: int) -> Table:
        return self._actors[table_id].table

    def __iter__(self) -> Iterator[int]:
        return iter(self._actors)

    def __len__(self) -> int:
        return len(self._actors)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._actors
