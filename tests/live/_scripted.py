"""Scripted people for the live tests: one WebSocket at a time, reconnecting and resuming.

A :class:`Player` is what a real client does across crashes, written from
docs/protocol.md alone: it signs in with a session token, follows tables
(``table.join`` as a player, ``table.watch`` as a spectator), and when its
socket dies (its node was killed, Redis or PostgreSQL restarted) it opens a
new one, says ``hello`` again and rejoins each table with ``since`` = the last
``seq`` it received, so it should get exactly what it missed.

It keeps what the checks need:

- every item (``game.event``, ``chat``, ``system``) by table and ``seq``, and
  a *violation* for any gap or repeat, live or in a ``history`` (a history page
  that starts later than asked is completed with ``history`` requests first; a
  ``history`` the salon sends unasked, when it follows a table again for a socket
  after the table's owner changed, must continue the items as live ones do);
- the ``ok`` of each action and chat line it was acknowledged (:class:`Ack`):
  the checks compare them with the database rows;
- the error codes it met (errors are allowed: a client retries).

A request whose socket dies before the reply raises :class:`Unknown`: the
outcome is not known. A game action is then decided again from the position
the rejoin shows (it carries the log length it was made for, so a second try
of one that did land is refused ``stale``, never applied twice); a chat line
is not resent (each line's text is unique, so a line stored without its ``ok``
is recognised as such).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

Message = dict[str, Any]

#: Item types: the numbered stream of a table.
ITEM_TYPES = {"game.event", "chat", "system"}
#: Refusals a client expects now and then and simply tries again after (the salon
#: recovering, a table changing owner, a position that moved on meanwhile).
#: The most items a ``history`` page holds (docs/security.md: ``history_page_max``).
HISTORY_PAGE = 500
RETRYABLE = {"internal", "stale", "not_your_turn", "conflict", "rate_limited", "timeout"}


class Unknown(Exception):
    """The socket closed (or went silent) before the reply: the request may or may not be done."""


class GaveUp(Exception):
    """No node answered for too long."""


@dataclass(frozen=True)
class Ack:
    """A change the salon acknowledged with ``ok``: it must be stored, once."""

    kind: str  # "action" or "chat"
    player: str
    user: int
    table: int
    #: action: the game and the log length it was made at (where the log must hold it)
    game_id: int | None
    at: int | None
    seat: int | None
    #: action: the action JSON; chat: the text
    value: Any
    #: action: the log length after (ok's ``log_length``); chat: the item's ``seq`` (ok's)
    result: int


def item_key(item: Message) -> tuple[Any, ...]:
    """What every receiver and the database must agree on for one item (not its wording)."""
    kind = item.get("type")
    if kind == "game.event":
        return ("game", item.get("game_id"), json.dumps(item.get("event"), sort_keys=True))
    if kind == "chat":
        return ("chat", item.get("user"), item.get("text"), bool(item.get("me")))
    return ("system", item.get("kind"))


@dataclass
class Follow:
    """One table a player follows: what it has received of it."""

    table: int
    role: str  # "join" or "watch"
    last_seq: int = 0
    #: How the item ``last_seq`` came ("live", "history", "history pushed" ...).
    last_how: str = ""
    #: seq -> item_key of every item received
    items: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    #: seq -> the text (for the checks of what a person reads)
    texts: dict[int, str] = field(default_factory=dict)
    seat: int | None = None
    state: str | None = None
    game_id: int | None = None
    host: int | None = None
    view: Message | None = None
    table_message: Message | None = None
    #: Live items that came while the history was being read (applied after it).
    buffer: list[Message] = field(default_factory=list)
    syncing: bool = True
    history: asyncio.Future[Message] | None = None
    #: Whether a join (or watch) of it was ever answered ``ok``; the last answer.
    joined: bool = False
    reply: Message = field(default_factory=dict)


class Player:
    """One person, one socket at a time, to whatever node ``url()`` names."""

    def __init__(
        self,
        name: str,
        session: Message,
        url: Callable[[], str],
        *,
        reconnect_for: float = 90.0,
        request_timeout: float = 20.0,
    ) -> None:
        self.name = name
        self.token: str = session["token"]
        self.user: int = session["user"]["id"]
        self.url = url
        self.reconnect_for = reconnect_for
        self.request_timeout = request_timeout
        self.follows: dict[int, Follow] = {}
        self.acks: list[Ack] = []
        self.violations: list[str] = []
        self.errors: Counter[str] = Counter()
        self.reconnects = 0
        #: ``history`` messages that answered no join of ours (a re-follow after a failover).
        self.pushed_histories = 0
        self.news = asyncio.Event()
        #: How many times news came: :func:`news_since` waits for it to grow, so news that
        #: came between a look at the state and the wait is not missed.
        self.news_count = 0
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[int, asyncio.Future[Message]] = {}
        self._ids = itertools.count(1)
        self._connecting = asyncio.Lock()
        self._chat = itertools.count(1)
        self._early: dict[int, list[Message]] = {}
        self.closed = False

    # -- the socket ------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._ws is not None

    async def connect(self) -> Message:
        """Open a socket, say hello and rejoin every followed table; the ``welcome``."""
        async with self._connecting:
            return await self._connect()

    async def ensure_connected(self) -> None:
        """Reconnect (and resume every table) if the socket is gone."""
        if self._ws is None:
            async with self._connecting:
                if self._ws is None:
                    await self._connect()

    async def _connect(self) -> Message:
        deadline = time.monotonic() + self.reconnect_for
        attempt = 0
        while True:
            if self.closed:
                raise GaveUp(f"{self.name} is closed")
            attempt += 1
            try:
                welcome = await self._open_and_hello()
                for follow in list(self.follows.values()):
                    await self._resume(follow, deadline)
                return welcome
            except (OSError, TimeoutError, Unknown, ConnectionError) as exc:
                await self._drop()
                if time.monotonic() > deadline:
                    raise GaveUp(
                        f"{self.name}: no node answered for {self.reconnect_for} s ({exc!r})"
                    ) from exc
            except Exception as exc:  # websockets' handshake errors (a node going down)
                await self._drop()
                if time.monotonic() > deadline:
                    raise GaveUp(f"{self.name}: cannot reconnect: {exc!r}") from exc
            await asyncio.sleep(min(0.2 * attempt, 1.0))

    async def _open_and_hello(self) -> Message:
        url = self.url().replace("http://", "ws://", 1).rstrip("/") + "/ws"
        ws = await asyncio.wait_for(
            connect(url, max_size=8 * 1024 * 1024, proxy=None, open_timeout=10), 15
        )
        self._ws = ws
        self._reader = asyncio.create_task(self._read(ws))
        welcome = await self._request_on(ws, {"type": "hello", "token": self.token}, 15)
        if welcome.get("type") != "welcome":
            # the salon answered: a refused hello is a fact to report, not a crash to wait out
            self.errors[f"hello:{welcome.get('code')}"] += 1
            raise Unknown(f"hello refused: {welcome}")
        return welcome

    async def _drop(self) -> None:
        ws, self._ws = self._ws, None
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)
        reader, self._reader = self._reader, None
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader
        self._fail_pending()

    def _fail_pending(self) -> None:
        pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(Unknown("the socket closed before the reply"))
        for follow in self.follows.values():
            if follow.history is not None and not follow.history.done():
                follow.history.set_exception(Unknown("the socket closed before the history"))
                follow.history.exception()  # retrieved: nobody may be waiting for it

    async def close(self) -> None:
        """Stop for good (the test is over)."""
        self.closed = True
        await self._drop()

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for frame in ws:
                self._dispatch(json.loads(frame))
        except Exception:
            pass
        finally:
            if self._ws is ws:  # not replaced meanwhile: this socket's requests are lost
                self._ws = None
                self.reconnects += 1
                self._fail_pending()
            self._news()

    # -- incoming --------------------------------------------------------------------

    def _dispatch(self, message: Message) -> None:
        kind = message.get("type")
        request_id = message.get("id")
        if request_id is not None and kind in {"ok", "error", "welcome", "history", "pong"}:
            future = self._pending.pop(request_id, None)
            if future is not None and not future.done():
                future.set_result(message)
            if kind == "history":
                return
            if kind == "error":
                self.errors[str(message.get("code"))] += 1
            return
        table = message.get("table")
        table_id = table.get("id") if isinstance(table, dict) else table
        follow = self.follows.get(table_id) if isinstance(table_id, int) else None
        if follow is None:
            if isinstance(table_id, int) and kind in ITEM_TYPES | {"history", "game.view", "table"}:
                # about a table whose create is being answered: kept for create() to apply
                self._early.setdefault(table_id, []).append(message)
            self._news()
            return
        if kind == "table":
            assert isinstance(table, dict)
            follow.table_message = table
            follow.seat = (table.get("you") or {}).get("seat")
            follow.state = table.get("state")
            follow.game_id = table.get("game_id")
            follow.host = table.get("host")
        elif kind == "history":
            if follow.history is not None and not follow.history.done():
                follow.history.set_result(message)
            else:
                # Not the answer to a join of ours: the salon followed the table again for
                # this socket (its owner changed) and sends what came after what it had
                # sent. Its items must continue ours exactly, like live ones.
                self.pushed_histories += 1
                for item in message.get("items", []):
                    if follow.syncing:
                        follow.buffer.append(item)
                    else:
                        self._take(follow, item, "history pushed")
        elif kind in ITEM_TYPES:
            if follow.syncing:
                follow.buffer.append(message)
            else:
                self._take(follow, message, "live")
        elif kind == "game.view":
            follow.view = message
        self._news()

    def _take(self, follow: Follow, item: Message, how: str) -> None:
        """One numbered item: it must be the next one (no gap, no repeat)."""
        seq = item.get("seq")
        if not isinstance(seq, int):
            self.violations.append(f"{self.name}: item without seq at {follow.table}: {item}")
            return
        if seq != follow.last_seq + 1:
            what = "repeat" if seq <= follow.last_seq else "gap"
            self.violations.append(
                f"{self.name}: {what} at table {follow.table} ({how}): seq {seq} after "
                f"{follow.last_seq} ({follow.last_how})"
            )
            if seq <= follow.last_seq:
                return
        follow.last_seq = seq
        follow.last_how = how
        follow.items[seq] = item_key(item)
        follow.texts[seq] = str(item.get("text", ""))

    # -- requests --------------------------------------------------------------------

    async def _request_on(self, ws: ClientConnection, body: Message, timeout: float) -> Message:
        request_id = next(self._ids)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            await ws.send(json.dumps({"v": 1, "id": request_id, **body}))
        except Exception as exc:
            self._pending.pop(request_id, None)
            raise Unknown(f"send failed: {exc!r}") from exc
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self._pending.pop(request_id, None)
            self.errors["no reply"] += 1
            # a socket that leaves a request unanswered this long is as good as dead
            await self._drop()
            raise Unknown(f"no reply to {body.get('type')} within {timeout} s") from None

    async def request(self, kind: str, timeout: float | None = None, **fields: Any) -> Message:
        """One request on the current socket; :class:`Unknown` if it dies first."""
        ws = self._ws
        if ws is None:
            raise Unknown("not connected")
        return await self._request_on(ws, {"type": kind, **fields}, timeout or self.request_timeout)

    async def settled(self, kind: str, tries: float = 30.0, **fields: Any) -> Message:
        """A request that is safe to repeat (create aside): retried over reconnects and
        retryable refusals for ``tries`` seconds; the last reply."""
        deadline = time.monotonic() + tries
        while True:
            try:
                await self.ensure_connected()
                reply = await self.request(kind, **fields)
            except Unknown:
                reply = {"type": "error", "code": "unknown"}
            if reply.get("type") != "error" or time.monotonic() > deadline:
                return reply
            if reply.get("code") not in RETRYABLE | {"unknown", "not_found"}:
                return reply
            await asyncio.sleep(0.3)

    # -- tables ----------------------------------------------------------------------

    async def patiently(self, kind: str, tries: float = 20.0, **fields: Any) -> Message:
        """A request tried again while the salon answers ``rate_limited`` (after its
        ``retry_after``) or ``internal``: both say nothing was changed, so trying again is
        what a client does (a salon whose Redis just restarted cannot check its limits for
        a moment). The last reply."""
        deadline = time.monotonic() + tries
        while True:
            await self.ensure_connected()
            reply = await self.request(kind, **fields)
            code = reply.get("code")
            if reply["type"] != "error" or code not in {"rate_limited", "internal"}:
                return reply
            if time.monotonic() > deadline:
                return reply
            await asyncio.sleep(min(float(reply.get("retry_after") or 0.3), 3.0))

    async def create(self, **fields: Any) -> int:
        """``table.create``: the new table's id (this player follows it, as host)."""
        reply = await self.patiently("table.create", **fields)
        assert reply["type"] == "ok", f"{self.name}: table.create {fields} refused: {reply}"
        table: Message = reply["table"]
        follow = Follow(table["id"], "join", seat=table["you"]["seat"], joined=True)
        follow.history = asyncio.get_running_loop().create_future()
        self.follows[table["id"]] = follow
        for message in self._early.pop(table["id"], []):
            self._dispatch(message)
        await self._read_history(follow, time.monotonic() + 30)
        return int(table["id"])

    async def join(self, table: int, role: str = "join", tries: float = 30.0) -> Message:
        """Follow a table (``table.join`` or ``table.watch``); the ``ok``."""
        assert role in {"join", "watch"}
        follow = Follow(table, role)
        deadline = time.monotonic() + tries
        await self.ensure_connected()
        self.follows[table] = follow  # from now on, every reconnection resumes it
        try:
            return await self._resume(follow, deadline)
        except Unknown:
            await self.ensure_connected()  # which joined it again
            return follow.reply

    async def _resume(self, follow: Follow, deadline: float) -> Message:
        """(Re)join one table from its last seq; the ``ok`` (an error once out of time)."""
        while True:
            follow.syncing = True
            follow.buffer.clear()
            follow.history = asyncio.get_running_loop().create_future()
            fields: Message = {"table": follow.table, "since": follow.last_seq}
            reply = await self.request(f"table.{follow.role}", **fields)
            follow.reply = reply
            if reply["type"] == "ok":
                follow.joined = True
                if follow.role == "join":
                    follow.seat = reply.get("seat")
                await self._read_history(follow, deadline)
                return reply
            follow.syncing = False
            if time.monotonic() > deadline or reply.get("code") not in RETRYABLE | {"not_found"}:
                self.violations.append(
                    f"{self.name}: could not {follow.role} table {follow.table} again: {reply}"
                )
                return reply
            await asyncio.sleep(0.3)

    async def _read_history(self, follow: Follow, deadline: float) -> None:
        """Apply the history sent after a join (completed if it starts later), then what
        came live meanwhile."""
        assert follow.history is not None
        remaining = max(5.0, deadline - time.monotonic())
        try:
            history = await asyncio.wait_for(follow.history, remaining)
        except TimeoutError:
            await self._drop()
            raise Unknown(f"no history of table {follow.table}") from None
        start = history.get("since", follow.last_seq)
        while isinstance(start, int) and start > follow.last_seq:
            # more than a page was missed: read the older items first, page by page
            page = await self.request(
                "history",
                table=follow.table,
                since=follow.last_seq,
                limit=min(HISTORY_PAGE, start - follow.last_seq),
            )
            if page.get("type") != "history" or not page.get("items"):
                self.violations.append(f"{self.name}: cannot read history: {page}")
                break
            for item in page["items"]:
                if item["seq"] <= start:
                    self._take(follow, item, "history page")
        for item in history.get("items", []):
            self._take(follow, item, "history")
        buffered, follow.buffer = follow.buffer, []
        for item in buffered:  # the protocol sends the history first: any repeat here is one
            self._take(follow, item, "live after history")
        follow.syncing = False

    # -- acting ----------------------------------------------------------------------

    def my_turn(self, table: int) -> Message | None:
        """The current view if this player must act at ``table`` now."""
        follow = self.follows.get(table)
        if follow is None or follow.syncing or follow.view is None:
            return None
        view = follow.view
        body = view.get("view") or {}
        if body.get("over") or not body.get("legal"):
            return None
        if body.get("to_act") != follow.seat:
            return None
        return view

    async def act(self, table: int, action: Any, view: Message) -> Message:
        """``game.action`` for the position of ``view``; records the ``ok``."""
        follow = self.follows[table]
        at = view["log_length"]
        seat = follow.seat
        reply = await self.request("game.action", table=table, action=action, seq=at)
        if reply["type"] == "ok":
            self.acks.append(
                Ack(
                    "action",
                    self.name,
                    self.user,
                    table,
                    view.get("game_id"),
                    at,
                    seat,
                    action,
                    int(reply["log_length"]),
                )
            )
        elif reply.get("code") in {"illegal_action", "forbidden", "invalid"}:
            self.violations.append(
                f"{self.name}: a legal action at table {table} (log {at}) was refused: {reply}"
            )
        return reply

    async def say(self, table: int, text: str | None = None) -> Message:
        """``chat.say`` of a line no one else says; records the ``ok``."""
        line = text or f"{self.name} line {next(self._chat)} {random.getrandbits(32):08x}"
        reply = await self.request("chat.say", table=table, text=line)
        if reply["type"] == "ok":
            self.acks.append(
                Ack("chat", self.name, self.user, table, None, None, None, line, int(reply["seq"]))
            )
        return reply

    def _news(self) -> None:
        self.news_count += 1
        self.news.set()

    async def wait_news(self, timeout: float) -> None:
        """Until something arrives (or the socket closes), at most ``timeout`` seconds."""
        self.news.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.news.wait(), timeout)


