"""``welcome``'s places: where a person sits or watches, from one source, ``table_members``.

The owner of a table stores its members with every change that seats or
unseats someone, adds or removes a spectator (salon/members.py); ``hello`` on
any node reads them. A claim drops the stored spectators (a table is restored
without any), so a spectator of a salon that restarted, or of an owner that
died, is not listed until he watches again; a table reloaded in place (its
lease lost and taken back) keeps its spectators, stored again.
"""

from __future__ import annotations

from typing import Any

import pytest
from _local_nodes import Cluster
from _salonkit import Client, make_salon
from sqlalchemy import select

from zanzibar.salon import Salon
from zanzibar.salon import models as m

pytestmark = pytest.mark.anyio


async def places(salon: Salon, token: str) -> list[dict[str, Any]]:
    """What a new socket of the person behind ``token`` is told in its ``welcome``."""
    again = await Client(salon, "again").sign_in(token=token)
    listed: list[dict[str, Any]] = again.last("welcome")["tables"]
    assert again.conn is not None
    await salon.disconnect(again.conn)
    return listed


async def stored(salon: Salon, table_id: int) -> dict[int, int | None]:
    rows = m.table_members
    found = await salon.store.read(
        select(rows.c.user_id, rows.c.seat).where(rows.c.table_id == table_id)
    )
    return {int(r[0]): None if r[1] is None else int(r[1]) for r in found}


async def test_places_follow_seats_and_spectators_across_a_restart(db_url: str) -> None:
    salon = make_salon(db_url)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        bob = await Client(salon, "Bob").sign_in()
        first = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
        second = (await bob.ok("table.create", game="race", seats=2))["table"]["id"]
        await bob.ok("table.watch", table=first)
        await anna.ok("table.join", table=second)
        assert await places(salon, anna.token) == [
            {"table": first, "seat": 0, "game": "race"},
            {"table": second, "seat": 1, "game": "race"},
        ]
        assert await places(salon, bob.token) == [
            {"table": first, "seat": None, "game": "race"},
            {"table": second, "seat": 0, "game": "race"},
        ]
        await anna.ok("table.leave", table=second)
        assert await places(salon, anna.token) == [{"table": first, "seat": 0, "game": "race"}]
    finally:
        await salon.stop()
    salon = make_salon(db_url)  # restarted: tables restored, without their spectators
    await salon.start()
    try:
        assert salon.tables[first].spectators == set()
        assert await stored(salon, first) == {anna.user_id: 0}
        assert await places(salon, bob.token) == [{"table": second, "seat": 0, "game": "race"}]
        bob2 = await Client(salon, "Bob").sign_in(token=bob.token)
        await bob2.ok("table.watch", table=first)
        assert await places(salon, bob.token) == [
            {"table": first, "seat": None, "game": "race"},
            {"table": second, "seat": 0, "game": "race"},
        ]
    finally:
        await salon.stop()


async def test_a_table_reloaded_in_place_keeps_its_spectators_stored(db_url: str) -> None:
    cluster = Cluster()
    salon = make_salon(db_url, ports=cluster.ports("a"), takeover_delay=60)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        bob = await Client(salon, "Bob").sign_in()
        table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
        await bob.ok("table.watch", table=table_id)
        old = salon.router.actors[table_id]
        epoch = old.table.epoch
        # Redis forgot the lease: the keeper takes it again and reloads the table here
        del cluster.board[table_id]
        salon.router.lease_of.pop(table_id)
        await salon.keeper.retake(old)
        await salon.settle()
        table = salon.tables[table_id]
        assert table.epoch > epoch and salon.router.actors[table_id] is not old
        assert table.spectators == {bob.user_id}
        assert await stored(salon, table_id) == {anna.user_id: 0, bob.user_id: None}
        assert await places(salon, bob.token) == [{"table": table_id, "seat": None, "game": "race"}]
        await anna.ok("chat.say", table=table_id, text="still watching?")
        await salon.settle()
        assert "still watching?" in [x.get("text") for x in bob.inbox if x.get("type") == "chat"]
    finally:
        await salon.stop()
