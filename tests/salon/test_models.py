"""The Alembic migrations build exactly the schema of models.py."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from zanzibar.salon.models import metadata
from zanzibar.salon.persistence import Store

pytestmark = pytest.mark.anyio


async def test_migrations_match_the_models(empty_db_url: str) -> None:
    db_url = empty_db_url
    store = Store(db_url)
    await store.start()
    try:
        async with store.engine.connect() as conn:

            def diff(sync_conn: object) -> list[object]:
                context = MigrationContext.configure(sync_conn)  # type: ignore[arg-type]
                return list(compare_metadata(context, metadata))

            assert await conn.run_sync(diff) == []
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            assert set(metadata.tables) <= tables and "alembic_version" in tables
            if store.engine.dialect.name == "sqlite":
                mode = (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar()
                assert mode == "wal"
                sync = (await conn.exec_driver_sql("PRAGMA synchronous")).scalar()
                assert sync == 1  # NORMAL
    finally:
        await store.stop()
    # starting again applies nothing new and keeps the data
    again = Store(db_url)
    await again.start()
    await again.stop()


def test_migrations_emit_postgresql_ddl() -> None:
    """The same migrations build a PostgreSQL schema (checked offline: no server needed)."""
    import io

    from alembic import command

    from zanzibar.salon.persistence import alembic_config

    config = alembic_config("postgresql+asyncpg://user:secret@localhost/zanzibar")
    buffer = io.StringIO()
    config.output_buffer = buffer
    command.upgrade(config, "head", sql=True)
    sql = buffer.getvalue()
    for name in metadata.tables:
        assert f"CREATE TABLE {name} (" in sql
    assert "seed BIGINT NOT NULL" in sql and "options JSON NOT NULL" in sql
