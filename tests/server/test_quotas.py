"""Quotas against a real server (issue 10, point 4).

Per account and per address: open tables, tables created per minute, sockets,
messages per second summed over all of an account's sockets; the lobby and
the history are paginated so that no request makes the salon build or send
everything at once. Per-address limits are tested with the loopback address
not exempt (``--limit exempt_addresses=``).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from _server import ServerProcess, start_server
from _wsclient import WsClient, sign_in_guest

from zanzibar.games import game_names

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")


def _limited_server(tmp_path: Path, *limits: str) -> ServerProcess:
    args = ["--limit", "exempt_addresses="]
    for limit in limits:
        args += ["--limit", limit]
    return start_server(tmp_path / "data", extra_args=args)


async def _open_tables(server: ServerProcess) -> None:
    greedy = await WsClient.guest(server.url, "Greedy")
    other = await WsClient.guest(server.url, "Other")
    try:
        replies = [await greedy.request("table.create", game="421", seats=2) for _ in range(7)]
        codes = [r["type"] if r["type"] == "ok" else r["code"] for r in replies]
        assert codes == ["ok"] * 5 + ["quota"] * 2, codes
        assert "leave one" in replies[5]["message"]
        # leaving one frees a place
        await greedy.ok("table.leave", table=replies[0]["table"]["id"])
        assert (await greedy.request("table.create", game="421", seats=2))["type"] == "ok"
        # the per-address cap counts every account of the address (8 here)
        refused = None
        for _ in range(4):
            reply = await other.request("table.create", game="421", seats=2)
            if reply["type"] == "error":
                refused = reply
                break
        assert refused is not None and refused["code"] == "quota", refused
        assert "address" in refused["message"]
    finally:
        await greedy.close()
        await other.close()


def test_open_tables_are_capped_per_account_and_per_address(tmp_path: Path) -> None:
    server = _limited_server(tmp_path, "tables_per_address=8", "table_create_rate_user=100/minute")
    try:
        asyncio.run(_open_tables(server))
    finally:
        server.stop()


async def _creation_rate(server: ServerProcess) -> None:
    fast = await WsClient.guest(server.url, "Fast")
    try:
        codes = []
        for _ in range(4):
            reply = await fast.request("table.create", game="421", seats=2)
            codes.append(reply["type"] if reply["type"] == "ok" else reply["code"])
            if reply["type"] == "ok":
                await fast.ok("table.leave", table=reply["table"]["id"])
        assert codes == ["ok", "ok", "ok", "rate_limited"], codes
        limited = fast.of_type("error")[-1]
        assert limited["retry_after"] >= 1 and "new tables" in limited["message"]
    finally:
        await fast.close()


def test_tables_created_per_minute_are_limited(tmp_path: Path) -> None:
    server = _limited_server(tmp_path, "table_create_rate_user=3/minute")
    try:
        asyncio.run(_creation_rate(server))
    finally:
        server.stop()


async def _sockets(server: ServerProcess) -> None:
    session = await sign_in_guest(server.url, "Many")
    held = [await WsClient.with_token(server.url, session["token"], f"Many-{i}") for i in range(3)]
    try:
        extra = await WsClient.open(server.ws_url, "Many-extra")
        refused = await extra.hello(session["token"])
        assert refused["type"] == "error" and refused["code"] == "quota", refused
        await extra.close()
        # closing one frees a place
        await held.pop().close()
        await asyncio.sleep(0.3)
        held.append(await WsClient.with_token(server.url, session["token"], "Many-again"))
        # per address: 5 sockets in all (3 are open); the sixth is refused and closed
        others = [await WsClient.open(server.ws_url, f"anon-{i}") for i in range(2)]
        late = await WsClient.open(server.ws_url, "anon-late")
        error = await late.wait_for(lambda m: m["type"] == "error")
        assert error["code"] == "quota" and "address" in error["message"]
        for _ in range(50):
            if late.closed:
                break
            await asyncio.sleep(0.1)
        assert late.closed
        for client in [*others, late]:
            await client.close()
    finally:
        for client in held:
            await client.close()


def test_sockets_are_capped_per_account_and_per_address(tmp_path: Path) -> None:
    server = _limited_server(tmp_path, "sockets_per_user=3", "sockets_per_address=5")
    try:
        asyncio.run(_sockets(server))
    finally:
        server.stop()


async def _summed_rates(server: ServerProcess) -> None:
    session = await sign_in_guest(server.url, "Chatty")
    friend = await WsClient.guest(server.url, "Listener")
    started = time.monotonic()
    sockets = [
        await WsClient.with_token(server.url, session["token"], f"Chatty-{i}") for i in range(20)
    ]
    try:
        # 20 sockets each send one private line at the same moment: the chat limit
        # (5 lines per 5 seconds) holds for the account, not per socket
        ids = await asyncio.gather(
            *(
                s.send("chat.private", to="Listener", text=f"line {i}")
                for i, s in enumerate(sockets)
            )
        )
        replies = await asyncio.gather(*(s.reply_to(i) for s, i in zip(sockets, ids, strict=True)))
        delivered = [r for r in replies if r["type"] == "ok"]
        assert len(delivered) == 5, [r.get("code") for r in replies]
        assert {r["code"] for r in replies if r["type"] == "error"} == {"rate_limited"}
        # messages of any kind: 60 a minute summed over all sockets (the 20 chat
        # lines spent 20 of them; one more comes back every second; a hello, sent
        # before the socket belongs to the account, counts for its address only)
        pings = [[await s.send("ping") for _ in range(4)] for s in sockets]
        answers: list[dict[str, Any]] = []
        for s, ids_of_s in zip(sockets, pings, strict=True):
            for ping_id in ids_of_s:
                answers.append(
                    await s.wait_for(
                        lambda m, i=ping_id: m["type"] in {"pong", "error"} and m.get("id") == i
                    )
                )
        assert len(answers) == 80
        refused = [m for m in answers if m["type"] == "error"]
        assert refused, "80 pings at once over 20 sockets must meet the account's message rate"
        assert all(m["code"] == "rate_limited" for m in refused)
        pongs = [m for m in answers if m["type"] == "pong"]
        elapsed = time.monotonic() - started
        assert len(pongs) <= 40 + elapsed + 1, (len(pongs), elapsed)
        assert "messages" in refused[0]["message"]
        # the listener is not affected
        assert (await friend.ping())["type"] == "pong"
    finally:
        for s in [*sockets, friend]:
            await s.close()


def test_rates_are_summed_over_all_sockets_of_an_account(tmp_path: Path) -> None:
    server = start_server(
        tmp_path / "data",
        extra_args=["--limit", "sockets_per_user=20", "--limit", "message_rate_user=60/minute"],
    )
    try:
        asyncio.run(_summed_rates(server))
    finally:
        server.stop()


async def _lobby_pages(server: ServerProcess) -> None:
    hosts = [await WsClient.guest(server.url, f"Host{i}") for i in range(3)]
    try:
        created = []
        for index in range(130):
            host = hosts[index % 3]
            created.append((await host.ok("table.create", game="421", seats=2))["table"]["id"])
        watcher = hosts[0]
        await watcher.ok("lobby.subscribe")
        pushed = await watcher.wait_for(lambda m: m["type"] == "lobby")
        assert len(pushed["tables"]) == 100 and pushed["total"] == 130
        assert pushed["next"] == created[99]
        small = await watcher.request("lobby.subscribe", limit=10)
        assert small["type"] == "ok"
        page = await watcher.wait_for(lambda m: m["type"] == "lobby" and len(m["tables"]) == 10)
        assert [t["id"] for t in page["tables"]] == created[:10]
        rest = await watcher.ok("lobby.list", cursor=page["next"], limit=100)
        assert [t["id"] for t in rest["tables"]] == created[10:110]
        assert rest["next"] == created[109]
        too_big = await watcher.request("lobby.list", limit=101)
        assert too_big["type"] == "error" and too_big["code"] == "invalid"
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            seen: list[int] = []
            cursor = None
            pages = 0
            while True:
                params: dict[str, Any] = {"limit": 50}
                if cursor is not None:
                    params["cursor"] = cursor
                body = (await http.get("/api/tables", params=params)).json()
                pages += 1
                assert len(body["tables"]) <= 50 and body["total"] == 130
                seen += [t["id"] for t in body["tables"]]
                cursor = body["next"]
                if cursor is None:
                    break
            assert seen == created and pages == 3
            whole = (await http.get("/api/tables")).json()
            assert len(whole["tables"]) == 100 and whole["next"] == created[99]
            capped = (await http.get("/api/tables", params={"limit": 100000})).json()
            assert len(capped["tables"]) == 100
            bad = await http.get("/api/tables", params={"limit": "x"})
            assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    finally:
        for host in hosts:
            await host.close()


def test_the_lobby_is_paginated(tmp_path: Path) -> None:
    server = start_server(
        tmp_path / "data",
        extra_args=[
            "--limit",
            "tables_per_user=100",
            "--limit",
            "table_create_rate_user=1000/minute",
        ],
    )
    try:
        asyncio.run(_lobby_pages(server))
    finally:
        server.stop()


async def _history(client: WsClient, **fields: Any) -> dict[str, Any]:
    """A ``history`` request's reply (a ``history`` message, or an ``error``)."""
    request_id = await client.send("history", **fields)
    return await client.wait_for(
        lambda m: m.get("id") == request_id and m["type"] in {"history", "error"}
    )


