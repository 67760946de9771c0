"""Transport guards: what a hostile or broken client may cost the server, bounded.

- :class:`BodyLimit`, an ASGI middleware in front of every route: a request body
  larger than ``max_body_bytes`` is refused with 413 as soon as the limit is
  passed (at once from ``Content-Length``, else while the chunks stream in),
  without reading the rest; a body that takes longer than ``body_timeout`` to
  arrive is refused with 408.
- :func:`guarded_http_protocol`: uvicorn's HTTP protocol with a deadline on the
  request headers (uvicorn has none: its keep-alive timer only runs between
  requests, so a client sending its headers one byte at a time, or nothing at
  all after connecting, is otherwise waited for forever) and a cap on their size.
- :func:`guarded_ws_protocol`: uvicorn's WebSocket protocol, giving the
  application a way to drop a connection at once (``abort``), which ASGI does
  not: a client that stopped reading never lets a polite close through; and a
  way to send several text messages in one write (``write``, see
  :func:`writer_of`), which ASGI does not either: one ``websocket.send`` is one
  system call, and a table's event reaches each seat as three or four messages;
  and a way to read the client's messages bare (``next_frame``, see
  :func:`frame_reader_of`): the text or bytes of each message, handed straight
  to the socket's reader task when it is waiting, instead of an ASGI event
  dict through an ``asyncio.Queue`` and Starlette's ``WebSocket.receive``.

Each refusal is logged (``zanzibar.server.guards``) with the client's address.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from zanzibar.l10n.msg import Msg
from zanzibar.l10n.voice import Voice
from zanzibar.server.settings import TransportLimits

log = logging.getLogger("zanzibar.server.guards")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
SendFn = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, SendFn], Awaitable[None]]

#: Where the WebSocket protocol puts its abort function in the scope's extensions.
ABORT_EXTENSION = "zanzibar.abort"
#: Where it puts its batched writer (see :class:`Writer`).
WRITE_EXTENSION = "zanzibar.write"
#: Where it puts its bare reader of incoming messages (see :func:`frame_reader_of`).
READ_EXTENSION = "zanzibar.read"

#: The refusals a person may hear (read by a screen reader as one sentence), by key:
#: catalogue messages (l10n/<lang>/errors.ftl).
REFUSALS: dict[str, str] = {
    "too_large": "error-request-too-large",
    "body_timeout": "error-request-body-timeout",
    "bad_length": "error-request-bad-length",
    "no_hello": "error-no-hello",
}


def lang_of(scope: Scope) -> str:
    """The client's language from ``?lang=`` or Accept-Language: ``fr`` or ``en``.

    >>> lang_of({"headers": [(b"accept-language", b"fr-FR,fr;q=0.9,en;q=0.8")]})
    'fr'
    >>> lang_of({"query_string": b"lang=en", "headers": [(b"accept-language", b"fr")]})
    'en'
    >>> lang_of({})
    'en'
    """
    query = scope.get("query_string", b"")
    for pair in query.split(b"&"):
        if pair in (b"lang=fr", b"lang=en"):
            return pair[5:].decode()
    for name, value in scope.get("headers", ()):
        if name.lower() == b"accept-language":
            first = value.split(b",", 1)[0].strip().lower()
            return "fr" if first.startswith(b"fr") else "en"
    return "en"


def refusal(scope: Scope, key: str, **values: Any) -> str:
    """One refusal sentence in the client's language."""
    return Voice(lang_of(scope)).say(Msg(REFUSALS[key], **values))


def client_of(scope: Scope) -> str:
    """``host:port`` of the peer, for log lines.

    >>> client_of({"client": ("127.0.0.1", 5000)})
    '127.0.0.1:5000'
    >>> client_of({})
    '?'
    """
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "?"


