"""The ASGI application: the salon's HTTP API, its WebSocket and the web client.

This module is only a transport. It turns HTTP requests and WebSocket frames
into calls of the transport-free :class:`zanzibar.salon.Salon` and sends back
what the salon answers; it knows nothing of games beyond the registry's
names and option schemas, and nothing of storage.

Each socket gets its own outgoing queue drained by its own writer task, so a
client that reads slowly only delays itself; one that falls too far behind
is disconnected (it reconnects and catches up from the table history).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import functools
import importlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

import orjson
from jsonschema import Draft202012Validator
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
from uvicorn.protocols.utils import ClientDisconnected

from zanzibar.engine.errors import ZanzibarError
from zanzibar.games import game_names, get_rules
from zanzibar.l10n.msg import Msg
from zanzibar.l10n.voice import Voice
from zanzibar.salon.connections import Shared
from zanzibar.server import openapi
from zanzibar.server.framing import bundles, negotiate
from zanzibar.server.guards import (
    BodyLimit,
    SharedText,
    Writer,
    abort_function,
    client_of,
    frame_reader_of,
    lang_of,
    writer_of,
)
from zanzibar.server.l10n_api import l10n_messages
from zanzibar.server.node import health, node_parts
from zanzibar.server.schemas import MAX_FRAME_BYTES, PROTOCOL_VERSION, ProtocolError, check_incoming
from zanzibar.server.settings import Settings, TransportLimits
from zanzibar.server.standing_api import standing_routes

log = logging.getLogger("zanzibar.server")

#: Where the web client's files live (written by the web-client work).
STATIC_DIR = Path(__file__).parent / "static"
#: uvicorn's own frame limit: well above ours so an oversized frame gets a
#: readable ``too_large`` error instead of a closed socket; beyond it the
#: socket is closed (1009) to bound memory.
WS_MAX_SIZE = 1024 * 1024
#: WebSocket close code for a socket refused by a quota (policy violation).
CLOSE_POLICY = 1008

Send = Callable[[dict[str, Any]], Awaitable[None]]


class SalonService(Protocol):
    """What the transport needs of the salon (see the end of docs/protocol.md)."""

    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def guest(self, name: str, lang: str, address: str | None = None) -> Any: ...
    async def register(
        self, name: str, password: str, lang: str, address: str | None = None
    ) -> Any: ...
    async def login(self, name: str, password: str, address: str | None = None) -> Any: ...
    async def logout(self, token: str) -> None: ...
    async def change_password(
        self, token: str, old: str, new: str, address: str | None = None
    ) -> Any: ...
    async def connect(self, send: Send, address: str | None = None) -> Any: ...
    async def handle(self, conn: Any, message: dict[str, Any]) -> None: ...
    async def disconnect(self, conn: Any) -> None: ...
    async def list_tables(self, lang: str = "en") -> Any: ...
    async def game_record(self, game_id: int, viewer: int | None = None) -> Any: ...
    async def resume(self, token: str) -> Any: ...
    async def user_stats(self, name: str) -> Any: ...


# -- JSON helpers ----------------------------------------------------------------------


def to_jsonable(value: Any) -> Any:
    """Plain JSON data from what the salon returns (dicts, dataclasses, ``to_json``).

    >>> @dataclasses.dataclass
    ... class U:
    ...     id: int
    ...     name: str
    >>> to_jsonable({"user": U(1, "Anna"), "tags": ("a",)})
    {'user': {'id': 1, 'name': 'Anna'}, 'tags': ['a']}
    """
    if hasattr(value, "to_json") and callable(value.to_json):
        return to_jsonable(value.to_json())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    return value


def session_json(session: Any) -> dict[str, Any]:
    """``{"token", "user"}`` from the salon's session value."""
    if isinstance(session, Mapping):
        return {"token": session["token"], "user": to_jsonable(session["user"])}
    return {"token": session.token, "user": to_jsonable(session.user)}


