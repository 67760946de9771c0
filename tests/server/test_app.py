"""The transport alone, in process, against a fake salon: HTTP routes and /ws framing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from _fakesalon import FakeSalon
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from uvicorn.protocols.utils import ClientDisconnected

from zanzibar.salon.connections import Shared
from zanzibar.server.app import Outbox, create_app, to_jsonable
from zanzibar.server.guards import Writer
from zanzibar.server.schemas import MAX_FRAME_BYTES
from zanzibar.server.settings import TransportLimits


@pytest.fixture
def salon() -> FakeSalon:
    return FakeSalon()


@pytest.fixture
def client(salon: FakeSalon) -> Iterator[TestClient]:
    with TestClient(create_app(salon)) as test_client:
        yield test_client


def test_lifespan_starts_and_stops_the_salon(salon: FakeSalon) -> None:
    with TestClient(create_app(salon)):
        assert salon.started and not salon.stopped
    assert salon.stopped


def test_guest_sign_in_returns_token_and_user(client: TestClient) -> None:
    response = client.post("/api/guest", json={"name": "Anna", "lang": "fr"})
    assert response.status_code == 200
    assert response.json() == {
        "token": "token-1",
        "user": {"id": 1, "name": "Anna", "lang": "fr", "guest": True},
    }


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", "bad_json"),
        (json.dumps({"lang": "en"}).encode(), "invalid"),
        (json.dumps({"name": "", "lang": "en"}).encode(), "invalid"),
        (json.dumps({"name": "Anna", "lang": "de"}).encode(), "invalid"),
        (json.dumps({"name": "Anna", "extra": 1}).encode(), "invalid"),
        (json.dumps(["Anna"]).encode(), "invalid"),
        (b"x" * 20000, "too_large"),
    ],
)
def test_bad_sign_in_bodies_are_refused(
    client: TestClient, salon: FakeSalon, body: bytes, code: str
) -> None:
    response = client.post("/api/guest", content=body)
    assert response.status_code in {400, 413}
    assert response.json()["code"] == code
    assert salon.sessions == {}


def test_salon_refusal_keeps_its_code(client: TestClient) -> None:
    response = client.post("/api/guest", json={"name": "taken"})
    assert response.status_code == 409
    assert response.json()["code"] == "conflict"


def test_login_failure_is_401(client: TestClient) -> None:
    response = client.post("/api/login", json={"name": "Nobody", "password": "x"})
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"


def test_register_then_login(client: TestClient) -> None:
    registered = client.post("/api/register", json={"name": "Bob", "password": "right"})
    assert registered.json()["user"]["guest"] is False
    logged_in = client.post("/api/login", json={"name": "Bob", "password": "right"})
    assert logged_in.json()["token"] == registered.json()["token"]


def test_read_only_routes(client: TestClient, salon: FakeSalon) -> None:
    assert client.get("/api/tables").json()["tables"][0]["game"] == "421"
    client.get("/api/tables", params={"lang": "fr"})
    assert salon.last_lang == "fr"
    client.get("/api/tables", params={"lang": "klingon"})
    assert salon.last_lang == "en"
    assert client.get("/api/games/7").json()["id"] == 7
    assert client.get("/api/games/8").status_code == 404
    assert client.get("/api/games/abc").status_code == 404
    assert client.get("/api/users/Anna/stats").json()["name"] == "Anna"
    assert client.get("/api/users/Nobody/stats").status_code == 404
    assert client.get("/api/games").status_code == 200


def test_to_jsonable_handles_nested_values() -> None:
    class WithJson:
        def to_json(self) -> dict[str, Any]:
            return {"a": (1, 2)}

    assert to_jsonable([WithJson()]) == [{"a": [1, 2]}]


# -- the socket ----------------------------------------------------------------------------


def _hello(ws: Any, token: str = "token-1") -> dict[str, Any]:
    ws.send_text(json.dumps({"v": 1, "type": "hello", "token": token}))
    reply: dict[str, Any] = ws.receive_json()
    return reply


def test_hello_then_ping(client: TestClient) -> None:
    client.post("/api/guest", json={"name": "Anna"})
    with client.websocket_connect("/ws") as ws:
        assert _hello(ws)["type"] == "welcome"
        ws.send_text(json.dumps({"v": 1, "type": "ping", "id": "p1"}))
        assert ws.receive_json() == {"v": 1, "type": "pong", "id": "p1"}


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{oops", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('"hello"', "bad_json"),
        ('{"type": "ping"}', "bad_version"),
        ('{"v": 2, "type": "ping", "id": 5}', "bad_version"),
        ('{"v": true, "type": "ping"}', "bad_version"),
        ('{"v": 1, "type": "dance", "id": 5}', "unknown_type"),
        ('{"v": 1}', "unknown_type"),
        ('{"v": 1, "type": "table.join", "id": 5}', "invalid"),
        ('{"v": 1, "type": "table.join", "table": 1, "seat": -1}', "invalid"),
        ('{"v": 1, "type": "ping", "extra": 1}', "invalid"),
        ('{"v": 1, "type": "chat.say", "table": 1, "text": 5}', "invalid"),
        ('{"v": 1, "type": "table.create", "game": "421", "options": {"x": [1]}}', "invalid"),
    ],
)
def test_refused_frames_never_reach_the_salon(
    client: TestClient, salon: FakeSalon, frame: str, code: str
) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_text(frame)
        reply = ws.receive_json()
        assert reply["type"] == "error"
        assert reply["code"] == code
        assert reply["message"]
        if '"id": 5' in frame:
            assert reply["id"] == 5
        # the socket still works afterwards
        ws.send_text('{"v": 1, "type": "ping", "id": "after"}')
        assert ws.receive_json()["code"] == "unauthenticated"
    assert [m["type"] for m in salon.handled] == ["ping"]


def test_oversized_frame_is_refused_and_socket_survives(
    client: TestClient, salon: FakeSalon
) -> None:
    client.post("/api/guest", json={"name": "Anna"})
    with client.websocket_connect("/ws") as ws:
        _hello(ws)
        big = json.dumps({"v": 1, "type": "chat.say", "table": 1, "text": "x" * MAX_FRAME_BYTES})
        ws.send_text(big)
        assert ws.receive_json()["code"] == "too_large"
        ws.send_bytes(b"\xff" * (MAX_FRAME_BYTES + 1))
        assert ws.receive_json()["code"] == "too_large"
        ws.send_text(json.dumps({"v": 1, "type": "ping"}))
        assert ws.receive_json()["type"] == "pong"
    assert [m["type"] for m in salon.handled] == ["hello", "ping"]


def test_binary_json_frames_are_read_as_text(client: TestClient) -> None:
    client.post("/api/guest", json={"name": "Anna"})
    with client.websocket_connect("/ws") as ws:
        _hello(ws)
        ws.send_bytes(b'{"v": 1, "type": "ping", "id": 3}')
        assert ws.receive_json() == {"v": 1, "type": "pong", "id": 3}
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["code"] == "bad_json"


def test_a_salon_bug_becomes_an_error_reply(client: TestClient) -> None:
    client.post("/api/guest", json={"name": "Anna"})
    with client.websocket_connect("/ws") as ws:
        _hello(ws)
        ws.send_text(json.dumps({"v": 1, "type": "chat.say", "id": 9, "table": 1, "text": "crash"}))
        reply = ws.receive_json()
        assert (reply["type"], reply["id"], reply["code"]) == ("error", 9, "internal")
        ws.send_text(json.dumps({"v": 1, "type": "ping"}))
        assert ws.receive_json()["type"] == "pong"


def test_disconnect_is_reported_to_the_salon(client: TestClient, salon: FakeSalon) -> None:
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"v": 1, "type": "ping"}))
        ws.receive_json()
        assert len(salon.connections) == 1
    # leaving the block closes the socket; the server side notices
    for _ in range(100):
        if salon.disconnected:
            break
        client.get("/api/tables")
    assert salon.disconnected == 1
    assert salon.connections == []


def test_many_messages_arrive_in_order(client: TestClient) -> None:
    client.post("/api/guest", json={"name": "Anna"})
    with client.websocket_connect("/ws") as ws:
        _hello(ws)
        ws.send_text(json.dumps({"v": 1, "type": "chat.say", "table": 1, "text": "flood"}))
        seqs = [ws.receive_json()["seq"] for _ in range(100)]
        assert seqs == list(range(1, 101))


def test_outbox_drops_a_client_that_cannot_keep_up() -> None:
    sent: list[str] = []

    closed: list[int] = []
    aborted: list[bool] = []

    class StuckSocket:
        scope = {"client": ("10.0.0.1", 5)}

        async def send_text(self, text: str) -> None:
            sent.append(text)
            await asyncio.sleep(3600)

        async def close(self, code: int, reason: str) -> None:
            closed.append(code)
            await asyncio.sleep(3600)  # the close frame cannot get through either

    async def scenario() -> None:
        limits = TransportLimits(outbox_max_messages=10)
        outbox = Outbox(StuckSocket(), limits, abort=lambda: aborted.append(True))  # type: ignore[arg-type]
        outbox.start()
        await outbox.send({"n": 0})
        await asyncio.sleep(0.01)  # the writer takes it and gets stuck
        for n in range(1, 50):
            await outbox.send({"n": n})
        assert outbox.too_slow and outbox.closed and outbox.gone.is_set()
        assert len(outbox.queue) == 0 and outbox.queued_bytes == 0  # freed at once
        assert sent == ['{"n":0}']
        await outbox.close()
        assert closed == [4008] and aborted == [True]

    asyncio.run(scenario())


def test_static_root_does_not_break_the_api(client: TestClient) -> None:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


def test_websocket_close_on_unknown_path(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/nope") as ws:
        ws.receive_json()


def test_outbox_closes_only_its_socket_when_a_send_fails(caplog: pytest.LogCaptureFixture) -> None:
    closed: list[int] = []

    class BrokenSocket:
        scope = {"client": ("10.0.0.2", 6)}

        async def send_text(self, text: str) -> None:
            raise ValueError("the transport refused the frame")

        async def close(self, code: int, reason: str) -> None:
            closed.append(code)

    async def scenario() -> None:
        outbox = Outbox(BrokenSocket(), TransportLimits())  # type: ignore[arg-type]
        outbox.start()
        await outbox.send({"type": "chat", "text": "hi"})
        await asyncio.sleep(0.01)
        assert outbox.closed and outbox.gone.is_set()
        await outbox.send({"type": "chat", "text": "dropped"})  # nothing more is queued
        assert not outbox.queue
        await outbox.close()

    with caplog.at_level("WARNING", logger="zanzibar.server"):
        asyncio.run(scenario())
    assert closed == [1011]
    assert "websocket 10.0.0.2:6 closed (1011): a message could not be sent" in caplog.text


def test_outbox_never_fails_on_text_that_utf8_cannot_hold() -> None:
    sent: list[str] = []

    class Socket:
        scope: dict[str, Any] = {}

        async def send_text(self, text: str) -> None:
            sent.append(text)
            text.encode("utf-8")  # what uvicorn does; raises on a lone surrogate

    async def scenario() -> None:
        outbox = Outbox(Socket(), TransportLimits())  # type: ignore[arg-type]
        outbox.start()
        await outbox.send({"type": "chat", "text": "a\ud800b"})
        await outbox.send({"type": "chat", "text": "next"})
        await outbox.close()
        assert not outbox.gone.is_set()

    asyncio.run(scenario())
    assert [json.loads(t)["text"] for t in sent] == ["a\ufffdb", "next"]


def test_outbox_encodes_a_shared_message_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """One message put to a table's audience is encoded for the first socket only."""
    import zanzibar.server.app as app_module

    encoded: list[dict[str, Any]] = []
    real = app_module.encode_message

    def counting(message: Any) -> str:
        encoded.append(message)
        return real(message)

    monkeypatch.setattr(app_module, "encode_message", counting)

    class Socket:
        scope: dict[str, Any] = {}

        async def send_text(self, text: str) -> None:
            pass

    shared = Shared({"type": "game.event", "text": "Anna rolled 4, 2, 1."})
    outboxes = [Outbox(Socket(), TransportLimits()) for _ in range(3)]  # type: ignore[arg-type]
    for outbox in outboxes:
        outbox.put_message(shared)
    for outbox in outboxes[:2]:
        outbox.put_message({"type": "ok"})  # a plain message: encoded each time
    assert len(encoded) == 3
    frame = '{"type":"game.event","text":"Anna rolled 4, 2, 1."}'
    assert shared.encoded == frame
    assert [list(o.queue) for o in outboxes] == [
        [frame, '{"type":"ok"}'],
        [frame, '{"type":"ok"}'],
        [frame],
    ]


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "code", "english", "french"),
    [
        (
            "post",
            "/api/guest",
            {"content": b"{nope"},
            "bad_json",
            "the body is not valid JSON",
            "le corps de la requête n'est pas du JSON valide",
        ),
        (
            "get",
            "/api/games/999",
            {},
            "not_found",
            "no game 999",
            "aucune partie 999",
        ),
        (
            "get",
            "/api/users/Zoé/stats",
            {},
            "not_found",
            "no player named 'Zoé'",
            "aucun joueur nommé «\u00a0Zoé\u00a0»",
        ),
        (
            "get",
            "/api/tables?limit=x",
            {},
            "invalid",
            "limit must be a whole number",
            "«\u00a0limit\u00a0» doit être un nombre entier",
        ),
        (
            "post",
            "/api/logout",
            {},
            "unauthenticated",
            "send your session token as a bearer token",
            "envoyez votre jeton de session comme jeton «\u00a0Bearer\u00a0»",
        ),
        (
            "get",
            "/api/games/7",
            {"headers": {"authorization": "Basic abc"}},
            "unauthenticated",
            "send the session token as 'Bearer <token>'",
            "envoyez le jeton de session sous la forme «\u00a0Bearer <jeton>\u00a0»",
        ),
    ],
)
def test_http_refusals_speak_the_client_language(
    client: TestClient,
    method: str,
    path: str,
    kwargs: dict[str, Any],
    code: str,
    english: str,
    french: str,
) -> None:
    plain = getattr(client, method)(path, **kwargs)
    assert plain.json() == {"code": code, "message": english}
    headers = {**kwargs.pop("headers", {}), "accept-language": "fr-FR,fr;q=0.9"}
    answer = getattr(client, method)(path, headers=headers, **kwargs)
    assert answer.status_code == plain.status_code
    assert answer.json() == {"code": code, "message": french}


