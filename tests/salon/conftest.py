"""Fixtures of the salon tests; helpers live in ``_salonkit.py`` (this directory is on sys.path)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from _salonkit import Client, make_salon  # noqa: E402

from _services import migrated  # noqa: E402
from zanzibar.salon import Salon  # noqa: E402


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file the salon's migrations were applied to once (per pytest process)."""
    path = tmp_path_factory.mktemp("template") / "salon.sqlite3"
    migrated(f"sqlite+aiosqlite:///{path}")
    with contextlib.closing(sqlite3.connect(path)) as conn:  # everything in the one file
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.live)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The salon's database: a SQLite file, then a new database on the private PostgreSQL,
    each holding the schema and no rows (a copy of one the session migrated once: the
    salon's start finds nothing to apply, in a fraction of the time the eight migrations
    take). ``empty_db_url``: the same databases with nothing in them."""
    if request.param == "sqlite":
        path = tmp_path / "salon.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite+aiosqlite:///{path}"
    url: str = request.getfixturevalue("migrated_pg_url")
    return url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.live)])
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The salon's database, empty: a SQLite file (not there yet), then a new database on
    the private PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'salon.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
async def salon(db_url: str) -> AsyncIterator[Salon]:
    s = make_salon(db_url)
    await s.start()
    yield s
    await s.stop()


@pytest.fixture
def client_factory(salon: Salon) -> Callable[..., Any]:
    async def make(name: str, lang: str = "en") -> Client:
        return await Client(salon, name).sign_in(lang)

    return make