_HTTP_STATUS = {
    "unauthenticated": 401,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "too_large": 413,
    "rate_limited": 429,
    "quota": 429,
}


def error_response(
    code: str, message: str | Msg, status: int | None = None, *, lang: str = "en", **extra: Any
) -> JSONResponse:
    """A refusal over HTTP, with the same codes as the WebSocket protocol.

    ``message`` is said in ``lang`` (a catalogue message; a plain string is sent as is).
    """
    text = Voice(lang).say(message) if isinstance(message, Msg) else message
    return JSONResponse(
        {"code": code, "message": text, **extra},
        status_code=status or _HTTP_STATUS.get(code, 400),
    )


def _zanzibar_error_response(exc: ZanzibarError, lang: Any = "en") -> JSONResponse:
    body = exc.to_json(lang if lang in ("en", "fr") else "en")
    headers = {}
    if isinstance(body.get("retry_after"), int):
        headers["Retry-After"] = str(body["retry_after"])
    return JSONResponse(body, status_code=_HTTP_STATUS.get(str(body["code"]), 400), headers=headers)


def client_address(connection: Request | WebSocket) -> str | None:
    """The client's address as the transport reports it (uvicorn applies a trusted
    proxy's ``X-Forwarded-For``); the salon keys its per-address limits on it."""
    client = connection.client
    return client.host if client is not None else None


def bearer_token(request: Request) -> str | None:
    """The session token of ``Authorization: Bearer <token>``, if given."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def games_json(lang: str = "en") -> list[dict[str, Any]]:
    """Every installed game with its options, presets, seats and bot levels.

    The same shape as the salon's ``games.list`` reply; a game that fails to
    load is left out (and logged) rather than taking the list down.
    """
    out = []
    for name in game_names():
        try:
            rules = get_rules(name)
            schema = rules.options.to_json(lang)
            low, high = rules.seat_range(rules.options.resolve())
            levels = list(rules.bot_levels())
        except Exception:
            log.exception("game %s is not available", name)
            continue
        out.append(
            {
                "name": rules.name,
                "title": rules.title.get(lang) or rules.title.get("en") or rules.name,
                "options": schema["options"],
                "presets": schema["presets"],
                "seats": [low, high],
                "bot_levels": levels,
            }
        )
    return out


# -- HTTP ------------------------------------------------------------------------------

_SIGN_IN_SCHEMAS = {
    "guest": Draft202012Validator(openapi.GUEST_REQUEST),
    "register": Draft202012Validator(openapi.REGISTER_REQUEST),
    "login": Draft202012Validator(openapi.LOGIN_REQUEST),
    "password": Draft202012Validator(openapi.PASSWORD_REQUEST),
}


async def _read_json_body(request: Request, kind: str) -> dict[str, Any] | JSONResponse:
    # The BodyLimit middleware has refused anything over the limit while it streamed in.
    body = await request.body()
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return error_response("bad_json", Msg("error-body-not-json"), lang=lang_of(request.scope))
    error = next(iter(_SIGN_IN_SCHEMAS[kind].iter_errors(data)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "/"
        # The schema validator's explanation stays in English: it names JSON, not words.
        why = Msg("error-body-invalid", where=where, why=error.message)
        return error_response("invalid", why, lang=lang_of(request.scope))
    assert isinstance(data, dict)
    return data


def _salon(request: Request) -> SalonService:
    salon: SalonService = request.app.state.salon
    return salon


async def guest(request: Request) -> Response:
    """Sign in as a guest: a name (and a language) give a session token."""
    data = await _read_json_body(request, "guest")
    if isinstance(data, Response):
        return data
    try:
        session = await _salon(request).guest(
            data["name"], data.get("lang", "en"), address=client_address(request)
        )
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc, data.get("lang"))
    return JSONResponse(session_json(session))


async def register(request: Request) -> Response:
    """Create an account (the password is stored hashed) and sign in."""
    data = await _read_json_body(request, "register")
    if isinstance(data, Response):
        return data
    try:
        session = await _salon(request).register(
            data["name"], data["password"], data.get("lang", "en"), address=client_address(request)
        )
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc, data.get("lang"))
    return JSONResponse(session_json(session))


async def login(request: Request) -> Response:
    """Sign in to an account with its name and password."""
    data = await _read_json_body(request, "login")
    if isinstance(data, Response):
        return data
    try:
        session = await _salon(request).login(
            data["name"], data["password"], address=client_address(request)
        )
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc, data.get("lang"))
    return JSONResponse(session_json(session))


async def logout(request: Request) -> Response:
    """Sign out: the bearer token is revoked on every route, sockets included."""
    token = bearer_token(request)
    if token is None:
        return error_response(
            "unauthenticated", Msg("error-bearer-missing"), lang=lang_of(request.scope)
        )
    try:
        await _salon(request).logout(token)
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc)
    return JSONResponse({"ok": True})


async def change_password(request: Request) -> Response:
    """A new password for the bearer's account; its other sessions are revoked."""
    token = bearer_token(request)
    if token is None:
        return error_response(
            "unauthenticated", Msg("error-bearer-missing"), lang=lang_of(request.scope)
        )
    data = await _read_json_body(request, "password")
    if isinstance(data, Response):
        return data
    try:
        user = await _salon(request).change_password(
            token, data["old"], data["new"], address=client_address(request)
        )
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc)
    return JSONResponse({"user": to_jsonable(user)})


