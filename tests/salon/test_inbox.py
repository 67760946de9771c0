"""The one-reader queue of table actors and the store's writer (salon/inbox.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from zanzibar.salon import models as m
from zanzibar.salon.inbox import Inbox
from zanzibar.salon.persistence import Store

pytestmark = pytest.mark.anyio


async def test_items_come_in_order_and_a_waiting_reader_wakes_in_the_next_turn() -> None:
    inbox: Inbox[int] = Inbox()
    got: list[int] = []

    async def reader() -> None:
        while len(got) < 4:
            got.append(await inbox.get())

    task = asyncio.create_task(reader())
    await asyncio.sleep(0)  # the reader waits
    inbox.put_nowait(1)
    inbox.put_nowait(2)
    assert got == []  # woken, not run: the next turn of the loop
    await asyncio.sleep(0)
    assert got == [1, 2]
    inbox.put_nowait(3)
    inbox.put_nowait(4)
    await task
    assert got == [1, 2, 3, 4] and inbox.empty() and inbox.qsize() == 0


async def test_a_cancelled_reader_leaves_the_items_and_the_next_reader_gets_them() -> None:
    inbox: Inbox[str] = Inbox()
    first = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    first.cancel()
    inbox.put_nowait("kept")  # after the cancel, before the reader ran again
    with pytest.raises(asyncio.CancelledError):
        await first
    assert inbox.qsize() == 1
    assert await inbox.get() == "kept"
    with pytest.raises(asyncio.QueueEmpty):
        inbox.get_nowait()


async def test_a_second_reader_is_refused() -> None:
    inbox: Inbox[int] = Inbox()
    first = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="one reader"):
        await inbox.get()
    inbox.put_nowait(7)
    assert await first == 7


async def test_the_store_stops_only_once_every_queued_write_is_committed(tmp_path: Path) -> None:
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'i.sqlite3'}")
    await store.start()

    def user(i: int) -> dict[str, object]:
        return {"id": i, "name": f"u{i}", "name_key": f"u{i}", "password_hash": None}

    writes = [
        asyncio.create_task(
            store.write([(insert(m.users), {**user(i), "lang": "en", "guest": True, "created": 0})])
        )
        for i in range(1, 31)
    ]
    await asyncio.sleep(0)  # all queued
    await store.stop()
    assert all(w.done() and w.exception() is None for w in writes)
    again = Store(store.url)
    await again.start()
    try:
        assert len(await again.read(select(m.users.c.id))) == 30
    finally:
        await again.stop()
