"""A PostgreSQL group commit as one statement (``salon/pg_batch.py``): its SQL, the shapes
it refuses, and on a real server: all or nothing, the fence, foreign keys between parts."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest
from _pg_kit import ROW, USER, fence, store
from sqlalchemy import Text, cast, delete, insert, select
from sqlalchemy.exc import IntegrityError

from zanzibar.salon import models as m
from zanzibar.salon.history import JSONText
from zanzibar.salon.persistence import Fenced, Store, dump_json
from zanzibar.salon.pg_batch import (
    FENCED_UPDATE,
    INSERT,
    OneStatement,
    Part,
    one_statement_sql,
    part_sql,
    processed,
)
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


UPDATE_KEYS = ("state", "seats", "version", "fence_id", "fence_epoch", "fence_version")
INSERT_KEYS = ("table_id", "seq", "channel", "item", "created")


def test_a_batch_is_one_statement_over_arrays() -> None:
    sql = one_statement_sql(
        [(FENCED_UPDATE, UPDATE_SQL, UPDATE_KEYS), (INSERT, INSERT_SQL, INSERT_KEYS)]
    )
    assert sql == (
        'WITH w0 AS (UPDATE tables SET state=z0."state"::VARCHAR, seats=z0."seats"::JSON, '
        'version=z0."version"::INTEGER FROM unnest($1::VARCHAR[], $2::TEXT[], $3::INTEGER[], '
        '$4::INTEGER[], $5::INTEGER[], $6::INTEGER[]) AS z0 ("state", "seats", "version", '
        '"fence_id", "fence_epoch", "fence_version") WHERE tables.id = z0."fence_id"::INTEGER '
        'AND tables.epoch = z0."fence_epoch"::INTEGER AND tables.version = '
        'z0."fence_version"::INTEGER RETURNING 1), '
        "w1 AS (INSERT INTO history (table_id, seq, channel, item, created) "
        'SELECT z1."table_id"::INTEGER, z1."seq"::INTEGER, z1."channel"::VARCHAR, '
        'z1."item"::JSON, z1."created"::FLOAT FROM unnest($7::INTEGER[], $8::INTEGER[], '
        '$9::VARCHAR[], $10::TEXT[], $11::FLOAT[]) AS z1 ("table_id", "seq", "channel", '
        '"item", "created")) '
        "SELECT CASE WHEN n = $12::INTEGER THEN n ELSE ('zanzibar fence: ' || n)::INTEGER END "
        "FROM (SELECT (SELECT count(*) FROM w0) AS n) AS zc"
    )
    # nothing fenced: nothing checked
    assert one_statement_sql([(INSERT, INSERT_SQL, INSERT_KEYS)]) == (
        "WITH w0 AS (INSERT INTO history (table_id, seq, channel, item, created) SELECT "
        'z0."table_id"::INTEGER, z0."seq"::INTEGER, z0."channel"::VARCHAR, z0."item"::JSON, '
        'z0."created"::FLOAT FROM unnest($1::INTEGER[], $2::INTEGER[], $3::VARCHAR[], '
        '$4::TEXT[], $5::FLOAT[]) AS z0 ("table_id", "seq", "channel", "item", "created")) '
        "SELECT 0"
    )
    # a key that is not a plain name is not made a column
    assert part_sql(INSERT, INSERT_SQL, ("table_id", "seq", 'x"y', "item", "c"), "z0", 1) is None


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
    keys = tuple(f"k{i}" for i in range(width))
    assert part_sql(kind, sql, keys, "z0", 1) is None
    assert one_statement_sql([(kind, sql, keys)]) is None


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


#: Values whose stored form a JSON text could change: floats at the edges of their
#: printing, text JSON must escape, a JSON column's None (JSON's null, not SQL's NULL),
#: SQL NULLs, big integers, booleans.
EDGY_TEXT = 'quote " backslash \\ slash / tab \t newline \n \x01 \x7f é ☃ 𝄞 \u2028'
EDGY_ROW = {**ROW, "options": {"t": EDGY_TEXT, "f": 0.1 + 0.2, "n": None, "k": [1e-300, -0.0]}}
EDGY_ROW |= {"preset": EDGY_TEXT, "invite": None, "created": 1732725600.1234567}
EDGY_ROW |= {"clock_deadline": 5e-324, "pause_until": 1.7976931348623157e308, "dropped": None}
EDGY_ROW |= {"seats": [{"name": EDGY_TEXT, "score": -(2**53) + 1}], "clock": -(2**31)}
COLUMNS = (
    "SELECT id, game, preset, options::text, capacity, private, invite, host_id, state, hold,"
    " clock, game_id, seats::text, banned::text, float8send(created), closed, epoch, version,"
    " float8send(clock_deadline), float8send(pause_until), dropped::text, dropped IS NULL"
    " FROM tables WHERE id = $1"
)


async def stored_row(store: Store, table: int) -> tuple[Any, ...]:
    async with store.engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        assert raw is not None
        return tuple(await raw.fetchrow(COLUMNS, table))


@pytest.mark.live
async def test_json_rows_store_what_typed_parameters_store(store: Store) -> None:
    """The same rows through the one statement (rows as JSON) and through SQLAlchemy
    (typed parameters): the same bytes in every column, floats to the bit, JSON texts,
    NULLs and JSON's null apart; then a fenced change of JSON, float and NULL columns."""
    await store.write([(insert(m.users), USER)])
    one = store._pg.one_statement
    await store.write([(insert(m.tables), {**EDGY_ROW, "id": 7, "epoch": 1, "version": 1})])
    assert store._pg.one_statement == one + 1
    async with store.engine.begin() as conn:
        await conn.execute(insert(m.tables), {**EDGY_ROW, "id": 8, "epoch": 1, "version": 1})
    mine, theirs = await stored_row(store, 7), await stored_row(store, 8)
    assert mine[1:] == theirs[1:]
    assert mine[-2:] == ("null", False)  # JSON's null, not SQL's NULL
    assert mine[6] is None and mine[15] is None  # invite, closed: SQL's NULL
    changed = {"seats": [{"name": '☃ \\ "', "score": 1.5}], "options": {"x": [None]}}
    changed |= {"closed": 0.30000000000000004, "preset": None, "dropped": {"0": 2.5}}
    await store.write([(FENCE, fence(7, 1, "playing", **changed))])
    assert store._pg.one_statement == one + 2
    async with store.engine.begin() as conn:
        await conn.execute(FENCE, fence(8, 1, "playing", **changed))
    mine, theirs = await stored_row(store, 7), await stored_row(store, 8)
    assert mine[1:] == theirs[1:] and mine[17] == 2  # version
    history_item = {**history(7, 1), "item": JSONText('{"said":"é \\" ☃","n":1}')}
    await store.write([(insert(m.history), [history_item, history(7, 2)])])
    texts = await store.read(select(cast(m.history.c.item, Text)).order_by(m.history.c.seq))
    assert [r[0] for r in texts] == ['{"said":"é \\" ☃","n":1}', dump_json(history(7, 2)["item"])]