def _lang(request: Request) -> str:
    """The client's language: ``?lang=``, else its ``Accept-Language``, else English."""
    return lang_of(request.scope)


async def list_games(request: Request) -> Response:
    """The games of the salon with their option schemas (``?lang=fr`` for French)."""
    lang = _lang(request)
    info = getattr(_salon(request), "games_info", None)
    games: Any = None
    if callable(info):
        try:
            games = info(lang)
        except Exception:
            log.exception("the salon could not list its games")
    if games is None:
        games = games_json(lang)
    return JSONResponse({"games": to_jsonable(games)})


async def list_tables(request: Request) -> Response:
    """A page of the public tables, as the lobby shows them (``?lang=fr`` for French titles).

    ``?limit=N`` (1 to the salon's largest page) and ``?cursor=C`` (the ``next``
    of the previous page) walk the list; ``total`` counts every public table.
    """
    params = request.query_params
    numbers: dict[str, int | None] = {}
    for name in ("limit", "cursor"):
        raw = params.get(name)
        if raw is not None and (not raw.isdigit() or len(raw) > 15):
            return error_response(
                "invalid", Msg("error-query-whole-number", name=name), lang=_lang(request)
            )
        numbers[name] = int(raw) if raw is not None else None
    if numbers["limit"] == 0:
        return error_response("invalid", Msg("error-query-limit-min"), lang=_lang(request))
    page = getattr(_salon(request), "lobby_page", None)
    if callable(page):
        return JSONResponse(to_jsonable(page(_lang(request), numbers["cursor"], numbers["limit"])))
    tables = await _salon(request).list_tables(_lang(request))
    return JSONResponse({"tables": to_jsonable(tables)})