class _Refused(Exception):
    """A request body refused while it was being read."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_body(code: str, message: str) -> bytes:
    """The JSON body of a refusal (the protocol's error shape).

    >>> error_body("too_large", "no")
    b'{"code":"too_large","message":"no"}'
    """
    return json.dumps({"code": code, "message": message}, separators=(",", ":")).encode()


async def send_refusal(send: SendFn, status: int, code: str, message: str) -> None:
    """Answer with one JSON error and ask the server to close the connection.

    ``connection: close`` makes uvicorn drop the connection after the answer
    instead of reading what the client still sends.
    """
    body = error_body(code, message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _declared_length(scope: Scope) -> int | str | None:
    """The request's Content-Length: an int, None when absent, or an error text."""
    values = [v for k, v in scope.get("headers", ()) if k.lower() == b"content-length"]
    if not values:
        return None
    if len(set(values)) > 1 or not values[0].strip().isdigit() or len(values[0]) > 18:
        return "the Content-Length header is not one valid number"
    return int(values[0])


class BodyLimit:
    """ASGI middleware: bound every HTTP request body in size and in time."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: SendFn) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if isinstance(declared, str):
            log.warning("%s: refused a request: %s", client_of(scope), declared)
            await send_refusal(send, 400, "invalid", refusal(scope, "bad_length"))
            return
        if declared is not None and declared > self.max_bytes:
            log.warning(
                "%s: refused a %d-byte body (limit %d)", client_of(scope), declared, self.max_bytes
            )
            await send_refusal(send, 413, "too_large", self._too_large(scope))
            return
        state = {"received": 0, "more": True, "started": False}
        deadline = asyncio.get_running_loop().time() + self.timeout

        async def guarded_receive() -> Message:
            if not state["more"]:
                return await receive()  # the body is complete: e.g. waiting for a disconnect
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise _Refused(
                    408, "timeout", refusal(scope, "body_timeout", seconds=f"{self.timeout:g}")
                ) from None
            if message["type"] == "http.request":
                state["received"] += len(message.get("body", b""))
                state["more"] = bool(message.get("more_body", False))
                if state["received"] > self.max_bytes:
                    raise _Refused(413, "too_large", self._too_large(scope))
            return message

        async def guarded_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        try:
            await self.app(scope, guarded_receive, guarded_send)
        except _Refused as refused:
            log.warning("%s: refused a request body: %s", client_of(scope), refused.message)
            if not state["started"]:
                await send_refusal(send, refused.status, refused.code, refused.message)

    def _too_large(self, scope: Scope) -> str:
        return refusal(scope, "too_large", limit=str(self.max_bytes))


def _http_response(status: int, reason: str, code: str, message: str) -> bytes:
    body = error_body(code, message)
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def guarded_http_protocol(limits: TransportLimits) -> type[asyncio.Protocol] | str:
    """uvicorn's httptools protocol with a header deadline and a header size cap.

    The deadline runs from the connection's opening (a client that connects
    and stays silent) and from the first byte of every later request on a
    kept-alive connection, until the end of the headers; then the body is the
    :class:`BodyLimit` middleware's business.
    """
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # without httptools: h11, whose header size is capped by the config
        log.warning("httptools is missing: HTTP headers are not under a deadline")
        return "h11"

    timeout = limits.header_timeout
    max_bytes = limits.max_header_bytes

    class GuardedHttpProtocol(HttpToolsProtocol):
        _z_timer: asyncio.TimerHandle | None = None
        _z_awaiting = False
        _z_bytes = 0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._z_arm()

        def _z_arm(self) -> None:
            self._z_awaiting = True
            self._z_bytes = 0
            if self._z_timer is not None:
                self._z_timer.cancel()
            self._z_timer = self.loop.call_later(timeout, self._z_expired)

        def _z_disarm(self) -> None:
            self._z_awaiting = False
            if self._z_timer is not None:
                self._z_timer.cancel()
                self._z_timer = None

        def _z_refuse(self, status: int, reason: str, code: str, message: str) -> None:
            self._z_disarm()
            if self.transport.is_closing():
                return
            log.warning("%s: %s", _peer(self.client), message)
            if self.cycle is None or self.cycle.response_complete:
                self.transport.write(_http_response(status, reason, code, message))
            self.transport.close()

        def _z_expired(self) -> None:
            self._z_timer = None
            if self._z_awaiting:
                self._z_refuse(
                    408,
                    "Request Timeout",
                    "timeout",
                    f"the request headers did not arrive within {timeout:g} s",
                )

        def data_received(self, data: bytes) -> None:
            was_awaiting = self._z_awaiting
            super().data_received(data)
            if self._z_awaiting and not self.transport.is_closing():
                # Everything of this chunk since the message began is header bytes.
                self._z_bytes += len(data) if was_awaiting else min(len(data), max_bytes)
                if self._z_bytes > max_bytes:
                    self._z_refuse(
                        431,
                        "Request Header Fields Too Large",
                        "too_large",
                        f"the request headers are larger than {max_bytes} bytes",
                    )

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if not self._z_awaiting:
                self._z_arm()

        def on_headers_complete(self) -> None:
            self._z_disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._z_disarm()
            super().connection_lost(exc)

    return GuardedHttpProtocol


def _peer(client: Any) -> str:
    return f"{client[0]}:{client[1]}" if client else "?"


class Inbox:
    """What one WebSocket client sent, waiting for the application to read it.

    It stands in for uvicorn's ``asyncio.Queue`` of ASGI events and holds the
    same events (connect, disconnect), except that a received message is its
    bare text or bytes (the ASGI ``receive`` makes the event dict of it only
    for a reader that asks for one). :meth:`put_nowait` hands an item straight
    to a reader already waiting (no queue, no second look-up of the running
    loop: in Python 3.11 each look-up asks the kernel for the process id);
    else the item waits in order.
    """

    __slots__ = ("_items", "_loop", "_waiter")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._items: collections.deque[Any] = collections.deque()
        self._loop = loop
        self._waiter: asyncio.Future[Any] | None = None

    def put_nowait(self, item: Any) -> bool:
        """Queue ``item``; True when a waiting reader took it at once."""
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(item)
                return True
        self._items.append(item)
        return False

    def empty(self) -> bool:
        """Nothing waits to be read."""
        return not self._items

    async def take(self) -> Any:
        """The oldest item, once there is one (one reader at a time)."""
        if self._items:
            return self._items.popleft()
        waiter = self._waiter = self._loop.create_future()
        try:
            return await waiter
        except asyncio.CancelledError:
            # cancelled after an item was handed over: it stays first for the next read
            if waiter.done() and not waiter.cancelled():
                self._items.appendleft(waiter.result())
            if self._waiter is waiter:
                self._waiter = None
            raise


def _at_frame_start(conn: Any) -> bool:
    """Whether websockets' parser waits for the first byte of a frame, nothing buffered.

    Its parser is a chain of generators; between frames the innermost one is
    the stream's ``at_eof`` (a frame begun waits in ``read_exact`` instead,
    maybe with its buffer empty). Should a later websockets be built
    otherwise, this says False and every frame goes to websockets as before.
    """
    from websockets.streams import StreamReader

    if conn.reader.buffer:
        return False
    inner = conn.parser
    while getattr(inner, "gi_yieldfrom", None) is not None:
        inner = inner.gi_yieldfrom
    return getattr(inner, "gi_code", None) is StreamReader.at_eof.__code__


def guarded_ws_protocol() -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol that lets the application drop a connection at once.

    The scope gets ``extensions["zanzibar.abort"] = {"abort": callable}``; and a
    peer that does not answer a ping is dropped without waiting to flush what
    it never reads (uvicorn's graceful close waits for that forever).
    """
    from uvicorn.protocols.utils import ClientDisconnected
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.exceptions import InvalidState
    from websockets.frames import apply_mask
    from websockets.protocol import State as WsState

    class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
        queue: Inbox  # type: ignore[assignment]

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.queue = Inbox(self.loop)

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:
                extensions = scope.setdefault("extensions", {})
                extensions[ABORT_EXTENSION] = {"abort": self._z_abort}
                extensions[WRITE_EXTENSION] = {
                    "writer": Writer(self._z_write, self.writable.is_set, self.writable.wait)
                }
                extensions[READ_EXTENSION] = {"next_frame": self._z_next_frame}

        #: Whole frames are cut from the stream here (None: websockets reads it all).
        _z_rest: bytearray | None = None

        def data_received(self, data: bytes) -> None:
            """websockets reads the handshake; then each frame is cut from the stream whole.

            A final, masked text frame within the size limit, on an open socket
            with no extension and no fragmented message pending, is unmasked
            and handed to the reader here (:meth:`_z_text`): websockets' parser
            would do the same in a dozen generator steps and objects. Every
            other frame (control frames, binary, fragments, a socket closing)
            goes to websockets whole and alone, so its parser is always at a
            frame's start and judges it as before. A header websockets would
            refuse (unmasked, or longer than the limit) hands it the rest of the
            stream for good, before any payload is buffered: it refuses it as
            before.
            """
            rest = self._z_rest
            if rest is None:
                opening = not self.handshake_initiated
                super().data_received(data)
                conn = self.conn
                if (
                    opening  # only right after the handshake: then or never
                    and self.handshake_initiated
                    and not self.close_sent
                    and conn.parser_exc is None
                    and conn.handshake_exc is None
                    and not self.transport.is_closing()
                    and _at_frame_start(conn)
                ):
                    self._z_rest = bytearray()
                return
            if rest:
                rest += data
                buffer: bytes | bytearray = rest
            else:
                buffer = data
            conn = self.conn
            size, start = len(buffer), 0
            while size - start >= 2:
                head, length = buffer[start], buffer[start + 1]
                if not length & 0x80:  # unmasked: websockets refuses it
                    self._z_give_up(buffer[start:])
                    return
                length &= 0x7F
                at = start + 2
                if length == 126:
                    at += 2
                    if size < at:
                        break
                    length = int.from_bytes(buffer[start + 2 : at], "big")
                elif length == 127:
                    at += 8
                    if size < at:
                        break
                    length = int.from_bytes(buffer[start + 2 : at], "big")
                limit = conn.max_message_size
                if limit is not None and conn.current_size is not None:
                    limit -= conn.current_size
                if conn.max_fragment_size is not None:
                    limit = (
                        conn.max_fragment_size
                        if limit is None
                        else min(limit, conn.max_fragment_size)
                    )
                if limit is not None and length > limit:  # websockets refuses it at its header
                    self._z_give_up(buffer[start:])
                    return
                at += 4  # the mask
                end = at + length
                if size < end:
                    break
                if not (
                    head == 0x81
                    and self.handshake_complete
                    and not self.close_sent
                    and conn.state is WsState.OPEN
                    and conn.current_size is None
                    and not conn.extensions
                    and not conn.debug
                    and self._z_text(apply_mask(buffer[at:end], buffer[at - 4 : at]))
                ):
                    super().data_received(bytes(buffer[start:end]))
                    if conn.parser_exc is not None or self.transport.is_closing():
                        self._z_rest = None  # done with this socket: as websockets would be
                        return
                start = end
            if buffer is rest:
                del rest[:start]
            elif start < size:
                self._z_rest = bytearray(buffer[start:])

        def _z_give_up(self, data: bytes | bytearray) -> None:
            """Hand websockets the rest of the stream, for good."""
            self._z_rest = None
            super().data_received(bytes(data))

        def _z_text(self, payload: bytes) -> bool:
            """Hand over a text message read here; False if it is not UTF-8 (websockets' call)."""
            try:
                text = payload.decode()
            except UnicodeDecodeError:
                return False
            if not self.queue.put_nowait(text) and not self.read_paused:
                self.read_paused = True
                self.transport.pause_reading()
            return True

        def send_receive_event_to_app(self) -> None:
            """uvicorn's, handing the message's text or bytes to the inbox bare.

            Reading stops while a message waits unread, as in uvicorn (a client
            that sends faster than the application reads is slowed down by TCP):
            but a message taken at once by a waiting reader is not waiting, so
            then reading is neither stopped nor started again (two calls into
            the event loop, and its poller's bookkeeping, per message).
            """
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            self.frames = []
            if self.close_sent:  # past the application's close: dropped, as in uvicorn
                return
            if self.curr_msg_data_type == "text":
                try:
                    item: str | bytes = data.decode()
                except UnicodeDecodeError:
                    self.logger.exception("Invalid UTF-8 sequence received from client.")
                    self.conn.send_close(1007)
                    self.handle_parser_exception()
                    return
            else:
                item = bytes(data)
            if not self.queue.put_nowait(item) and not self.read_paused:
                self.read_paused = True
                self.transport.pause_reading()

        async def receive(self) -> Any:
            """The ASGI ``receive``: the next event, a message made an ASGI event again."""
            item = await self._z_take()
            if type(item) is str:
                return {"type": "websocket.receive", "text": item}
            if type(item) is bytes:
                return {"type": "websocket.receive", "bytes": item}
            return item

        async def _z_next_frame(self) -> str | bytes | None:
            """The next message's text or bytes; None once the client has gone."""
            item = await self._z_take()
            if type(item) is str or type(item) is bytes:
                return item
            if item.get("type") == "websocket.disconnect":
                return None
            raise RuntimeError(f"unexpected {item.get('type')!r} on an open WebSocket")

        async def _z_take(self) -> Any:
            item = await self.queue.take()
            if self.read_paused and self.queue.empty():
                self.read_paused = False
                self.transport.resume_reading()
            return item

        def _z_write(self, texts: Sequence[str]) -> None:
            """Frame each text as its own message; hand all of them to the socket at once.

            What uvicorn's ``send`` does for one ``websocket.send``, for many, with
            the same refusals: the client gone is ``ClientDisconnected``; before
            the handshake or after a close, ``RuntimeError`` (Starlette's word
            for a socket that is not open). A :class:`SharedText` goes out as
            the frame websockets made of it for the first socket, when this
            socket frames as that one did (no extension: permessage-deflate
            compresses per connection) and is open for a new message; in that
            state a text of this socket alone is framed the same way, by
            :func:`server_text_frame` (websockets' ``send_text`` would only
            check that state again and build a ``Frame`` to write those bytes).
            """
            if self.disconnected:
                raise ClientDisconnected()
            if not self.handshake_complete or self.close_sent or self.initial_response is not None:
                raise RuntimeError("the WebSocket is not open for messages")
            conn = self.conn
            shared_frames = (
                not conn.extensions
                and not conn.debug
                and conn.state is WsState.OPEN
                and not conn.expect_continuation_frame
            )
            out = conn.data_to_send()  # whatever websockets queued before (usually nothing)
            try:
                for text in texts:
                    if not shared_frames:
                        conn.send_text(text.encode())
                        out.extend(conn.data_to_send())
                    elif type(text) is SharedText:
                        out.append(text.server_frame())
                    else:  # what ``conn.send_text`` would queue, in this state
                        out.append(server_text_frame(text.encode()))
            except InvalidState:
                raise ClientDisconnected() from None
            self.transport.write(b"".join(out))

        def _z_abort(self) -> None:
            if self.transport is not None:
                self.transport.abort()

        def keepalive_timeout(self) -> None:
            log.info("%s: no answer to a WebSocket ping; dropping it", _peer(self.client))
            super().keepalive_timeout()
            self._z_abort()

    return GuardedWebSocketProtocol


