"""Helpers shared by the salon tests: a salon on a temporary database and fake clients."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _racegame import RULES as RACE

from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.rules import GameRules
from zanzibar.games import get_rules
from zanzibar.salon import Salon
from zanzibar.salon.connections import Connection
from zanzibar.salon.limits import Limits


def rules_for(name: str) -> GameRules[Any, Any]:
    """The test race, then the registry's games."""
    if name == "race":
        return RACE
    return get_rules(name)


def available_games() -> list[str]:
    names = ["race"]
    for name in ("421", "zilch", "zanzibar-s"):
        try:  # a game still being written may import but lack its bots
            rules = get_rules(name)
            rules.make_bot(rules.bot_levels()[0], rules.options.resolve(), 0)
        except (ZanzibarError, ImportError, NotImplementedError):
            continue
        names.append(name)
    return names


def game_available(name: str) -> bool:
    return name in available_games()


def database_url(where: Path | str) -> str:
    """A SQLAlchemy URL: a path means a SQLite file there, a string is already a URL."""
    return where if isinstance(where, str) else f"sqlite+aiosqlite:///{where}"


def make_salon(where: Path | str, **kwargs: Any) -> Salon:
    """A salon for tests (no delays, seeded dice) on a SQLite file path or a database URL."""
    settings: dict[str, Any] = {
        "bot_delay": 0,
        "round_pause": 0,
        "takeover_delay": 0,
        "lobby_delay": 0,
        "bot_threads": False,
        "rules_for": rules_for,
        "games": available_games,
        "seeds": itertools.count(421).__next__,
        # clients here play at machine speed, far above any person's message rate
        "limits": Limits(message_rate_user="100000/second"),
    }
    settings.update(kwargs)
    return Salon(database_url(where), **settings)


class _AtOnce:
    """A transport with a queue of its own (``put_message``, salon/connections.py): the salon
    hands it each message the moment it puts one, with nothing else run in between."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def __call__(self, message: dict[str, Any]) -> None:  # never called: put_message is
        self.put_message(message)

    def put_message(self, message: dict[str, Any]) -> None:
        self.client.inbox.append(message)
        assert self.client.seen is not None
        self.client.seen(message)


class Client:
    """A fake connection that records what the salon sends.

    ``seen``: called with each message the moment the salon puts it (no writer task in
    between), so it can look at the salon as it was when the message went out.
    """

    def __init__(
        self, salon: Salon, name: str, seen: Callable[[dict[str, Any]], None] | None = None
    ) -> None:
        self.salon = salon
        self.name = name
        self.seen = seen
        self.inbox: list[dict[str, Any]] = []
        self.conn: Connection | None = None
        self.token = ""
        self.user_id = 0
        self._ids = 0

    async def _send(self, message: dict[str, Any]) -> None:
        self.inbox.append(message)

    async def sign_in(self, lang: str = "en", token: str | None = None) -> Client:
        if token is None:
            session = await self.salon.guest(self.name, lang)
            token = session.token
            self.user_id = session.user.id
            self.name = session.user.name
        self.token = token
        self.conn = await self.salon.connect(self._send if self.seen is None else _AtOnce(self))
        reply = await self.request("hello", token=token, lang=lang)
        assert reply["type"] == "welcome", reply
        self.user_id = reply["user"]["id"]
        return self

    async def reconnect(self, lang: str = "en") -> Client:
        await self.sign_in(lang, self.token)
        return self

    async def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send one message, settle the salon, return the reply to it."""
        assert self.conn is not None
        self._ids += 1
        request_id = f"{self.name}-{self._ids}"
        await self.salon.handle(self.conn, {"v": 1, "type": kind, "id": request_id, **fields})
        await self.salon.settle()
        for message in self.inbox:
            if message.get("id") == request_id:
                return message
        raise AssertionError(f"no reply to {kind}: {self.inbox[-5:]}")

    async def ok(self, kind: str, **fields: Any) -> dict[str, Any]:
        reply = await self.request(kind, **fields)
        assert reply["type"] in ("ok", "welcome", "history", "pong"), reply
        return reply

    async def refused(self, kind: str, code: str, **fields: Any) -> dict[str, Any]:
        reply = await self.request(kind, **fields)
        assert reply["type"] == "error", reply
        assert reply["code"] == code, reply
        return reply

    async def disconnect(self) -> None:
        assert self.conn is not None
        await self.salon.disconnect(self.conn)
        self.conn = None

    def of_type(self, kind: str, table: int | None = None) -> list[dict[str, Any]]:
        return [
            m
            for m in self.inbox
            if m.get("type") == kind and (table is None or m.get("table") == table)
        ]

    def stream(self, table: int) -> list[dict[str, Any]]:
        """Every table item received, live or in history, in arrival order."""
        out: list[dict[str, Any]] = []
        for m in self.inbox:
            if m.get("type") == "history" and m.get("table") == table:
                out.extend(m["items"])
            elif m.get("type") in ("game.event", "chat", "system") and m.get("table") == table:
                out.append(m)
        return out

    def last(self, kind: str) -> dict[str, Any]:
        found = self.of_type(kind)
        assert found, f"{self.name} received no {kind}"
        return found[-1]


async def play_with_bot_brain(
    salon: Salon,
    table_id: int,
    clients: dict[int, Client],
    max_steps: int = 5000,
    level: str | None = None,
    resign_after: int | None = None,
) -> int:
    """Let human clients play by asking a bot of the game what to do; bots play themselves.

    With ``resign_after``, the human to act resigns after that many actions
    (for games as long as chess). Returns the number of actions the humans sent.
    """
    sent = 0
    brains: dict[int, Any] = {}
    for _ in range(max_steps):
        await salon.settle()
        table = salon.tables[table_id]
        match = table.match
        assert match is not None
        if match.is_over or table.state == "finished":
            return sent
        if table.state == "paused":
            raise AssertionError("the table paused although round_pause is 0")
        seat = match.to_act
        assert seat is not None
        if seat not in clients or table.bot_level(seat) is not None:
            continue
        brain = brains.get(seat)
        if brain is None:
            brain = brains[seat] = table.rules.make_bot(
                level or table.rules.bot_levels()[0], table.options, seed=seat
            )
        action = table.rules.action_to_json(brain.choose(match.state))
        if resign_after is not None and sent >= resign_after:
            action = {"type": "resign"}
        reply = await clients[seat].request(
            "game.action", table=table_id, action=action, seq=len(match.log)
        )
        assert reply["type"] == "ok", reply
        sent += 1
    raise AssertionError("the game did not end")