async def _viewer(request: Request) -> int | Response | None:
    """The user id of ``Authorization: Bearer <token>``; None without it; 401 if refused."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 512:
        return error_response(
            "unauthenticated", Msg("error-bearer-form"), lang=lang_of(request.scope)
        )
    resume = getattr(_salon(request), "resume", None)
    user = await resume(token.strip()) if callable(resume) else None
    if user is None:
        return error_response(
            "unauthenticated",
            Msg("error-unknown-or-expired-session-token"),
            lang=lang_of(request.scope),
        )
    user_id = user["id"] if isinstance(user, Mapping) else getattr(user, "id", None)
    return int(user_id) if user_id is not None else None


async def game_record(request: Request) -> Response:
    """One game with its full log, for replays.

    A running game's dice seed is withheld until it ends; a private table's games
    answer only their players (signed in with ``Authorization: Bearer``), and
    ``404`` to anyone else, exactly as for a game that does not exist.
    """
    raw = request.path_params["game_id"]
    viewer = await _viewer(request)
    if isinstance(viewer, Response):
        return viewer
    if not raw.isdigit() or len(raw) > 15:
        return error_response(
            "not_found", Msg("error-no-game", id=repr(raw[:20])), lang=lang_of(request.scope)
        )
    try:
        record = await _salon(request).game_record(int(raw), viewer)
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc, _lang(request))
    if record is None:
        return error_response(
            "not_found", Msg("error-no-game", id=raw), lang=lang_of(request.scope)
        )
    return JSONResponse(to_jsonable(record))


async def list_tournaments(request: Request) -> Response:
    """The newest Swiss tournaments, with their state and number of players."""
    tournaments = getattr(_salon(request), "tournaments", None)
    found = await tournaments.list_json(_lang(request)) if tournaments is not None else []
    return JSONResponse({"tournaments": to_jsonable(found)})


async def show_tournament(request: Request) -> Response:
    """One tournament: players, rounds with their boards and results, standings."""
    raw = request.path_params["tournament_id"]
    tournaments = getattr(_salon(request), "tournaments", None)
    found = None
    if raw.isdigit() and len(raw) <= 15 and tournaments is not None:
        found = await tournaments.show_json(int(raw), _lang(request))
    if found is None:
        return error_response(
            "not_found", Msg("error-there-no-tournament", id=raw[:20]), lang=_lang(request)
        )
    return JSONResponse(to_jsonable(found))


async def user_stats(request: Request) -> Response:
    """Games played, won and lost by one player, per game."""
    name = request.path_params["name"]
    try:
        stats = await _salon(request).user_stats(name)
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc, _lang(request))
    if stats is None:
        return error_response(
            "not_found", Msg("error-no-player", name=name), lang=lang_of(request.scope)
        )
    return JSONResponse(to_jsonable(stats))


async def openapi_schema(request: Request) -> Response:
    """This API's OpenAPI 3.1 description."""
    return JSONResponse(openapi.document())


# -- WebSocket -------------------------------------------------------------------------


#: WebSocket close code for a client too slow to read what it is sent.
CLOSE_TOO_SLOW = 4008
#: WebSocket close code for a socket that did not say ``hello`` in time.
CLOSE_NO_HELLO = 4001
#: WebSocket close code when a message could not be sent to this socket.
CLOSE_SEND_FAILED = 1011
#: Seconds a polite close may take before the connection is dropped.
CLOSE_GRACE_S = 1.0

_SURROGATES = re.compile("[\ud800-\udfff]")


def encode_message(message: Mapping[str, Any]) -> str:
    r"""One outgoing message as JSON text that is always valid UTF-8.

    orjson writes it (in C, several times faster than ``json.dumps``; the
    server encodes one message per socket per event). What orjson refuses
    (a lone surrogate, an integer beyond 64 bits, a key that is not a string)
    goes through ``json.dumps`` as before. A lone surrogate (from a stored
    chat line, a name, anything) cannot be sent in a text frame; it becomes
    U+FFFD instead of failing the socket, so no stored item can ever stop a
    table's sockets or a replay.

    >>> encode_message({"text": "a\ud800b"}) == '{"text":"a\ufffdb"}'
    True
    >>> encode_message({"v": 1, "type": "ok", "n": 2**70, "é": [1.5, None]})
    '{"v":1,"type":"ok","n":1180591620717411303424,"é":[1.5,null]}'
    """
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        pass
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        log.warning("an outgoing %s message held lone surrogates; replaced", message.get("type"))
        text = _SURROGATES.sub("\ufffd", text)
    return text


