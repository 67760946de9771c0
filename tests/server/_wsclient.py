"""A real WebSocket client of protocol v1 or v2, for tests against a running server.

Every message the server sends is kept in arrival order and checked against
its schema (``schema_violations`` lists any breach), so every test also
checks the server's output format. ``protocol=2`` offers the ``zanzibar.v2``
subprotocol: each frame is then an array of messages (``frames`` keeps them
as they came, ``received`` one by one).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from zanzibar.server.schemas import outgoing_errors

Message = dict[str, Any]
Predicate = Callable[[Message], bool]

DEFAULT_TIMEOUT_S = 15.0


async def sign_in_guest(url: str, name: str, lang: str = "en") -> Message:
    """``POST /api/guest``: a session ``{"token", "user"}``."""
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        response = await http.post("/api/guest", json={"name": name, "lang": lang})
        response.raise_for_status()
        session: Message = response.json()
        return session


class WsClient:
    """One signed-in socket: send requests, wait for replies and pushed messages."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.user: Message = {}
        self.token = ""
        self.received: list[Message] = []
        #: The messages of each frame, as they came (one each in protocol 1).
        self.frames: list[list[Message]] = []
        #: The protocol the server agreed to (the subprotocol it accepted).
        self.protocol = 2 if ws.subprotocol == "zanzibar.v2" else 1
        self.schema_violations: list[str] = []
        self.closed = False
        self._ids = itertools.count(1)
        self._arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls, ws_url: str, name: str = "anon", protocol: int = 1, **kwargs: Any
    ) -> WsClient:
        """Open a socket without signing in (``protocol=2``: offer ``zanzibar.v2``)."""
        if protocol == 2:
            kwargs.setdefault("subprotocols", ["zanzibar.v2"])
        ws = await connect(ws_url, max_size=4 * 1024 * 1024, proxy=None, **kwargs)
        return cls(ws, name)

    @classmethod
    async def guest(
        cls, server_url: str, name: str, lang: str = "en", protocol: int = 1
    ) -> WsClient:
        """Sign in as a guest over HTTP, open the socket and say hello."""
        session = await sign_in_guest(server_url, name, lang)
        return await cls.with_token(server_url, session["token"], name, protocol)

    @classmethod
    async def with_token(
        cls, server_url: str, token: str, name: str = "anon", protocol: int = 1
    ) -> WsClient:
        """Open the socket and say hello with an existing session token."""
        ws_url = server_url.replace("http://", "ws://", 1).rstrip("/") + "/ws"
        client = await cls.open(ws_url, name, protocol)
        client.token = token
        welcome = await client.hello(token)
        assert welcome["type"] == "welcome", welcome
        client.user = welcome["user"]
        return client

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                data = json.loads(frame)
                if self.protocol == 2:
                    if not isinstance(data, list) or not data:
                        self.schema_violations.append(f"a v2 frame that is not an array: {data}")
                        data = [data]
                else:
                    data = [data]
                self.frames.append(data)
                for message in data:
                    problems = outgoing_errors(message)
                    if problems:
                        self.schema_violations.append(
                            f"{message.get('type')}: {problems} in {message}"
                        )
                    self.received.append(message)
                self._arrived.set()
        except Exception:
            pass
        finally:
            self.closed = True
            self._arrived.set()

    # -- sending -----------------------------------------------------------------------

    async def send_raw(self, frame: str | bytes) -> None:
        """Send one frame as is."""
        await self.ws.send(frame)

    async def send(self, type_name: str, **fields: Any) -> int:
        """Send a message with a fresh ``id``; return the id."""
        request_id = next(self._ids)
        await self.ws.send(json.dumps({"v": 1, "type": type_name, "id": request_id, **fields}))
        return request_id

    async def request(
        self, type_name: str, timeout: float = DEFAULT_TIMEOUT_S, **fields: Any
    ) -> Message:
        """Send a message and wait for its ``ok`` or ``error`` reply."""
        request_id = await self.send(type_name, **fields)
        return await self.reply_to(request_id, timeout)

    async def ok(self, type_name: str, **fields: Any) -> Message:
        """Like :meth:`request`, asserting the reply is ``ok``."""
        reply = await self.request(type_name, **fields)
        assert reply["type"] == "ok", f"{type_name} {fields} refused: {reply}"
        return reply

    async def hello(self, token: str) -> Message:
        """Say hello; return ``welcome`` (or the error)."""
        start = len(self.received)
        await self.ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
        return await self.wait_for(lambda m: m["type"] in {"welcome", "error"}, start=start)

    async def ping(self, timeout: float = DEFAULT_TIMEOUT_S) -> Message:
        """Send ``ping``; return the ``pong`` (or the error)."""
        request_id = await self.send("ping")
        return await self.wait_for(
            lambda m: m["type"] in {"pong", "error"} and m.get("id") == request_id, timeout
        )

    async def reply_to(self, request_id: Any, timeout: float = DEFAULT_TIMEOUT_S) -> Message:
        """The ``ok``/``error`` carrying ``request_id``."""
        return await self.wait_for(
            lambda m: m["type"] in {"ok", "error"} and m.get("id") == request_id, timeout
        )

    # -- waiting -----------------------------------------------------------------------

    async def wait_for(
        self, predicate: Predicate, timeout: float = DEFAULT_TIMEOUT_S, start: int = 0
    ) -> Message:
        """The first message (from index ``start``) matching ``predicate``."""
        deadline = time.monotonic() + timeout
        index = start
        while True:
            while index < len(self.received):
                message = self.received[index]
                index += 1
                if predicate(message):
                    return message
            if self.closed:
                raise ConnectionError(f"{self.name}: socket closed while waiting")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                tail = self.received[-5:]
                raise TimeoutError(f"{self.name}: nothing matched in {timeout}s; last: {tail}")
            self._arrived.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), remaining)

    def of_type(self, type_name: str, table: Any = None) -> list[Message]:
        """Received messages of one type (optionally of one table), in order."""
        return [
            m
            for m in self.received
            if m["type"] == type_name and (table is None or m.get("table") == table)
        ]

    def game_events(self, table: Any) -> list[Message]:
        """Every game event seen for ``table``, from history and live, by seq, deduplicated."""
        by_seq: dict[int, Message] = {}
        for message in self.received:
            items = message["items"] if message["type"] == "history" else [message]
            for item in items:
                if item.get("type") == "game.event" and item.get("table") == table:
                    by_seq.setdefault(item["seq"], item)
        return [by_seq[k] for k in sorted(by_seq)]

    async def close(self) -> None:
        """Close the socket and stop reading."""
        with contextlib.suppress(Exception):
            await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(BaseException):
            await self._reader
