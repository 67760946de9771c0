"""Fixtures of the cluster tests; helpers live in ``_clusterkit.py`` (this directory is on sys.path)."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from _clusterkit import Backend  # noqa: E402


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["local", pytest.param("redis", marks=pytest.mark.live)])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    made = Backend(request.param, url)
    try:
        yield made
    finally:
        await made.close()
