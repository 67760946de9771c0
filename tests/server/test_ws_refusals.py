"""Refusals over a real server: each gets a clear error and changes nothing.

Out of turn, another seat's turn, an illegal action, a stale position,
malformed JSON, an unknown type, an oversized frame, a wrong option, and a
socket that never said hello.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from _games import latest_view, wait_for_view
from _server import ServerProcess
from _wsclient import Message, WsClient

from zanzibar.games import game_names
from zanzibar.server.schemas import MAX_FRAME_BYTES

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")


async def _two_player_table(server: ServerProcess) -> tuple[WsClient, WsClient, WsClient, Any]:
    anna = await WsClient.guest(server.url, "Anna")
    bruno = await WsClient.guest(server.url, "Bruno")
    outsider = await WsClient.guest(server.url, "Olga")
    created = await anna.ok("table.create", game="421", seats=2)
    table = created["table"]["id"]
    await bruno.ok("table.join", table=table)
    await anna.ok("table.start", table=table)
    await wait_for_view(anna, table)
    await wait_for_view(bruno, table)
    return anna, bruno, outsider, table


def _state(client: WsClient, table: Any) -> tuple[int, Any]:
    view = latest_view(client, table)
    assert view is not None
    return view["log_length"], view["view"]


async def _quiet(clients: list[WsClient], seconds: float = 0.3) -> list[int]:
    await asyncio.sleep(seconds)
    return [len(c.received) for c in clients]


async def _refusals(server: ServerProcess) -> None:
    anna, bruno, outsider, table = await _two_player_table(server)
    try:
        log_length, view = _state(anna, table)
        to_act = view["to_act"]
        mover, waiter = (anna, bruno) if to_act == 0 else (bruno, anna)
        legal = latest_view(mover, table)["view"]["legal"]  # type: ignore[index]
        assert legal
        counts = await _quiet([anna, bruno])

        def expect(reply: Message, code: str) -> None:
            assert reply["type"] == "error", reply
            assert reply["code"] == code, reply
            assert reply["message"]

        # out of turn: the seat that is not to act
        expect(
            await waiter.request("game.action", table=table, action=legal[0], seq=log_length),
            "not_your_turn",
        )
        # acting for another seat (the seat field must be the sender's own)
        other_seat = 1 - to_act
        reply = await mover.request(
            "game.action", table=table, action=legal[0], seq=log_length, seat=other_seat
        )
        expect(reply, "forbidden")
        reply = await waiter.request(
            "game.action", table=table, action=legal[0], seq=log_length, seat=to_act
        )
        assert reply["type"] == "error" and reply["code"] in {"forbidden", "not_your_turn"}
        # someone who has no seat at the table
        reply = await outsider.request("game.action", table=table, action=legal[0], seq=log_length)
        assert reply["type"] == "error" and reply["code"] in {"forbidden", "not_found"}
        # illegal action for the seat to act
        expect(
            await mover.request(
                "game.action", table=table, action={"type": "teleport"}, seq=log_length
            ),
            "illegal_action",
        )
        # stale: acting for an older position
        expect(
            await mover.request("game.action", table=table, action=legal[0], seq=log_length + 5),
            "stale",
        )
        # a table that does not exist
        reply = await mover.request("game.action", table=987654, action=legal[0])
        assert reply["type"] == "error" and reply["code"] in {"not_found", "forbidden"}
        # malformed JSON, unknown type, oversized, invalid by schema
        await mover.send_raw("{this is not json")
        expect(
            await mover.wait_for(lambda m: m["type"] == "error" and m["code"] == "bad_json"),
            "bad_json",
        )
        expect(await mover.request("game.teleport", table=table), "unknown_type")
        await mover.send_raw(
            json.dumps(
                {
                    "v": 1,
                    "type": "chat.say",
                    "id": "big",
                    "table": table,
                    "text": "x" * MAX_FRAME_BYTES,
                }
            )
        )
        # (an oversized frame is not parsed, so its id cannot be echoed)
        expect(await mover.wait_for(lambda m: m.get("code") == "too_large"), "too_large")
        expect(await mover.request("game.action", table=table), "invalid")
        expect(await mover.request("chat.say", table=table, text="x" * 501), "too_long")
        # non-host may not start or add bots
        expect(await bruno.request("table.add_bot", table=table), "forbidden")
        # nothing changed: no new game event, same view, and the legal action still works
        assert _state(anna, table) == (log_length, view)
        assert not [
            m for m in anna.received[counts[0] :] if m["type"] in {"game.event", "game.view"}
        ]
        reply = await mover.request("game.action", table=table, action=legal[0], seq=log_length)
        assert reply["type"] == "ok", reply
        await mover.wait_for(
            lambda m: (
                m["type"] == "game.view"
                and m.get("table") == table
                and m["log_length"] > log_length
            )
        )
        for client in (anna, bruno, outsider):
            assert client.schema_violations == []
    finally:
        for client in (anna, bruno, outsider):
            await client.close()


def test_refused_actions_change_nothing(shared_server: ServerProcess) -> None:
    asyncio.run(_refusals(shared_server))


async def _wrong_options(server: ServerProcess) -> None:
    anna = await WsClient.guest(server.url, "Anna")
    try:
        reply = await anna.request("table.create", game="421", options={"no_such_option": 3})
        assert reply["type"] == "error" and reply["code"] == "bad_option"
        assert reply["option"] == "no_such_option"
        assert "no_such_option" in reply["message"]
        reply = await anna.request("table.create", game="421", preset="no_such_preset")
        assert reply["type"] == "error" and reply["code"] == "bad_option"
        reply = await anna.request("table.create", game="chess-for-cats")
        assert reply["type"] == "error" and reply["code"] in {"not_found", "bad_option", "invalid"}
        async with httpx.AsyncClient(base_url=server.url) as http:
            tables = (await http.get("/api/tables")).json()["tables"]
        assert not [t for t in tables if anna.user["id"] in [s["user"] for s in t["seats"]]]
    finally:
        await anna.close()


def test_wrong_option_is_refused_naming_it(shared_server: ServerProcess) -> None:
    asyncio.run(_wrong_options(shared_server))


async def _unauthenticated(server: ServerProcess) -> None:
    anonymous = await WsClient.open(server.ws_url)
    try:
        reply = await anonymous.request("table.create", game="421")
        assert reply["type"] == "error" and reply["code"] == "unauthenticated"
        reply = await anonymous.request("lobby.subscribe")
        assert reply["type"] == "error" and reply["code"] == "unauthenticated"
        welcome = await anonymous.hello("not-a-token")
        assert welcome["type"] == "error" and welcome["code"] == "unauthenticated"
        reply = await anonymous.request("table.create", game="421")
        assert reply["code"] == "unauthenticated"
        # a real token then works on the same socket
        async with httpx.AsyncClient(base_url=server.url) as http:
            token = (await http.post("/api/guest", json={"name": "Late"})).json()["token"]
        welcome = await anonymous.hello(token)
        assert welcome["type"] == "welcome"
        assert anonymous.schema_violations == []
    finally:
        await anonymous.close()


def test_unauthenticated_sockets_are_refused(shared_server: ServerProcess) -> None:
    asyncio.run(_unauthenticated(shared_server))


async def _frame_limit(server: ServerProcess) -> None:
    client = await WsClient.guest(server.url, "Big")
    try:
        await client.send_raw(
            json.dumps({"v": 1, "type": "ping", "id": "a" * 10, "pad": "x" * (MAX_FRAME_BYTES * 4)})
        )
        reply = await client.wait_for(lambda m: m["type"] == "error")
        assert reply["code"] == "too_large"
        pong = await client.ping()
        assert pong["type"] == "pong"
    finally:
        await client.close()


def test_oversized_frame_gets_an_error_and_the_socket_lives(shared_server: ServerProcess) -> None:
    asyncio.run(_frame_limit(shared_server))
