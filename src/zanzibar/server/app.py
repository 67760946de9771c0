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
import contextlib
import dataclasses
import importlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from jsonschema import Draft202012Validator
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from zanzibar.engine.errors import ZanzibarError
from zanzibar.games import game_names, get_rules
from zanzibar.server import openapi
from zanzibar.server.l10n_api import l10n_messages
from zanzibar.server.schemas import MAX_FRAME_BYTES, PROTOCOL_VERSION, ProtocolError, check_incoming
from zanzibar.server.settings import Settings

log = logging.getLogger("zanzibar.server")

#: Where the web client's files live (written by the web-client work).
STATIC_DIR = Path(__file__).parent / "static"
#: uvicorn's own frame limit: well above ours so an oversized frame gets a
#: readable ``too_large`` error instead of a closed socket; beyond it the
#: socket is closed (1009) to bound memory.
WS_MAX_SIZE = 1024 * 1024
#: Messages waiting for one slow client before it is disconnected.
MAX_OUTGOING_QUEUE = 4096
#: WebSocket close code for a client too slow to read what it is sent.
CLOSE_TOO_SLOW = 4008
#: The largest HTTP request body accepted by the sign-in routes.
MAX_BODY_BYTES = 16 * 1024

Send = Callable[[dict[str, Any]], Awaitable[None]]


class SalonService(Protocol):
    """What the transport needs of the salon (see the end of docs/protocol.md)."""

    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def guest(self, name: str, lang: str) -> Any: ...
    async def register(self, name: str, password: str, lang: str) -> Any: ...
    async def login(self, name: str, password: str) -> Any: ...
    async def connect(self, send: Send) -> Any: ...
    async def handle(self, conn: Any, message: dict[str, Any]) -> None: ...
    async def disconnect(self, conn: Any) -> None: ...
    async def list_tables(self, lang: str = "en") -> Any: ...
    async def game_record(self, game_id: int) -> Any: ...
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
}


def error_response(
    code: str, message: str, status: int | None = None, **extra: Any
) -> JSONResponse:
    """A refusal over HTTP, with the same codes as the WebSocket protocol."""
    return JSONResponse(
        {"code": code, "message": message, **extra},
        status_code=status or _HTTP_STATUS.get(code, 400),
    )


def _zanzibar_error_response(exc: ZanzibarError, lang: Any = "en") -> JSONResponse:
    body = exc.to_json(lang if lang in ("en", "fr") else "en")
    return JSONResponse(body, status_code=_HTTP_STATUS.get(str(body["code"]), 400))


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
}