class SharedText(str):
    """The JSON text of one message put unchanged to many sockets (a table's audience).

    Its server frame (a text frame, unmasked, no extension) is the same bytes
    for every socket: websockets makes it once (:meth:`server_frame`) and each
    socket that frames plainly writes those bytes, instead of encoding the
    text and framing it again. It compares, hashes and reads as its text.
    """

    _frame: bytes | None = None
    #: Protocol 2: the arrays this message opens, by the audience's messages after it.
    _bundles: dict[tuple[str, ...], SharedText] | None = None

    def bundled_with(self, rest: tuple[str, ...]) -> SharedText:
        """The JSON array of this message and ``rest`` (messages of the same audiences):
        the same for every socket sent them, so it is shared in turn and made once.

        Kept on the first message (it lives as long as the step that put it): the
        key holds the other messages themselves, never their ids, which a later
        message could reuse.
        """
        made = self._bundles
        if made is None:
            made = self._bundles = {}
        bundle = made.get(rest)
        if bundle is None:
            bundle = made[rest] = SharedText("[" + ",".join((self, *rest)) + "]")
        return bundle

    def server_frame(self) -> bytes:
        """The frame carrying this text from a server socket with no extension."""
        frame = self._frame
        if frame is None:
            frame = self._frame = server_text_frame(self.encode())
        return frame


