"""Private messages kept across a real restart, and friends, over the WebSocket (issue 14)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from _server import ServerProcess
from _wsclient import Message, WsClient

pytestmark = pytest.mark.anyio


async def register(url: str, name: str, lang: str = "en") -> Message:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        response = await http.post(
            "/api/register", json={"name": name, "password": "correct horse", "lang": lang}
        )
        response.raise_for_status()
        session: Message = response.json()
        return session


def kept(client: WsClient) -> list[Message]:
    return [m for m in client.received if m["type"] == "chat" and m.get("offline")]


async def test_a_message_kept_through_a_kill_and_restart_comes_once(server: ServerProcess) -> None:
    anna_session = await register(server.url, "Anna")
    bob_session = await register(server.url, "Bob", "fr")
    anna = await WsClient.with_token(server.url, anna_session["token"], "Anna")
    reply = await anna.ok("chat.private", to="bob", text="rendez-vous à neuf heures")
    assert reply["delivered"] is False and reply["kept"] is True
    assert "Bob is away" in reply["sentence"]
    await anna.ok("chat.private", to="Bob", text="/me waves")
    await anna.close()
    server.kill()  # SIGKILL right after the acknowledgements
    restarted = server.restart()
    try:
        bob = await WsClient.with_token(restarted.url, bob_session["token"], "Bob")
        await bob.wait_for(lambda m: m["type"] == "chat" and m["text"] == "waves")
        got = kept(bob)
        assert [(m["from"], m["text"], m["me"], m["to"]) for m in got] == [
            ("Anna", "rendez-vous à neuf heures", False, "Bob"),
            ("Anna", "waves", True, "Bob"),
        ]
        assert got[0]["sentence"] == (
            "Pendant votre absence, Anna a écrit\u00a0: rendez-vous à neuf heures"
        )
        assert bob.received[0]["type"] == "welcome"
        assert bob.schema_violations == []
        await bob.ping()
        await asyncio.sleep(0.3)  # the delivery is marked once the socket took it
        await bob.close()
        again = await WsClient.with_token(restarted.url, bob_session["token"], "Bob")
        await again.ping()
        await asyncio.sleep(0.3)
        assert kept(again) == []
        await again.close()
    finally:
        restarted.stop()


async def test_friends_over_the_socket(server: ServerProcess) -> None:
    anna = await WsClient.with_token(
        server.url, (await register(server.url, "Anna"))["token"], "Anna"
    )
    bob_session = await register(server.url, "Bob")
    added = await anna.ok("friends.add", name="BOB")
    assert added["friend"]["name"] == "Bob" and added["friend"]["online"] is False
    refused = await anna.request("friends.add", name="Bob", colour="red")
    assert refused["type"] == "error" and refused["code"] == "invalid"
    refused = await anna.request("friends.add", name="Anna")
    assert refused["code"] == "invalid"
    bob = await WsClient.with_token(server.url, bob_session["token"], "Bob")
    came = await anna.wait_for(lambda m: m["type"] == "friend")
    assert came["online"] is True and came["text"] == "Your friend Bob is online."
    table = (await bob.ok("table.create", game="421", seats=2))["table"]["id"]
    listing = await anna.ok("friends.list")
    entry = listing["friends"][0]
    assert entry["online"] is True
    assert entry["places"] == [
        {"table": table, "game": "421", "title": "421 / Zanzibar", "seat": 0}
    ]
    assert entry["text"] == f"Bob is online, at table {table} (421 / Zanzibar), seat 1."
    await bob.close()
    went = await anna.wait_for(lambda m: m["type"] == "friend" and m["online"] is False)
    assert went["text"] == "Your friend Bob went offline."
    await anna.ok("friends.remove", name="Bob")
    assert (await anna.ok("friends.list"))["friends"] == []
    assert anna.schema_violations == []
    await anna.close()