async def _history_pages(server: ServerProcess) -> None:
    host = await WsClient.guest(server.url, "Historian")
    try:
        table = (await host.ok("table.create", game="421", seats=2))["table"]["id"]
        for _ in range(300):  # two system items each
            await host.ok("table.add_bot", table=table, seat=1)
            await host.ok("table.remove_bot", table=table, seat=1)
        last = 1 + 600  # "joined", then 300 times "bot_added" and "bot_removed"
        first = await _history(host, table=table, since=0)
        assert first["type"] == "history" and len(first["items"]) == 500
        assert first["more"] is True and first["next"] == 500 and first["last_seq"] == last
        second = await _history(host, table=table, since=first["next"])
        assert [i["seq"] for i in second["items"]] == list(range(501, last + 1))
        assert second["more"] is False and second["next"] is None
        small = await _history(host, table=table, since=0, limit=7)
        assert [i["seq"] for i in small["items"]] == list(range(1, 8))
        too_big = await _history(host, table=table, limit=501)
        assert too_big["type"] == "error" and too_big["code"] == "invalid"
        # a newcomer gets the newest page, and is told where it starts
        guest = await WsClient.guest(server.url, "Newcomer")
        try:
            await guest.ok("table.watch", table=table, since=0)
            history = await guest.wait_for(lambda m: m["type"] == "history")
            newest = history["last_seq"]
            assert newest == last + 1  # and "watching"
            seqs = [i["seq"] for i in history["items"]]
            assert seqs == list(range(newest + 1 - 500, newest + 1))
            assert history["since"] == newest - 500
        finally:
            await guest.close()
    finally:
        await host.close()


def test_history_is_paginated(server: ServerProcess) -> None:
    asyncio.run(_history_pages(server))
