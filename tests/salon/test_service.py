"""The salon service end to end, among fake connections and bots (the test dice race)."""

from __future__ import annotations

from typing import Any

import pytest
from _salonkit import Client

from zanzibar.salon import Salon

pytestmark = pytest.mark.anyio


async def play_until_over(salon: Salon, table_id: int, clients: dict[int, Client]) -> None:
    """Humans roll until they have 4 points, then stop; bots play by themselves."""
    for _ in range(2000):
        table = salon.tables[table_id]
        match = table.match
        assert match is not None
        if match.is_over:
            return
        seat = match.to_act
        assert seat is not None
        client = clients[seat]
        action = "roll" if match.state.total < 4 else "stop"
        await client.ok("game.action", table=table_id, action={"type": action}, seq=len(match.log))
    raise AssertionError("the game did not end")


async def test_guest_create_join_start_and_play_to_the_end(
    salon: Salon, client_factory: Any
) -> None:
    anna = await client_factory("Anna", "fr")
    bob = await client_factory("Bob")
    eve = await client_factory("Eve")
    created = await anna.ok("table.create", game="race", options={"target": 12}, seats=3)
    table_id = created["table"]["id"]
    assert created["table"]["you"] == {"seat": 0, "host": True, "spectator": False}
    assert (await bob.ok("table.join", table=table_id))["seat"] == 1
    await anna.ok("table.add_bot", table=table_id, level="hard")
    await eve.ok("table.watch", table=table_id)
    await anna.ok("table.start", table=table_id)
    await play_until_over(salon, table_id, {0: anna, 1: bob})
    await salon.settle()
    table = salon.tables[table_id]
    assert table.state == "finished"
    # everyone received the same stream, in order, each item once
    seqs = [item["seq"] for item in eve.stream(table_id)]
    assert seqs == sorted(set(seqs))
    assert [i["seq"] for i in anna.stream(table_id)] == list(range(1, table.history.last_seq + 1))
    assert [i["seq"] for i in bob.stream(table_id)][-1] == table.history.last_seq
    # rendered per viewer and language
    anna_rolls = [
        i["text"]
        for i in anna.stream(table_id)
        if i["channel"] == "game" and i["event"]["kind"] == "roll"
    ]
    assert any(t.startswith("vous a lancé") for t in anna_rolls)
    assert any(t.startswith("Bob a lancé") for t in anna_rolls)
    bob_rolls = [
        i["text"]
        for i in bob.stream(table_id)
        if i["channel"] == "game" and i["event"]["kind"] == "roll"
    ]
    assert any(t.startswith("you rolled") for t in bob_rolls)
    assert anna.of_type("your_turn")
    record = await salon.game_record(table.game_id or 0)
    assert record is not None and record["status"] == "finished"
    assert len(record["record"]["log"]) == len(table.match.log)  # type: ignore[union-attr]
    stats = await salon.user_stats("Anna")
    assert stats is not None and stats["games"]["race"]["played"] == 1
