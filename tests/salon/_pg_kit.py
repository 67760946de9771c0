"""What the PostgreSQL writer's tests share (``test_pg_writer.py``, ``test_pg_batch.py``):
a user and a table row to store, a started :class:`Store` on the test server, and the
parameters of a fenced table write."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from zanzibar.salon.persistence import Store

USER = {"id": 1, "name": "Zoé", "name_key": "zoe", "password_hash": None}
USER |= {"lang": "fr", "guest": True, "created": 1.5}
ROW = {"game": "421", "preset": None, "options": {"tokens": 21}, "capacity": 3}
ROW |= {"private": False, "invite": None, "host_id": 1, "state": "waiting", "hold": True}
ROW |= {"clock": None, "game_id": None, "seats": [], "banned": [], "created": 2.25}


@pytest.fixture
async def store(pg_url: str) -> AsyncIterator[Store]:
    s = Store(pg_url)
    await s.start()
    try:
        yield s
    finally:
        await s.stop()


def fence(table: int, version: int, state: str, **more: Any) -> dict[str, Any]:
    """A table write fenced on (table, epoch 1, version): it stores ``version + 1``."""
    return {
        "state": state,
        **more,
        "version": version + 1,
        "fence_id": table,
        "fence_epoch": 1,
        "fence_version": version,
    }
