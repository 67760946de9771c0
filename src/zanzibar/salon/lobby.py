"""The lobby: the salon's table list over every node, its pages, the followers' updates.

The owner of each table puts the table's language-free summary into the
:class:`~zanzibar.cluster.ports.Lobby` port after every change that alters it
(:meth:`LobbyFeed.committed`, a hook of the table actors), and None when the
table closes; every node renders the port's summaries in each reader's
language, with the ``connected`` flags of its presence view, for
``lobby.list``, ``lobby.subscribe`` and ``GET /api/tables``. The tables this
node runs are read from its own latest summaries (the port's copy may lag by
one write), so a table created here is listed here at once.

Updates to lobby followers are coalesced over ``lobby_delay`` and skipped for a
(language, page size) whose page did not change since it was last sent. Reads
tables, never changes one.
"""

from __future__ import annotations

import asyncio
import bisect
import logging
from collections.abc import Callable, Mapping
from typing import Any

import orjson

from zanzibar.cluster.ports import Lobby
from zanzibar.engine.rules import GameRules
from zanzibar.salon.changes import Change
from zanzibar.salon.connections import Connection
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import PROTOCOL, int_field
from zanzibar.salon.limits import Limits
from zanzibar.salon.members import MemberIndex
from zanzibar.salon.tables import Table

log = logging.getLogger(__name__)

Summary = Mapping[str, Any]


def page_limit(message: dict[str, Any], largest: int) -> int:
    """The ``limit`` of a paged request: 1 to ``largest`` (``largest`` when absent)."""
    limit = int_field(message, "limit", required=False)
    if limit is None:
        return largest
    if not 1 <= limit <= largest:
        raise SalonError("invalid", f"limit is a number from 1 to {largest}")
    return limit


def summary_of(table: Table, name_of: Callable[[int], str]) -> dict[str, Any]:
    """A table as every node lists it, in no language and with no presence in it.

    Beside the protocol's ``TableSummary`` fields (less ``title`` and the seats'
    ``connected``, which each node adds for its reader), each seat says whether
    its player ``left``, and ``watchers`` lists the spectators' ids: what a
    friends list and a ``welcome`` need to say where someone is.
    """
    bot_level = table.rules.bot_levels()[0] if table.rules.bot_levels() else None
    summary = {
        "id": table.id,
        "game": table.rules.name,
        "preset": table.preset,
        "options": dict(table.options),
        "seats": [
            {
                "seat": index,
                "user": seat.user,
                "name": seat.name,
                "bot": seat.bot if seat.user is None else (bot_level if seat.away else None),
                "away": seat.away,
                "left": seat.left,
            }
            for index, seat in enumerate(table.seats)
        ],
        "host": table.host,
        "host_name": name_of(table.host) if table.host is not None else None,
        "state": table.state,
        "spectators": len(table.spectators),
        "watchers": sorted(table.spectators),
        "private": table.private,
    }
    # as it comes back from the shared port (JSON): compared with it to skip a repeat
    normal: dict[str, Any] = orjson.loads(orjson.dumps(summary, option=orjson.OPT_NON_STR_KEYS))
    return normal


def members(summary: Summary) -> dict[int, int | None]:
    """Who is at a listed table: user -> seat (None: watching); as ``Table.is_member``."""
    out: dict[int, int | None] = {u: None for u in summary.get("watchers", ())}
    for seat in summary.get("seats", ()):
        if seat.get("user") is not None:
            out[seat["user"]] = seat["seat"]
    return out


def _seated_users(summary: Summary) -> list[int]:
    """The users holding a seat of a listed table."""
    return [seat["user"] for seat in summary.get("seats", ()) if seat.get("user") is not None]