class Outbox:
    """One socket's outgoing messages: a bounded queue and the task that drains it.

    ``send`` never waits for the network, so the salon can broadcast to a
    table without one slow reader holding up the others. The queue is bounded
    in messages and in bytes: a client that falls further behind is cut off
    (close code 4008, logged) and its queue freed at once; it reconnects and
    catches up with ``since``. A message that cannot be encoded or sent closes
    this socket only (1011, logged), never the table.
    """

    def __init__(
        self,
        websocket: WebSocket,
        limits: TransportLimits | None = None,
        abort: Callable[[], None] | None = None,
        writer: Writer | None = None,
        protocol: int = 1,
    ) -> None:
        limits = limits or TransportLimits()
        self.websocket = websocket
        #: The protocol version the socket speaks (:mod:`zanzibar.server.framing`): in
        #: version 2, what is queued between two writes goes out as one frame.
        self.protocol = protocol
        #: The protocol's batched writer (our uvicorn protocol): then no drain task is
        #: needed, and what one turn of the loop queued goes out in one write.
        self.writer = writer
        self._loop = asyncio.get_running_loop() if writer is not None else None
        self._flush_armed = False
        #: Waits for a full transport buffer to drain (batched writer only).
        self._waiting: asyncio.Task[None] | None = None
        self.max_messages = limits.outbox_max_messages
        self.max_bytes = limits.outbox_max_bytes
        self.abort = abort
        self.queue: collections.deque[str] = collections.deque()
        self.queued_bytes = 0
        self.closed = False
        self.too_slow = False
        #: Why this socket was cut off (None while it is served).
        self.reason: str | None = None
        #: Set once the socket has been cut off (the reader loop stops on it).
        self.gone = asyncio.Event()
        self._ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None

    @property
    def peer(self) -> str:
        """The client's address, for log lines."""
        return client_of(self.websocket.scope)

    def start(self) -> None:
        """Start draining the queue into the socket (a task, unless the writer is batched)."""
        if self.writer is None:
            self.task = asyncio.create_task(self._drain())

    async def send(self, message: dict[str, Any]) -> None:
        """Queue one message; never raises (see :meth:`put_message`)."""
        self.put_message(message)

    async def __call__(self, message: dict[str, Any]) -> None:
        """The salon's ``send`` callable (which also finds :meth:`put_message` here)."""
        self.put_message(message)

    def put_message(self, message: dict[str, Any]) -> None:
        """Encode and queue one message at once; never waits, never raises.

        The salon's connections hand their messages here directly (no queue
        and task of their own in between).
        """
        if self.closed:
            return
        shared = message if type(message) is Shared else None
        text = shared.encoded if shared is not None else None
        if text is None:
            try:
                text = encode_message(message)
            except Exception as exc:  # a value JSON cannot hold: this socket only
                self.cut(
                    CLOSE_SEND_FAILED,
                    f"a {message.get('type')} message could not be encoded: {exc!r}",
                )
                return
            if shared is not None:  # the next socket of its audience sends the same text
                text = shared.encoded = SharedText(text)
        self.put(text)

    def put(self, text: str) -> None:
        """Queue one already-encoded frame, or cut the client off if it is too far behind."""
        if self.closed:
            return
        size = len(text)  # characters: a lower bound of the UTF-8 size, cheap to take
        # One message alone is always accepted (a big reply is not the client's fault);
        # behind others, it must fit.
        if self.queue and (
            len(self.queue) >= self.max_messages or self.queued_bytes + size > self.max_bytes
        ):
            self.too_slow = True
            self.cut(
                CLOSE_TOO_SLOW,
                f"too slow to read: {len(self.queue)} messages ({self.queued_bytes} bytes) waiting",
            )
            return
        self.queue.append(text)
        self.queued_bytes += size
        if self._loop is None:
            self._ready.set()
        elif not self._flush_armed:
            self._flush_armed = True
            self._loop.call_soon(self._flush)

    def cut(self, code: int, reason: str) -> None:
        """Stop serving this socket: drop its queue, close it (or drop it), log why."""
        if self.reason is not None:
            return
        log.warning("websocket %s closed (%d): %s", self.peer, code, reason)
        self.reason = reason
        self.closed = True
        self.queue.clear()
        self.queued_bytes = 0
        self.gone.set()
        self._closer = asyncio.ensure_future(self._close_socket(code, reason))

    async def _close_socket(self, code: int, reason: str) -> None:
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
        try:
            await asyncio.wait_for(self.websocket.close(code, reason[:120]), CLOSE_GRACE_S)
        except Exception:  # a client that reads nothing never lets the close through
            if self.abort is not None:
                self.abort()
            return
        if self.abort is not None:
            # A client that reads nothing, or never answers the close, is not waited for
            # (uvicorn would hold the connection 10 s more); an honest one is long gone.
            await asyncio.sleep(CLOSE_GRACE_S)
            self.abort()

    async def _drain(self) -> None:
        while True:  # until closed, or the network fails
            if not self.queue:
                if self.closed:
                    return
                self._ready.clear()
                await self._ready.wait()
                continue
            if self.protocol >= 2:  # everything queued by now, in one frame
                texts = bundles(list(self.queue))
                self.queue.clear()
                self.queued_bytes = 0
            else:
                texts = [self.queue.popleft()]
                self.queued_bytes -= len(texts[0])
            try:
                for text in texts:
                    await self.websocket.send_text(text)
            except asyncio.CancelledError:
                raise
            except (WebSocketDisconnect, OSError, ClientDisconnected):
                self.closed = True
                self.gone.set()
                return
            except RuntimeError:  # Starlette: the socket is already closed
                self.closed = True
                self.gone.set()
                return
            except Exception as exc:
                self.cut(CLOSE_SEND_FAILED, f"a message could not be sent: {exc!r}")
                return

    def _flush(self) -> None:
        """Hand everything queued to the batched writer at once, or wait until it can take it."""
        self._flush_armed = False
        writer = self.writer
        if not self.queue or writer is None or self._waiting is not None:
            return
        if not writer.writable():  # the client reads slower than we write: wait for it
            self._waiting = self.task = asyncio.ensure_future(self._flush_later(writer))
            return
        batch = list(self.queue)
        if self.protocol >= 2:  # one frame for all of it (a few when very large)
            batch = bundles(batch)
        self.queue.clear()
        self.queued_bytes = 0
        try:
            writer.write(batch)
        except (OSError, ClientDisconnected, RuntimeError):  # gone, or already closed
            self.closed = True
            self.gone.set()
        except Exception as exc:
            self.cut(CLOSE_SEND_FAILED, f"a message could not be sent: {exc!r}")

    async def _flush_later(self, writer: Writer) -> None:
        await writer.wait_writable()
        self._waiting = None
        self._flush()

    async def close(self) -> None:
        """Flush what is queued (a few seconds at most), then stop the writer."""
        self.closed = True
        if self.writer is not None:
            self._flush()
        self._ready.set()
        if self.task is not None and not self.task.done():
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self.task, timeout=5)
        if self._closer is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await self._closer


