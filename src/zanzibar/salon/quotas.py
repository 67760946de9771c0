"""Quotas on tables per account and per address, on one node or over the whole salon.

``tables_per_user`` and ``tables_per_address`` bound the open tables one
account, and all accounts of one address, may host; ``table_create_rate_user``
and ``table_create_rate_address`` how fast they may open them. A salon of one
process counts in memory (the tables it runs, the address each was opened
from, a :class:`~zanzibar.salon.limits.LocalGate`). A node of several counts
over every node (:class:`~zanzibar.salon.limits.SharedLimits`): the tables an
account hosts in the database (the only truth, and a table creation is rare),
those of an address in a shared set pruned of the closed ones when counted,
the rates in the shared gate. docs/cluster.md, "Limits for the whole salon".

The message and chat rates are kept where they are spent (the gateway, the
chat transition); on a node of several :func:`share_rates` makes them count
the other nodes' events too.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select

from zanzibar.salon import models as m
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import (
    Counts,
    Gate,
    Limits,
    LocalGate,
    SharedLimits,
    TokenBuckets,
    rates,
    share_buckets,
    share_limiter,
)
from zanzibar.salon.persistence import Store

log = logging.getLogger(__name__)


class TableQuotas:
    """Whether an account (from an address) may open one more table now."""

    def __init__(
        self,
        limits: Limits,
        store: Store,
        tables: Mapping[int, Any],
        shared: SharedLimits | None = None,
        many_nodes: bool = False,
    ) -> None:
        self.limits = limits
        #: Other nodes host tables too: count an account's tables in the database.
        self.many_nodes = many_nodes or shared is not None
        self.store = store
        #: The tables this node runs (``salon.tables``): what a lone node counts.
        self.tables = tables
        self.shared = shared
        self.gate: Gate = shared.gate if shared is not None else LocalGate()
        self._rate_user = rates(limits.table_create_rate_user)
        self._rate_address = rates(limits.table_create_rate_address)
        #: The address each table was opened from (in memory: quotas restart empty).
        self.table_address: dict[int, str] = {}

    async def check(self, user_id: int, address: str | None) -> None:
        """``quota`` if the account or address hosts its share of open tables;
        ``rate_limited`` (and nothing counted) if it opened too many lately."""
        hosted = await self._hosted(user_id)
        if hosted >= self.limits.tables_per_user:
            raise SalonError(
                "quota",
                f"you already host {hosted} tables, the most allowed;"
                " leave one before opening another",
            )
        checks = [(self._rate_user, f"user:{user_id}")]
        if not self.limits.exempt(address):
            assert address is not None
            held = await self._opened_from(address)
            if held >= self.limits.tables_per_address:
                log.warning("table refused: %s already hosts %d tables", address, held)
                raise SalonError(
                    "quota",
                    f"{held} tables are already open from your address, the most allowed;"
                    " close one before opening another",
                )
            checks.append((self._rate_address, f"address:{address}"))
        await self.gate.take(checks, "new tables")

    async def opened(self, table_id: int, address: str | None) -> None:
        """Table ``table_id`` was opened from ``address``."""
        if address is None:
            return
        self.table_address[table_id] = address
        if self.shared is not None and not self.limits.exempt(address):
            await self.shared.address_tables.add(address, table_id)

    def closed(self, table_id: int) -> None:
        """The table closed (or left this node): it no longer counts here."""
        self.table_address.pop(table_id, None)

    async def _hosted(self, user_id: int) -> int:
        """Open tables the account hosts: here, or on every node (the database)."""
        if not self.many_nodes:
            return sum(1 for table in self.tables.values() if table.host == user_id)
        rows = await self.store.read(
            select(func.count())
            .select_from(m.tables)
            .where((m.tables.c.host_id == user_id) & m.tables.c.closed.is_(None))
        )
        return int(rows[0][0])

    async def _opened_from(self, address: str) -> int:
        """Open tables opened from ``address``: here, or on every node."""
        if self.shared is None:
            return sum(
                1
                for tid, where in self.table_address.items()
                if where == address and tid in self.tables
            )
        ids = await self.shared.address_tables.tables(address)
        if not ids:
            return 0
        rows = await self.store.read(
            select(m.tables.c.id).where(m.tables.c.id.in_(ids) & m.tables.c.closed.is_(None))
        )
        still = {int(row.id) for row in rows}
        await self.shared.address_tables.forget(address, ids - still)
        return len(still)


def share_rates(
    counts: Counts, per_user: TokenBuckets, per_address: TokenBuckets, chat: Any
) -> None:
    """The message rates (per account, per address) and the chat rate, over every node."""
    share_buckets(counts, "mu", per_user)
    share_buckets(counts, "ma", per_address)
    share_limiter(counts, "chat", chat)


def follow_counts(counts: Counts, user_id: int, address: str | None) -> None:
    """A socket of ``user_id`` (from a limited ``address``, or None) signed in on this node:
    the other nodes' events of the account and address count here from now on."""
    counts.note("mu", str(user_id), 0)
    counts.note("chat", str(user_id), 0)
    if address is not None:
        counts.note("ma", address, 0)
