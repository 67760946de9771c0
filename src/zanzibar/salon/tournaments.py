"""Swiss tournaments in the salon: the requests (create, register, start, cancel, show).

A tournament is built in layers, each in its module, each calling only the ones
below it:

- :mod:`~zanzibar.salon.tournament_book`: what is read and said (standings,
  summaries, events in each entrant's language);
- :mod:`~zanzibar.salon.tournament_tables`: opening a round's tables, no-shows;
- :mod:`~zanzibar.salon.tournament_runner`: the runner (one node at a time) that
  starts, pairs and finishes tournaments from what is stored;
- here, :class:`Tournaments`: the WebSocket requests, the class the salon builds.

What they need of the salon comes through
:class:`~zanzibar.salon.tournament_ports.TournamentPorts`, never the salon itself.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from zanzibar.engine.errors import ZanzibarError
from zanzibar.salon import models as m
from zanzibar.salon.accounts import User
from zanzibar.salon.connections import Connection
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import int_field, ok_reply
from zanzibar.salon.messages import bot_name
from zanzibar.salon.persistence import Fenced, Op
from zanzibar.salon.seating import check_capacity, resolve_options
from zanzibar.salon.text import strip_invisible
from zanzibar.salon.tournament_runner import TournamentRunner

MAX_ROUNDS = 20
MAX_PLAYERS = 128
MAX_OPEN_PER_HOST = 3
NAME_MAX = 48

Handler = Callable[[Connection, dict[str, Any]], Awaitable[None]]


def _user(conn: Connection) -> User:
    if conn.user is None:
        raise SalonError("unauthenticated", "say hello with your session token first")
    return conn.user


class Tournaments(TournamentRunner):
    """The salon's Swiss tournaments (one per salon; see the module's docstring)."""

    def handlers(self) -> dict[str, Handler]:
        """The WebSocket messages this module answers."""
        return {
            "tournament.create": self._create,
            "tournament.register": self._register,
            "tournament.unregister": self._unregister,
            "tournament.add_bot": self._add_bot,
            "tournament.start": self._start_now,
            "tournament.cancel": self._cancel,
            "tournament.list": self._list,
            "tournament.show": self._show,
        }

    # -- requests ----------------------------------------------------------------------

    def _tournament_id(self, message: dict[str, Any]) -> int:
        tid = int_field(message, "tournament")
        assert tid is not None
        return tid

    async def _open_row(self, message: dict[str, Any]) -> Any:
        row = await self._row(self._tournament_id(message))
        if row is None:
            raise SalonError("not_found", f"there is no tournament {message.get('tournament')}")
        return row

    async def _create(self, conn: Connection, message: dict[str, Any]) -> None:
        ports = self.ports
        user = _user(conn)
        game = message.get("game")
        if not isinstance(game, str):
            raise SalonError("invalid", "say which game the table is for")
        try:
            rules = ports.rules_for(game)
        except ZanzibarError as exc:
            raise SalonError("not_found", exc.message) from None
        preset, options = resolve_options(
            rules, message.get("preset"), message.get("options"), None
        )
        low, high = rules.seat_range(options)
        seats = int_field(message, "seats", required=False)
        if seats is None:
            seats = max(low, min(high, 2))
        check_capacity(rules, options, seats)
        rounds = int_field(message, "rounds")
        assert rounds is not None
        if not 1 <= rounds <= MAX_ROUNDS:
            raise SalonError("invalid", f"a tournament has 1 to {MAX_ROUNDS} rounds")
        most = int_field(message, "max_players", required=False) or 16
        if not 2 <= most <= MAX_PLAYERS:
            raise SalonError("invalid", f"a tournament takes 2 to {MAX_PLAYERS} players")
        if seats == 2 and rounds >= most:
            raise SalonError("invalid", "with that many rounds some players would meet twice")
        start_in = int_field(message, "start_in", required=False)
        if start_in is not None and not 0 <= start_in <= 7 * 24 * 3600:
            raise SalonError("invalid", "a tournament starts within a week")
        levels = list(rules.bot_levels())
        level = message.get("bot_level", levels[0] if levels else None)
        if not isinstance(level, str) or level not in levels:
            raise SalonError("invalid", f"bot levels: {', '.join(levels)}")
        name = message.get("name")
        if name is None:
            name = f"{self._title(rules.name, 'en')} Swiss"
        if not isinstance(name, str):
            raise SalonError("invalid", "the name is text")
        name = " ".join(strip_invisible(name).split())[:NAME_MAX]
        if not name:
            raise SalonError("invalid", "the name is text")
        held = await ports.store.read(
            select(func.count()).where(
                (m.tournaments.c.host_id == user.id)
                & m.tournaments.c.state.in_(("registering", "running"))
            )
        )
        if int(held[0][0]) >= MAX_OPEN_PER_HOST:
            raise SalonError(
                "quota", f"you already host {MAX_OPEN_PER_HOST} open tournaments, the most allowed"
            )
        now = self.clock()
        row = {
            "name": name,
            "game": rules.name,
            "preset": preset,
            "options": dict(options),
            "seats": seats,
            "rounds": rounds,
            "max_players": most,
            "starts_at": now + start_in if start_in is not None else None,
            "bot_level": level,
            "host_id": user.id,
            "state": "registering",
            "round": 0,
            "created": now,
            "finished": None,
            "note": None,
        }
        tid = await self._insert(row)
        stored = await self._row(tid)
        conn.put(ok_reply(message, tournament=await self.summary(stored, conn.lang)))

    async def _insert(self, row: dict[str, Any]) -> int:
        """Store a new tournament under the next free id; the id.

        Another process on the database may have taken the id this one expected:
        the key refuses the second, which reads the largest id again and retries."""
        for _ in range(5):
            tid = self._next_id
            self._next_id += 1
            try:
                await self.ports.store.write([(insert(m.tournaments), {**row, "id": tid})])
                return tid
            except IntegrityError:
                self._next_id = await self._largest_id() + 1
            except Exception:
                break
        raise SalonError("internal", "the change could not be stored; nothing was changed")

    async def _entry_change(self, conn: Connection, message: dict[str, Any], change: str) -> None:
        ports = self.ports
        user = _user(conn)
        tid = self._tournament_id(message)
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            row = await self._open_row(message)
            if row.state != "registering":
                raise SalonError("conflict", "registration is closed: the tournament has started")
            players = await self._players(tid)
            p = m.tournament_players.c
            if change == "register":
                if any(pl.user_id == user.id for pl in players):
                    raise SalonError("conflict", "you are already registered")
                if len(players) >= row.max_players:
                    raise SalonError("conflict", "the tournament is full")
                entrant = max((pl.entrant for pl in players), default=0) + 1
                op: Op = (
                    insert(m.tournament_players),
                    {
                        "tournament_id": tid,
                        "entrant": entrant,
                        "user_id": user.id,
                        "name": user.name,
                        "bot": None,
                        "seed": None,
                        "registered": time.time(),
                    },
                )
            elif change == "add_bot":
                if row.host_id != user.id:
                    raise SalonError("forbidden", "only the host may do that")
                if len(players) >= row.max_players:
                    raise SalonError("conflict", "the tournament is full")
                levels = list(ports.rules_for(row.game).bot_levels())
                level = message.get("level", row.bot_level)
                if not isinstance(level, str) or level not in levels:
                    raise SalonError("invalid", f"bot levels: {', '.join(levels)}")
                entrant = max((pl.entrant for pl in players), default=0) + 1
                op = (
                    insert(m.tournament_players),
                    {
                        "tournament_id": tid,
                        "entrant": entrant,
                        "user_id": None,
                        "name": bot_name(entrant - 1, level),
                        "bot": level,
                        "seed": None,
                        "registered": time.time(),
                    },
                )
            else:
                mine = [pl for pl in players if pl.user_id == user.id]
                if not mine:
                    raise SalonError("conflict", "you are not registered")
                op = (
                    m.tournament_players.delete().where(
                        (p.tournament_id == tid) & (p.entrant == mine[0].entrant)
                    ),
                    None,
                )
            # fenced on the state, in the same transaction: a runner on another node that
            # starts or cancels the tournament meanwhile refuses this (or waits for it)
            still = self._tournament_row(row, m.tournaments.c.state == "registering")
            try:
                await ports.store.write([(still, {"state": "registering"}), op])
            except Fenced:
                raise SalonError(
                    "conflict", "registration is closed: the tournament has started"
                ) from None
            except IntegrityError:
                raise SalonError("conflict", "another entry was made at once: try again") from None
        count = len(players) + (-1 if change == "unregister" else 1)
        conn.put(ok_reply(message, tournament=tid, players=count))
        if count >= row.max_players:
            self._poke(tid)

    async def _register(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._entry_change(conn, message, "register")

    async def _unregister(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._entry_change(conn, message, "unregister")

    async def _add_bot(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._entry_change(conn, message, "add_bot")

    async def _start_now(self, conn: Connection, message: dict[str, Any]) -> None:
        user = _user(conn)
        row = await self._open_row(message)
        if row.host_id != user.id:
            raise SalonError("forbidden", "only the host may do that")
        if row.state != "registering":
            raise SalonError("conflict", "registration is closed: the tournament has started")
        if len(await self._players(row.id)) < 2:
            raise SalonError("conflict", "a tournament needs at least two players")
        if await self.take_runner():
            await self.advance(row.id, force=True)
        else:  # another node runs the tournaments: due now, its next tick starts it
            due = self._tournament_row(row, m.tournaments.c.state == "registering")
            try:
                await self.ports.store.write([(due, {"starts_at": self.clock()})])
            except Fenced:
                raise SalonError(
                    "conflict", "registration is closed: the tournament has started"
                ) from None
        conn.put(ok_reply(message, tournament=row.id))

    async def _cancel(self, conn: Connection, message: dict[str, Any]) -> None:
        user = _user(conn)
        row = await self._open_row(message)
        if row.host_id != user.id:
            raise SalonError("forbidden", "only the host may do that")
        if row.state != "registering":
            raise SalonError("conflict", "registration is closed: the tournament has started")
        async with self._locks.setdefault(row.id, asyncio.Lock()):
            if not await self._end(row, "cancelled", "host"):
                raise SalonError("conflict", "registration is closed: the tournament has started")
        conn.put(ok_reply(message, tournament=row.id))

    async def _list(self, conn: Connection, message: dict[str, Any]) -> None:
        conn.put(ok_reply(message, tournaments=await self.list_json(conn.lang)))

    async def _show(self, conn: Connection, message: dict[str, Any]) -> None:
        found = await self.show_json(self._tournament_id(message), conn.lang)
        if found is None:
            raise SalonError("not_found", f"there is no tournament {message.get('tournament')}")
        conn.put(ok_reply(message, tournament=found))
