"""Hostile text against a real server: lone surrogates, bidi overrides, look-alike names.

Issue 10, points 1 (the edge half: text is validated before it is stored or
sent) and 8 (names are unique by confusable skeleton; the salon's own names
are reserved).
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from _server import ServerProcess
from _wsclient import WsClient

from zanzibar.games import game_names

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")


async def _lone_surrogate_chat(server: ServerProcess) -> None:
    anna = await WsClient.guest(server.url, "Surrogate Anna")
    bruno = await WsClient.guest(server.url, "Surrogate Bruno")
    try:
        table = (await anna.ok("table.create", game="421", seats=2))["table"]["id"]
        await bruno.ok("table.join", table=table)
        # json.dumps writes the lone surrogate as the escape "\ud800", as an attacker would
        for bad in ("\ud800", "hi \udfff there", "/me \ud83d"):
            frame = json.dumps(
                {"v": 1, "type": "chat.say", "id": "bad", "table": table, "text": bad}
            )
            assert "\\ud" in frame
            start = len(anna.received)
            await anna.send_raw(frame)
            reply = await anna.wait_for(lambda m: m.get("id") == "bad", start=start)
            assert reply["type"] == "error" and reply["code"] == "invalid", reply
            assert "Unicode" in reply["message"]
        # a private message and a name lookup carrying one are refused the same way
        frame = json.dumps(
            {"v": 1, "type": "chat.private", "id": "pm", "to": "\ud800", "text": "x"}
        )
        await anna.send_raw(frame)
        assert (await anna.reply_to("pm"))["code"] == "invalid"
        # the table is not silenced: both players still hear each other
        await anna.ok("chat.say", table=table, text="still here")
        heard = await bruno.wait_for(lambda m: m["type"] == "chat" and m["text"] == "still here")
        assert heard["from"] == "Surrogate Anna"
        await bruno.ok("chat.say", table=table, text="me too")
        await anna.wait_for(lambda m: m["type"] == "chat" and m["text"] == "me too")
        assert not anna.schema_violations and not bruno.schema_violations
    finally:
        await anna.close()
        await bruno.close()
    # and after a restart nothing poisoned replays: a newcomer reads the whole history
    restarted = server.restart()
    try:
        carla = await WsClient.guest(restarted.url, "Surrogate Carla")
        try:
            await carla.ok("table.watch", table=table)
            history = await carla.wait_for(lambda m: m["type"] == "history")
            texts = [i["text"] for i in history["items"] if i["channel"] == "chat"]
            assert texts == ["still here", "me too"]
        finally:
            await carla.close()
    finally:
        restarted.stop()


def test_a_lone_surrogate_is_refused_and_the_table_keeps_talking(server: ServerProcess) -> None:
    asyncio.run(_lone_surrogate_chat(server))


async def _invisible_characters(server: ServerProcess) -> None:
    anna = await WsClient.guest(server.url, "Bidi Anna")
    bruno = await WsClient.guest(server.url, "Bidi Bruno")
    try:
        table = (await anna.ok("table.create", game="421", seats=2))["table"]["id"]
        await bruno.ok("table.join", table=table)
        sneaky = "gg\u202e evil\u2066 \u200bhidden\u200d\x07\x1b[31m red\x85\ufeff"
        await anna.ok("chat.say", table=table, text=sneaky)
        heard = await bruno.wait_for(lambda m: m["type"] == "chat" and m["from"] == "Bidi Anna")
        assert heard["text"] == "gg evil hidden[31m red"
        for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200d\x07\x85":
            assert ch not in heard["text"]
        reply = await anna.request("chat.say", table=table, text="\u202e\u200b\u2066")
        assert reply["type"] == "error" and reply["code"] == "invalid"
        assert "empty" in reply["message"]
    finally:
        await anna.close()
        await bruno.close()


def test_controls_bidi_overrides_and_invisible_characters_are_stripped_from_chat(
    server: ServerProcess,
) -> None:
    asyncio.run(_invisible_characters(server))


def test_names_are_unique_by_skeleton_and_the_salons_names_are_reserved(
    server: ServerProcess,
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        anna = http.post("/api/register", json={"name": "Anna", "password": "secret-pw"})
        assert anna.status_code == 200
        # full width, Cyrillic A, upper case, homoglyph digits: all Anna
        for number, copy in enumerate(("ＡＮＮＡ", "\u0410nna", "ANNA", "Ann\u0430"), start=2):
            taken = http.post("/api/register", json={"name": copy, "password": "secret-pw"})
            assert taken.status_code == 409 and taken.json()["code"] == "conflict", copy
            guest = http.post("/api/guest", json={"name": copy})
            assert guest.status_code == 200
            assert guest.json()["user"]["name"] == f"{copy} {number}", guest.json()
        lily = http.post("/api/guest", json={"name": "Lily"}).json()["user"]["name"]
        assert lily == "Lily"
        again = http.post("/api/guest", json={"name": "LiIy"}).json()["user"]["name"]
        assert again == "LiIy 2"  # a capital i passes for an l
        iris = http.post("/api/register", json={"name": "Iris", "password": "secret-pw"})
        assert iris.status_code == 200
        for copy in ("iris", "IRIS", "lris"):
            taken = http.post("/api/register", json={"name": copy, "password": "secret-pw"})
            assert taken.status_code == 409, copy
        for reserved in (
            "System",
            "SYSTEM",
            "Système",
            "\u0405ystem",  # Cyrillic DZE
            "Bot 2 (random)",
            "Bot 1 (hard)",
            "Robot 2 (aléatoire)",
            "B0t 3 (easy)",
            "Admin",
            "Hôte",
        ):
            for route, body in (
                ("/api/guest", {"name": reserved}),
                ("/api/register", {"name": reserved, "password": "secret-pw"}),
            ):
                refused = http.post(route, json=body)
                assert refused.status_code == 400, (reserved, refused.json())
                assert refused.json()["code"] == "invalid"
                assert "reserved" in refused.json()["message"]
        for invisible in ("Ann\u202ea", "An\u200bna", "Anna\u2066", "\u200d", "An\x07na"):
            refused = http.post("/api/guest", json={"name": invisible})
            assert refused.status_code == 400 and refused.json()["code"] == "invalid", invisible
        # a lone surrogate in a name (raw JSON escape)
        refused = http.post(
            "/api/guest",
            content=b'{"name": "Anna\\ud800"}',
            headers={"content-type": "application/json"},
        )
        assert refused.status_code == 400 and refused.json()["code"] == "invalid"
        # the real Anna still signs in, under any case
        assert (
            http.post("/api/login", json={"name": "anna", "password": "secret-pw"}).status_code
            == 200
        )