class _BatchedSocket:
    """A protocol's batched writer (guards.Writer) that records each write."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.ready = asyncio.Event()
        self.ready.set()
        self.gone = False

    def write(self, texts: Any) -> None:
        if self.gone:
            raise ClientDisconnected()
        self.writes.append(list(texts))

    def writer(self) -> Writer:
        return Writer(self.write, self.ready.is_set, self.ready.wait)


def test_outbox_sends_what_one_turn_queued_in_one_write() -> None:
    """Messages queued in one turn of the loop go out in one write, in order; no drain task."""
    socket = _BatchedSocket()

    async def scenario() -> None:
        outbox = Outbox(None, TransportLimits(), writer=socket.writer())  # type: ignore[arg-type]
        outbox.start()
        assert outbox.task is None
        for n in range(3):
            outbox.put_message({"n": n})
        assert socket.writes == []  # not before the turn ends
        await asyncio.sleep(0)
        assert socket.writes == [['{"n":0}', '{"n":1}', '{"n":2}']]
        outbox.put_message({"n": 3})
        await asyncio.sleep(0)
        assert socket.writes[1:] == [['{"n":3}']]
        assert not outbox.queue and outbox.queued_bytes == 0

    asyncio.run(scenario())


def test_outbox_waits_for_a_full_socket_then_writes_everything() -> None:
    socket = _BatchedSocket()
    socket.ready.clear()  # the client reads slower than we write

    async def scenario() -> None:
        outbox = Outbox(None, TransportLimits(), writer=socket.writer())  # type: ignore[arg-type]
        outbox.put_message({"n": 0})
        await asyncio.sleep(0.01)
        outbox.put_message({"n": 1})
        await asyncio.sleep(0.01)
        assert socket.writes == [] and len(outbox.queue) == 2
        socket.ready.set()
        await asyncio.sleep(0.01)
        assert socket.writes == [['{"n":0}', '{"n":1}']]

    asyncio.run(scenario())


def test_outbox_with_a_full_socket_still_cuts_a_client_too_far_behind() -> None:
    socket = _BatchedSocket()
    socket.ready.clear()
    aborted: list[bool] = []

    class Closing:
        scope = {"client": ("10.0.0.3", 7)}

        async def close(self, code: int, reason: str) -> None:
            pass

    async def scenario() -> None:
        limits = TransportLimits(outbox_max_messages=5)
        outbox = Outbox(Closing(), limits, lambda: aborted.append(True), socket.writer())  # type: ignore[arg-type]
        for n in range(6):
            outbox.put_message({"n": n})
        assert outbox.too_slow and outbox.closed and outbox.gone.is_set()
        socket.ready.set()
        await outbox.close()
        assert socket.writes == []  # what was queued was dropped, not sent

    asyncio.run(scenario())


def test_outbox_on_a_gone_client_stops_and_close_flushes_the_rest() -> None:
    socket = _BatchedSocket()

    async def scenario() -> None:
        outbox = Outbox(None, TransportLimits(), writer=socket.writer())  # type: ignore[arg-type]
        outbox.put_message({"n": 0})
        await outbox.close()  # flushes at once
        assert socket.writes == [['{"n":0}']]
        other = Outbox(None, TransportLimits(), writer=socket.writer())  # type: ignore[arg-type]
        socket.gone = True
        other.put_message({"n": 1})
        await asyncio.sleep(0)
        assert other.closed and other.gone.is_set() and not other.queue
        other.put_message({"n": 2})  # nothing more is queued
        assert not other.queue

    asyncio.run(scenario())
