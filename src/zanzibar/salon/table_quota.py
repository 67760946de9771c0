"""How many tables a person and an address may host, and how fast they may open them.

Quotas and rates against abuse (:class:`zanzibar.salon.limits.Limits`): at most
``tables_per_user`` open tables hosted per account, ``tables_per_address`` per
address, and ``table_create_rate_*`` new tables per minute and hour. Tables per
account are counted over every node (the lobby's summaries, ``hosted``), per
address over the tables this node runs, in memory (quotas restart empty).

Apart from the salon's façade so that the gateway, which asks before creating a
table, depends on this small part rather than on the whole salon.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from zanzibar.salon.accounts import User
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import Limits, RateGate, rates
from zanzibar.salon.tables import Table

log = logging.getLogger(__name__)


class TableQuota:
    """The table quotas of one node, over the tables it runs."""

    def __init__(self, limits: Limits, tables: Mapping[int, Table]) -> None:
        self.limits = limits
        self.tables = tables
        self.gate = RateGate()
        self._rate_user = rates(limits.table_create_rate_user)
        self._rate_address = rates(limits.table_create_rate_address)
        #: The address each table was created from.
        self.address: dict[int, str] = {}
        #: How many open tables an account hosts (on every node, once the lobby is wired).
        self.hosted: Callable[[int], int] = lambda user_id: sum(
            1 for table in self.tables.values() if table.host == user_id
        )

    def check(self, user: User, address: str | None) -> None:
        """``quota`` if the account or address hosts its share of open tables;
        ``rate_limited`` (and nothing counted) if it created too many lately."""
        hosted = self.hosted(user.id)
        if hosted >= self.limits.tables_per_user:
            raise SalonError(
                "quota",
                f"you already host {hosted} tables, the most allowed;"
                " leave one before opening another",
            )
        checks = [(self._rate_user, f"user:{user.id}")]
        if not self.limits.exempt(address):
            held = sum(
                1 for tid, where in self.address.items() if where == address and tid in self.tables
            )
            if held >= self.limits.tables_per_address:
                log.warning("table refused: %s already hosts %d tables", address, held)
                raise SalonError(
                    "quota",
                    f"{held} tables are already open from your address, the most allowed;"
                    " close one before opening another",
                )
            checks.append((self._rate_address, f"address:{address}"))
        self.gate.take(checks, "new tables")

    def opened(self, table_id: int, address: str | None) -> None:
        """A table was created from ``address`` (None: unknown, not counted)."""
        if address is not None:
            self.address[table_id] = address

    def closed(self, table_id: int) -> None:
        """A table closed: it no longer counts against its address."""
        self.address.pop(table_id, None)
