"""Which actor runs a table, and handing it a command.

A table is run by exactly one node at a time, the holder of its lease
(:class:`zanzibar.cluster.ports.Leases`). The router keeps the actors of the
tables this node holds; a command for one of them goes straight into its
inbox, with no encoding. For any other table it asks the leases who owns it:
nobody means the table does not exist (or is closed); another node means the
command must travel over the :class:`zanzibar.cluster.ports.Link` to that
node, which this salon does not do yet (a single node holds every table: the
in-process :class:`zanzibar.cluster.local.LocalLeases` grants them all).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from zanzibar.cluster.ports import Lease, Leases, Link
from zanzibar.salon.actor import TableActor, Transition
from zanzibar.salon.changes import Command
from zanzibar.salon.errors import SalonError
from zanzibar.salon.tables import Table


class Router:
    """The actors of the tables this node owns, and the way to the others."""

    def __init__(self, leases: Leases, link: Link | None = None) -> None:
        self.leases = leases
        self.link = link
        #: The tables this node runs, by id.
        self.actors: dict[int, TableActor] = {}
        #: The lease under which each local table runs.
        self.lease_of: dict[int, Lease] = {}

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
        """The actor of ``table_id``; ``not_found`` if no node runs it."""
        actor = self.local(table_id)
        if actor is not None and not actor.closed:
            return actor
        lease = await self.leases.owner(table_id) if table_id is not None else None
        if lease is None or lease.node == self.node:
            raise SalonError("not_found", f"there is no table {table_id}")
        raise SalonError(
            "internal",
            f"table {table_id} is run by node {lease.node}, which this node cannot reach;"
            " nothing was changed",
        )

    async def call(self, table_id: int | None, transition: Transition, cmd: Command) -> None:
        """Hand ``cmd`` to the table's actor and wait until it is applied (or refused)."""
        actor = await self.find(table_id)
        await actor.call(transition, cmd)


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
