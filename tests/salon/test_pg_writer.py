"""The PostgreSQL writer on the asyncpg connection (``salon/pg_writer.py``): what it stores
is what SQLAlchemy stores, the fence still refuses a stale version (alone and merged), and a
driver error reaches the salon as SQLAlchemy's exception."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _pg_kit import ROW, USER, fence, store
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from zanzibar.salon import models as m
from zanzibar.salon.persistence import Fenced, Store, merge_inserts
from zanzibar.salon.pg_writer import _merge_update_sql
from zanzibar.salon.tablestore import FENCE

pytestmark = pytest.mark.anyio

__all__ = ["store"]  # the fixture, from _pg_kit


def test_fenced_writes_merge_into_one_update_from_values() -> None:
    one = (
        "UPDATE tables SET state=$1::VARCHAR, version=$2::INTEGER WHERE tables.id = "
        "$3::INTEGER AND tables.epoch = $4::INTEGER AND tables.version = $5::INTEGER"
    )
    assert _merge_update_sql(one, 5, 2) == (
        "UPDATE tables SET state=zv.p0, version=zv.p1 FROM (VALUES "
        "($1::VARCHAR, $2::INTEGER, $3::INTEGER, $4::INTEGER, $5::INTEGER), "
        "($6::VARCHAR, $7::INTEGER, $8::INTEGER, $9::INTEGER, $10::INTEGER)) "
        "AS zv (p0, p1, p2, p3, p4) WHERE tables.id = zv.p2 AND tables.epoch = zv.p3 "
        "AND tables.version = zv.p4"
    )
    assert _merge_update_sql(one + " RETURNING tables.id", 5, 2) is None
    assert _merge_update_sql("DELETE FROM tables WHERE id = $1::INTEGER", 1, 2) is None


@pytest.mark.live
async def test_the_driver_path_stores_what_sqlalchemy_stores(store: Store) -> None:
    item = {"game_id": 3, "event": {"kind": "rolled", "data": {"dice": [4, 2, 1]}}, "t": "é☃"}

    def history(seq: int) -> dict[str, Any]:
        return {"table_id": 7, "seq": seq, "channel": "game", "item": item, "created": 3.0}

    await store.write(
        [
            (insert(m.users), USER),
            (insert(m.tables), {**ROW, "id": 7, "epoch": 1, "version": 1}),
            (insert(m.history), [history(1), history(2)]),
        ]
    )
    seats = [{"user": 1, "name": "Zoé ☃", "bot": None}]
    await store.write([(FENCE, fence(7, 1, "playing", seats=seats, hold=False))])
    async with store.engine.begin() as conn:  # the same through SQLAlchemy
        await conn.execute(insert(m.users), {**USER, "id": 2, "name_key": "zoe2"})
        await conn.execute(insert(m.tables), {**ROW, "id": 8, "epoch": 1, "version": 1})
        await conn.execute(insert(m.history), [{**history(1), "table_id": 8}])
        await conn.execute(FENCE, fence(8, 1, "playing", seats=seats, hold=False))
    text = (
        "SELECT version, state, seats::text, options::text, hold, pg_typeof(created)::text,"
        " created FROM tables ORDER BY id"
    )
    async with store.engine.connect() as conn:
        tables = (await conn.exec_driver_sql(text)).all()
        items = (
            await conn.exec_driver_sql(
                "SELECT table_id, seq, item::jsonb, created FROM history ORDER BY table_id, seq"
            )
        ).all()
        users = (await conn.execute(select(m.users).order_by(m.users.c.id))).all()
    assert tables[0][0:2] == (2, "playing")
    assert tables[0][2:] == tables[1][2:]  # the same text, types and values
    assert [row[2:] for row in items] == [(item, 3.0)] * 3
    mine, theirs = (dict(u._mapping) for u in users)
    assert {**mine, "id": 2, "name_key": "zoe2"} == theirs
    assert mine["guest"] is True and mine["created"] == 1.5 and mine["name"] == "Zoé"


@pytest.mark.live
async def test_merged_fences_still_fence_each_table(store: Store) -> None:
    await store.write([(insert(m.users), USER)])
    ids = range(7, 12)
    await store.write([(insert(m.tables), {**ROW, "id": t, "epoch": 1, "version": 1}) for t in ids])
    merged = merge_inserts([[(FENCE, fence(7, 1, "a"))], [(FENCE, fence(8, 1, "b"))]])
    assert len(merged) == 1 and len(merged[0][1]) == 2
    commits = store.commits
    await asyncio.gather(*(store.write([(FENCE, fence(t, 1, "playing"))]) for t in ids))
    assert store.commits == commits + 1  # one batch: one statement for the five
    results = await asyncio.gather(
        *(store.write([(FENCE, fence(t, 1 if t == 9 else 2, "finished"))]) for t in ids),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == ["NoneType"] * 2 + ["Fenced"] + ["NoneType"] * 2
    with pytest.raises(Fenced):  # alone, too
        await store.write([(FENCE, fence(7, 1, "stale"))])
    stored = await store.read(select(m.tables.c.id, m.tables.c.version, m.tables.c.state))
    assert sorted(tuple(r) for r in stored) == [
        (7, 3, "finished"),
        (8, 3, "finished"),
        (9, 2, "playing"),
        (10, 3, "finished"),
        (11, 3, "finished"),
    ]


@pytest.mark.live
async def test_statements_built_per_call_and_driver_errors(store: Store) -> None:
    await store.write([(insert(m.users), USER)])
    await store.write(
        [(insert(m.tables), {**ROW, "id": t, "epoch": 1, "version": 1}) for t in (7, 8)]
    )
    rows = m.table_members
    await store.write([(insert(rows), [{"table_id": 7, "user_id": 1, "seat": s} for s in (0,)])])
    with pytest.raises(IntegrityError):  # the same member twice: SQLAlchemy's exception
        await store.write([(insert(rows), {"table_id": 7, "user_id": 1, "seat": 2})])
    # a delete with an IN list and an update built per call, in one transaction
    await store.write(
        [
            (delete(rows).where((rows.c.table_id == 7) & rows.c.user_id.in_([1, 5])), None),
            (
                update(m.tables).where(m.tables.c.id.in_([8, 99])),
                {"closed": 9.5, "state": "closed"},
            ),
        ]
    )
    assert await store.read(select(rows.c.user_id)) == []
    closed = await store.read(select(m.tables.c.id, m.tables.c.closed).order_by(m.tables.c.id))
    assert [tuple(r) for r in closed] == [(7, None), (8, 9.5)]
    # a failed batch changed nothing and the writer goes on
    with pytest.raises(IntegrityError):
        await store.write([(FENCE, fence(7, 1, "playing")), (insert(m.users), USER)])
    assert [tuple(r) for r in await store.read(select(m.tables.c.version))] == [(1,), (1,)]
    await store.write([(FENCE, fence(7, 1, "playing"))])


@pytest.mark.live
async def test_the_writer_takes_a_new_connection_after_a_restart(
    postgres_server: Any, store: Store
) -> None:
    """The kept connection closed by a restart (asyncpg saw it close, so even starting a
    transaction on it fails at once): the next write goes through a new one."""
    await store.write([(insert(m.users), USER)])
    conn = store._pg._conn
    assert conn is not None
    raw = (await conn.get_raw_connection()).driver_connection
    postgres_server.restart()
    for _ in range(200):  # the driver hears the server close the connection
        if raw.is_closed():
            break
        await asyncio.sleep(0.05)
    assert raw.is_closed()
    await store.write([(insert(m.users), {**USER, "id": 2, "name_key": "zoe2"})])
    assert sorted(r[0] for r in await store.read(select(m.users.c.id))) == [1, 2]
