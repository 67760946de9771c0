"""Alembic environment of the salon.

The salon runs migrations itself at start (``salon.persistence.migrate``): it
opens a connection on its async engine and hands the synchronous side of it to
Alembic through ``config.attributes["connection"]``. Run from the ``alembic``
command line instead, this file makes its own async engine from the URL.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from zanzibar.salon.models import metadata

config = context.config
target_metadata = metadata


def run_with(connection: Connection) -> None:
    """Run the migrations on an open synchronous connection."""
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


async def run_async() -> None:
    """Make an async engine from the configured URL and migrate through it."""
    engine = create_async_engine(config.get_main_option("sqlalchemy.url") or "")
    async with engine.begin() as conn:
        await conn.run_sync(run_with)
    await engine.dispose()


def run_offline() -> None:
    """Emit SQL without a database (``alembic upgrade --sql``)."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    given = config.attributes.get("connection")
    if given is not None:
        run_with(given)
    else:
        asyncio.run(run_async())