async def _next_frame(websocket: WebSocket) -> str | bytes | None:
    """The next text or binary frame, or None once the client has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")


class FrameBudget:
    """A token bucket over one socket's incoming frames.

    Past ``burst`` frames at once or ``rate`` a second on average, :meth:`take`
    says how long to wait before reading the next frame. Not reading is the
    point: uvicorn stops reading the TCP connection, the client's own buffers
    fill and a flood slows its sender down instead of the salon.

    >>> budget = FrameBudget(rate=10, burst=2, now=0.0)
    >>> [budget.take(0.0) for _ in range(4)]
    [0.0, 0.0, 0.1, 0.2]
    >>> budget.take(10.0)
    0.0
    """

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float) -> float:
        """Spend one frame; the seconds to wait before reading it (0.0: at once)."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        self.tokens -= 1.0
        return 0.0 if self.tokens >= 0 else round(-self.tokens / self.rate, 6)


async def _frame_before(
    next_frame: Callable[[], Awaitable[str | bytes | None]], deadline: float
) -> str | bytes | None:
    """The next frame (None once the client has gone); TimeoutError after ``deadline``."""
    async with asyncio.timeout_at(deadline):
        return await next_frame()


async def websocket_endpoint(websocket: WebSocket) -> None:
    """One client's socket: validate each frame, hand it to the salon, send replies.

    Until the client has said ``hello`` (successfully), it has ``hello_timeout``
    seconds; then it is told why and closed (4001).
    """
    salon: SalonService = websocket.app.state.salon
    limits: TransportLimits = websocket.app.state.limits
    protocol, subprotocol = negotiate(websocket.scope.get("subprotocols") or ())
    await websocket.accept(subprotocol)
    outbox = Outbox(
        websocket, limits, abort_function(websocket.scope), writer_of(websocket.scope), protocol
    )
    outbox.start()
    try:
        conn = await salon.connect(outbox, address=client_address(websocket))
    except ZanzibarError as refusal:  # too many sockets from this address
        await outbox.send({"v": PROTOCOL_VERSION, "type": "error", **refusal.to_json()})
        await outbox.close()
        with contextlib.suppress(Exception):
            await websocket.close(CLOSE_POLICY, "too many connections")
        return
    if hasattr(conn, "on_close"):
        conn.on_close = lambda slow, reason: outbox.cut(
            CLOSE_TOO_SLOW if slow else CLOSE_SEND_FAILED, reason
        )
    # our uvicorn protocol hands each message over bare; another server, through Starlette
    next_frame = frame_reader_of(websocket.scope) or functools.partial(_next_frame, websocket)
    loop = asyncio.get_running_loop()
    hello_deadline: float | None = loop.time() + limits.hello_timeout
    budget = FrameBudget(limits.ws_frames_per_second, limits.ws_frame_burst, loop.time())
    slowed = False
    try:
        while True:  # one frame per turn, until the client leaves
            if hello_deadline is not None and getattr(conn, "user", None) is not None:
                hello_deadline = None
            if outbox.gone.is_set():
                break
            wait = budget.take(loop.time())
            if wait > 0:
                if not slowed:
                    slowed = True
                    log.warning(
                        "websocket %s sends over %g frames a second; reading it slower",
                        outbox.peer,
                        limits.ws_frames_per_second,
                    )
                await asyncio.sleep(wait)
            try:
                if hello_deadline is None:
                    frame = await next_frame()
                else:
                    frame = await _frame_before(next_frame, hello_deadline)
            except TimeoutError:
                await _no_hello(outbox, limits.hello_timeout)
                break
            except (WebSocketDisconnect, RuntimeError):
                break
            if frame is None:
                break
            try:
                message = check_incoming(frame)
            except ProtocolError as refusal:
                await outbox.send(refusal.reply(_socket_lang(conn, websocket)))
                continue
            try:
                await salon.handle(conn, message)
            except Exception:  # a salon bug must not take the socket down silently
                log.exception("salon failed on a %s message", message.get("type"))
                reply: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "error"}
                if "id" in message:
                    reply["id"] = message["id"]
                text = Voice(_socket_lang(conn, websocket)).say(Msg("error-internal"))
                reply.update(code="internal", message=text)
                await outbox.send(reply)
    finally:
        with contextlib.suppress(Exception):
            await salon.disconnect(conn)
        await outbox.close()
        if websocket.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(), CLOSE_GRACE_S)


