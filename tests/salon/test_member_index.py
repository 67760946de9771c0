"""Who sits at or watches which table run here: ``MemberIndex``, and ``Gateway.went`` using it.

A user coming or going used to walk every table of the node (and every seat of
every lobby summary); at 300 tables a rush of departures stalled the event loop
for hundreds of milliseconds. Now only the user's own tables are looked at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _salonkit import Client, make_salon

from zanzibar.salon.members import MemberIndex
from zanzibar.salon.tables import Table

pytestmark = pytest.mark.anyio


def test_the_index_follows_each_tables_members() -> None:
    index = MemberIndex()
    index.put(1, [10, 11])
    index.put(2, [11])
    assert index.tables_of(10) == [1] and index.tables_of(11) == [1, 2]
    index.put(1, [11, 12])  # 10 left table 1, 12 came
    assert index.tables_of(10) == [] and index.tables_of(12) == [1]
    index.drop(2)
    assert index.tables_of(11) == [1]
    index.drop(1)
    assert index.tables_of(11) == index.tables_of(12) == []
    assert index._of_user == {} and index._of_table == {}  # nothing left behind


async def test_a_user_going_touches_only_his_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    salon = make_salon(tmp_path / "salon.sqlite3", takeover_delay=60)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        bob = await Client(salon, "Bob").sign_in()
        carl = await Client(salon, "Carl").sign_in()
        dora = await Client(salon, "Dora").sign_in()
        first = (await anna.ok("table.create", game="race", seats=2, options={"target": 60}))[
            "table"
        ]["id"]
        await bob.ok("table.join", table=first)
        await anna.ok("table.start", table=first)
        others = []
        for _ in range(5):  # tables Anna has nothing to do with
            created = await carl.ok("table.create", game="race", seats=2, options={"target": 60})
            others.append(created["table"]["id"])
        await dora.ok("table.watch", table=others[0])
        index = salon.router.members
        assert index.tables_of(anna.user_id) == [first]
        assert index.tables_of(bob.user_id) == [first]
        assert index.tables_of(carl.user_id) == others
        assert index.tables_of(dora.user_id) == [others[0]]
        assert salon.lobby.seated(anna.user_id) and salon.lobby.seated(carl.user_id)
        assert not salon.lobby.seated(dora.user_id)  # watching holds no seat

        asked: list[int] = []
        is_member = Table.is_member

        def spy(table: Table, user: int) -> bool:
            asked.append(table.id)
            return is_member(table, user)

        monkeypatch.setattr(Table, "is_member", spy)
        await anna.disconnect()
        await salon.settle()
        assert asked == [first]  # not the five other tables
        assert salon.tables[first].seats[0].dropped_at is not None  # her seat is dropped
        assert salon.tables[first].seats[1].dropped_at is None

        asked.clear()
        await dora.ok("table.leave", table=others[0])
        assert index.tables_of(dora.user_id) == []
        await dora.disconnect()
        await salon.settle()
        assert asked == []

        await carl.ok("table.leave", table=others[1])  # alone there: the table closes
        assert others[1] not in salon.tables
        assert index.tables_of(carl.user_id) == [others[0], *others[2:]]
        assert not index._of_table.get(others[1])
    finally:
        await salon.stop()


async def test_a_user_coming_back_is_seen_at_his_table(tmp_path: Path) -> None:
    """Behaviour unchanged: his seat's drop is cleared when he comes back."""
    salon = make_salon(tmp_path / "salon.sqlite3", takeover_delay=60)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        bob = await Client(salon, "Bob").sign_in()
        table_id = (await anna.ok("table.create", game="race", seats=2, options={"target": 60}))[
            "table"
        ]["id"]
        await bob.ok("table.join", table=table_id)
        await anna.ok("table.start", table=table_id)
        await anna.disconnect()
        await salon.settle()
        assert salon.tables[table_id].seats[0].dropped_at is not None
        await anna.reconnect()
        await salon.settle()
        assert salon.tables[table_id].seats[0].dropped_at is None
        seen: list[dict[str, Any]] = [
            s for s in salon.lobby.summaries()[table_id]["seats"] if s["user"] == anna.user_id
        ]
        assert len(seen) == 1
    finally:
        await salon.stop()
