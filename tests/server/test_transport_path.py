"""The WebSocket protocol's own paths (server/guards.py), driven without a socket.

Our uvicorn protocol hands each incoming message to the socket's reader bare
(``Inbox``, ``frame_reader_of``) and frames outgoing texts itself
(``server_text_frame``). These tests hold it to what uvicorn and websockets do:
the same bytes on the wire, the same events for an ASGI reader, and reading
paused exactly while a message waits unread.
"""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import pytest
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol

from zanzibar.server.guards import (
    Inbox,
    frame_reader_of,
    guarded_ws_protocol,
    server_text_frame,
    uvicorn_config,
    writer_of,
)
from zanzibar.server.settings import TransportLimits


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 300_000])
def test_a_server_text_frame_is_websockets_own(size: int) -> None:
    payload = ("é" * size).encode()[:size]
    expected = Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
    assert server_text_frame(payload) == expected


class _Transport:
    """A socket that keeps what is written and whether reading is paused."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.paused = False
        self.pauses = 0
        self.closing = False

    def write(self, data: bytes) -> None:
        self.out += data

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8630), "peername": ("127.0.0.1", 40000)}.get(
            name, default
        )

    def is_closing(self) -> bool:
        return self.closing

    def pause_reading(self) -> None:
        assert not self.paused
        self.paused = True
        self.pauses += 1

    def resume_reading(self) -> None:
        assert self.paused
        self.paused = False

    def close(self) -> None:
        self.closing = True

    def abort(self) -> None:
        self.closing = True


def _client_frame(text: str, opcode: Opcode = Opcode.TEXT) -> bytes:
    return Frame(opcode, text.encode()).serialize(mask=True, extensions=[])


UPGRADE = (
    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8630\r\nUpgrade: websocket\r\n"
    "Connection: Upgrade\r\nSec-WebSocket-Key: "
    + base64.b64encode(b"0123456789abcdef").decode()
    + "\r\nSec-WebSocket-Version: 13\r\n\r\n"
).encode()


async def _open(app: Any) -> tuple[Any, _Transport]:
    """Our protocol, past the handshake, serving ``app``."""
    from uvicorn.server import ServerState

    limits = TransportLimits(ws_ping_interval=0)  # no keepalive ping in what is written
    config = uvicorn_config(app, "127.0.0.1", 8630, limits, lifespan="off", log_level="warning")
    config.load()
    protocol = guarded_ws_protocol()(config=config, server_state=ServerState(), app_state={})
    transport = _Transport()
    protocol.connection_made(transport)
    protocol.data_received(UPGRADE)
    for _ in range(5):
        await asyncio.sleep(0)
    assert protocol.handshake_complete
    return protocol, transport


def test_a_waiting_reader_gets_each_message_bare_and_reading_never_pauses() -> None:
    got: list[Any] = []
    read = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        next_frame = frame_reader_of(scope)
        assert next_frame is not None
        while True:
            frame = await next_frame()
            got.append(frame)
            read.set()
            if frame is None:
                return

    async def main() -> _Transport:
        protocol, transport = await _open(app)
        await asyncio.sleep(0)  # the app waits for its first message
        protocol.data_received(_client_frame('{"a":1}'))
        await read.wait()
        read.clear()
        protocol.data_received(_client_frame("b", Opcode.BINARY))
        await read.wait()
        protocol.connection_lost(None)
        for _ in range(5):
            await asyncio.sleep(0)
        return transport

    transport = asyncio.run(main())
    assert got == ['{"a":1}', b"b", None]
    assert transport.pauses == 0


def test_messages_sent_before_the_reader_asks_wait_in_order_with_reading_paused() -> None:
    """A client faster than the application: its messages wait, and so does its socket."""
    states: list[tuple[Any, bool]] = []
    go = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await go.wait()  # busy elsewhere while the client sends
        while True:
            message = await receive()  # the plain ASGI receive: events as uvicorn makes them
            states.append((message, transport.paused))
            if message["type"] == "websocket.disconnect":
                return

    async def main() -> None:
        nonlocal transport
        protocol, transport = await _open(app)
        protocol.data_received(_client_frame("one") + _client_frame("two"))
        assert transport.paused  # two messages wait unread
        protocol.connection_lost(None)
        go.set()
        for _ in range(10):
            await asyncio.sleep(0)

    transport = _Transport()
    asyncio.run(main())
    assert states == [
        ({"type": "websocket.receive", "text": "one"}, True),
        ({"type": "websocket.receive", "text": "two"}, True),
        ({"type": "websocket.disconnect", "code": 1005}, False),
    ]


def test_a_cancelled_read_keeps_the_message_it_was_handed() -> None:
    async def main() -> list[Any]:
        inbox = Inbox(asyncio.get_running_loop())
        reader = asyncio.ensure_future(inbox.take())
        await asyncio.sleep(0)
        assert inbox.put_nowait("first")  # taken at once by the waiting reader...
        reader.cancel()  # ...which is cancelled before it runs again
        with pytest.raises(asyncio.CancelledError):
            await reader
        assert not inbox.put_nowait("second")
        return [await inbox.take(), await inbox.take()]

    assert asyncio.run(main()) == ["first", "second"]


def test_a_lone_text_is_framed_as_websockets_frames_it() -> None:
    """The batched writer's own framing: the bytes websockets' ``send_text`` makes."""
    texts = ['{"v":1,"type":"ok","id":1}', "é" * 200, "x" * 70_000]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        writer = writer_of(scope)
        assert writer is not None
        writer.write(texts)

    async def main() -> bytes:
        _protocol, transport = await _open(app)
        handshake_end = bytes(transport.out).index(b"\r\n\r\n") + 4
        for _ in range(5):
            await asyncio.sleep(0)
        return bytes(transport.out[handshake_end:])

    written = asyncio.run(main())
    reference = ServerProtocol()
    reference.state = reference.state.OPEN
    for text in texts:
        reference.send_text(text.encode())
    assert written.startswith(b"".join(reference.data_to_send()))


def test_the_endpoint_reads_through_the_bare_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """websocket_endpoint takes its frames from our protocol's reader: Starlette's
    ``WebSocket.receive`` is asked only for the connect event, during the accept."""
    from starlette.websockets import WebSocket

    from zanzibar.server.app import create_app

    seen: list[dict[str, Any]] = []
    starlette_reads = 0
    original = WebSocket.receive

    async def counted(self: WebSocket) -> Any:
        nonlocal starlette_reads
        starlette_reads += 1
        return await original(self)

    monkeypatch.setattr(WebSocket, "receive", counted)

    class _Salon:
        async def start(self) -> None: ...
        async def stop(self) -> None: ...
        async def connect(self, send: Any, address: str | None = None) -> Any:
            return type("Conn", (), {"user": None, "send": send})()

        async def handle(self, conn: Any, message: dict[str, Any]) -> None:
            seen.append(message)
            conn.user = 1

        async def disconnect(self, conn: Any) -> None: ...

    async def main() -> None:
        protocol, _ = await _open(create_app(_Salon()))  # type: ignore[arg-type]
        for request_id in (7, 8, 9):
            message = {"v": 1, "type": "ping", "id": request_id}
            protocol.data_received(_client_frame(json.dumps(message)))
            for _ in range(10):
                await asyncio.sleep(0)
        protocol.connection_lost(None)
        for _ in range(10):
            await asyncio.sleep(0)

    asyncio.run(main())
    assert seen == [{"v": 1, "type": "ping", "id": i} for i in (7, 8, 9)]
    assert starlette_reads == 1


def _serve_frames(chunks: list[bytes]) -> tuple[list[Any], bytes, Any]:
    """Feed ``chunks`` to an open socket whose app records what it reads (bare).

    Returns what the app read (None once the client has gone), what the
    server wrote after its handshake, and the protocol.
    """
    got: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        next_frame = frame_reader_of(scope)
        assert next_frame is not None
        while True:
            frame = await next_frame()
            got.append(frame)
            if frame is None:
                return

    async def main() -> tuple[bytes, Any]:
        protocol, transport = await _open(app)
        handshake_end = bytes(transport.out).index(b"\r\n\r\n") + 4
        for chunk in chunks:
            if transport.closing:
                break
            protocol.data_received(chunk)
            for _ in range(3):
                await asyncio.sleep(0)
        protocol.connection_lost(None)
        for _ in range(5):
            await asyncio.sleep(0)
        return bytes(transport.out[handshake_end:]), protocol

    written, protocol = asyncio.run(main())
    return got, written, protocol


def _masked(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    return Frame(Opcode(opcode), payload, fin).serialize(mask=True, extensions=[])


STREAM = b"".join(
    [
        _masked(0x1, b'{"v":1}'),
        _masked(0x9, b"ping!"),  # answered with a pong by websockets
        _masked(0x1, "é".encode() * 100),  # 16-bit length
        _masked(0x2, b"\x00\x01"),
        _masked(0x1, b"x" * 70_000),  # 64-bit length
        _masked(0x1, b"frag", fin=False),  # a fragmented message: websockets joins it
        _masked(0x0, b"mented"),
        _masked(0x1, b"last"),
    ]
)
EXPECTED = ['{"v":1}', "é" * 100, b"\x00\x01", "x" * 70_000, "fragmented", "last", None]


@pytest.mark.parametrize("piece", [len(STREAM), 1, 3, 7, 4096])
def test_frames_cut_anywhere_read_as_websockets_reads_them(piece: int) -> None:
    chunks = [STREAM[i : i + piece] for i in range(0, len(STREAM), piece)]
    got, written, _ = _serve_frames(chunks)
    assert got == EXPECTED
    assert written == Frame(Opcode.PONG, b"ping!").serialize(mask=False, extensions=[])


def test_a_plain_text_frame_skips_websockets_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[bytes] = []
    original = ServerProtocol.receive_data

    def counted(self: ServerProtocol, data: bytes) -> None:
        parsed.append(bytes(data))
        original(self, data)

    monkeypatch.setattr(ServerProtocol, "receive_data", counted)
    got, _, _ = _serve_frames([_masked(0x1, b"one") + _masked(0x1, b"two")])
    assert got == ["one", "two", None]
    assert parsed == [UPGRADE]  # the handshake only


def _close_code(written: bytes) -> int:
    """The code of the close frame the server wrote last."""
    index = written.rindex(b"\x88")
    return int.from_bytes(written[index + 2 : index + 4], "big")


def test_a_text_frame_that_is_not_utf8_closes_the_socket_1007() -> None:
    got, written, _ = _serve_frames([_masked(0x1, b"ok") + _masked(0x1, b"\xff\xfe")])
    assert got == ["ok", None]
    assert _close_code(written) == 1007


def test_a_frame_over_the_size_limit_is_refused_at_its_header_1009() -> None:
    header = bytes((0x81, 0xFF)) + (2 * 1024 * 1024).to_bytes(8, "big")
    got, written, _ = _serve_frames([_masked(0x1, b"ok") + header])
    assert got == ["ok", None]
    assert _close_code(written) == 1009


def test_an_unmasked_frame_is_a_protocol_error_1002() -> None:
    unmasked = Frame(Opcode.TEXT, b"bad").serialize(mask=False, extensions=[])
    got, written, _ = _serve_frames([_masked(0x1, b"ok"), unmasked, _masked(0x1, b"never")])
    assert got == ["ok", None]
    assert _close_code(written) == 1002


def test_a_close_frame_ends_the_reading() -> None:
    close = _masked(0x8, (1000).to_bytes(2, "big") + b"bye")
    got, written, _ = _serve_frames([_masked(0x1, b"ok") + close + _masked(0x1, b"after")])
    assert got == ["ok", None]
    assert _close_code(written) == 1000


def test_a_frame_begun_with_the_handshake_keeps_websockets_reading() -> None:
    """A frame's first bytes sent with the handshake: websockets' parser is inside that
    frame (its buffer maybe empty), so it keeps reading the whole stream, correctly."""
    got: list[Any] = []
    first, second = _masked(0x1, b"pipelined"), _masked(0x1, b"next")

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        next_frame = frame_reader_of(scope)
        assert next_frame is not None
        while (frame := await next_frame()) is not None:
            got.append(frame)

    async def main() -> Any:
        from uvicorn.server import ServerState

        limits = TransportLimits(ws_ping_interval=0)  # no keepalive ping in what is written
        config = uvicorn_config(app, "127.0.0.1", 8630, limits, lifespan="off", log_level="warning")
        config.load()
        protocol = guarded_ws_protocol()(config=config, server_state=ServerState(), app_state={})
        protocol.connection_made(_Transport())
        protocol.data_received(UPGRADE + first[:6])  # the header and the mask: no payload yet
        assert protocol._z_rest is None
        for _ in range(5):
            await asyncio.sleep(0)
        protocol.data_received(first[6:] + second)
        for _ in range(5):
            await asyncio.sleep(0)
        protocol.connection_lost(None)
        for _ in range(5):
            await asyncio.sleep(0)
        return protocol

    protocol = asyncio.run(main())
    assert got == ["pipelined", "next"]
    assert protocol._z_rest is None  # websockets read it all


def test_after_a_plain_handshake_frames_are_cut_here() -> None:
    async def main() -> Any:
        protocol, _ = await _open(_accept_and_wait)
        return protocol

    protocol = asyncio.run(main())
    assert protocol._z_rest == bytearray()


async def _accept_and_wait(scope: Any, receive: Any, send: Any) -> None:
    await receive()
    await send({"type": "websocket.accept"})
