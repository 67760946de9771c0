"""A stop cancels its background task and waits for it a bounded while (fields.end_tasks).

The store's writer and the rating task were cancelled and then awaited for good: a task
that misses its cancel (asyncio.wait_for before Python 3.12 swallows one that comes as
its future completes) held the salon's stop, a crash or a test's teardown, for good.
Each test gives the part a task that ignores its cancel; its stop must end anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest
from _salonkit import database_url

from zanzibar.salon import fields
from zanzibar.salon.persistence import Store
from zanzibar.salon.rating_processor import RatingProcessor

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def short_stop_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fields, "STOP_WAIT_S", 0.2)


def stubborn(done: asyncio.Event) -> asyncio.Task[None]:
    """A task that goes on after a cancel, until ``done`` is set."""

    async def run() -> None:
        while not done.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await done.wait()

    return asyncio.create_task(run())


async def ends(stop: Awaitable[Any], done: asyncio.Event) -> bool:
    """Whether ``stop`` ended while the stubborn task still ran (it waited for good before)."""
    stopping = asyncio.ensure_future(stop)
    try:
        # (not wait_for: cancelling a stop that swallows the cancel would hang the test)
        stopped, _ = await asyncio.wait({stopping}, timeout=10)
        return bool(stopped)
    finally:
        done.set()
        await stopping


async def started_store(tmp_path: Path) -> Store:
    store = Store(database_url(tmp_path / "salon.sqlite3"))
    await store.start()
    assert store._writer is not None
    store._writer.cancel()  # the real writer, replaced by a stubborn one
    with contextlib.suppress(asyncio.CancelledError):
        await store._writer
    return store


@pytest.mark.parametrize("how", ["stop", "abandon"])
async def test_the_stores_stop_does_not_wait_for_good_for_its_writer(
    tmp_path: Path, how: str
) -> None:
    store = await started_store(tmp_path)
    done = asyncio.Event()
    store._writer = stubborn(done)
    await asyncio.sleep(0)
    assert await ends(store.stop() if how == "stop" else store.abandon(), done)


async def test_the_rating_tasks_stop_does_not_wait_for_good(tmp_path: Path) -> None:
    store = await started_store(tmp_path)
    try:
        ratings = RatingProcessor(store)
        done = asyncio.Event()
        ratings._task = stubborn(done)
        await asyncio.sleep(0)
        assert await ends(ratings.stop(), done)
        assert ratings._task is None
    finally:
        store._writer = None
        await store.stop()
