"""The fan-out of committed table changes to the connections that follow each table.

The table actor hands every stored change here, after the commit and before
its reply: new history items rendered per follower (language, seat),
``table`` when seats, host, options or state changed, ``game.view`` per
(seat, language) and ``your_turn`` when the turn passed to a person. Joining
and coming back (``follow``) send the table, the history since the client's
last ``seq`` and the view. This module only reads tables: it never changes
one, and nothing it does is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from zanzibar.engine.match import Match
from zanzibar.engine.rules import GameRules
from zanzibar.salon.changes import Change
from zanzibar.salon.connections import Connection, Shared
from zanzibar.salon.fields import PROTOCOL, request_id
from zanzibar.salon.history import Item
from zanzibar.salon.messages import your_turn_text
from zanzibar.salon.tables import Table


class Mirror:
    """Who follows which table, and what they are sent when it changes."""

    def __init__(
        self,
        connected: Callable[[int], bool],
        name_of: Callable[[int], str],
        conns_of: Callable[[int], Iterable[Connection]],
        lobby_changed: Callable[[], None],
        history_page: int,
        mark: Callable[[dict[str, Any]], dict[str, Any]] = lambda table_json: table_json,
    ) -> None:
        self.connected = connected
        #: Adds what other features say of a table to its JSON (ratings: ``rated``).
        self.mark = mark
        self.name_of = name_of
        self.conns_of = conns_of
        self.lobby_changed = lobby_changed
        self.history_page = history_page
        #: Table id -> connection id -> connection receiving its live items.
        self.subscribers: dict[int, dict[int, Connection]] = {}
        #: Table id -> (game id, seat) the last ``your_turn`` broadcast was for.
        self.announced: dict[int, tuple[int | None, int | None]] = {}

    # -- a stored change ------------------------------------------------------------------

    def publish(self, table: Table, change: Change, last: bool = False) -> None:
        """After a committed change's items: the table and the view, if they changed.

        ``last``: the view before the table (a game action's order).
        """
        if change.close:
            self.lobby_changed()
            return
        if change.table and not last:
            self.table(table)
        if change.views:
            if change.new_turn:
                self.announced.pop(table.id, None)
            self.views(table)
        if change.table and last:
            self.table(table)

    def items(self, table: Table, items: Sequence[Item]) -> None:
        """Send new history items to every connection following the table.

        Each item is decoded once, and rendered, built and encoded once per
        audience (:meth:`Table.audience`): followers who read the same words
        share one message.
        """
        subscribers = self.subscribers.get(table.id)
        if not items or not subscribers:
            return
        conns = [(conn, conn.lang, conn.user_id) for conn in subscribers.values()]
        for item in items:  # each connection still gets the items in order
            data = item.data
            seq, channel = item.seq, item.channel
            # Table.audience, its per-item part found once: (seq, language, own seat or None)
            viewers = table.viewers(item, data) if channel == "game" else {}
            made: dict[tuple[int, str, int | None], Shared] = {}
            for conn, lang, uid in conns:
                if channel == "chat":
                    key: tuple[int, str, int | None] = (seq, "", None)
                else:
                    key = (seq, lang, viewers.get(uid))
                message = made.get(key)
                if message is None:
                    message = made[key] = Shared(table.message(item, lang, uid, data, key))
                conn.put(message)

    def table(self, table: Table) -> None:
        """Send the table (seats, host, options, state) to its followers; update the lobby."""
        for conn in list(self.subscribers.get(table.id, {}).values()):
            if conn.user is not None:
                conn.put(self.table_message(table, conn))
        self.lobby_changed()

    def table_message(self, table: Table, conn: Connection) -> dict[str, Any]:
        """The ``table`` message as ``conn``'s user sees it."""
        user = conn.user_id
        assert user is not None
        return {
            "v": PROTOCOL,
            "type": "table",
            "table": self.mark(table.to_json_for(user, conn.lang, self.connected, self.name_of)),
        }

    def views(self, table: Table, conns: Iterable[Connection] | None = None) -> None:
        """Send the game view; ``your_turn`` to whoever must act when the turn comes to them.

        Broadcast after a change, ``your_turn`` goes out only when the turn passed to
        another seat (not after each of a player's own decisions); sent to chosen
        connections (joining, coming back), it always goes out.
        """
        match = table.match
        if match is None:
            return
        if conns is None:
            targets = list(self.subscribers.get(table.id, {}).values())
        else:
            targets = list(conns)
        views: dict[Any, dict[str, Any]] = {}
        #: One game.view message per (seat, language), put to every connection of that key
        #: (the default view: one for the seat to act, one for everyone else).
        sent: dict[tuple[int | None, str], Shared] = {}
        to_act = match.to_act if table.state == "playing" else None
        if conns is None:
            turn = (table.game_id, to_act)
            if turn == self.announced.get(table.id):
                to_act = None
            else:
                self.announced[table.id] = turn
        # The engine's default view is in no language and differs only for the seat to
        # act (its legal actions): everyone else, in any language, shares one message.
        default_view = type(table.rules).view is GameRules.view
        acting = None
        if default_view and targets:  # the shared view, made once (not for no follower)
            acting = game_view(table, match, None, "", views)["to_act"]
        seat_of = table.seat_of
        for conn in targets:
            seat = seat_of(conn.user_id)
            if default_view:
                key: tuple[int | None, str] = (seat if seat == acting else None, "")
            else:
                key = (seat, conn.lang)
            message = sent.get(key)
            if message is None:
                message = sent[key] = Shared(
                    {
                        "v": PROTOCOL,
                        "type": "game.view",
                        "table": table.id,
                        "seq": table.history.last_seq,
                        "game_id": table.game_id,
                        "view": game_view(table, match, seat, conn.lang, views),
                        "log_length": len(match.log),
                    }
                )
            conn.put(message)
            if (
                to_act is not None
                and seat == to_act
                and not match.is_over
                and table.bot_level(seat) is None
            ):
                conn.put(
                    {
                        "v": PROTOCOL,
                        "type": "your_turn",
                        "table": table.id,
                        "seq": table.history.last_seq,
                        "log_length": len(match.log),
                        "clock": table.clock,
                        "text": your_turn_text(conn.lang, table.clock),
                    }
                )

    # -- answering -------------------------------------------------------------------------

    def reply(
        self, conn: Connection, message: dict[str, Any], fields: dict[str, Any], table: Table
    ) -> None:
        """The ``ok`` answer to a table command (``table: true`` in fields: the table's JSON)."""
        out: dict[str, Any] = {"v": PROTOCOL, "type": "ok"}
        reply_id = request_id(message)
        if reply_id is not None:
            out["id"] = reply_id
        out.update(fields)
        if fields.get("table") is True:
            out["table"] = self.table_message(table, conn)["table"]
        conn.put(out)

    # -- following -------------------------------------------------------------------------

    def follow(self, conn: Connection, table: Table, since: int) -> None:
        """Send the table, the history since ``since`` and the view; then follow live items."""
        conn.put(self.table_message(table, conn))
        self.history(conn, table, since, latest=True)
        self.subscribers.setdefault(table.id, {})[conn.id] = conn
        conn.tables.add(table.id)
        self.views(table, [conn])

    def unfollow_user(self, table_id: int, user_id: int) -> None:
        """The user's connections stop following the table (they left or were sent away):
        his sockets here and those of other nodes (salon/forwarding.py) alike."""
        subscribers = self.subscribers.get(table_id, {})
        for conn in self.conns_of(user_id):
            subscribers.pop(conn.id, None)
            conn.tables.discard(table_id)
        for conn in [c for c in subscribers.values() if c.user_id == user_id]:
            subscribers.pop(conn.id, None)
            conn.tables.discard(table_id)

    def forget(self, conn: Connection) -> None:
        """The connection follows no table any more (closed, or signed out)."""
        for table_id in list(conn.tables):
            subscribers = self.subscribers.get(table_id)
            if subscribers is not None:
                subscribers.pop(conn.id, None)
        conn.tables.clear()

    def closed(self, table_id: int) -> None:
        """The table was closed: nobody follows it any more."""
        for conn in self.subscribers.pop(table_id, {}).values():
            conn.tables.discard(table_id)
        self.announced.pop(table_id, None)
        self.lobby_changed()

    def history(
        self,
        conn: Connection,
        table: Table,
        since: int,
        channel: str | None = None,
        reply_id: Any = None,
        limit: int | None = None,
        latest: bool = False,
    ) -> None:
        """Send at most ``limit`` items after ``since`` (a page; ``more`` says if others follow).

        With ``latest`` (joining, coming back) and more items than a page, the
        newest page is sent instead, and ``since`` in the reply says where it starts:
        older items stay available through ``history`` requests.
        """
        uid = conn.user_id
        limit = self.history_page if limit is None else limit
        if latest and channel is None and table.history.last_seq - since > limit:
            since = table.history.last_seq - limit
        page: list[Item] = []
        more = False
        for item in table.history.since(since, channel):
            if len(page) == limit:
                more = True
                break
            page.append(item)
        message: dict[str, Any] = {
            "v": PROTOCOL,
            "type": "history",
            "table": table.id,
            "since": since,
            "items": [table.message(i, conn.lang, uid) for i in page],
            "last_seq": table.history.last_seq,
            "more": more,
            "next": page[-1].seq if more else None,
        }
        if channel is not None:
            message["channel"] = channel
        if reply_id is not None:
            message["id"] = reply_id
        conn.put(message)


def game_view(
    table: Table,
    match: Match[Any, Any],
    seat: int | None,
    lang: str,
    views: dict[Any, dict[str, Any]],
) -> dict[str, Any]:
    """``rules.view(state, seat, lang)``; for games that keep the engine's default view,
    the state's JSON is computed once per change and shared by every viewer."""
    rules = table.rules
    if type(rules).view is not GameRules.view:
        return rules.view(match.state, seat, lang)
    shared = views.get("shared")
    if shared is None:
        shared = views["shared"] = {
            "state": rules.state_to_json(match.state),
            "to_act": rules.to_act(match.state),
            "over": rules.is_over(match.state),
            "legal": [],
        }
    if seat is not None and shared["to_act"] == seat:
        legal = [rules.action_to_json(a) for a in rules.legal_actions(match.state)]
        return {**shared, "legal": legal}
    return shared
