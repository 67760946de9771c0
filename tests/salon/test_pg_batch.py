"""A PostgreSQL group commit as one statement (``salon/pg_batch.py``): its SQL, the shapes
it refuses, and on a real server: all or nothing, the fence, foreign keys between parts."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _pg_kit import ROW, USER, fence, store
from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from zanzibar.salon import models as m
from zanzibar.salon.persistence import Fenced, Store
from zanzibar.salon.pg_batch import FENCED_UPDATE, INSERT, one_statement_sql, part_sql
from zanzibar.salon.tablestore import FENCE

pytestmark = pytest.mark.anyio

__all__ = ["store"]  # the fixture, from _pg_kit

UPDATE_SQL = (
    "UPDATE tables SET state=$1::VARCHAR, seats=$2::JSON, version=$3::INTEGER WHERE "
    "tables.id = $4::INTEGER AND tables.epoch = $5::INTEGER AND tables.version = $6::INTEGER"
)
INSERT_SQL = (
    "INSERT INTO history (table_id, seq, channel, item, created) "
    "VALUES ($1::INTEGER, $2::INTEGER, $3::VARCHAR, $4::JSON, $5::FLOAT)"
)


def test_a_batch_is_one_statement_over_arrays() -> None:
    sql = one_statement_sql([(FENCED_UPDATE, UPDATE_SQL, 6), (INSERT, INSERT_SQL, 5)])
    assert sql == (
        "WITH w0 AS (UPDATE tables SET state=z0.p0::VARCHAR, seats=z0.p1::JSON, "
        "version=z0.p2::INTEGER FROM unnest($1::VARCHAR[], $2::TEXT[], $3::INTEGER[], "
        "$4::INTEGER[], $5::INTEGER[], $6::INTEGER[]) AS z0 (p0, p1, p2, p3, p4, p5) "
        "WHERE tables.id = z0.p3::INTEGER AND tables.epoch = z0.p4::INTEGER "
        "AND tables.version = z0.p5::INTEGER RETURNING 1), "
        "w1 AS (INSERT INTO history (table_id, seq, channel, item, created) "
        "SELECT z1.p0::INTEGER, z1.p1::INTEGER, z1.p2::VARCHAR, z1.p3::JSON, z1.p4::FLOAT "
        "FROM unnest($7::INTEGER[], $8::INTEGER[], $9::VARCHAR[], $10::TEXT[], $11::FLOAT[]) "
        "AS z1 (p0, p1, p2, p3, p4)) "
        "SELECT CASE WHEN n = $12::INTEGER THEN n ELSE ('zanzibar fence: ' || n)::INTEGER END "
        "FROM (SELECT (SELECT count(*) FROM w0) AS n) AS zc"
    )
    # nothing fenced: nothing checked
    assert one_statement_sql([(INSERT, INSERT_SQL, 5)]) == (
        "WITH w0 AS (INSERT INTO history (table_id, seq, channel, item, created) SELECT "
        "z0.p0::INTEGER, z0.p1::INTEGER, z0.p2::VARCHAR, z0.p3::JSON, z0.p4::FLOAT FROM "
        "unnest($1::INTEGER[], $2::INTEGER[], $3::VARCHAR[], $4::TEXT[], $5::FLOAT[]) AS z0 "
        "(p0, p1, p2, p3, p4)) SELECT 0"
    )


@pytest.mark.parametrize(
    ("kind", "sql", "width"),
    [
        (INSERT, "INSERT INTO t (a) VALUES ($1::INTEGER[])", 1),  # an array column
        (INSERT, "INSERT INTO t (a) VALUES ($1::NUMERIC(4))", 1),  # a cast it does not know
        (INSERT, "INSERT INTO t (a) VALUES ($1)", 1),  # no cast at all
        (INSERT, "INSERT INTO t (a, b) VALUES ($1::INTEGER, $1::INTEGER)", 2),
        (INSERT, "INSERT INTO t (a) VALUES ($1::INTEGER) RETURNING t.id", 1),
        (INSERT, "INSERT INTO t (a) VALUES ($1::INTEGER), ($2::INTEGER)", 2),
        (FENCED_UPDATE, "UPDATE t SET a=$1::INTEGER", 1),  # no WHERE
        (FENCED_UPDATE, "UPDATE t SET a=$1::INTEGER WHERE t.id = $2::INTEGER RETURNING t.a", 2),
        (FENCED_UPDATE, "DELETE FROM t WHERE t.id = $1::INTEGER", 1),
    ],
)
def test_shapes_it_does_not_know_stay_statements_of_their_own(
    kind: str, sql: str, width: int
) -> None:
    assert part_sql(kind, sql, width, "z0", 1) is None
    assert one_statement_sql([(kind, sql, width)]) is None


def history(table: int, seq: int) -> dict[str, Any]:
    item = {"said": "l'été ☃", "n": seq, "none": None}
    return {"table_id": table, "seq": seq, "channel": "game", "item": item, "created": 3.5}


async def stored_history(store: Store) -> list[tuple[int, int]]:
    rows = await store.read(select(m.history.c.table_id, m.history.c.seq))
    return sorted((r[0], r[1]) for r in rows)


@pytest.mark.live
async def test_a_new_table_and_its_history_are_one_statement(store: Store) -> None:
    """The history rows refer to a table inserted by the same statement: the foreign key
    is checked at its end. JSON, NULL and text come back as given."""
    await store.write(
        [
            (insert(m.users), USER),
            (insert(m.tables), {**ROW, "id": 7, "epoch": 1, "version": 1}),
            (insert(m.history), [history(7, 1), history(7, 2)]),
        ]
    )
    assert (store._pg.one_statement, store._pg.transactions) == (1, 0)
    items = await store.read(select(m.history.c.item, m.history.c.created))
    assert [tuple(r) for r in items] == [(history(7, 1)["item"], 3.5), (history(7, 2)["item"], 3.5)]
    # a history item of a table that does not exist: the whole statement is refused
    with pytest.raises(IntegrityError):
        await store.write([(FENCE, fence(7, 1, "playing")), (insert(m.history), history(99, 1))])
    assert [tuple(r) for r in await store.read(select(m.tables.c.version))] == [(1,)]


@pytest.mark.live
async def test_a_stale_fence_stores_nothing_of_its_statement(store: Store) -> None:
    await store.write([(insert(m.users), USER)])
    await store.write(
        [(insert(m.tables), {**ROW, "id": t, "epoch": 1, "version": 1}) for t in (7, 8)]
    )
    with pytest.raises(Fenced):  # alone: its history is not stored either
        await store.write([(FENCE, fence(7, 5, "stale")), (insert(m.history), history(7, 1))])
    assert await stored_history(store) == []
    # in a batch of three jobs, one stale: the batch fails whole, then each job alone
    one = store._pg.one_statement
    results = await asyncio.gather(
        store.write([(FENCE, fence(7, 1, "playing")), (insert(m.history), history(7, 1))]),
        store.write([(FENCE, fence(8, 4, "stale")), (insert(m.history), history(8, 1))]),
        store.write([(insert(m.history), history(7, 2))]),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == ["NoneType", "Fenced", "NoneType"]
    assert store._pg.one_statement == one + 4  # the batch, then the three alone
    assert await stored_history(store) == [(7, 1), (7, 2)]
    versions = await store.read(select(m.tables.c.id, m.tables.c.version, m.tables.c.state))
    assert sorted(tuple(r) for r in versions) == [(7, 2, "playing"), (8, 1, "waiting")]


@pytest.mark.live
async def test_other_statements_keep_a_transaction(store: Store) -> None:
    await store.write([(insert(m.users), USER)])
    await store.write([(insert(m.tables), {**ROW, "id": 7, "epoch": 1, "version": 1})])
    members = m.table_members
    await store.write([(insert(members), {"table_id": 7, "user_id": 1, "seat": 0})])
    before = store._pg.transactions
    await store.write(
        [
            (FENCE, fence(7, 1, "playing")),
            (delete(members).where(members.c.table_id == 7), None),
            (insert(members), {"table_id": 7, "user_id": 1, "seat": 2}),
        ]
    )
    assert store._pg.transactions == before + 1
    seats = await store.read(select(members.c.seat))
    assert [r[0] for r in seats] == [2]


@pytest.mark.live
async def test_the_fenced_rows_are_found_by_their_key(store: Store) -> None:
    """The writer's session plans once and joins by nested loop: the batch's fenced rows
    come from the primary key, not from a scan of every table (the planner's own choice
    for a few rows estimated at ten: a hash join over a sequential scan)."""
    await store.write([(insert(m.users), USER)])
    rows = [{**ROW, "id": t, "epoch": 1, "version": 1} for t in range(1, 401)]
    await store.write([(insert(m.tables), rows)])
    await store.write([(FENCE, fence(7, 1, "playing"))])
    conn = store._pg._conn
    assert conn is not None
    raw = (await conn.get_raw_connection()).driver_connection
    assert await raw.fetchval("SHOW plan_cache_mode") == "force_generic_plan"
    await raw.execute("ANALYZE tables")
    update = (
        "UPDATE tables SET state = z.s FROM unnest($1::INTEGER[], $2::VARCHAR[]) AS z (i, s)"
        " WHERE tables.id = z.i"
    )
    plan = await raw.fetch(f"EXPLAIN {update}", [7, 8], ["a", "b"])
    text = "\n".join(r[0] for r in plan)
    assert "Index Scan using tables_pkey" in text and "Seq Scan on tables" not in text, text