def _socket_lang(conn: Any, websocket: WebSocket) -> str:
    """The language of a socket's replies: its player's once signed in, else its browser's."""
    lang = getattr(conn, "lang", None) if getattr(conn, "user", None) is not None else None
    return lang if isinstance(lang, str) and lang in ("en", "fr") else lang_of(websocket.scope)


async def _no_hello(outbox: Outbox, seconds: float) -> None:
    """Tell a socket that never said hello why it is closed (in its browser's language)."""
    text = Voice(lang_of(outbox.websocket.scope)).say(Msg("error-no-hello", seconds=f"{seconds:g}"))
    await outbox.send({"v": PROTOCOL_VERSION, "type": "error", "code": "timeout", "message": text})
    # Let the writer hand the error over before the close frame follows it.
    for _ in range(20):
        if not outbox.queue:
            break
        await asyncio.sleep(0.01)
    outbox.cut(CLOSE_NO_HELLO, "no hello in time")


# -- the application ---------------------------------------------------------------------


def _make_salon(settings: Settings) -> SalonService:
    # Imported late: the transport only needs the salon when it builds one.
    salon_class = importlib.import_module("zanzibar.salon").Salon
    settings.prepare()
    ports = None
    if settings.redis_url:  # one node of several: the ports shared over Redis
        wiring = importlib.import_module("zanzibar.cluster.wiring")
        ports = wiring.redis_ports(settings.redis_url, settings.node_name)
    salon: SalonService = salon_class(
        db_url=settings.database_url,
        bot_delay=settings.bot_delay,
        round_pause=settings.round_pause,
        takeover_delay=settings.takeover_delay,
        durable=settings.durable,
        limits=settings.limits,
        ports=ports,
    )
    return salon


