"""The salon service end to end, among fake connections and bots (the test dice race)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from _salonkit import Client, make_salon

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


async def started_race(salon: Salon, client_factory: Any) -> tuple[Client, Client, Client, int]:
    """Anna (host, seat 0) and Bob (seat 1) at a started race; Eve watches."""
    anna = await client_factory("Anna")
    bob = await client_factory("Bob")
    eve = await client_factory("Eve")
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await eve.ok("table.watch", table=table_id)
    await anna.ok("table.start", table=table_id)
    return anna, bob, eve, table_id


async def test_refusals_change_nothing(salon: Salon, client_factory: Any) -> None:
    anna, bob, eve, table_id = await started_race(salon, client_factory)
    before = salon.snapshot(table_id)
    log_length = len(salon.tables[table_id].match.log)  # type: ignore[union-attr]
    roll = {"type": "roll"}
    await bob.refused("game.action", "not_your_turn", table=table_id, action=roll)
    await bob.refused("game.action", "forbidden", table=table_id, action=roll, seat=0)
    await anna.refused("game.action", "stale", table=table_id, action=roll, seq=log_length + 3)
    await anna.refused("game.action", "illegal_action", table=table_id, action={"type": "stop"})
    await anna.refused("game.action", "illegal_action", table=table_id, action={"type": "fly"})
    await anna.refused("game.action", "illegal_action", table=table_id, action=[1, 2])
    await eve.refused("game.action", "forbidden", table=table_id, action=roll)
    await anna.refused("game.action", "not_found", table=999, action=roll)
    await anna.refused("game.action", "invalid", table="1", action=roll)
    await anna.refused("game.action", "invalid", table=table_id)
    await bob.refused("table.start", "forbidden", table=table_id)
    await bob.refused("table.add_bot", "forbidden", table=table_id)
    await anna.refused("table.add_bot", "conflict", table=table_id)
    await anna.refused("table.options", "conflict", table=table_id, options={"target": 5})
    await bob.refused("table.kick", "forbidden", table=table_id, user=anna.user_id)
    await bob.refused("table.hold", "forbidden", table=table_id, hold=True)
    await bob.refused("table.clock", "forbidden", table=table_id, seconds=30)
    await anna.refused("table.clock", "invalid", table=table_id, seconds=1)
    await anna.refused("chat.say", "too_long", table=table_id, text="x" * 501)
    await anna.refused("chat.say", "invalid", table=table_id, text="   ")
    await anna.refused("no.such.type", "unknown_type")
    await anna.refused("ping", "bad_version", v=2)
    await anna.refused("history", "invalid", table=table_id, channel="radio")
    stranger = await client_factory("Stranger")
    await stranger.refused("chat.say", "forbidden", table=table_id, text="hello")
    await stranger.refused("table.join", "conflict", table=table_id)
    assert salon.snapshot(table_id) == before


async def test_wrong_options_are_named(salon: Salon, client_factory: Any) -> None:
    anna = await client_factory("Anna")
    reply = await anna.refused("table.create", "bad_option", game="race", options={"target": 0})
    assert reply["option"] == "target"
    reply = await anna.refused("table.create", "bad_option", game="race", options={"speed": 1})
    assert reply["option"] == "speed"
    reply = await anna.refused("table.create", "bad_option", game="race", preset="nope")
    assert reply["option"] == "preset"
    await anna.refused("table.create", "not_found", game="snakes")
    await anna.refused("table.create", "invalid", game="race", seats=9)
    table_id = (await anna.ok("table.create", game="race"))["table"]["id"]
    before = salon.snapshot(table_id)
    reply = await anna.refused(
        "table.options", "bad_option", table=table_id, options={"fast": "maybe"}
    )
    assert reply["option"] == "fast"
    assert salon.snapshot(table_id) == before
    await anna.ok("table.options", table=table_id, options={"target": 7})
    assert salon.tables[table_id].options["target"] == 7
    await anna.ok("table.options", table=table_id, preset="short")
    assert salon.tables[table_id].options["target"] == 5
    assert salon.tables[table_id].preset == "short"


async def test_unauthenticated_before_hello(salon: Salon) -> None:
    inbox: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        inbox.append(message)

    conn = await salon.connect(send)
    await salon.handle(conn, {"v": 1, "type": "lobby.subscribe", "id": 1})
    await salon.handle(conn, {"v": 1, "type": "hello", "token": "forged", "id": 2})
    await salon.settle()
    assert [(m["id"], m["code"]) for m in inbox] == [(1, "unauthenticated"), (2, "unauthenticated")]
    assert conn.user is None


async def test_several_connections_of_one_user(salon: Salon, client_factory: Any) -> None:
    anna, _bob, _eve, table_id = await started_race(salon, client_factory)
    second = await Client(salon, "Anna").sign_in("fr", anna.token)
    welcome = second.last("welcome")
    assert welcome["tables"] == [{"table": table_id, "seat": 0, "game": "race"}]
    await second.ok("table.join", table=table_id, since=0)
    await anna.ok("game.action", table=table_id, action={"type": "roll"})
    last = salon.tables[table_id].history.last_seq
    assert anna.stream(table_id)[-1]["seq"] == last
    assert second.stream(table_id)[-1]["seq"] == last
    assert [i["seq"] for i in second.stream(table_id)] == list(range(1, last + 1))


async def test_lobby_private_tables_and_invitations(salon: Salon, client_factory: Any) -> None:
    anna = await client_factory("Anna")
    bob = await client_factory("Bob")
    await bob.ok("lobby.subscribe")
    public = (await anna.ok("table.create", game="race"))["table"]
    private = (await anna.ok("table.create", game="race", private=True))["table"]
    await salon.settle()
    listed = [t["id"] for t in bob.last("lobby")["tables"]]
    assert public["id"] in listed and private["id"] not in listed
    assert [t["id"] for t in await salon.list_tables()] == [public["id"]]
    await bob.refused("table.join", "forbidden", table=private["id"])
    await bob.refused("table.join", "forbidden", table=private["id"], invite="guess")
    assert private["invite"]
    await bob.ok("table.join", table=private["id"], invite=private["invite"])
    games = (await bob.ok("games.list"))["games"]
    race = next(g for g in games if g["name"] == "race")
    assert race["seats"] == [2, 4] and race["bot_levels"] == ["easy", "hard"]


async def test_host_hand_over_kick_and_next_host(salon: Salon, client_factory: Any) -> None:
    anna = await client_factory("Anna")
    bob = await client_factory("Bob")
    carl = await client_factory("Carl")
    table_id = (await anna.ok("table.create", game="race", seats=4))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await carl.ok("table.join", table=table_id)
    await anna.ok("table.hand_host", table=table_id, user=bob.user_id)
    assert salon.tables[table_id].host == bob.user_id
    await anna.refused("table.start", "forbidden", table=table_id)
    await bob.ok("table.kick", table=table_id, user=carl.user_id)
    assert salon.tables[table_id].seat_of(carl.user_id) is None
    await carl.refused("table.join", "forbidden", table=table_id)
    await bob.ok("table.leave", table=table_id)
    assert salon.tables[table_id].host == anna.user_id
    kinds = [i.get("kind") for i in anna.stream(table_id) if i["channel"] == "system"]
    assert kinds.count("host") == 2 and "kicked" in kinds
    await anna.ok("table.leave", table=table_id)
    assert table_id not in salon.tables  # nobody left: the table closes


async def test_ask_and_history_request(salon: Salon, client_factory: Any) -> None:
    anna, _bob, eve, table_id = await started_race(salon, client_factory)
    answer = await eve.ok("game.ask", table=table_id, topic="scores")
    assert answer["text"] == "Anna 0, Bob 0"
    await eve.refused("game.ask", "invalid", table=table_id, topic="weather")
    await anna.ok("chat.say", table=table_id, text="good luck")
    history = await eve.request("history", table=table_id, since=0, channel="chat")
    assert history["type"] == "history"
    assert [i["text"] for i in history["items"]] == ["good luck"]
    history = await eve.request("history", table=table_id, since=2)
    assert [i["seq"] for i in history["items"]] == list(
        range(3, salon.tables[table_id].history.last_seq + 1)
    )


async def test_lobby_follows_every_change(salon: Salon, client_factory: Any) -> None:
    anna = await client_factory("Anna")
    bob = await client_factory("Bob")
    watcher = await client_factory("Watcher")
    await watcher.ok("lobby.subscribe")
    assert watcher.last("lobby")["tables"] == []
    table_id = (await anna.ok("table.create", game="race", seats=3))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await anna.ok("table.add_bot", table=table_id, level="hard")
    await salon.settle()
    (summary,) = watcher.last("lobby")["tables"]
    assert [(s["name"], s["bot"], s["connected"]) for s in summary["seats"]] == [
        ("Anna", None, True),
        ("Bob", None, True),
        ("Bot 3 (hard)", "hard", False),
    ]
    assert summary["state"] == "waiting" and summary["host_name"] == "Anna"
    await anna.ok("table.start", table=table_id)
    await salon.settle()
    assert watcher.last("lobby")["tables"][0]["state"] == "playing"
    await bob.disconnect()
    await salon.settle()
    seats = watcher.last("lobby")["tables"][0]["seats"]
    assert seats[1]["connected"] is False
    await anna.ok("table.leave", table=table_id)
    await salon.settle()
    # Bob only dropped: the table stays for him
    assert [t["id"] for t in watcher.last("lobby")["tables"]] == [table_id]
    await anna.refused("chat.say", "forbidden", table=table_id, text="still here?")
    await watcher.ok("lobby.unsubscribe")
    count = len(watcher.of_type("lobby"))
    await anna.ok("table.join", table=table_id)
    await salon.settle()
    assert len(watcher.of_type("lobby")) == count


async def test_your_turn_comes_once_per_turn(salon: Salon, client_factory: Any) -> None:
    anna, bob, _eve, table_id = await started_race(salon, client_factory)
    match = salon.tables[table_id].match
    assert match is not None
    assert len(anna.of_type("your_turn")) == 1 and not bob.of_type("your_turn")
    rules = salon.tables[table_id].rules
    assert anna.last("game.view")["view"] == rules.view(match.state, 0, "en")
    assert anna.last("game.view")["view"]["legal"] == [{"type": "roll"}]
    assert bob.last("game.view")["view"] == rules.view(match.state, 1, "en")
    while match.to_act == 0:
        action = "roll" if match.state.total < 3 else "stop"  # at most 8 points: no win
        await anna.ok("game.action", table=table_id, action={"type": action})
    assert len(anna.of_type("your_turn")) == 1
    assert len(bob.of_type("your_turn")) == 1
    assert bob.last("your_turn")["text"] == "Your turn."
    assert len(anna.of_type("game.view")) > 2  # a view after every decision, though
    # coming back to the table announces it again
    await bob.ok("table.join", table=table_id, since=bob.stream(table_id)[-1]["seq"])
    assert len(bob.of_type("your_turn")) == 2


async def test_idle_tables_are_closed(db_url: str) -> None:

    salon = make_salon(db_url, idle_close=0.05)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        bob = await Client(salon, "Bob").sign_in()
        kept = (await anna.ok("table.create", game="race"))["table"]["id"]
        dropped = (await bob.ok("table.create", game="race"))["table"]["id"]
        await bob.disconnect()
        import asyncio

        # closed after 0.05 s idle; a busy machine may take longer to store it
        for _ in range(200):
            if dropped not in salon.tables:
                break
            await asyncio.sleep(0.05)
        assert kept in salon.tables and dropped not in salon.tables
    finally:
        await salon.stop()
    again = make_salon(db_url)
    await again.start()
    try:
        assert set(again.tables) == {kept}
    finally:
        await again.stop()


async def test_no_work_of_the_salon_outlives_its_stop(tmp_path: Path) -> None:
    """Work spawned beside commands and the tournament runner's tasks have ended when
    ``stop`` returns, even those whose cancellation takes a while to finish (a database
    call giving its connection back). One such task left behind made the end of the
    event loop wait forever in the test suite (the driver's worker thread was gone)."""
    before = asyncio.all_tasks()  # the test runner's own
    salon = make_salon(tmp_path / "stop.sqlite3")
    await salon.start()
    ended: list[str] = []

    async def slow_to_cancel(name: str) -> None:
        try:
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0.3)  # the cleanup of a cancelled database call
            ended.append(name)

    salon.spawn(slow_to_cancel("spawned"))
    salon.tournaments._timer(slow_to_cancel("tournament timer"), "slow")
    await asyncio.sleep(0)
    await salon.stop()
    assert sorted(ended) == ["spawned", "tournament timer"]
    assert [t for t in asyncio.all_tasks() - before if not t.done()] == []