def server_text_frame(payload: bytes) -> bytes:
    """One whole text frame from a server socket with no extension (RFC 6455, 5.2).

    What websockets' ``Frame(Opcode.TEXT, payload).serialize(mask=False,
    extensions=[])`` writes, without its checks and objects: the first byte
    says final text frame, the length takes one, three or nine bytes, and a
    server's frames are not masked.

    >>> server_text_frame(b"hi")
    b'\\x81\\x02hi'
    >>> server_text_frame(bytes(300))[:4]
    b'\\x81~\\x01,'
    """
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 65536:
        return b"\x81\x7e" + size.to_bytes(2, "big") + payload
    return b"\x81\x7f" + size.to_bytes(8, "big") + payload


@dataclass(frozen=True)
class Writer:
    """A socket's batched writer: its messages queued in one turn of the loop go out in one write.

    ``write(texts)`` sends each text as one WebSocket text message, all in one
    write; call it only while ``writable()`` (else ``await wait_writable()``:
    the client reads slower than we write, and the transport's buffer is full).
    """

    write: Callable[[Sequence[str]], None]
    writable: Callable[[], bool]
    wait_writable: Callable[[], Awaitable[Any]]


def writer_of(scope: Scope) -> Writer | None:
    """The connection's batched writer, when the server provides one (our uvicorn protocol)."""
    extension = scope.get("extensions", {}).get(WRITE_EXTENSION)
    if isinstance(extension, dict):
        writer = extension.get("writer")
        if isinstance(writer, Writer):
            return writer
    return None


