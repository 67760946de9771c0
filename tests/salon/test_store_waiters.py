"""Who waits for a write: woken right after its commit, and a cancelled one loses nothing."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select

from zanzibar.salon import models as m
from zanzibar.salon.persistence import Store

pytestmark = pytest.mark.anyio


def _user(i: int) -> dict[str, Any]:
    return {
        "id": i,
        "name": f"u{i}",
        "name_key": f"u{i}",
        "password_hash": None,
        "lang": "en",
        "guest": True,
        "created": 0.0,
    }


async def test_a_write_wakes_its_caller_in_the_loop_turn_after_its_commit(tmp_path: Path) -> None:
    """The caller waits on its job's own future: the commit's answer wakes it directly,
    with no second future and callback between (each a turn of the loop per write)."""
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'w.sqlite3'}")
    await store.start()
    loop = asyncio.get_running_loop()
    turns = 0
    ticking = True

    def tick() -> None:  # one call per turn of the loop
        nonlocal turns
        turns += 1
        if ticking:
            loop.call_soon(tick)

    answered_at: list[int] = []
    run = store._run

    async def counted(jobs: Any) -> None:
        await run(jobs)
        answered_at.append(turns)  # the jobs' futures were just answered

    store._run = counted  # type: ignore[method-assign]
    try:
        loop.call_soon(tick)
        for i in range(1, 4):
            await store.write([(insert(m.users), _user(i))])
            assert turns - answered_at[-1] <= 1, (turns, answered_at)
    finally:
        ticking = False
        await store.stop()


async def test_a_cancelled_caller_s_write_is_stored_and_nothing_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Cancelling the task that waits for a write does not take the write back (it is
    queued), and a failed write nobody waits for any more leaves no unread error."""
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'w.sqlite3'}")
    await store.start()
    try:
        caplog.set_level(logging.ERROR, logger="asyncio")
        waiter = asyncio.create_task(store.write([(insert(m.users), _user(1))]))
        failing = asyncio.create_task(store.write([(insert(m.users), _user(1))]))  # a repeat
        await asyncio.sleep(0)  # both queued
        waiter.cancel()
        failing.cancel()
        for task in (waiter, failing):
            with pytest.raises(asyncio.CancelledError):
                await task
        await store.write([(insert(m.users), _user(2))])  # after both in the queue's order
        rows = await store.read(select(m.users.c.id).order_by(m.users.c.id))
        assert [r.id for r in rows] == [1, 2]
    finally:
        await store.stop()
    import gc

    gc.collect()  # an exception never retrieved is logged when its future is collected
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
