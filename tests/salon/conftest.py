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


@pytest.fixture
async def salon(tmp_path: Path) -> AsyncIterator[Salon]:
    s = make_salon(tmp_path / "salon.sqlite3")
    await s.start()
    yield s
    await s.stop()


@pytest.fixture
def client_factory(salon: Salon) -> Callable[..., Any]:
    async def make(name: str, lang: str = "en") -> Client:
        return await Client(salon, name).sign_in(lang)

    return make
