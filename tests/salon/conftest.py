"""Fixtures of the salon tests; helpers live in ``_salonkit.py`` (this directory is on sys.path)."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from _salonkit import Client, make_salon  # noqa: E402

from zanzibar.salon import Salon  # noqa: E402


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.live)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The salon's database: a SQLite file, then a fresh database on the private PostgreSQL."""
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
