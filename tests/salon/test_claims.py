"""A claim bumps a table's epoch and reads it back in ONE statement (``UPDATE ... RETURNING``).

It used to bump the epoch (a write) and read it (a second step): two claims at once,
which one group commit runs in one transaction, bumped it twice and both read the
last epoch, so two actors of one node both loaded epoch 3 and both could write.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _salonkit import Client, make_salon
from sqlalchemy import insert, select

from zanzibar.salon import models as m
from zanzibar.salon import tablestore
from zanzibar.salon.persistence import Fenced, Store

pytestmark = pytest.mark.anyio

USER = {"id": 1, "name": "Zoé", "name_key": "zoe", "password_hash": None}
USER |= {"lang": "fr", "guest": True, "created": 1.5}
ROW = {"game": "421", "preset": None, "options": {"tokens": 21}, "capacity": 3}
ROW |= {"private": False, "invite": None, "host_id": 1, "state": "waiting", "hold": True}
ROW |= {"clock": None, "game_id": None, "seats": [], "banned": [], "created": 2.25}


def write_under(epoch: int, version: int, state: str) -> list[Any]:
    """A change of table 7 as its owner of ``epoch`` stores it (fenced)."""
    params = {"state": state, "version": version + 1}
    params |= {"fence_id": 7, "fence_epoch": epoch, "fence_version": version}
    return [(tablestore.FENCE, params)]


async def test_two_claims_at_once_get_two_epochs_and_only_the_later_writes(db_url: str) -> None:
    store = Store(db_url)
    await store.start()
    try:
        await store.write([(insert(m.users), USER)])
        await store.write([(insert(m.tables), {**ROW, "id": 7, "epoch": 1, "version": 4})])
        commits = store.commits
        first, second = await asyncio.gather(tablestore.claim(store, 7), tablestore.claim(store, 7))
        assert first is not None and second is not None
        assert store.commits == commits + 1  # both in one group commit: the old race
        assert sorted([first, second]) == [(2, 4), (3, 4)]
        earlier, later = sorted([first[0], second[0]])
        with pytest.raises(Fenced):
            await store.write(write_under(earlier, 4, "stale"))
        await store.write(write_under(later, 4, "playing"))
        stored = await store.read(select(m.tables.c.epoch, m.tables.c.version, m.tables.c.state))
        assert [tuple(r) for r in stored] == [(3, 5, "playing")]
        assert await tablestore.claim(store, 99) is None  # no such table
    finally:
        await store.stop()


async def test_a_table_loaded_after_its_claim_runs_under_that_claims_epoch(db_url: str) -> None:
    salon = make_salon(db_url)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
        epoch = salon.tables[table_id].epoch
        # two loads after two claims at once (a node that ran two actors of one table)
        first, second = await asyncio.gather(
            salon._load_claimed(table_id), salon._load_claimed(table_id)
        )
        assert first is not None and second is not None
        assert sorted([first.table.epoch, second.table.epoch]) == [epoch + 1, epoch + 2]
    finally:
        await salon.stop()
