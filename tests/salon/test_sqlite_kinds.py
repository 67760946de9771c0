"""The SQLite writer knows each statement object's kind once, and runs each kind its way."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, delete, insert, select, update

from zanzibar.salon import models as m
from zanzibar.salon.batching import returning
from zanzibar.salon.sqlite_ops import INSERT, OTHER, UPDATE, InsertPlans, execute_sync
from zanzibar.salon.tablestore import FENCE, INSERT_HISTORY


def _engine() -> Any:
    engine = create_engine("sqlite://")
    m.metadata.create_all(engine)
    return engine


def test_each_statement_s_kind_is_found_once_and_is_what_the_writer_runs() -> None:
    plans = InsertPlans()
    built_per_call = update(m.tables).where(m.tables.c.id == 1)
    returning_insert, _rows = returning(insert(m.users).returning(m.users.c.id))
    with _engine().connect() as conn:
        assert plans.kind_of(conn, INSERT_HISTORY) is INSERT
        assert plans.kind_of(conn, FENCE) is UPDATE
        assert plans.kind_of(conn, built_per_call) is OTHER  # not built once
        assert plans.kind_of(conn, returning_insert) is OTHER  # its rows are read back
        assert plans.kind_of(conn, insert(m.users).values(id=1)) is OTHER  # inline values
        assert plans.kind_of(conn, delete(m.history)) is OTHER
        kinds = dict(plans._kinds)
        assert kinds[INSERT_HISTORY] is INSERT and len(kinds) == 6
        # asked again, the kept answer (the statement is immutable)
        assert plans.kind_of(conn, INSERT_HISTORY) is INSERT and len(plans._kinds) == 6
        # statements built per call only pass through: the cache stays bounded
        for i in range(600):
            plans.kind_of(conn, update(m.tables).where(m.tables.c.id == i))
        assert len(plans._kinds) <= 257
    # another dialect (another store's engine) starts anew
    with _engine().connect() as other:
        plans.kind_of(other, FENCE)
        assert list(plans._kinds) == [FENCE]


def test_a_plan_is_found_by_statement_and_keys_and_rows_in_any_key_order_share_it() -> None:
    plans = InsertPlans()
    user = {"id": 1, "name": "a", "name_key": "a", "password_hash": None}
    user |= {"lang": "en", "guest": True, "created": 0.0}
    with _engine().connect() as conn:
        with conn.begin():
            execute_sync(conn, [(insert(m.users), user)], plans)
            statement = insert(m.users)
            # the same keys in another order: one plan, each value in its column
            second = {**user, "id": 2, "name_key": "b"}
            third = dict(reversed(list({**user, "id": 3, "name_key": "c", "lang": "fr"}.items())))
            execute_sync(conn, [(statement, [second, third])], plans)
            execute_sync(conn, [(statement, {**user, "id": 4, "name_key": "d"})], plans)
        rows = conn.execute(select(m.users.c.id, m.users.c.lang).order_by(m.users.c.id)).all()
    assert [tuple(r) for r in rows] == [(1, "en"), (2, "en"), (3, "fr"), (4, "en")]
    keys = tuple(user)
    assert (statement, keys) in plans._by_statement  # found by the statement object
    assert plans._by_statement[(statement, keys)] is plans._plans[(conn.dialect, m.users, keys)]


def test_a_plan_asked_on_another_dialect_is_made_for_it() -> None:
    """A plan kept by statement object is dropped when another engine's dialect asks."""
    plans = InsertPlans()
    with _engine().connect() as first:
        one = plans.plan(first, INSERT_HISTORY, ("table_id", "seq"))
    with _engine().connect() as second:
        other = plans.plan(second, INSERT_HISTORY, ("table_id", "seq"))
        assert other is not None and other is not one
        assert plans._plans[(second.dialect, m.history, ("table_id", "seq"))] is other
