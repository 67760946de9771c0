"""Ids for the whole salon: in-process counters, and PostgreSQL sequences shared by nodes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from alembic import command
from sqlalchemy import event, insert, text

from zanzibar.cluster.local import LocalIds
from zanzibar.cluster.pg_ids import PgIds, sequence_name
from zanzibar.cluster.ports import ID_KINDS, Ids
from zanzibar.salon import models as m
from zanzibar.salon.persistence import Store, alembic_config, make_engine, migrate

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def a_user(user_id: int) -> dict[str, Any]:
    return {
        "id": user_id,
        "name": f"u{user_id}",
        "name_key": f"u{user_id}",
        "password_hash": None,
        "lang": "en",
        "guest": True,
        "created": 0.0,
    }


@pytest.fixture(params=["local", pytest.param("postgresql", marks=pytest.mark.live)])
async def nodes(request: pytest.FixtureRequest) -> AsyncIterator[Callable[[], Any]]:
    """A factory of per-node Ids over one salon database where user 41 exists."""
    if request.param == "local":
        shared = LocalIds({"user": 42})

        async def local() -> Ids:
            return shared

        yield local
        return
    url: str = request.getfixturevalue("pg_url")
    engine = make_engine(url)
    async with engine.begin() as conn:  # a salon that stored user 41 before migration 0004
        await conn.run_sync(upgrade_to, url, "0002")
        await conn.execute(insert(m.users), a_user(41))
    await migrate(engine, url)
    await engine.dispose()
    engines = []

    async def node() -> Ids:
        engine = make_engine(url)
        engines.append(engine)
        return PgIds(engine)

    try:
        yield node
    finally:
        for engine in engines:
            await engine.dispose()


async def test_ids_are_unique_under_concurrent_load(nodes: Callable[[], Any]) -> None:
    ids = [await nodes() for _ in range(4)]
    results = await asyncio.gather(*(node.next("user") for node in ids for _ in range(50)))
    assert len(set(results)) == 200
    assert min(results) == 42  # above the largest stored id, none skipped at the start
    tables = await asyncio.gather(*(node.next("table") for node in ids))
    assert sorted(tables) == [1, 2, 3, 4]  # each kind counts on its own


async def test_a_node_started_later_never_rewinds_the_sequence(nodes: Callable[[], Any]) -> None:
    early = await nodes()
    first = [await early.next("game") for _ in range(5)]
    late = await nodes()
    assert await late.next("game") == first[-1] + 1
    assert await early.next("game") == first[-1] + 2


@pytest.mark.live
async def test_the_migration_starts_sequences_above_rows_stored_before_it(pg_url: str) -> None:
    """A salon that ran on max+1 ids before migration 0004 carries on without a clash."""
    engine = make_engine(pg_url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(upgrade_to, pg_url, "0002")
            await conn.execute(insert(m.users), [a_user(i) for i in (3, 9, 77)])
        await migrate(engine, pg_url)  # to the head, 0004 included
        ids = PgIds(engine)
        assert await ids.next("user") == 78
        assert await ids.next("user") == 79
        assert await ids.next("private") == 1
        async with engine.connect() as conn:
            names = {
                row[0]
                for row in await conn.execute(
                    text("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")
                )
            }
            skeletons = (await conn.execute(text("SELECT COUNT(*) FROM user_names"))).scalar()
        assert names == {sequence_name(kind) for kind in ID_KINDS}
        assert skeletons == 3  # u3, u9, u77: one skeleton each (no capital to fold)
        with pytest.raises(ValueError):
            await ids.next("nonsense")  # type: ignore[arg-type]
    finally:
        await engine.dispose()


def upgrade_to(connection: Any, url: str, revision: str) -> None:
    config = alembic_config(url)
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


@pytest.mark.live
async def test_ids_are_never_created_at_run_time(pg_url: str) -> None:
    """The node asks only for nextval: no DDL (it may run with a role that cannot create)."""
    store = Store(pg_url)
    await store.start()
    await store.stop()
    engine = make_engine(pg_url)
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        ids = PgIds(engine)
        assert [await ids.next("table") for _ in range(3)] == [1, 2, 3]
    finally:
        await engine.dispose()
    assert statements and all(s.lstrip().upper().startswith("SELECT") for s in statements)


def test_postgresql_ids_refuse_sqlite(tmp_path: Any) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}")
    with pytest.raises(ValueError):
        PgIds(engine)
