"""A player drops mid-game: a bot takes the seat over; the player comes back and takes it back.

The returning player passes the last ``seq`` it showed and gets exactly the
items it missed: nothing twice, nothing lost.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _games import (
    assert_seen_in_order_once,
    event_stream,
    latest_view,
    play_until_over,
    wait_for_view,
)
from _server import ServerProcess
from _wsclient import Message, WsClient

from zanzibar.games import game_names

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")


def _items(client: WsClient, table: Any) -> list[Message]:
    out = []
    for message in client.received:
        for item in message["items"] if message["type"] == "history" else [message]:
            if item.get("table") == table and item.get("channel") in {"game", "chat", "system"}:
                out.append(item)
    return out


def _last_seq(client: WsClient, table: Any) -> int:
    items = _items(client, table)
    return items[-1]["seq"] if items else 0


def _seat_events_since(client: WsClient, table: Any, seat: int, after_seq: int) -> list[Message]:
    return [
        m
        for m in client.game_events(table)
        if m["seq"] > after_seq and m["event"].get("seat") == seat
    ]


async def _drop_and_return(server: ServerProcess) -> None:
    anna = await WsClient.guest(server.url, "Anna")
    bruno = await WsClient.guest(server.url, "Bruno")
    bruno_again: WsClient | None = None
    try:
        table = (await anna.ok("table.create", game="421", seats=2))["table"]["id"]
        await bruno.ok("table.join", table=table)
        await anna.ok("table.start", table=table)
        await wait_for_view(anna, table)
        await wait_for_view(bruno, table)
        # play a little, with both humans
        await play_until_over(
            table, [anna, bruno], seed=5, until=lambda: len(anna.game_events(table)) >= 6
        )
        assert not latest_view(anna, table)["view"]["over"]  # type: ignore[index]
        shown_by_bruno = _last_seq(bruno, table)
        bruno_items_before = _items(bruno, table)
        await bruno.close()
        dropped_at = _last_seq(anna, table)

        # Anna hears that a bot took Bruno's seat, and the game goes on with it
        await anna.wait_for(
            lambda m: m["type"] == "system" and m.get("table") == table and m["seq"] > dropped_at,
            timeout=20,
        )
        await play_until_over(
            table,
            [anna],
            seed=6,
            until=lambda: bool(_seat_events_since(anna, table, 1, dropped_at)),
            timeout=60,
        )
        assert _seat_events_since(anna, table, 1, dropped_at), "nobody played Bruno's seat"
        table_message = next(
            m["table"]
            for m in reversed(anna.received)
            if m["type"] == "table" and m["table"]["id"] == table
        )
        seat1 = table_message["seats"][1]
        assert seat1["bot"] is not None or seat1["connected"] is False

        # Bruno comes back on a new socket with the same session and takes his seat back
        bruno_again = await WsClient.with_token(server.url, bruno.token, "Bruno")
        joined = await bruno_again.ok("table.join", table=table, seat=1, since=shown_by_bruno)
        assert joined["seat"] == 1
        history = await bruno_again.wait_for(
            lambda m: m["type"] == "history" and m.get("table") == table
        )
        missed = [item["seq"] for item in history["items"]]
        assert missed and missed[0] == shown_by_bruno + 1, (shown_by_bruno, missed[:3])
        await wait_for_view(bruno_again, table)
        taken_back = await anna.wait_for(
            lambda m: (
                m["type"] == "table"
                and m["table"]["id"] == table
                and m["table"]["seats"][1]["user"] == bruno_again.user["id"]
                and m["table"]["seats"][1]["bot"] is None
                and m["table"]["seats"][1]["connected"]
            )
        )
        assert taken_back
        # he plays again until the end
        await play_until_over(table, [anna, bruno_again], seed=7)
        await bruno_again.wait_for(
            lambda m: m["type"] == "game.view" and m.get("table") == table and m["view"]["over"]
        )
        # before + missed + live: every item once, in order, without a gap
        seqs = [i["seq"] for i in bruno_items_before] + [
            i["seq"] for i in _items(bruno_again, table)
        ]
        assert seqs == list(range(seqs[0], seqs[-1] + 1))
        assert_seen_in_order_once(anna, table)
        # and he saw the same game events as Anna
        anna_events = [(m["seq"], m["event"]) for m in anna.game_events(table)]
        bruno_events = [
            (i["seq"], i["event"])
            for i in (*bruno_items_before, *_items(bruno_again, table))
            if i["channel"] == "game"
        ]
        assert bruno_events == anna_events
        assert anna.schema_violations == [] and bruno_again.schema_violations == []
    finally:
        await anna.close()
        await bruno.close()
        if bruno_again is not None:
            await bruno_again.close()


@pytest.mark.slow
def test_disconnect_bot_takeover_and_return(shared_server: ServerProcess) -> None:
    asyncio.run(_drop_and_return(shared_server))


async def _two_tabs(server: ServerProcess) -> None:
    """One user, two sockets: once the second tab opens the table, both get every item."""
    first = await WsClient.guest(server.url, "Tabs")
    second = await WsClient.with_token(server.url, first.token, "Tabs-2")
    try:
        table = (await first.ok("table.create", game="421", seats=2))["table"]["id"]
        await first.ok("table.add_bot", table=table)
        # the second tab learns of the table from its welcome on reconnect, and opens it
        third = await WsClient.with_token(server.url, first.token, "Tabs-3")
        welcome = next(m for m in third.received if m["type"] == "welcome")
        assert [place["table"] for place in welcome.get("tables", [])] == [table]
        await third.close()
        assert (await second.ok("table.join", table=table))["seat"] == 0
        await first.ok("table.start", table=table)
        await play_until_over(table, [first], seed=21)
        await second.wait_for(
            lambda m: m["type"] == "game.view" and m.get("table") == table and m["view"]["over"]
        )
        assert event_stream(first, table) == event_stream(second, table)
        assert_seen_in_order_once(second, table)
    finally:
        await first.close()
        await second.close()


def test_a_user_with_two_sockets_gets_everything_on_both(shared_server: ServerProcess) -> None:
    asyncio.run(_two_tabs(shared_server))