def frame_reader_of(scope: Scope) -> Callable[[], Awaitable[str | bytes | None]] | None:
    """The connection's bare reader (``await next_frame()``: a message's text or
    bytes, None once the client has gone), when the server provides one."""
    extension = scope.get("extensions", {}).get(READ_EXTENSION)
    if isinstance(extension, dict):
        next_frame = extension.get("next_frame")
        if callable(next_frame):
            return next_frame
    return None


def abort_function(scope: Scope) -> Callable[[], None] | None:
    """The connection's abort function, when the server provides one."""
    extension = scope.get("extensions", {}).get(ABORT_EXTENSION)
    if isinstance(extension, dict):
        abort = extension.get("abort")
        if callable(abort):
            return abort
    return None


def uvicorn_config(app: Any, host: str, port: int, limits: TransportLimits, **extra: Any) -> Any:
    """A uvicorn configuration applying ``limits`` (used by ``zanzibar serve``)."""
    import uvicorn

    ping = limits.ws_ping_interval if limits.ws_ping_interval > 0 else None
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_http_protocol(limits),
        ws=guarded_ws_protocol(),
        # Well above the protocol's own frame limit, so an oversized frame gets a
        # readable ``too_large`` error; beyond it the socket is closed (1009).
        ws_max_size=1024 * 1024,
        ws_ping_interval=ping,
        ws_ping_timeout=limits.ws_ping_timeout if ping else None,
        timeout_keep_alive=max(1, round(limits.keep_alive_timeout)),
        h11_max_incomplete_event_size=limits.max_header_bytes,
        **extra,
    )
