"""Issue 10, the transport half: a real ``zanzibar serve`` under hostile clients.

Every test talks to a real server process over real sockets, as an attacker
would: poisoned text that cannot be encoded (point 1), reading game records
and seeds that are not yours (2), never reading (5), huge or endless request
bodies (6), sockets that never say hello or never answer pings, and headers
sent one byte at a time (9).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import select
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _rawws import ConnectionClosed, RawWs, closed_within, connect_tcp
from _server import ServerProcess, start_server
from _wsclient import Message, WsClient, sign_in_guest

from zanzibar.games import game_names

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")

#: Small limits, so that each guard trips within a test's patience.
LIMIT_ARGS = [
    "--hello-timeout",
    "1",
    "--header-timeout",
    "1",
    "--body-timeout",
    "1",
    "--ws-frames-per-second",
    "100",
    "--ws-frame-burst",
    "100",
    "--outbox-max-messages",
    "500",
    "--outbox-max-bytes",
    "262144",
]


#: Pings every half second (a separate server: a throttled flood delays the pongs too).
PING_ARGS = [*LIMIT_ARGS, "--ws-ping-interval", "0.5", "--ws-ping-timeout", "0.5"]


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One salon with small transport limits, shared by this module's tests."""
    process = start_server(tmp_path_factory.mktemp("hostile") / "data", extra_args=LIMIT_ARGS)
    try:
        yield process
    finally:
        process.stop()


def _chat_from(client: WsClient, text: str) -> Any:
    return lambda m: m["type"] == "chat" and m.get("text") == text


async def _two_at_a_table(url: str, first: str, second: str) -> tuple[WsClient, WsClient, int]:
    anna = await WsClient.guest(url, first)
    bruno = await WsClient.guest(url, second)
    table = (await anna.ok("table.create", game="421", seats=2))["table"]["id"]
    await bruno.ok("table.join", table=table)
    return anna, bruno, table


# -- point 1: one poisoned message never silences a table ------------------------------


def test_a_lone_surrogate_in_chat_does_not_silence_the_table(
    hostile_server: ServerProcess,
) -> None:
    async def scenario() -> None:
        anna, bruno, table = await _two_at_a_table(hostile_server.url, "Poisoner", "Listener")
        try:
            # "\ud800" as a JSON escape: valid JSON, not encodable as UTF-8.
            frame = json.dumps({"v": 1, "type": "chat.say", "id": "poison", "table": table})
            await anna.send_raw(frame[:-1] + ', "text": "x\\ud800y"}')
            reply = await anna.reply_to("poison")
            assert reply["type"] in {"ok", "error"}  # refused at the edge or stored: either way
            await bruno.ok("chat.say", table=table, text="still there?")
            await anna.wait_for(_chat_from(anna, "still there?"), timeout=5)
            await bruno.wait_for(_chat_from(bruno, "still there?"), timeout=5)
            assert not anna.closed and not bruno.closed
            assert anna.schema_violations == [] and bruno.schema_violations == []
        finally:
            await anna.close()
            await bruno.close()

    asyncio.run(scenario())


def _insert_poisoned_chat(db: Path, table: int) -> int:
    """Store a chat item holding a lone surrogate, as an older server could have stored it."""
    with sqlite3.connect(db) as conn:
        (last,) = conn.execute(
            "SELECT MAX(seq) FROM history WHERE table_id = ?", (table,)
        ).fetchone()
        conn.execute(
            "INSERT INTO history (table_id, seq, channel, item, created) VALUES (?, ?, ?, ?, ?)",
            (
                table,
                last + 1,
                "chat",
                '{"user": 1, "from": "Ghost", "text": "bad \\ud800 text", "me": false}',
                time.time(),
            ),
        )
    return int(last) + 1