def create_app(
    salon_or_settings: SalonService | Settings | None = None, limits: TransportLimits | None = None
) -> Starlette:
    """The Starlette application serving one salon.

    Given :class:`Settings` (or nothing: the defaults), it builds the salon;
    given a salon object (tests pass a fake), it serves that one. The
    lifespan starts the salon (migrations, restoring tables) before the first
    request and stops it at shutdown. ``limits`` (else the settings' own)
    bound what one client may cost (see :mod:`zanzibar.server.guards`).
    """
    if salon_or_settings is None:
        salon_or_settings = Settings()
    if limits is None:
        limits = (
            salon_or_settings.transport
            if isinstance(salon_or_settings, Settings)
            else TransportLimits()
        )
    salon = (
        _make_salon(salon_or_settings)
        if isinstance(salon_or_settings, Settings)
        else salon_or_settings
    )
    # the node around the salon: its name, and with --redis its heartbeat and shared limits
    parts = node_parts(
        salon_or_settings if isinstance(salon_or_settings, Settings) else Settings(), salon
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await parts.start()
        try:
            await salon.start()
            try:
                yield
            finally:
                await salon.stop()
        finally:
            await parts.stop()

    routes = [
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/password", change_password, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/games/{game_id}", game_record, methods=["GET"]),
        Route("/api/users/{name}/stats", user_stats, methods=["GET"]),
        Route("/api/tournaments", list_tournaments, methods=["GET"]),
        Route("/api/tournaments/{tournament_id}", show_tournament, methods=["GET"]),
        Route("/api/openapi.json", openapi_schema, methods=["GET"]),
        Route("/api/health", health, methods=["GET"]),
        Route("/api/l10n/{lang}.json", l10n_messages, methods=["GET"]),
        *standing_routes(),  # leaderboards and profiles
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/", StaticFiles(directory=STATIC_DIR, html=True, check_dir=False), name="static"),
    ]
    middleware = [
        Middleware(BodyLimit, max_bytes=limits.max_body_bytes, timeout=limits.body_timeout)
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.salon = salon
    app.state.node = parts
    app.state.limits = limits
    app.state.max_frame_bytes = MAX_FRAME_BYTES
    return app
