"""A small stand-in for :class:`zanzibar.salon.Salon`, to test the transport alone.

It follows the service contract at the end of docs/protocol.md and records
every message the transport hands it, so tests can check that refused frames
never reach the salon.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from zanzibar.engine.errors import ZanzibarError


class ConflictError(ZanzibarError):
    """The name is taken."""

    code = "conflict"


@dataclass
class FakeUser:
    id: int
    name: str
    lang: str
    guest: bool = True


@dataclass
class FakeSession:
    token: str
    user: FakeUser


@dataclass
class FakeConn:
    send: Callable[[dict[str, Any]], Awaitable[None]]
    user: FakeUser | None = None


@dataclass
class FakeSalon:
    started: bool = False
    stopped: bool = False
    sessions: dict[str, FakeUser] = field(default_factory=dict)
    connections: list[FakeConn] = field(default_factory=list)
    handled: list[dict[str, Any]] = field(default_factory=list)
    disconnected: int = 0
    last_lang: str = ""

    async def start(self) -> None:
        self.started = True

    async def stop(self) -> None:
        self.stopped = True

    async def guest(self, name: str, lang: str, address: str | None = None) -> FakeSession:
        if name.lower() == "taken":
            raise ConflictError(f"the name {name} is taken")
        user = FakeUser(len(self.sessions) + 1, name, lang)
        token = f"token-{user.id}"
        self.sessions[token] = user
        return FakeSession(token, user)

    async def register(
        self, name: str, password: str, lang: str, address: str | None = None
    ) -> FakeSession:
        session = await self.guest(name, lang)
        session.user.guest = False
        return session

    async def login(self, name: str, password: str, address: str | None = None) -> FakeSession:
        for token, user in self.sessions.items():
            if user.name == name and password == "right":
                return FakeSession(token, user)
        error = ZanzibarError("wrong name or password")
        error.code = "unauthenticated"
        raise error

    async def connect(
        self, send: Callable[[dict[str, Any]], Awaitable[None]], address: str | None = None
    ) -> FakeConn:
        conn = FakeConn(send)
        self.connections.append(conn)
        return conn

    async def handle(self, conn: FakeConn, message: dict[str, Any]) -> None:
        self.handled.append(message)
        reply_id = {"id": message["id"]} if "id" in message else {}
        if message["type"] == "hello":
            user = self.sessions.get(message["token"])
            if user is None:
                await conn.send(
                    {
                        "v": 1,
                        "type": "error",
                        **reply_id,
                        "code": "unauthenticated",
                        "message": "unknown token",
                    }
                )
                return
            conn.user = user
            await conn.send({"v": 1, "type": "welcome", "user": user.__dict__, "protocol": 1})
            return
        if conn.user is None:
            await conn.send(
                {
                    "v": 1,
                    "type": "error",
                    **reply_id,
                    "code": "unauthenticated",
                    "message": "say hello first",
                }
            )
            return
        if message["type"] == "ping":
            await conn.send({"v": 1, "type": "pong", **reply_id})
            return
        if message["type"] == "chat.say" and message["text"] == "flood":
            for n in range(100):
                await conn.send(
                    {
                        "v": 1,
                        "type": "chat",
                        "table": message["table"],
                        "seq": n + 1,
                        "channel": "chat",
                        "from": "x",
                        "text": "y" * 1000,
                        "me": False,
                        "private": False,
                    }
                )
            return
        if message["type"] == "chat.say" and message["text"] == "crash":
            raise RuntimeError("salon bug")
        await conn.send({"v": 1, "type": "ok", **reply_id, "echo": message["type"]})

    async def disconnect(self, conn: FakeConn) -> None:
        self.disconnected += 1
        self.connections.remove(conn)

    async def list_tables(self, lang: str = "en") -> list[dict[str, Any]]:
        self.last_lang = lang
        return [
            {
                "id": 1,
                "game": "421",
                "title": "421",
                "preset": None,
                "options": {},
                "seats": [{"seat": 0, "user": 1, "name": "Anna", "bot": None, "connected": True}],
                "host": 1,
                "state": "waiting",
                "spectators": 0,
                "private": False,
            }
        ]

    async def game_record(self, game_id: int, viewer: int | None = None) -> dict[str, Any] | None:
        if game_id != 7:
            return None
        return {
            "id": 7,
            "game": "421",
            "options": {},
            "seats": ["Anna", "Bot"],
            "record": {"game": "421", "seats": 2, "options": {}, "seed": 1, "log": []},
            "outcome": None,
            "started": "2026-01-01T00:00:00Z",
            "finished": None,
        }

    async def user_stats(self, name: str) -> dict[str, Any] | None:
        if name != "Anna":
            return None
        return {"name": "Anna", "played": 0, "won": 0, "lost": 0, "games": {}}