def test_a_stored_poisoned_item_does_not_poison_replays_after_a_restart(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data")
    try:
        session = asyncio.run(sign_in_guest(server.url, "Keeper"))

        async def before() -> int:
            anna = await WsClient.with_token(server.url, session["token"], "Keeper")
            try:
                table = (await anna.ok("table.create", game="421", seats=2))["table"]["id"]
                await anna.ok("chat.say", table=table, text="before")
                return int(table)
            finally:
                await anna.close()

        table = asyncio.run(before())
        server.kill()
        poisoned_seq = _insert_poisoned_chat(tmp_path / "data" / "zanzibar.sqlite3", table)
        server = server.restart()

        async def after() -> None:
            anna = await WsClient.with_token(server.url, session["token"], "Keeper")
            try:
                await anna.ok("table.join", table=table, since=0)
                history = await anna.wait_for(lambda m: m["type"] == "history", timeout=5)
                by_seq = {item["seq"]: item for item in history["items"]}
                assert by_seq[poisoned_seq]["text"] == "bad \ufffd text"
                await anna.ok("chat.say", table=table, text="after")
                await anna.wait_for(_chat_from(anna, "after"), timeout=5)
            finally:
                await anna.close()

        asyncio.run(after())
    finally:
        server.stop()


# -- point 2: the dice cannot be predicted; private games stay private -------------------


def _all_text(messages: list[Message]) -> str:
    return "\n".join(json.dumps(m) for m in messages)


def test_a_running_games_seed_never_leaves_the_server(hostile_server: ServerProcess) -> None:
    async def scenario() -> None:
        anna = await WsClient.guest(hostile_server.url, "Dicer")
        watcher = await WsClient.guest(hostile_server.url, "Peeker")
        try:
            table = (await anna.ok("table.create", game="421", seats=2))["table"]["id"]
            await anna.ok("table.add_bot", table=table, level="random")
            game_id = (await anna.ok("table.start", table=table))["game_id"]
            await watcher.ok("table.watch", table=table, since=0)
            await watcher.wait_for(lambda m: m["type"] == "game.view", timeout=5)
            async with httpx.AsyncClient(base_url=hostile_server.url, timeout=10) as http:
                running = (await http.get(f"/api/games/{game_id}")).json()
                assert running["status"] == "running"
                assert running["record"]["seed"] is None
                commitment = running["seed_sha256"]
                asked = await anna.send("history", table=table, since=0)
                await anna.wait_for(lambda m: m["type"] == "history" and m.get("id") == asked)
                # Anna leaves: bots play her seat on to the end (the watcher keeps the table open).
                await anna.ok("table.leave", table=table)
                ended = running
                for _ in range(200):
                    ended = (await http.get(f"/api/games/{game_id}")).json()
                    if ended["status"] != "running":
                        break
                    await asyncio.sleep(0.1)
            assert ended["status"] in {"finished", "abandoned"}
            seed = ended["record"]["seed"]
            assert isinstance(seed, int)
            assert hashlib.sha256(str(seed).encode()).hexdigest() == commitment
            # Nothing sent while it ran carried the seed.
            leaked = _all_text(anna.received + watcher.received) + json.dumps(running)
            assert str(seed) not in leaked
        finally:
            await anna.close()
            await watcher.close()

    asyncio.run(scenario())


def test_a_private_tables_games_answer_only_their_players(hostile_server: ServerProcess) -> None:
    async def scenario() -> None:
        host = await WsClient.guest(hostile_server.url, "Secretive")
        stranger = await sign_in_guest(hostile_server.url, "Stranger")
        try:
            created = await host.ok("table.create", game="421", seats=2, private=True)
            table = created["table"]["id"]
            await host.ok("table.add_bot", table=table, level="random")
            game_id = (await host.ok("table.start", table=table))["game_id"]
            async with httpx.AsyncClient(base_url=hostile_server.url, timeout=10) as http:
                anonymous = await http.get(f"/api/games/{game_id}")
                other = await http.get(
                    f"/api/games/{game_id}",
                    headers={"Authorization": f"Bearer {stranger['token']}"},
                )
                missing = await http.get("/api/games/987654321")
                forged = await http.get(
                    f"/api/games/{game_id}", headers={"Authorization": "Bearer forged"}
                )
                own = await http.get(
                    f"/api/games/{game_id}", headers={"Authorization": f"Bearer {host.token}"}
                )
            # Not even its existence: the same answer as for a game that does not exist.
            for refused in (anonymous, other):
                assert refused.status_code == 404
                assert refused.json()["code"] == missing.json()["code"] == "not_found"
            assert forged.status_code == 401 and forged.json()["code"] == "unauthenticated"
            assert own.status_code == 200
            assert own.json()["record"]["seed"] is None  # still running, even for a player
        finally:
            await host.close()

    asyncio.run(scenario())


def test_openapi_documents_the_withheld_seed_and_the_token(hostile_server: ServerProcess) -> None:
    doc = httpx.get(hostile_server.url + "api/openapi.json", timeout=10).json()
    seed = doc["components"]["schemas"]["MatchRecord"]["properties"]["seed"]
    assert "null" in seed["type"]
    route = doc["paths"]["/api/games/{game_id}"]["get"]
    assert {"401", "404"} <= set(route["responses"])
    assert doc["components"]["securitySchemes"]["session"]["scheme"] == "bearer"


# -- point 5: a client that does not read is cut off, and resumes ------------------------


def _server_rss_kib(server: ServerProcess) -> int:
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    line = next(x for x in status.splitlines() if x.startswith("VmRSS:"))
    return int(line.split()[1])


def test_a_client_that_stops_reading_is_cut_off_and_resumes(hostile_server: ServerProcess) -> None:
    session = asyncio.run(sign_in_guest(hostile_server.url, "Sleepy"))

    async def host_table() -> tuple[WsClient, int]:
        host = await WsClient.guest(hostile_server.url, "Awake")
        table = (await host.ok("table.create", game="421", seats=3))["table"]["id"]
        return host, int(table)

    async def setup() -> tuple[WsClient, int]:
        return await host_table()

    loop = asyncio.new_event_loop()
    try:
        host, table = loop.run_until_complete(setup())
        slow = RawWs.open(hostile_server.url, rcvbuf=4096)
        slow.send_json({"type": "hello", "token": session["token"], "id": 1})
        assert slow.wait_for(lambda m: m["type"] == "welcome")["user"]["name"] == "Sleepy"
        slow.send_json({"type": "table.join", "table": table, "since": 0, "id": 2})
        loop.run_until_complete(host.ok("chat.say", table=table, text="seen"))
        seen = slow.wait_for(lambda m: m.get("text") == "seen")["seq"]
        rss_before = _server_rss_kib(hostile_server)
        # Now it asks for big replies (the game list, in French) and reads nothing.
        slow.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
        cut = False
        for n in range(3000):
            try:
                slow.send_json({"type": "games.list", "id": 100 + n})
            except OSError:
                cut = True
                break
        loop.run_until_complete(host.ok("chat.say", table=table, text="missed"))
        deadline = time.monotonic() + 10
        while not cut and time.monotonic() < deadline:
            cut = "too slow to read" in hostile_server.logs()
            time.sleep(0.1)
        assert cut, hostile_server.logs()[-2000:]
        assert "too slow to read" in hostile_server.logs()
        assert closed_within(slow.sock, 10), "the slow socket was not closed"
        assert _server_rss_kib(hostile_server) - rss_before < 64 * 1024  # no unbounded queue
        slow.close()

        async def resume() -> None:
            again = await WsClient.with_token(hostile_server.url, session["token"], "Sleepy")
            try:
                assert any(p["table"] == table for p in again.received[-1]["tables"])
                await again.ok("table.join", table=table, since=seen)
                history = await again.wait_for(lambda m: m["type"] == "history")
                texts = [i.get("text") for i in history["items"]]
                assert "missed" in texts and "seen" not in texts
                assert all(i["seq"] > seen for i in history["items"])
            finally:
                await again.close()
                await host.close()

        loop.run_until_complete(resume())
    finally:
        loop.close()


def test_a_flooding_socket_is_read_slower_and_others_are_not(
    hostile_server: ServerProcess,
) -> None:
    """600 frames at once: the server reads the flooder at 100 a second; others go on."""

    async def scenario() -> None:
        flooder = await WsClient.guest(hostile_server.url, "Flooder")
        calm = await WsClient.guest(hostile_server.url, "Calm")
        try:
            started = time.monotonic()
            frames = [json.dumps({"v": 1, "type": "ping", "id": n}) for n in range(600)]
            for frame in frames:
                await flooder.send_raw(frame)
            await asyncio.sleep(1.0)  # in the middle of the flood
            calm_started = time.monotonic()
            assert (await calm.ping())["type"] == "pong"
            calm_seconds = time.monotonic() - calm_started
            await flooder.wait_for(lambda m: m.get("id") == 599, timeout=30)
            flood_seconds = time.monotonic() - started
            pongs = [m["id"] for m in flooder.received if m["type"] == "pong"]
            assert pongs == list(range(600))  # slowed down, nothing lost
            assert flood_seconds >= 4.0  # (600 - 100) / 100 a second, at least
            assert calm_seconds < 2.0
        finally:
            await flooder.close()
            await calm.close()

    asyncio.run(scenario())
    assert "sends over 100 frames a second; reading it slower" in hostile_server.logs()


# -- point 6: request bodies refused while they stream --------------------------------


def _response_head(sock: socket.socket, timeout: float = 5.0) -> tuple[int, bytes]:
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    return status, data


def test_a_declared_huge_body_is_refused_before_it_is_sent(hostile_server: ServerProcess) -> None:
    # A GET route too: the guard stands in front of every route.
    for method, path, lang, sentence in (
        ("POST", "/api/guest", "en", "The request is too large: 16384 bytes at most."),
        (
            "GET",
            "/api/tables",
            "fr-FR,fr;q=0.9",
            "La requête est trop grande\u00a0: 16384 octets au plus.",
        ),
    ):
        sock = connect_tcp(hostile_server.url)
        sock.sendall(
            f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Accept-Language: {lang}\r\nContent-Length: {400 * 1024 * 1024}\r\n\r\n".encode()
        )
        status, data = _response_head(sock)
        assert status == 413, data
        body = json.loads((data + _rest(sock)).split(b"\r\n\r\n", 1)[1])
        assert body == {"code": "too_large", "message": sentence}
        assert closed_within(sock, 3)
        sock.close()


def _rest(sock: socket.socket) -> bytes:
    """What the server still sends until it closes the connection."""
    data = b""
    sock.settimeout(3)
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except OSError:
        pass
    return data


def test_a_chunked_body_is_refused_as_soon_as_it_passes_the_limit(
    hostile_server: ServerProcess,
) -> None:
    rss_before = _server_rss_kib(hostile_server)
    sock = connect_tcp(hostile_server.url)
    sock.sendall(
        b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"x" * 8192
    for _ in range(4):  # 32 KiB: twice the limit, then the client waits
        sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    status, data = _response_head(sock)
    assert status == 413, data
    # The server does not read the rest: the connection is closed under the sender.
    refused = False
    try:
        for _ in range(2000):  # up to 16 MiB
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
    except OSError:
        refused = True
    sock.close()
    assert refused
    assert _server_rss_kib(hostile_server) - rss_before < 32 * 1024


def test_a_body_that_never_ends_times_out(hostile_server: ServerProcess) -> None:
    sock = connect_tcp(hostile_server.url)
    sock.sendall(
        b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"name":'
    )
    started = time.monotonic()
    status, data = _response_head(sock, timeout=5)
    assert status == 408, data
    assert time.monotonic() - started < 4
    sock.close()


# -- point 9: silent sockets and slowloris ---------------------------------------------


def test_a_websocket_that_never_says_hello_is_closed(hostile_server: ServerProcess) -> None:
    ws = RawWs.open(hostile_server.url)
    started = time.monotonic()
    error = ws.read_message(timeout=5)
    assert error["type"] == "error" and error["code"] == "timeout"
    assert "hello" in error["message"]
    with pytest.raises(ConnectionClosed) as closed:
        ws.read_message(timeout=5)
    assert closed.value.code == 4001
    assert time.monotonic() - started < 4
    ws.close()


def test_a_websocket_that_never_answers_pings_is_dropped(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data", extra_args=PING_ARGS)
    try:
        session = asyncio.run(sign_in_guest(server.url, "Mute"))
        ws = RawWs.open(server.url)
        ws.send_json({"type": "hello", "token": session["token"], "id": 1})
        assert ws.read_message()["type"] == "welcome"
        # From now on it reads nothing and answers no ping.
        time.sleep(2.5)
        assert closed_within(ws.sock, 3)
        ws.close()

        async def honest() -> None:  # a client that answers its pings stays
            anna = await WsClient.guest(server.url, "Answers")
            try:
                await asyncio.sleep(2.0)  # four ping rounds
                assert (await anna.ping())["type"] == "pong"
                assert not anna.closed
            finally:
                await anna.close()

        asyncio.run(honest())
    finally:
        server.stop()


def test_headers_sent_one_byte_at_a_time_time_out(hostile_server: ServerProcess) -> None:
    sock = connect_tcp(hostile_server.url)
    started = time.monotonic()
    request = b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    status = 0
    data = b""
    try:
        for byte in request:
            sock.sendall(bytes([byte]))
            readable, _, _ = select.select([sock], [], [], 0.05)
            if readable:  # the server answered (or closed): stop trickling
                break
    except OSError:
        pass
    status, data = _response_head(sock, timeout=3)
    assert status == 408, data
    assert time.monotonic() - started < 5
    assert closed_within(sock, 2)
    sock.close()


def test_a_connection_that_sends_nothing_is_closed(hostile_server: ServerProcess) -> None:
    sock = connect_tcp(hostile_server.url)
    assert closed_within(sock, 3)
    sock.close()


def test_oversized_headers_are_refused(hostile_server: ServerProcess) -> None:
    sock = connect_tcp(hostile_server.url)
    try:
        sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")
        for _ in range(64):
            sock.sendall(b"X-Big: " + b"a" * 1024 + b"\r\n")
    except OSError:
        pass
    status, data = _response_head(sock)
    assert status == 431, data
    sock.close()


def test_honest_clients_are_unaffected(hostile_server: ServerProcess) -> None:
    """The guards leave a normal client alone: sign in, list, play, over keep-alive HTTP."""

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=hostile_server.url, timeout=10) as http:
            for _ in range(3):
                assert (await http.get("/api/tables")).status_code == 200
                await asyncio.sleep(0.3)
        anna = await WsClient.guest(hostile_server.url, "Honest")
        try:
            for _ in range(20):  # a lively client, well under the frame budget
                assert (await anna.ping())["type"] == "pong"
            assert not anna.closed
        finally:
            await anna.close()

    asyncio.run(scenario())