async def _read_json_body(request: Request, kind: str) -> dict[str, Any] | JSONResponse:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
        return error_response("too_large", f"the body is larger than {MAX_BODY_BYTES} bytes")
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        return error_response("too_large", f"the body is larger than {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return error_response("bad_json", "the body is not valid JSON")
    error = next(iter(_SIGN_IN_SCHEMAS[kind].iter_errors(data)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        return error_response("invalid", f"{where or 'body'}: {error.message}")
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
        session = await _salon(request).guest(data["name"], data.get("lang", "en"))
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
            data["name"], data["password"], data.get("lang", "en")
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
        session = await _salon(request).login(data["name"], data["password"])
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc, data.get("lang"))
    return JSONResponse(session_json(session))


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    return lang if lang in {"en", "fr"} else "en"


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
    """The public tables, as the lobby shows them (``?lang=fr`` for French titles)."""
    tables = await _salon(request).list_tables(_lang(request))
    return JSONResponse({"tables": to_jsonable(tables)})


async def game_record(request: Request) -> Response:
    """One game with its full log, for replays."""
    raw = request.path_params["game_id"]
    if not raw.isdigit() or len(raw) > 15:
        return error_response("not_found", f"no game {raw!r}")
    try:
        record = await _salon(request).game_record(int(raw))
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc, _lang(request))
    if record is None:
        return error_response("not_found", f"no game {raw}")
    return JSONResponse(to_jsonable(record))


async def user_stats(request: Request) -> Response:
    """Games played, won and lost by one player, per game."""
    name = request.path_params["name"]
    try:
        stats = await _salon(request).user_stats(name)
    except ZanzibarError as exc:
        return _zanzibar_error_response(exc, _lang(request))
    if stats is None:
        return error_response("not_found", f"no player named {name!r}")
    return JSONResponse(to_jsonable(stats))


async def openapi_schema(request: Request) -> Response:
    """This API's OpenAPI 3.1 description."""
    return JSONResponse(openapi.document())


# -- WebSocket -------------------------------------------------------------------------


class Outbox:
    """One socket's outgoing messages: a queue and the task that drains it.

    ``send`` never waits for the network, so the salon can broadcast to a
    table without one slow reader holding up the others.
    """

    def __init__(self, websocket: WebSocket, limit: int = MAX_OUTGOING_QUEUE) -> None:
        self.websocket = websocket
        self.limit = limit
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.too_slow = False
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start draining the queue into the socket."""
        self.task = asyncio.create_task(self._drain())

    async def send(self, message: dict[str, Any]) -> None:
        """Queue one message (the salon's ``send`` callable)."""
        self.put(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

    def put(self, text: str) -> None:
        """Queue one already-encoded frame."""
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            self.too_slow = True
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def _drain(self) -> None:
        try:
            while True:  # until the sentinel (close) or a network error
                text = await self.queue.get()
                if text is None:
                    break
                await self.websocket.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.closed = True
            return
        except Exception:
            self.closed = True
            log.exception("websocket writer failed")
            return
        if self.too_slow:
            with contextlib.suppress(Exception):
                await self.websocket.close(CLOSE_TOO_SLOW, "too slow to read")

    async def close(self) -> None:
        """Flush what is queued, then stop the writer."""
        self.closed = True
        self.queue.put_nowait(None)
        if self.task is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self.task, timeout=5)


async def _next_frame(websocket: WebSocket) -> str | bytes | None:
    """The next text or binary frame, or None once the client has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")


async def websocket_endpoint(websocket: WebSocket) -> None:
    """One client's socket: validate each frame, hand it to the salon, send replies."""
    salon: SalonService = websocket.app.state.salon
    await websocket.accept()
    outbox = Outbox(websocket)
    outbox.start()
    conn = await salon.connect(outbox.send)
    try:
        while True:  # one frame per turn, until the client leaves
            if outbox.too_slow:
                break
            try:
                frame = await _next_frame(websocket)
            except (WebSocketDisconnect, RuntimeError):
                break
            if frame is None:
                break
            try:
                message = check_incoming(frame)
            except ProtocolError as refusal:
                outbox.put(json.dumps(refusal.reply(), ensure_ascii=False))
                continue
            try:
                await salon.handle(conn, message)
            except Exception:  # a salon bug must not take the socket down silently
                log.exception("salon failed on a %s message", message.get("type"))
                reply: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "error"}
                if "id" in message:
                    reply["id"] = message["id"]
                reply.update(code="internal", message="internal error; nothing was changed")
                await outbox.send(reply)
    finally:
        with contextlib.suppress(Exception):
            await salon.disconnect(conn)
        await outbox.close()
        if websocket.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()


# -- the application ---------------------------------------------------------------------


def _make_salon(settings: Settings) -> SalonService:
    # Imported late: the transport only needs the salon when it builds one.
    salon_class = importlib.import_module("zanzibar.salon").Salon
    settings.prepare()
    salon: SalonService = salon_class(
        db_url=settings.database_url,
        bot_delay=settings.bot_delay,
        round_pause=settings.round_pause,
        takeover_delay=settings.takeover_delay,
        durable=settings.durable,
    )
    return salon


def create_app(salon_or_settings: SalonService | Settings | None = None) -> Starlette:
    """The Starlette application serving one salon.

    Given :class:`Settings` (or nothing: the defaults), it builds the salon;
    given a salon object (tests pass a fake), it serves that one. The
    lifespan starts the salon (migrations, restoring tables) before the first
    request and stops it at shutdown.
    """
    if salon_or_settings is None:
        salon_or_settings = Settings()
    salon = (
        _make_salon(salon_or_settings)
        if isinstance(salon_or_settings, Settings)
        else salon_or_settings
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await salon.start()
        try:
            yield
        finally:
            await salon.stop()

    routes = [
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/games/{game_id}", game_record, methods=["GET"]),
        Route("/api/users/{name}/stats", user_stats, methods=["GET"]),
        Route("/api/openapi.json", openapi_schema, methods=["GET"]),
        Route("/api/l10n/{lang}.json", l10n_messages, methods=["GET"]),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/", StaticFiles(directory=STATIC_DIR, html=True, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.salon = salon
    app.state.max_frame_bytes = MAX_FRAME_BYTES
    return app
