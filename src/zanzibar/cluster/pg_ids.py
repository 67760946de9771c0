"""Row ids from PostgreSQL sequences: unique for the whole salon, whichever node asks.

One sequence per kind (``zanzibar_user_ids`` ...), created on first use and
started above the largest id already stored, so a salon that ran on max+1
ids until now carries on without a clash. Creation runs under a transaction
advisory lock: two nodes starting together cannot both set the start (one
could otherwise rewind the sequence below ids the other already handed out).
``nextval`` never hands a value out twice, even across crashes; a crash may
leave a hole, which is harmless. Not Redis ``INCR``: Redis may forget.

The sequences belong in a migration in the end (docs/cluster.md); until then
this module creates them itself, idempotently.
"""

from __future__ import annotations

from sqlalchemy import Column, Table, text
from sqlalchemy.ext.asyncio import AsyncEngine

from zanzibar.cluster.ports import ID_KINDS, IdKind
from zanzibar.salon import models as m

#: The id column each kind of id goes into.
ID_COLUMNS: dict[IdKind, Column[int]] = {
    "user": m.users.c.id,
    "table": m.tables.c.id,
    "game": m.games.c.id,
    "private": m.private_messages.c.id,
}
#: Any constant: the advisory lock taken while sequences are created.
_LOCK = 0x7A616E7A


def sequence_name(kind: IdKind) -> str:
    return f"zanzibar_{kind}_ids"


class PgIds:
    """Ids from one PostgreSQL database's sequences."""

    def __init__(self, engine: AsyncEngine) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("PgIds needs PostgreSQL; SQLite keeps LocalIds")
        self.engine = engine
        self._ready = False

    async def ensure(self) -> None:
        """Create the sequences if missing, each above the largest stored id."""
        if self._ready:
            return
        async with self.engine.begin() as conn:
            await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK})
            for kind in ID_KINDS:
                name = sequence_name(kind)
                await conn.execute(text(f"CREATE SEQUENCE IF NOT EXISTS {name} AS BIGINT"))
                column = ID_COLUMNS[kind]
                table = column.table
                assert isinstance(table, Table)
                # raise the sequence to the largest stored id, never lower it
                await conn.execute(
                    text(
                        f"SELECT setval('{name}', top) FROM "
                        f"(SELECT MAX({column.name}) AS top FROM {table.name}) AS s, {name} "
                        "WHERE top IS NOT NULL AND top >= last_value"
                    )
                )
        self._ready = True

    async def next(self, kind: IdKind) -> int:
        if kind not in ID_COLUMNS:
            raise ValueError(f"unknown id kind: {kind!r}")
        await self.ensure()
        async with self.engine.connect() as conn:
            value = (await conn.execute(text(f"SELECT nextval('{sequence_name(kind)}')"))).scalar()
        return int(value)  # type: ignore[arg-type]