async def news_since(players: Sequence[Player], counts: Sequence[int], timeout: float) -> None:
    """Until one of ``players`` has had news since its ``news_count`` was the one in
    ``counts`` (read before looking at what they know), at most ``timeout`` seconds.

    Unlike a :meth:`Player.wait_news` of each, news that came after that look and before
    the wait is not missed (which cost a whole ``timeout`` per miss), and the first news of
    any of them ends the wait.
    """
    deadline = time.monotonic() + timeout
    while not any(p.news_count > c for p, c in zip(players, counts, strict=True)):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        for player in players:  # no await since the counts were compared: nothing missed
            player.news.clear()
        waits = [asyncio.ensure_future(p.news.wait()) for p in players]
        try:
            await asyncio.wait(waits, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()


async def guest_session(url: str, name: str, lang: str = "en", tries: float = 30.0) -> Message:
    """``POST /api/guest`` (retried while nodes restart): ``{"token", "user"}``."""
    deadline = time.monotonic() + tries
    async with httpx.AsyncClient(timeout=15) as http:
        while True:
            try:
                response = await http.post(url + "api/guest", json={"name": name, "lang": lang})
                if response.status_code == 200:
                    session: Message = response.json()
                    return session
                problem = f"{response.status_code} {response.text[:200]}"
            except httpx.HTTPError as exc:
                problem = repr(exc)
            if time.monotonic() > deadline:
                raise AssertionError(f"no guest session for {name}: {problem}")
            await asyncio.sleep(0.3)
