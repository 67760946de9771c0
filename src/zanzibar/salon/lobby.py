"""The lobby: pages of the public tables, the followers' coalesced updates, the games offered.

Reads tables, never changes one. Updates to lobby followers are coalesced
over ``lobby_delay`` and skipped for a (language, page size) whose page did
not change since it was last sent.
"""

from __future__ import annotations

import asyncio
import bisect
import logging
from collections.abc import Callable, Mapping
from typing import Any

from zanzibar.engine.rules import GameRules
from zanzibar.salon.connections import Connection
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import PROTOCOL, int_field
from zanzibar.salon.limits import Limits
from zanzibar.salon.tables import Table

log = logging.getLogger(__name__)


def page_limit(message: dict[str, Any], largest: int) -> int:
    """The ``limit`` of a paged request: 1 to ``largest`` (``largest`` when absent)."""
    limit = int_field(message, "limit", required=False)
    if limit is None:
        return largest
    if not 1 <= limit <= largest:
        raise SalonError("invalid", f"limit is a number from 1 to {largest}")
    return limit


class LobbyFeed:
    """Lobby pages and their followers."""

    def __init__(
        self,
        tables: Mapping[int, Table],
        connections: Mapping[int, Connection],
        limits: Limits,
        connected: Callable[[int], bool],
        name_of: Callable[[int], str],
        delay: float,
        rules_for: Callable[[str], GameRules[Any, Any]],
        games: Callable[[], list[str]],
        mark: Callable[[dict[str, Any]], dict[str, Any]] = lambda summary: summary,
    ) -> None:
        self.tables = tables
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
        #: The lobby page last sent to followers, per (language, page size).
        self._sent: dict[tuple[str, int], dict[str, Any]] = {}
        #: Page size each lobby follower asked for.
        self.page_sizes: dict[int, int] = {}

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
        public = sorted(tid for tid, table in self.tables.items() if not table.private)
        start = 0 if cursor is None else bisect.bisect_right(public, cursor)
        ids = public[start : start + limit]
        more = start + limit < len(public)
        return {
            "tables": [
                self.mark(self.tables[tid].summary(lang, self.connected, self.name_of))
                for tid in ids
            ],
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