@pytest.mark.live
@pytest.mark.parametrize("odd", [math.inf, -math.inf, math.nan, 10**30])
async def test_floats_at_the_edges_are_stored_exactly_by_the_one_statement(
    store: Store, odd: float
) -> None:
    await store.write([(insert(m.users), USER)])
    await store.write([(insert(m.tables), {**ROW, "id": 7, "epoch": 1, "version": 1})])
    before = (store._pg.one_statement, store._pg.transactions)
    await store.write([(FENCE, fence(7, 1, "playing", clock_deadline=odd))])
    assert (store._pg.one_statement, store._pg.transactions) == (before[0] + 1, before[1])
    stored = await store.read(select(m.tables.c.clock_deadline, m.tables.c.version))
    value, version = stored[0]
    assert version == 2 and (value == float(odd) or (math.isnan(odd) and math.isnan(value)))


def test_the_arguments_are_columns_taken_whole() -> None:
    """One list per parameter; a JSON column's values as the text its processor makes:
    a JSONText as it is, dicts and lists by orjson as dump_json writes them, a plain
    string through the processor; a column without processor as it is."""
    seats = lambda value: f"<{value}>"  # noqa: E731 - a processor that is not dump_json
    fenced = Part(FENCED_UPDATE, ("seats", "closed"), (seats, None), (False, False))
    inserted = Part(INSERT, ("seq", "item"), (None, dump_json), (False, True))
    one = OneStatement("...", (fenced, inserted))
    rows = [
        [{"seats": [1], "closed": None}, {"seats": [2], "closed": 2.5}],
        [{"seq": 1, "item": JSONText('{"a": 1}')}, {"seq": 2, "item": {"b": [None, 0.5]}}],
    ]
    assert one.args(rows) == [
        ["<[1]>", "<[2]>"],
        [None, 2.5],
        [1, 2],
        ['{"a": 1}', '{"b":[null,0.5]}'],
        2,  # two fenced rows
    ]
    texts = [JSONText("[1]"), "a text", 10**30, None, (1, "é")]
    assert processed(texts, dump_json, True) == [dump_json(text) for text in texts]
    assert processed(texts[2:], dump_json, True) == ["1" + "0" * 30, "null", '[1,"é"]']
