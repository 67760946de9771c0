"""Row ids for the salon: PostgreSQL sequences shared by every node, or max+1 on SQLite.

On PostgreSQL each kind of id has its own sequence (``zanzibar_user_ids`` ...),
created by the migration ``0004`` and started after the largest id stored
then. ``nextval`` never hands a value out twice, to any process, even across
crashes; a crash or a failed insert leaves a hole, which is harmless. Nothing
here runs DDL: a node only ever asks for the next value. Not Redis ``INCR``:
Redis runs without persistence and may forget.

SQLite is one process (``./salon``): :func:`ids_for` counts up from the
largest stored id in memory (:class:`~zanzibar.cluster.local.LocalIds`), one
query per kind at start and none afterwards.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, func, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from zanzibar.cluster.ports import ID_KINDS, IdKind, Ids
from zanzibar.salon import models as m
from zanzibar.salon.persistence import Store, again_after_disconnect, reader_of

#: The id column each kind of id goes into.
ID_COLUMNS: dict[IdKind, Column[int]] = {
    "user": m.users.c.id,
    "table": m.tables.c.id,
    "game": m.games.c.id,
    "private": m.private_messages.c.id,
}


def sequence_name(kind: IdKind) -> str:
    """The PostgreSQL sequence of one kind (as migration 0004 names it)."""
    return f"zanzibar_{kind}_ids"


#: One prepared statement per kind (names come from this module, never from input).
_NEXTVAL = {kind: text(f"SELECT nextval('{sequence_name(kind)}')") for kind in ID_KINDS}


class PgIds:
    """Ids from one PostgreSQL database's sequences."""

    def __init__(self, engine: AsyncEngine) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("PgIds needs PostgreSQL; SQLite keeps LocalIds")
        # autocommit: a nextval needs no transaction around it (one round trip, not three)
        self.engine = reader_of(engine)

    async def next(self, kind: IdKind) -> int:
        statement = _NEXTVAL.get(kind)
        if statement is None:
            raise ValueError(f"unknown id kind: {kind!r}")
        rows = await self._fetch(statement, None)
        return int(rows[0][0])

    async def _fetch(self, statement: Any, params: Any) -> list[Any]:
        """The rows of ``statement``, once more on a new connection if its connection
        was found dead (a restart): at worst an id is skipped, never repeated."""
        for attempt in (0, 1):
            try:
                async with self.engine.connect() as conn:
                    return list((await conn.execute(statement, params)).fetchall())
            except Exception as exc:
                if not again_after_disconnect(exc, attempt):
                    raise
        raise AssertionError("unreachable")

    async def many(self, kind: IdKind, count: int) -> list[int]:
        """``count`` new ids of ``kind`` in one round trip (for a reserve taken ahead)."""
        if kind not in _NEXTVAL:
            raise ValueError(f"unknown id kind: {kind!r}")
        statement = text(f"SELECT nextval('{sequence_name(kind)}') FROM generate_series(1, :n)")
        rows = await self._fetch(statement, {"n": count})
        return [int(row[0]) for row in rows]


async def ids_for(store: Store) -> Ids:
    """The ids a salon on ``store`` hands out: sequences on PostgreSQL, else max+1 counters.

    Call after the store started (migrations applied).
    """
    if store.engine.dialect.name == "postgresql":
        return PgIds(store.engine)
    # here, not at the top: cluster.local imports salon.chat, whose package imports the
    # salon service, which imports this module
    from zanzibar.cluster.local import LocalIds

    start: dict[str, int] = {}
    for kind, column in ID_COLUMNS.items():
        rows = await store.read(select(func.max(column)))
        start[kind] = int(rows[0][0] or 0) + 1
    return LocalIds(start)