class LobbyFeed:
    """The table list of the whole salon, this node's part of it, and its followers here."""

    def __init__(
        self,
        port: Lobby,
        connections: Mapping[int, Connection],
        limits: Limits,
        connected: Callable[[int], bool],
        name_of: Callable[[int], str],
        delay: float,
        rules_for: Callable[[str], GameRules[Any, Any]],
        games: Callable[[], list[str]],
        mark: Callable[[dict[str, Any]], dict[str, Any]] = lambda summary: summary,
    ) -> None:
        self.port = port
        #: Adds what other features say of a table to its summary (ratings: ``rated``).
        self.mark = mark
        self.connections = connections
        self.limits = limits
        self.connected = connected
        self.name_of = name_of
        self.delay = delay
        self.rules_for = rules_for
        self.games = games
        self.stopping = False
        self.task: asyncio.Task[None] | None = None
        #: Puts this node's summaries into the port, one at a time, latest first.
        self.writer: asyncio.Task[None] | None = None
        #: The latest summary of each table this node runs.
        self.own: dict[int, dict[str, Any]] = {}
        #: Tables closed here whose removal from the port is not written yet.
        self.gone: set[int] = set()
        self._dirty: dict[int, None] = {}
        #: The lobby page last sent to followers, per (language, page size).
        self._sent: dict[tuple[str, int], dict[str, Any]] = {}
        #: Page size each lobby follower asked for.
        self.page_sizes: dict[int, int] = {}
        self._titles: dict[tuple[str, str], str] = {}
        #: Who sits at which listed table (:meth:`seated`), kept with every summary's change.
        self._seated = MemberIndex()
        port.watch(self._port_changed)

    # -- this node's tables into the port ---------------------------------------------------

    def publish(self, table: Table) -> None:
        """This node runs ``table`` (loaded, claimed, changed): put its summary if it changed."""
        summary = self.mark(summary_of(table, self.name_of))
        if self.own.get(table.id) != summary:
            self.own[table.id] = summary
            self._index(table.id)
            self._schedule(table.id)

    def committed(self, table: Table, change: Change) -> None:
        """A table actor's hook after each stored change.

        Only a change that says the table changed (``Change.table``: seats, host,
        options, state, spectators; what the mirror sends as ``table``) can alter its
        summary: a move inside a game costs nothing here. A table's first change
        (its creation) lists it.
        """
        if change.close:
            self.closed(table.id)
        elif change.table or table.id not in self.own:
            self.publish(table)

    def closed(self, table_id: int) -> None:
        """The table closed: it leaves the list everywhere."""
        self.own.pop(table_id, None)
        self.gone.add(table_id)
        self._index(table_id)
        self._schedule(table_id)

    def disown(self, table_id: int) -> None:
        """This node stopped running the table (lease lost): its new owner lists it."""
        if table_id not in self.gone:
            self.own.pop(table_id, None)
            self._dirty.pop(table_id, None)
            self._index(table_id)

    def reconcile(self) -> None:
        """Write again what the port lacks (a failed write, a Redis that forgot its keys)."""
        listed = self.port.summaries()
        self._seated = MemberIndex()  # rebuilt now and then: a safety net, as the writes
        for table_id, summary in {**listed, **self.own}.items():
            if table_id not in self.gone:
                self._seated.put(table_id, _seated_users(summary))
        for table_id, summary in self.own.items():
            if listed.get(table_id) != summary:
                self._schedule(table_id)
        for table_id in self.gone:
            self._schedule(table_id)

    def _schedule(self, table_id: int) -> None:
        self._dirty[table_id] = None
        if self.writer is None or self.writer.done():
            self.writer = asyncio.ensure_future(self._write())

    async def _write(self) -> None:
        while self._dirty:
            table_id = next(iter(self._dirty))
            del self._dirty[table_id]
            closing = table_id in self.gone
            summary = None if closing else self.own.get(table_id)
            if summary is None and not closing:
                continue  # no longer ours
            try:
                await self.port.put(table_id, summary)
            except Exception as exc:  # retried by the next reconcile
                log.warning("the lobby entry of table %s was not written: %s", table_id, exc)
                continue
            if closing:
                self.gone.discard(table_id)

    def pending(self) -> list[asyncio.Task[None]]:
        """The lobby's tasks still running (an update to followers, writes to the port)."""
        return [t for t in (self.task, self.writer) if t is not None and not t.done()]

    async def _port_changed(self, table_id: int) -> None:
        self._index(table_id)
        self.changed()

    def _index(self, table_id: int) -> None:
        """Note who sits at the table as listed now (none: not listed)."""
        summary: Summary | None = None
        if table_id not in self.gone:
            summary = self.own.get(table_id)
            if summary is None:
                summary = self.port.summaries().get(table_id)
        self._seated.put(table_id, _seated_users(summary) if summary is not None else ())

    def seated(self, user_id: int) -> bool:
        """Whether ``user_id`` sits at a listed table (his ``connected`` flag is shown)."""
        return bool(self._seated.tables_of(user_id))

    # -- reading the list -------------------------------------------------------------------

    def summaries(self) -> dict[int, Summary]:
        """Every open table's summary: the port's, with this node's own tables as they are now."""
        view: dict[int, Summary] = self.port.summaries()
        view.update(self.own)
        for table_id in self.gone:
            view.pop(table_id, None)
        return view

    def title(self, game: str, lang: str) -> str:
        """A game's title in ``lang`` (its name if this node does not offer it)."""
        key = (game, lang)
        title = self._titles.get(key)
        if title is None:
            try:
                titles = self.rules_for(game).title
                title = titles.get(lang) or titles.get("en") or game
            except Exception:
                title = game
            self._titles[key] = title
        return title

    def render(self, summary: Summary, lang: str) -> dict[str, Any]:
        """The protocol's ``TableSummary`` of a listed table, for a reader of ``lang``."""
        connected = self.connected
        return {
            "id": summary["id"],
            "game": summary["game"],
            "title": self.title(summary["game"], lang),
            "preset": summary["preset"],
            "options": dict(summary["options"]),
            "seats": [
                {
                    "seat": seat["seat"],
                    "user": seat["user"],
                    "name": seat["name"],
                    "bot": seat["bot"],
                    "away": seat["away"],
                    "connected": seat["user"] is not None and connected(seat["user"]),
                }
                for seat in summary["seats"]
            ],
            "host": summary["host"],
            "host_name": summary["host_name"],
            "state": summary["state"],
            "spectators": summary["spectators"],
            "private": summary["private"],
            "rated": summary.get("rated"),
        }

    # -- pages and followers ------------------------------------------------------------------

    def subscribe(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        """The connection follows the lobby; its first page (to send after the ``ok``)."""
        limit = page_limit(message, self.limits.lobby_page_max)
        conn.lobby = True
        self.page_sizes[conn.id] = limit
        self._sent.pop((conn.lang, limit), None)  # the next update goes out even if unchanged
        return {"v": PROTOCOL, "type": "lobby", **self.page(conn.lang, None, limit)}

    def unsubscribe(self, conn: Connection) -> None:
        """The connection stops following the lobby."""
        conn.lobby = False
        self.page_sizes.pop(conn.id, None)

    def listing(self, conn: Connection, message: dict[str, Any]) -> dict[str, Any]:
        """The page a ``lobby.list`` asks for."""
        limit = page_limit(message, self.limits.lobby_page_max)
        cursor = int_field(message, "cursor", required=False)
        if cursor is not None and cursor < 0:
            raise SalonError("invalid", "cursor cannot be negative")
        return self.page(conn.lang, cursor, limit)

    def page(self, lang: str, cursor: int | None, limit: int | None) -> dict[str, Any]:
        """One page of the public tables by id: those after ``cursor``, at most ``limit``.

        ``next`` is the cursor of the following page (None on the last one);
        ``total`` counts every public table. ``limit`` is capped at
        ``Limits.lobby_page_max`` (also the default), so no request can make
        the salon build the whole list of a crowded lobby.
        """
        largest = self.limits.lobby_page_max
        limit = largest if limit is None else max(1, min(int(limit), largest))
        view = self.summaries()
        public = sorted(tid for tid, summary in view.items() if not summary.get("private"))
        start = 0 if cursor is None else bisect.bisect_right(public, cursor)
        ids = public[start : start + limit]
        more = start + limit < len(public)
        return {
            "tables": [self.render(view[tid], lang) for tid in ids],
            "next": ids[-1] if more and ids else None,
            "total": len(public),
        }

    def changed(self) -> None:
        """A table appeared, changed or closed: followers get the list within ``delay``."""
        if self.stopping:
            return
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._send())

    async def _send(self) -> None:
        await asyncio.sleep(self.delay)
        by_view: dict[tuple[str, int], dict[str, Any] | None] = {}
        for conn in list(self.connections.values()):
            if conn.lobby and conn.user is not None:
                view = (conn.lang, self.page_sizes.get(conn.id, self.limits.lobby_page_max))
                if view not in by_view:
                    page = self.page(view[0], None, view[1])
                    if page == self._sent.get(view):
                        by_view[view] = None
                    else:
                        by_view[view] = self._sent[view] = page
                page_now = by_view[view]
                if page_now is not None:
                    conn.put({"v": PROTOCOL, "type": "lobby", **page_now})

    def games_info(self, lang: str = "en") -> list[dict[str, Any]]:
        """Every available game with its options, presets, seats and bot levels."""
        out = []
        for name in self.games():
            try:
                rules = self.rules_for(name)
            except Exception:
                log.warning("game %s is not available", name)
                continue
            schema = rules.options.to_json(lang)
            out.append(
                {
                    "name": rules.name,
                    "title": rules.title.get(lang) or rules.title.get("en") or rules.name,
                    "options": schema["options"],
                    "presets": schema["presets"],
                    "seats": list(rules.seat_range(rules.options.resolve())),
                    "bot_levels": list(rules.bot_levels()),
                }
            )
        return out
