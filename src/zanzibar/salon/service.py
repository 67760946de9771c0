"""The salon service: accounts, lobby, tables, bots, chat and history, without a transport.

The server hands every incoming message (a dict already checked against its
JSON schema) to :meth:`Salon.handle` with the :class:`Connection` it came from;
the salon answers through the connection's ``send``. Nothing here knows about
sockets or HTTP.

Rules the whole module keeps:

- one table's requests, bot moves and timers run one at a time under
  ``table.lock``, so a table's changes have a single order;
- every change is checked completely before anything is touched, and stored
  (committed) before it is acknowledged or broadcast; if storing fails the
  change is undone in memory too;
- a refused message changes nothing and gets an ``error`` reply.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import Text, cast, func, insert, select, update

from zanzibar.engine.errors import CorruptDataError, OptionError, ZanzibarError
from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.engine.rules import GameRules
from zanzibar.games import _GAMES as REGISTERED_GAMES
from zanzibar.games import get_rules
from zanzibar.salon import models as m
from zanzibar.salon.accounts import (
    AccountBook,
    Session,
    User,
    clean_lang,
    name_key,
)
from zanzibar.salon.bots import Thinker, bot_for
from zanzibar.salon.chat import RateLimiter, clean_text
from zanzibar.salon.connections import Connection, Send
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import (
    PROTOCOL,
    bool_field,
    error_reply,
    int_field,
    log_failure,
    request_id,
    seconds_value,
    since_field,
)
from zanzibar.salon.history import CHANNELS, History, Item
from zanzibar.salon.limits import Limits, RateGate, TokenBuckets, rates, take_tokens
from zanzibar.salon.messages import bot_name, your_turn_text
from zanzibar.salon.persistence import Op, Store
from zanzibar.salon.records import read_match_record, read_record
from zanzibar.salon.seats import Seat
from zanzibar.salon.snapshots import Snapshot
from zanzibar.salon.standing import Standing
from zanzibar.salon.stats import stats_from_rows
from zanzibar.salon.tables import GameInfo, Table, round_ended
from zanzibar.salon.text import is_well_formed, strip_invisible

log = logging.getLogger(__name__)

DEFAULT_DB = "sqlite+aiosqlite:///zanzibar.sqlite3"
CLOCK_MIN, CLOCK_MAX = 5, 3600
MAX_SEATS = 16

Handler = Callable[[Connection, dict[str, Any]], Awaitable[None]]


def well_formed(value: Any, depth: int = 0) -> bool:
    """True if every string in a decoded message (keys included) is valid Unicode.

    >>> well_formed({"text": "ok", "list": ["é"]}), well_formed({"text": chr(0xD800)})
    (True, False)
    """
    if isinstance(value, str):
        return is_well_formed(value)
    if depth > 64:
        return True
    if isinstance(value, dict):
        return all(
            well_formed(k, depth + 1) and well_formed(v, depth + 1) for k, v in value.items()
        )
    if isinstance(value, list):
        return all(well_formed(v, depth + 1) for v in value)
    return True


class Salon:
    """Everything a salon does, behind ``handle(conn, message)``.

    ``bot_delay``: seconds a bot waits before moving (so people can follow).
    ``round_pause``: seconds of pause between rounds (0: no pause unless held).
    ``takeover_delay``: seconds after a seated player's last connection drops
    before a bot takes over their seat mid-game.
    ``lobby_delay``: lobby updates are coalesced over this many seconds.
    ``idle_close``: a table where no game runs, nobody watches and no seated
    person has been connected for this many seconds is closed.
    ``durable``: SQLite ``synchronous=FULL`` (survives power loss, slower).
    ``bot_threads``: a bot level whose moves take on average more than
    :data:`zanzibar.salon.bots.INLINE_BOT_SECONDS` thinks in a worker thread (a
    chess bot must not stall other tables); quick dice bots play inline.
    ``clock_scale``: real seconds per turn-clock second
    (tests shrink it); ``seeds``: where each new game's dice seed comes from
    (a secure random number by default; tests pass a counter to replay the same games).
    ``rules_for``/``games``: where games come from (the registry by default;
    tests may pass their own).
    ``limits``: quotas and rates against abuse (:class:`zanzibar.salon.limits.Limits`).
    """

    def __init__(
        self,
        db_url: str = DEFAULT_DB,
        *,
        bot_delay: float = 0.5,
        round_pause: float = 5.0,
        takeover_delay: float = 15.0,
        lobby_delay: float = 1.0,
        idle_close: float = 3600.0,
        durable: bool = False,
        bot_threads: bool = True,
        clock_scale: float = 1.0,
        limits: Limits | None = None,
        seeds: Callable[[], int] | None = None,
        rules_for: Callable[[str], GameRules[Any, Any]] = get_rules,
        games: Callable[[], list[str]] = lambda: list(REGISTERED_GAMES),
    ) -> None:
        self.db_url = db_url
        self.bot_delay = bot_delay
        self.round_pause = round_pause
        self.takeover_delay = takeover_delay
        self.lobby_delay = lobby_delay
        self.bot_threads = bot_threads
        self.clock_scale = clock_scale
        self.idle_close = idle_close
        self._seeds = seeds or (lambda: secrets.randbits(63))
        self._rules_for = rules_for
        self._games = games
        self.store = Store(db_url, durable=durable)
        self.tables: dict[int, Table] = {}
        self.limits = limits or Limits()
        self.accounts = AccountBook(self.store, lambda: self._new_id("user"), self.limits)
        self.standing = Standing(self.store)  # ratings, leaderboards, profiles
        self._connections: dict[int, Connection] = {}
        self._user_conns: dict[int, set[Connection]] = {}
        #: Open sockets per client address (for the per-address socket quota).
        self._address_conns: dict[str, int] = {}
        #: Connection id -> its client address, and the hash of the token it said hello with.
        self._addresses: dict[int, str] = {}
        self._digests: dict[int, str] = {}
        #: The address each table was created from (in memory: quotas restart empty).
        self._table_address: dict[int, str] = {}
        self._chat_limit = RateLimiter()
        self.gate = RateGate()
        self._message_rate_user = TokenBuckets(self.limits.message_rate_user)
        self._message_rate_address = TokenBuckets(self.limits.message_rate_address)
        self._create_rate_user = rates(self.limits.table_create_rate_user)
        self._create_rate_address = rates(self.limits.table_create_rate_address)
        self._next_ids: dict[str, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timers: set[asyncio.Task[Any]] = set()
        self._lobby_task: asyncio.Task[None] | None = None
        #: The lobby page last sent to followers, per (language, page size).
        self._lobby_sent: dict[tuple[str, int], dict[str, Any]] = {}
        #: Page size each lobby follower asked for.
        self._lobby_limits: dict[int, int] = {}
        self._takeovers: dict[tuple[int, int], asyncio.Task[None]] = {}
        self.thinker = Thinker(bot_threads)
        self._started = False
        self._stopping = False
        self._handlers: dict[str, Handler] = {
            "hello": self._hello,
            "ping": self._ping,
            "lobby.subscribe": self._lobby_subscribe,
            "lobby.unsubscribe": self._lobby_unsubscribe,
            "lobby.list": self._lobby_list,
            "games.list": self._games_list,
            "table.create": self._table_create,
            "table.join": self._table_join,
            "table.watch": self._table_watch,
            "table.leave": self._table_leave,
            "table.options": self._table_options,
            "table.start": self._table_start,
            "table.add_bot": self._table_add_bot,
            "table.remove_bot": self._table_remove_bot,
            "table.kick": self._table_kick,
            "table.hand_host": self._table_hand_host,
            "table.hold": self._table_hold,
            "table.clock": self._table_clock,
            "game.action": self._game_action,
            "game.ask": self._game_ask,
            "chat.say": self._chat_say,
            "chat.me": self._chat_me,
            "chat.private": self._chat_private,
            "history": self._history,
        }

    # =============================================================================
    # life cycle
    # =============================================================================

    async def start(self) -> None:
        """Apply migrations, load users, restore every open table and game."""
        await self.store.start()
        await self._load_ids()
        await self.accounts.load()
        await self.standing.start()  # before the tables: their timers start with them
        await self._restore_tables()
        self._started = True
        self._spawn(self._janitor(), timer=True, name="salon-janitor")

    async def _janitor(self) -> None:
        """Close tables left idle: no game running, nobody watching, no seated person online."""
        idle_since: dict[int, float] = {}
        while True:
            await asyncio.sleep(min(60.0, max(self.idle_close / 4, 0.01)))
            now = time.monotonic()
            for table in list(self.tables.values()):
                busy = (
                    table.running
                    or table.spectators
                    or any(self._connected(u) for u in table.humans())
                )
                if busy:
                    idle_since.pop(table.id, None)
                    continue
                since = idle_since.setdefault(table.id, now)
                if now - since >= self.idle_close:
                    idle_since.pop(table.id, None)
                    await self._close_idle(table)

    async def _close_idle(self, table: Table) -> None:
        async with table.lock:
            if self.tables.get(table.id) is not table or table.running:
                return
            try:
                await self.store.write(self._close_ops(table))
            except Exception:
                log.exception("closing idle table %s failed", table.id)
                return
            self._close(table)

    async def stop(self) -> None:
        """Stop timers and bots, close connections, flush and close storage.

        Nothing needs saving here: everything was stored when it happened.
        """
        self._stopping = True
        await self._cancel_tasks()
        await self.standing.stop()
        for conn in list(self._connections.values()):
            conn.close()
        self._connections.clear()
        self.accounts.close()
        await self.store.stop()

    async def crash(self) -> None:
        """Test helper: stop like a killed process would, writing nothing more."""
        self._stopping = True
        await self._cancel_tasks()
        await self.standing.stop()
        for conn in list(self._connections.values()):
            conn.close()
        await self.store.abandon()

    async def _cancel_tasks(self) -> None:
        tasks = [*self._tasks, *self._timers]
        if self._lobby_task is not None:
            tasks.append(self._lobby_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def settle(self, timeout: float = 30.0) -> None:
        """Test helper: wait until bots, lobby updates and outgoing queues are idle.

        Timers (turn clock, round pauses, delayed takeovers) are not waited for.
        """
        deadline = time.monotonic() + timeout
        quiet_rounds = 0
        while quiet_rounds < 3:
            if time.monotonic() > deadline:
                raise TimeoutError("the salon did not settle")
            for _ in range(5):
                await asyncio.sleep(0)
            busy = [t for t in self._tasks if not t.done()]
            if self._lobby_task is not None and not self._lobby_task.done():
                busy.append(self._lobby_task)
            pending = [c for c in self._connections.values() if c.pending and not c.closed]
            if busy:
                await asyncio.wait(busy, timeout=max(0.0, deadline - time.monotonic()))
                quiet_rounds = 0
            elif pending:
                await asyncio.gather(*(c.drained() for c in pending))
                quiet_rounds = 0
            else:
                quiet_rounds += 1

    def _spawn(
        self, coro: Awaitable[Any], *, timer: bool = False, name: str = ""
    ) -> asyncio.Task[Any]:
        bucket = self._timers if timer else self._tasks
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        if name:
            task.set_name(name)
        bucket.add(task)
        task.add_done_callback(bucket.discard)
        task.add_done_callback(log_failure)
        return task

    def _new_id(self, kind: str) -> int:
        value = self._next_ids[kind]
        self._next_ids[kind] = value + 1
        return value

    async def _load_ids(self) -> None:
        for kind, column in (
            ("user", m.users.c.id),
            ("table", m.tables.c.id),
            ("game", m.games.c.id),
            ("private", m.private_messages.c.id),
        ):
            rows = await self.store.read(select(func.max(column)))
            self._next_ids[kind] = int(rows[0][0] or 0) + 1

    # =============================================================================
    # accounts (kept by :class:`AccountBook`)
    # =============================================================================

    async def guest(self, name: str, lang: str = "en", address: str | None = None) -> Session:
        """Sign in as a guest; a name already taken gets a number ("Anna 2")."""
        return await self.accounts.guest(name, lang, address)

    async def register(
        self, name: str, password: str, lang: str = "en", address: str | None = None
    ) -> Session:
        """Create an account with a password (argon2id); ``conflict`` if the name is taken."""
        return await self.accounts.register(name, password, lang, address)

    async def login(self, name: str, password: str, address: str | None = None) -> Session:
        """Sign in with a password; ``unauthenticated`` if the name or password is wrong."""
        return await self.accounts.login(name, password, address)

    async def resume(self, token: str) -> User | None:
        """The user of a live session token, or None (unknown, expired or revoked)."""
        return await self.accounts.resume(token)

    async def logout(self, token: str) -> None:
        """Sign out: revoke the token; the sockets that said hello with it are signed out too."""
        _user, digest = await self.accounts.revoke(token)
        self._drop_sessions(lambda conn: self._digests.get(conn.id) == digest, "you signed out")

    async def change_password(
        self, token: str, old: str, new: str, address: str | None = None
    ) -> User:
        """Set a new password; every other session of the account is revoked at once."""
        user, kept = await self.accounts.change_password(token, old, new, address)
        self._drop_sessions(
            lambda conn: conn.user_id == user.id and self._digests.get(conn.id) != kept,
            "the password was changed; sign in again",
        )
        return user

    def _drop_sessions(self, which: Callable[[Connection], bool], why: str) -> None:
        """Sign out the sockets ``which`` selects: they are told, and must say hello again."""
        for conn in list(self._connections.values()):
            if conn.user is None or not which(conn):
                continue
            conn.put(error_reply(None, SalonError("unauthenticated", why)))
            user = self._forget_user(conn)
            if user is not None and not self._connected(user.id):
                self._spawn(self._user_left(user), name=f"signed-out-{user.id}")

    def _name_of(self, user_id: int) -> str:
        user = self.accounts.users.get(user_id)
        return user.name if user else f"#{user_id}"

    def _connected(self, user_id: int) -> bool:
        return bool(self._user_conns.get(user_id))

    # =============================================================================
    # connections
    # =============================================================================

    async def connect(self, send: Send, address: str | None = None) -> Connection:
        """A new connection from ``address``; it must say ``hello`` before anything else.

        ``quota`` if the address already holds its share of sockets.
        """
        if not self.limits.exempt(address):
            assert address is not None
            held = self._address_conns.get(address, 0)
            if held >= self.limits.sockets_per_address:
                log.warning("socket refused: %s already holds %d sockets", address, held)
                raise SalonError(
                    "quota",
                    f"at most {self.limits.sockets_per_address} connections"
                    " from one address; close one first",
                )
            self._address_conns[address] = held + 1
        conn = Connection(send)
        self._connections[conn.id] = conn
        if address:
            self._addresses[conn.id] = address
        return conn

    async def disconnect(self, conn: Connection) -> None:
        """The connection closed: forget it; a seated player's seat may go to a bot."""
        if self._connections.pop(conn.id, None) is None:
            return  # unknown, or already disconnected
        conn.close()
        self._lobby_limits.pop(conn.id, None)
        address = self._addresses.pop(conn.id, None)
        if address is not None and address in self._address_conns:
            self._address_conns[address] -= 1
            if self._address_conns[address] <= 0:
                del self._address_conns[address]
        user = self._forget_user(conn)
        if user is None or self._connected(user.id):
            return
        await self._user_left(user)

    def _forget_user(self, conn: Connection) -> User | None:
        """Detach a connection from its user and tables (it stays open, signed out)."""
        self._digests.pop(conn.id, None)
        user = conn.user
        for table_id in list(conn.tables):
            table = self.tables.get(table_id)
            if table is not None:
                table.subscribers.pop(conn.id, None)
        conn.tables.clear()
        conn.lobby = False
        conn.user = None
        if user is None:
            return None
        conns = self._user_conns.get(user.id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._user_conns[user.id]
        return user

    async def _user_left(self, user: User) -> None:
        """The user's last connection closed (or was signed out)."""
        for table in list(self.tables.values()):
            try:
                await self._user_gone(table, user.id)
            except Exception:
                log.exception("while %s left table %s", user.name, table.id)

    async def _user_gone(self, table: Table, user_id: int) -> None:
        """The user's last connection closed."""
        seat = table.seat_of(user_id)
        if user_id in table.spectators:
            async with table.lock:
                if user_id in table.spectators and not self._connected(user_id):
                    snap = Snapshot.of(table)
                    table.spectators.discard(user_id)
                    table.stage_system("stopped_watching", name=self._name_of(user_id))
                    await self._store_then_publish(table, snap, [])
                    self._publish_table(table)
        elif seat is not None:
            self._publish_table(table)
            if table.running and not table.seats[seat].away:
                self._start_takeover_timer(table, user_id)

    def _start_takeover_timer(self, table: Table, user_id: int) -> None:
        key = (table.id, user_id)
        old = self._takeovers.get(key)
        if old is not None and not old.done():
            return
        task = self._spawn(
            self._takeover_after(table, user_id),
            timer=self.takeover_delay > 0,
            name=f"takeover-{table.id}-{user_id}",
        )
        self._takeovers[key] = task

    async def _takeover_after(self, table: Table, user_id: int) -> None:
        await asyncio.sleep(self.takeover_delay)
        self._takeovers.pop((table.id, user_id), None)
        if self._connected(user_id) or self.tables.get(table.id) is not table:
            return
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None or not table.running or table.seats[seat].away:
                return
            if self._connected(user_id):
                return
            snap = Snapshot.of(table)
            table.seats[seat].away = True
            table.stage_system("takeover", name=self._name_of(user_id))
            await self._store_then_publish(table, snap, [])
            self._publish_table(table)
            self._schedule(table)

    # =============================================================================
    # dispatch
    # =============================================================================

    async def handle(self, conn: Connection, message: dict[str, Any]) -> None:
        """Act on one message; every refusal becomes an ``error`` reply, never an exception."""
        reply_id = request_id(message)
        try:
            self._check_session(conn, message)
            self._count_message(conn)
            if not isinstance(message, dict):
                raise SalonError("invalid", "a message must be a JSON object")
            if not well_formed(message):
                raise SalonError(
                    "invalid", "the message holds text that is not valid Unicode (a lone surrogate)"
                )
            version = message.get("v", PROTOCOL)
            if version != PROTOCOL or isinstance(version, bool):
                raise SalonError("bad_version", f"this salon speaks protocol {PROTOCOL}")
            kind = message.get("type")
            if not isinstance(kind, str):
                raise SalonError("invalid", "a message needs a type")
            handler = self._handlers.get(kind)
            if handler is None:
                raise SalonError("unknown_type", f"unknown message type {kind[:40]!r}")
            if conn.user is None and kind != "hello":
                raise SalonError("unauthenticated", "say hello with your session token first")
            await handler(conn, message)
        except ZanzibarError as exc:
            conn.put(error_reply(reply_id, exc, conn.lang))
        except Exception:
            log.exception("failed to handle %r", message)
            conn.put(
                error_reply(
                    reply_id, SalonError("internal", "the salon failed; nothing was changed")
                )
            )

    def _check_session(self, conn: Connection, message: Any) -> None:
        """A signed-in socket whose session expired (or was revoked) is signed out first;
        anything but a new ``hello`` is then refused."""
        digest = self._digests.get(conn.id)
        if digest is None or self.accounts.touch(digest):
            return
        user = self._forget_user(conn)
        if user is not None and not self._connected(user.id):
            self._spawn(self._user_left(user), name=f"expired-{user.id}")
        if not (isinstance(message, dict) and message.get("type") == "hello"):
            raise SalonError("unauthenticated", "your session has expired; sign in again")

    def _count_message(self, conn: Connection) -> None:
        """Count one message against its account and address (``rate_limited`` beyond)."""
        checks = []
        if conn.user is not None:
            checks.append((self._message_rate_user, str(conn.user.id)))
        address = self._addresses.get(conn.id)
        if address is not None and not self.limits.exempt(address):
            checks.append((self._message_rate_address, address))
        take_tokens(checks, "messages")

    def _ok(self, conn: Connection, message: dict[str, Any], **fields: Any) -> None:
        reply: dict[str, Any] = {"v": PROTOCOL, "type": "ok"}
        reply_id = request_id(message)
        if reply_id is not None:
            reply["id"] = reply_id
        reply.update(fields)
        conn.put(reply)

    def _user(self, conn: Connection) -> User:
        if conn.user is None:
            raise SalonError("unauthenticated", "say hello with your session token first")
        return conn.user

    def _table(self, message: dict[str, Any]) -> Table:
        table_id = int_field(message, "table")
        table = self.tables.get(table_id) if table_id is not None else None
        if table is None:
            raise SalonError("not_found", f"there is no table {table_id}")
        return table

    # =============================================================================
    # hello, ping, lobby, games
    # =============================================================================

    async def _hello(self, conn: Connection, message: dict[str, Any]) -> None:
        lang = clean_lang(message.get("lang"), default="")
        found = await self.accounts.session(message.get("token"))
        user = self.accounts.users.get(found[1].user_id) if found is not None else None
        if found is None or user is None:
            raise SalonError(
                "unauthenticated", "unknown, expired or signed-out session; sign in again"
            )
        if conn.user is not None and conn.user.id != user.id:
            raise SalonError("conflict", "this connection already belongs to another user")
        first = conn.user is None
        if first and len(self._user_conns.get(user.id, ())) >= self.limits.sockets_per_user:
            log.warning(
                "hello refused: %s already holds %d sockets",
                user.name,
                self.limits.sockets_per_user,
            )
            raise SalonError(
                "quota",
                f"at most {self.limits.sockets_per_user} connections per account;"
                " close another tab or window first",
            )
        conn.user = user
        self._digests[conn.id] = found[0]
        conn.lang = lang or user.lang
        conns = self._user_conns.setdefault(user.id, set())
        was_connected = bool(conns)
        conns.add(conn)
        places: list[dict[str, Any]] = []
        for table in self.tables.values():
            seat = table.seat_of(user.id)
            if seat is not None or user.id in table.spectators:
                places.append({"table": table.id, "seat": seat, "game": table.rules.name})
        reply: dict[str, Any] = {
            "v": PROTOCOL,
            "type": "welcome",
            "user": user.to_json(),
            "protocol": PROTOCOL,
            "lang": conn.lang,
            "tables": places,
        }
        reply_id = request_id(message)
        if reply_id is not None:
            reply["id"] = reply_id
        conn.put(reply)
        if first and not was_connected:
            for place in places:
                table = self.tables[place["table"]]
                self._cancel_takeover(table.id, user.id)
                self._publish_table(table)

    def _cancel_takeover(self, table_id: int, user_id: int) -> None:
        task = self._takeovers.pop((table_id, user_id), None)
        if task is not None:
            task.cancel()

    async def _ping(self, conn: Connection, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"v": PROTOCOL, "type": "pong"}
        reply_id = request_id(message)
        if reply_id is not None:
            reply["id"] = reply_id
        conn.put(reply)

    def _page_limit(self, message: dict[str, Any], largest: int) -> int:
        """The ``limit`` of a paged request: 1 to ``largest`` (``largest`` when absent)."""
        limit = int_field(message, "limit", required=False)
        if limit is None:
            return largest
        if not 1 <= limit <= largest:
            raise SalonError("invalid", f"limit is a number from 1 to {largest}")
        return limit

    async def _lobby_subscribe(self, conn: Connection, message: dict[str, Any]) -> None:
        limit = self._page_limit(message, self.limits.lobby_page_max)
        conn.lobby = True
        self._lobby_limits[conn.id] = limit
        self._lobby_sent.pop((conn.lang, limit), None)  # the next update goes out even if unchanged
        self._ok(conn, message)
        conn.put({"v": PROTOCOL, "type": "lobby", **self.lobby_page(conn.lang, None, limit)})

    async def _lobby_unsubscribe(self, conn: Connection, message: dict[str, Any]) -> None:
        conn.lobby = False
        self._lobby_limits.pop(conn.id, None)
        self._ok(conn, message)

    async def _lobby_list(self, conn: Connection, message: dict[str, Any]) -> None:
        limit = self._page_limit(message, self.limits.lobby_page_max)
        cursor = int_field(message, "cursor", required=False)
        if cursor is not None and cursor < 0:
            raise SalonError("invalid", "cursor cannot be negative")
        self._ok(conn, message, **self.lobby_page(conn.lang, cursor, limit))

    def lobby_page(self, lang: str, cursor: int | None, limit: int | None) -> dict[str, Any]:
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
                self.standing.mark(self.tables[tid].summary(lang, self._connected, self._name_of))
                for tid in ids
            ],
            "next": ids[-1] if more and ids else None,
            "total": len(public),
        }

    async def _games_list(self, conn: Connection, message: dict[str, Any]) -> None:
        self._ok(conn, message, games=self.games_info(conn.lang))

    def games_info(self, lang: str = "en") -> list[dict[str, Any]]:
        """Every available game with its options, presets, seats and bot levels."""
        out = []
        for name in self._games():
            try:
                rules = self._rules_for(name)
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

    async def list_tables(self, lang: str = "en") -> list[dict[str, Any]]:
        """The first page of public tables (``GET /api/tables``; see :meth:`lobby_page`)."""
        tables: list[dict[str, Any]] = self.lobby_page(lang, None, None)["tables"]
        return tables

    def _lobby_changed(self) -> None:
        if self._stopping:
            return
        if self._lobby_task is None or self._lobby_task.done():
            self._lobby_task = asyncio.ensure_future(self._send_lobby())

    async def _send_lobby(self) -> None:
        """Send the table list to lobby followers, at most once per ``lobby_delay``.

        Skipped when the list a language sees did not change since it was last sent.
        """
        await asyncio.sleep(self.lobby_delay)
        by_view: dict[tuple[str, int], dict[str, Any] | None] = {}
        for conn in list(self._connections.values()):
            if conn.lobby and conn.user is not None:
                view = (conn.lang, self._lobby_limits.get(conn.id, self.limits.lobby_page_max))
                if view not in by_view:
                    page = self.lobby_page(view[0], None, view[1])
                    if page == self._lobby_sent.get(view):
                        by_view[view] = None
                    else:
                        by_view[view] = self._lobby_sent[view] = page
                page_now = by_view[view]
                if page_now is not None:
                    conn.put({"v": PROTOCOL, "type": "lobby", **page_now})

    # =============================================================================
    # broadcasting
    # =============================================================================

    def _publish(self, table: Table, items: Sequence[Item]) -> None:
        """Send new history items to every connection following the table."""
        if not items:
            return
        decoded = [(item, item.data) for item in items]
        for conn in list(table.subscribers.values()):
            uid = conn.user_id
            for item, data in decoded:
                conn.put(table.message(item, conn.lang, uid, data))

    def _publish_table(self, table: Table) -> None:
        """Send the table (seats, host, options, state) to its followers; update the lobby."""
        for conn in list(table.subscribers.values()):
            if conn.user is not None:
                conn.put(self._table_message(table, conn))
        self._lobby_changed()

    def _table_message(self, table: Table, conn: Connection) -> dict[str, Any]:
        return {
            "v": PROTOCOL,
            "type": "table",
            "table": self.standing.mark(
                table.to_json_for(self._user(conn).id, conn.lang, self._connected, self._name_of)
            ),
        }

    def _publish_views(self, table: Table, conns: Iterable[Connection] | None = None) -> None:
        """Send the game view; ``your_turn`` to whoever must act when the turn comes to them.

        Broadcast after a change, ``your_turn`` goes out only when the turn passed to
        another seat (not after each of a player's own decisions); sent to chosen
        connections (joining, coming back), it always goes out.
        """
        match = table.match
        if match is None:
            return
        targets = list(table.subscribers.values()) if conns is None else list(conns)
        views: dict[Any, dict[str, Any]] = {}
        to_act = match.to_act if table.state == "playing" else None
        if conns is None:
            turn = (table.game_id, to_act)
            if turn == table.announced:
                to_act = None
            else:
                table.announced = turn
        for conn in targets:
            uid = conn.user_id
            seat = table.seat_of(uid)
            key = (seat, conn.lang)
            view = views.get(key)
            if view is None:
                view = views[key] = self._view(table, match, seat, conn.lang, views)
            conn.put(
                {
                    "v": PROTOCOL,
                    "type": "game.view",
                    "table": table.id,
                    "seq": table.history.last_seq,
                    "game_id": table.game_id,
                    "view": view,
                    "log_length": len(match.log),
                }
            )
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

    @staticmethod
    def _view(
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

    def _send_history(
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
        limit = self.limits.history_page_max if limit is None else limit
        if latest and channel is None and table.history.last_seq - since > limit:
            since = table.history.last_seq - limit
        page: list[Item] = []
        more = False
        for item in table.history.since(since, channel):
            if len(page) == limit:
                more = True
                break
            page.append(item)
        items = [table.message(i, conn.lang, uid) for i in page]
        message: dict[str, Any] = {
            "v": PROTOCOL,
            "type": "history",
            "table": table.id,
            "since": since,
            "items": items,
            "last_seq": table.history.last_seq,
            "more": more,
            "next": page[-1].seq if more else None,
        }
        if channel is not None:
            message["channel"] = channel
        if reply_id is not None:
            message["id"] = reply_id
        conn.put(message)

    def _follow(self, conn: Connection, table: Table, since: int) -> None:
        """Send the table, the history since ``since`` and the view; then follow live items."""
        conn.put(self._table_message(table, conn))
        self._send_history(conn, table, since, latest=True)
        table.subscribers[conn.id] = conn
        conn.tables.add(table.id)
        self._publish_views(table, [conn])

    def _unfollow_user(self, table: Table, user_id: int) -> None:
        for conn in self._user_conns.get(user_id, ()):
            table.subscribers.pop(conn.id, None)
            conn.tables.discard(table.id)

    # =============================================================================
    # storing
    # =============================================================================

    async def _store_then_publish(self, table: Table, snap: Snapshot, ops: list[Op]) -> None:
        """Store the staged change, and only then send its history items to the followers.

        The order is the salon's promise: nothing is broadcast (or acknowledged
        after this returns) that a crash could still lose.
        """
        await self._commit(table, snap, ops)
        self._publish(table, table.commit_staged())

    async def _commit(self, table: Table, snap: Snapshot, ops: list[Op]) -> None:
        """Store the table row, its staged history items and ``ops`` in one transaction.

        On failure the table is put back as it was and ``internal`` is raised.
        """
        now = time.time()
        all_ops: list[Op] = list(ops)
        row = table.row()
        if row != table.stored_row:  # most moves change only the game, not the table
            all_ops.append((update(m.tables).where(m.tables.c.id == table.id), row))
        if table.staged:
            all_ops.append(
                (
                    insert(m.history),
                    [
                        {
                            "table_id": table.id,
                            "seq": item.seq,
                            "channel": item.channel,
                            "item": item.data,
                            "created": now,
                        }
                        for item in table.staged
                    ],
                )
            )
        try:
            await self.store.write(all_ops)
            table.stored_row = row
        except Exception:
            log.exception("storing a change of table %s failed; undone", table.id)
            snap.restore(table)
            raise SalonError(
                "internal", "the change could not be stored; nothing was changed"
            ) from None

    # =============================================================================
    # tables
    # =============================================================================

    def _require_host(self, table: Table, user: User) -> None:
        if table.host != user.id:
            raise SalonError("forbidden", "only the host may do that")

    def _require_not_running(self, table: Table) -> None:
        if table.running:
            raise SalonError("conflict", "not while a game is running")

    def _require_access(self, table: Table, user: User, message: dict[str, Any]) -> None:
        if user.id in table.banned:
            raise SalonError("forbidden", "the host sent you away from this table")
        if table.private and not table.is_member(user.id) and table.host != user.id:
            invite = message.get("invite")
            if not isinstance(invite, str) or not secrets.compare_digest(
                invite, table.invite or ""
            ):
                raise SalonError("forbidden", "this table is private: an invitation code is needed")

    def _resolve_options(
        self, rules: GameRules[Any, Any], preset: Any, overrides: Any, base: dict[str, Any] | None
    ) -> tuple[str | None, dict[str, Any]]:
        if preset is not None and not isinstance(preset, str):
            raise OptionError("the preset must be a name", option="preset")
        if overrides is None:
            overrides = {}
        if not isinstance(overrides, dict):
            raise OptionError("options must be an object of name: value", option="options")
        for key in overrides:
            if not isinstance(key, str):
                raise OptionError("option names are text", option=str(key))
        if preset is not None or base is None:
            values = rules.options.resolve(preset, overrides)
        else:
            merged = dict(base)
            for name, raw in overrides.items():
                merged[name] = rules.options.spec(name).coerce(raw)
            values = rules.options.validate(merged)
        return rules.options.matching_preset(values), values

    def _check_capacity(
        self, rules: GameRules[Any, Any], options: dict[str, Any], seats: int
    ) -> None:
        low, high = rules.seat_range(options)
        if not low <= seats <= min(high, MAX_SEATS):
            raise SalonError(
                "invalid", f"{rules.name} is played by {low} to {high} players, not {seats}"
            )

    async def _table_create(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        game = message.get("game")
        if not isinstance(game, str):
            raise SalonError("invalid", "say which game the table is for")
        try:
            rules = self._rules_for(game)
        except ZanzibarError as exc:
            raise SalonError("not_found", exc.message) from None
        preset, options = self._resolve_options(
            rules, message.get("preset"), message.get("options"), None
        )
        low, high = rules.seat_range(options)
        seats = int_field(message, "seats", required=False)
        if seats is None:
            seats = min(high, max(low, 4), MAX_SEATS)
        self._check_capacity(rules, options, seats)
        private = bool_field(message, "private", default=False)
        address = self._addresses.get(conn.id)
        self._check_table_quota(user, address)
        table_id = self._new_id("table")
        rated_ops = self.standing.on_create(table_id, user.guest, message)
        now = time.time()
        table = Table(
            id=table_id,
            rules=rules,
            preset=preset,
            options=options,
            capacity=seats,
            seats=[Seat() for _ in range(seats)],
            private=private,
            invite=secrets.token_urlsafe(6) if private else None,
            host=user.id,
            created=now,
        )
        table.seats[0] = Seat(user.id, user.name)
        table.stage_system("joined", name=user.name, seat=1)
        row = table.row()
        row.update({"id": table_id, "created": now, "closed": None})
        try:
            await self._commit(table, Snapshot.of(table), [(insert(m.tables), row), *rated_ops])
        except SalonError:
            self._next_ids["table"] = max(self._next_ids["table"], table_id + 1)
            raise
        table.commit_staged()
        self.tables[table_id] = table
        if address is not None:
            self._table_address[table_id] = address
        self._ok(
            conn,
            message,
            table=self.standing.mark(
                table.to_json_for(user.id, conn.lang, self._connected, self._name_of)
            ),
        )
        self._follow(conn, table, 0)
        self._lobby_changed()

    def _check_table_quota(self, user: User, address: str | None) -> None:
        """``quota`` if the account or address hosts its share of open tables;
        ``rate_limited`` (and nothing counted) if it created too many lately."""
        hosted = sum(1 for table in self.tables.values() if table.host == user.id)
        if hosted >= self.limits.tables_per_user:
            raise SalonError(
                "quota",
                f"you already host {hosted} tables, the most allowed;"
                " leave one before opening another",
            )
        checks = [(self._create_rate_user, f"user:{user.id}")]
        if not self.limits.exempt(address):
            held = sum(
                1
                for tid, where in self._table_address.items()
                if where == address and tid in self.tables
            )
            if held >= self.limits.tables_per_address:
                log.warning("table refused: %s already hosts %d tables", address, held)
                raise SalonError(
                    "quota",
                    f"{held} tables are already open from your address, the most allowed;"
                    " close one before opening another",
                )
            checks.append((self._create_rate_address, f"address:{address}"))
        self.gate.take(checks, "new tables")

    async def _table_join(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        wanted = int_field(message, "seat", required=False)
        since = since_field(message)
        async with table.lock:
            self._require_access(table, user, message)
            snap = Snapshot.of(table)
            seat = table.seat_of(user.id)
            if seat is not None:
                holder = table.seats[seat]
                if holder.away or holder.left:
                    holder.away = holder.left = False
                    if table.clock_seat == seat:
                        table.clock_seat = None
                    table.stage_system("returned", name=user.name)
            else:
                if table.running:
                    raise SalonError(
                        "conflict", "the game has started: watch it, or wait for the next one"
                    )
                self.standing.check_seat(table.id, user.guest)
                if wanted is not None:
                    if not 0 <= wanted < len(table.seats):
                        raise SalonError("invalid", f"there is no seat {wanted}")
                    if not table.seats[wanted].empty:
                        raise SalonError("conflict", f"seat {wanted} is taken")
                    seat = wanted
                else:
                    free = [i for i, s in enumerate(table.seats) if s.empty]
                    if not free:
                        raise SalonError("conflict", "the table is full")
                    seat = free[0]
                table.seats[seat] = Seat(user.id, user.name)
                table.spectators.discard(user.id)
                table.stage_system("joined", name=user.name, seat=seat + 1)
                if table.host is None:
                    table.host = user.id
                    table.stage_system("host", name=user.name)
            self._cancel_takeover(table.id, user.id)
            changed = bool(table.staged)
            if changed:
                await self._store_then_publish(table, snap, [])
            self._ok(conn, message, table=table.id, seat=seat)
            self._follow(conn, table, since)
            if changed:
                self._publish_table(table)
                self._publish_views(table)
                self._schedule(table)

    async def _table_watch(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        since = since_field(message)
        async with table.lock:
            self._require_access(table, user, message)
            snap = Snapshot.of(table)
            newly = table.seat_of(user.id) is None and user.id not in table.spectators
            if newly:
                table.spectators.add(user.id)
                table.stage_system("watching", name=user.name)
                await self._store_then_publish(table, snap, [])
            self._ok(conn, message, table=table.id, seat=table.seat_of(user.id))
            self._follow(conn, table, since)
            if newly:
                self._publish_table(table)

    async def _table_leave(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        async with table.lock:
            seat = table.seat_of(user.id)
            if seat is None and user.id not in table.spectators:
                raise SalonError("forbidden", "you are not at this table")
            snap = Snapshot.of(table)
            if seat is None:
                table.spectators.discard(user.id)
                table.stage_system("stopped_watching", name=user.name)
            else:
                self._vacate(table, seat, "left")
            closing = self._should_close(table)
            await self._store_then_publish(table, snap, self._close_ops(table) if closing else [])
            self._unfollow_user(table, user.id)
            self._ok(conn, message, table=table.id)
            if closing:
                self._close(table)
            else:
                self._publish_table(table)
                self._schedule(table)

    def _vacate(self, table: Table, seat: int, why: str) -> None:
        """A person leaves ``seat`` (left, or kicked): a bot takes it over mid-game."""
        holder = table.seats[seat]
        user_id = holder.user
        name = holder.name or "?"
        table.stage_system(why, name=name)
        if table.running:
            if not holder.left:
                holder.away = holder.left = True
                table.stage_system("takeover", name=name)
        else:
            holder.clear()
        if user_id is not None and table.host == user_id:
            self._next_host(table, exclude=user_id)

    def _next_host(self, table: Table, exclude: int) -> None:
        candidates: list[int | None] = [
            s.user for s in table.seats if s.user is not None and s.user != exclude and not s.left
        ]
        connected = [u for u in candidates if u is not None and self._connected(u)]
        chosen = (connected or candidates or [None])[0]
        table.host = chosen
        if chosen is not None:
            table.stage_system("host", name=self._name_of(chosen))

    def _should_close(self, table: Table) -> bool:
        return not table.present_humans() and not table.spectators

    def _close_ops(self, table: Table) -> list[Op]:
        now = time.time()
        ops: list[Op] = []
        if table.running and table.game_id is not None:
            ops.append(
                (
                    update(m.games).where(m.games.c.id == table.game_id),
                    {"status": "abandoned", "finished": now},
                )
            )
        ops.append((update(m.tables).where(m.tables.c.id == table.id), {"closed": now}))
        return ops

    def _close(self, table: Table) -> None:
        """Forget a closed table (it was stored as closed)."""
        self.tables.pop(table.id, None)
        self._table_address.pop(table.id, None)
        for task in (table.bot_task, table.clock_task, table.pause_task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        for conn in list(table.subscribers.values()):
            conn.tables.discard(table.id)
        table.subscribers.clear()
        self._lobby_changed()

    async def _table_options(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        async with table.lock:
            self._require_host(table, user)
            self._require_not_running(table)
            preset, options = self._resolve_options(
                table.rules, message.get("preset"), message.get("options"), table.options
            )
            seats = int_field(message, "seats", required=False)
            capacity = table.capacity if seats is None else seats
            self._check_capacity(table.rules, options, capacity)
            occupied = [i for i, s in enumerate(table.seats) if not s.empty]
            if occupied and occupied[-1] >= capacity:
                raise SalonError("conflict", "people or bots sit in the seats to remove")
            snap = Snapshot.of(table)
            changes = [f"{k}={v}" for k, v in options.items() if table.options.get(k) != v]
            table.preset, table.options = preset, options
            table.seats = table.seats[:capacity] + [
                Seat() for _ in range(capacity - len(table.seats))
            ]
            table.capacity = capacity
            table.stage_system("options_changed", options=changes or [preset or "-"])
            await self._store_then_publish(table, snap, [])
            self._ok(conn, message, table=table.id)
            self._publish_table(table)

    async def _table_add_bot(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        async with table.lock:
            self._require_host(table, user)
            self._require_not_running(table)
            levels = list(table.rules.bot_levels())
            level = message.get("level", levels[0] if levels else None)
            if level is None:
                level = levels[0] if levels else None
            if not isinstance(level, str) or level not in levels:
                raise SalonError("invalid", f"bot levels: {', '.join(levels)}")
            wanted = int_field(message, "seat", required=False)
            free = [i for i, s in enumerate(table.seats) if s.empty]
            if wanted is None:
                if not free:
                    raise SalonError("conflict", "the table is full")
                seat = free[0]
            else:
                if not 0 <= wanted < len(table.seats):
                    raise SalonError("invalid", f"there is no seat {wanted}")
                if wanted not in free:
                    raise SalonError("conflict", f"seat {wanted} is taken")
                seat = wanted
            snap = Snapshot.of(table)
            name = bot_name(seat, level)
            table.seats[seat] = Seat(None, name, level)
            table.stage_system("bot_added", name=name, seat=seat + 1)
            await self._store_then_publish(table, snap, [])
            self._ok(conn, message, table=table.id, seat=seat)
            self._publish_table(table)

    async def _table_remove_bot(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        seat = int_field(message, "seat")
        async with table.lock:
            self._require_host(table, user)
            self._require_not_running(table)
            assert seat is not None
            if not 0 <= seat < len(table.seats) or table.seats[seat].bot is None:
                raise SalonError("invalid", f"no bot sits at seat {seat}")
            snap = Snapshot.of(table)
            name = table.seats[seat].name or "?"
            table.seats[seat].clear()
            table.stage_system("bot_removed", name=name, seat=seat + 1)
            await self._store_then_publish(table, snap, [])
            self._ok(conn, message, table=table.id)
            self._publish_table(table)

    async def _table_kick(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        target = int_field(message, "user")
        async with table.lock:
            self._require_host(table, user)
            assert target is not None
            if target == user.id:
                raise SalonError("invalid", "you cannot send yourself away")
            seat = table.seat_of(target)
            if seat is None and target not in table.spectators:
                raise SalonError("not_found", "that user is not at this table")
            snap = Snapshot.of(table)
            table.banned.add(target)
            if seat is None:
                table.spectators.discard(target)
                table.stage_system("kicked", name=self._name_of(target))
            else:
                self.standing.kicked(table.game_id if table.running else None, seat)
                self._vacate(table, seat, "kicked")
            closing = self._should_close(table)
            await self._store_then_publish(table, snap, self._close_ops(table) if closing else [])
            self._unfollow_user(table, target)
            self._ok(conn, message, table=table.id)
            if closing:
                self._close(table)
            else:
                self._publish_table(table)
                self._schedule(table)

    async def _table_hand_host(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        target = int_field(message, "user")
        async with table.lock:
            self._require_host(table, user)
            seat = table.seat_of(target)
            if seat is None or table.seats[seat].left or target == user.id:
                raise SalonError("invalid", "the new host must be another player seated here")
            snap = Snapshot.of(table)
            table.host = target
            table.stage_system("host", name=self._name_of(target))  # type: ignore[arg-type]
            await self._store_then_publish(table, snap, [])
            self._ok(conn, message, table=table.id)
            self._publish_table(table)

    async def _table_hold(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        hold = bool_field(message, "hold")
        async with table.lock:
            self._require_host(table, user)
            snap = Snapshot.of(table)
            resume = table.state == "paused" and not hold
            if hold != table.hold:
                table.hold = hold
                table.stage_system("held" if hold else "released")
            if resume:
                table.state = "playing"
                table.stage_system("round_resume")
            if table.staged:
                await self._store_then_publish(table, snap, [])
            self._ok(conn, message, table=table.id)
            if hold and table.pause_task is not None:
                table.pause_task.cancel()
                table.pause_task = None
            if resume:
                table.announced = None
                self._publish_views(table)
            self._publish_table(table)
            self._schedule(table)

    async def _table_clock(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        seconds = int_field(message, "seconds", required=False)
        async with table.lock:
            self._require_host(table, user)
            if seconds is not None and not CLOCK_MIN <= seconds <= CLOCK_MAX:
                raise SalonError("invalid", f"a turn clock runs {CLOCK_MIN} to {CLOCK_MAX} seconds")
            snap = Snapshot.of(table)
            table.clock = seconds
            if seconds:
                table.stage_system("clock_set", seconds=seconds)
            else:
                table.stage_system("clock_off")
            await self._store_then_publish(table, snap, [])
            self._ok(conn, message, table=table.id)
            if table.clock_task is not None:
                table.clock_task.cancel()
                table.clock_task = None
            self._publish_table(table)
            self._schedule(table)

    # =============================================================================
    # games
    # =============================================================================

    async def _table_start(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        async with table.lock:
            self._require_host(table, user)
            self._require_not_running(table)
            players = [s for s in table.seats if not s.empty]
            low, high = table.rules.seat_range(table.options)
            if not low <= len(players) <= high:
                raise SalonError(
                    "conflict",
                    f"{table.rules.name} needs {low} to {high} players; {len(players)} are seated",
                )
            snap = Snapshot.of(table)
            game_id = self._new_id("game")
            seed = self._seeds()
            try:
                match = Match(table.rules, len(players), table.options, seed)
            except ZanzibarError as exc:
                raise SalonError("conflict", exc.message) from None
            table.seats = [Seat(s.user, s.name, s.bot) for s in players]
            table.match = match
            table.game_id = game_id
            table.state = "playing"
            table.clock_seat = None
            table.bots.clear()
            info = GameInfo(
                game_id, tuple(s.name or "" for s in players), tuple(s.user for s in players)
            )
            table.games[game_id] = info
            table.stage_system(
                "game_started", game=table.rules.name, players=[s.name or "" for s in players]
            )
            ops: list[Op] = [
                (
                    insert(m.games),
                    {
                        "id": game_id,
                        "table_id": table.id,
                        "game": table.rules.name,
                        "options": dict(table.options),
                        "seats": len(players),
                        "seed": seed,
                        "outcome": None,
                        "status": "running",
                        "started": time.time(),
                        "finished": None,
                    },
                ),
                (
                    insert(m.game_players),
                    [
                        {
                            "game_id": game_id,
                            "seat": i,
                            "user_id": s.user,
                            "name": s.name or "",
                            "bot": s.bot,
                            "result": None,
                        }
                        for i, s in enumerate(players)
                    ],
                ),
            ]
            try:
                ops += self._after_moves(table, 0, 0)
                await self._commit(table, snap, ops)
            except SalonError:
                table.games.pop(game_id, None)
                raise
            self._publish(table, table.commit_staged())
            self._ok(conn, message, table=table.id, game_id=game_id)
            self._publish_table(table)
            self._publish_views(table)
            self._schedule(table)

    def _after_moves(self, table: Table, log_start: int, events_start: int) -> list[Op]:
        """Stage what moves caused (events, end of round or game); return the storage ops."""
        match = table.match
        assert match is not None and table.game_id is not None
        game_id = table.game_id
        ops: list[Op] = []
        entries = match.log[log_start:]
        if entries:
            ops.append(
                (
                    insert(m.game_log),
                    [
                        {"game_id": game_id, "idx": log_start + i, "entry": entry.to_json()}
                        for i, entry in enumerate(entries)
                    ],
                )
            )
        new_events = match.events[events_start:]
        for index, event in new_events:
            table.stage("game", {"game_id": game_id, "log": index, "event": event.to_json()})
        if table.clock_seat is not None and match.to_act != table.clock_seat:
            table.clock_seat = None
        if match.is_over:
            ops += self._finish(table)
        elif round_ended(table.rules, [e for _, e in new_events]) and (
            self.round_pause > 0 or table.hold
        ):
            table.state = "paused"
            if table.hold:
                table.stage_system("round_hold")
            else:
                table.stage_system("round_pause", seconds=seconds_value(self.round_pause))
        return ops

    def _finish(self, table: Table) -> list[Op]:
        match = table.match
        assert match is not None and table.game_id is not None
        outcome = table.rules.outcome(match.state)
        names = [s.name or "" for s in table.seats]
        if outcome.draw:
            table.stage_system("game_draw")
        else:
            table.stage_system(
                "game_over", winners=[names[w] for w in outcome.winners if w < len(names)]
            )
        ops: list[Op] = [
            (
                update(m.games).where(m.games.c.id == table.game_id),
                {"outcome": outcome.to_json(), "status": "finished", "finished": time.time()},
            )
        ]
        ops += self.standing.finish_ops_of(table, outcome)  # the finishing order
        for seat in range(len(table.seats)):
            result = (
                "draw"
                if outcome.draw
                else "won"
                if seat in outcome.winners
                else "lost"
                if seat in outcome.losers
                else "none"
            )
            ops.append(
                (
                    update(m.game_players).where(
                        (m.game_players.c.game_id == table.game_id)
                        & (m.game_players.c.seat == seat)
                    ),
                    {"result": result},
                )
            )
        table.state = "finished"
        table.clock_seat = None
        kept: list[Seat] = []
        for seat_obj in table.seats:
            if seat_obj.left:
                kept.append(Seat())
            else:
                kept.append(Seat(seat_obj.user, seat_obj.name, seat_obj.bot))
        kept += [Seat() for _ in range(table.capacity - len(kept))]
        table.seats = kept
        return ops

    async def _game_action(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        if "action" not in message:
            raise SalonError("invalid", "game.action needs an action")
        seq = int_field(message, "seq", required=False)
        claimed = int_field(message, "seat", required=False)
        async with table.lock:
            seat = table.seat_of(user.id)
            if seat is None:
                raise SalonError("forbidden", "you do not sit at this table")
            if claimed is not None and claimed != seat:
                raise SalonError("forbidden", "you may only act for your own seat")
            match = table.match
            if match is None or table.state in ("waiting", "finished"):
                raise SalonError("conflict", "no game is running at this table")
            if table.state == "paused":
                raise SalonError("conflict", "the game is paused between rounds")
            if table.seats[seat].left:
                raise SalonError("forbidden", "you left this game; join the table again to play")
            if seq is not None and seq != len(match.log):
                raise SalonError(
                    "stale", f"the game has moved on: {len(match.log)} log entries, not {seq}"
                )
            if match.to_act != seat:
                raise SalonError("not_your_turn", "it is not your turn")
            try:
                action = table.rules.action_from_json(message["action"])
            except ZanzibarError:
                raise
            except Exception:
                raise SalonError("illegal_action", "that is not an action of this game") from None
            await self._apply(table, seat, action)
            self._ok(conn, message, table=table.id, log_length=len(match.log))

    async def _apply(self, table: Table, seat: int, action: Any) -> None:
        """Play one action for ``seat`` (lock held): store, then send, then schedule."""
        match = table.match
        assert match is not None
        snap = Snapshot.of(table)
        log_start, events_start = len(match.log), len(match.events)
        was_state = table.state
        try:
            match.act(seat, action)
            ops = self._after_moves(table, log_start, events_start)
        except ZanzibarError:
            snap.restore(table)
            raise
        except Exception:
            snap.restore(table)
            log.exception("game %s failed on an action", table.rules.name)
            raise SalonError("illegal_action", "that action could not be applied") from None
        await self._store_then_publish(table, snap, ops)
        if table.state == "finished" and was_state != "finished":
            self.standing.kick()  # rate the game just stored
        self._publish_views(table)
        if table.state != was_state:
            self._publish_table(table)
            if table.state == "finished" and self._should_close(table):
                await self.store.write(self._close_ops(table))
                self._close(table)
                return
        self._schedule(table)

    # -- bots, clock, pauses --------------------------------------------------------

    def _schedule(self, table: Table) -> None:
        """Start whatever must happen next on its own: a bot move, the clock, the pause's end."""
        if self._stopping or self.tables.get(table.id) is not table:
            return
        current = asyncio.current_task()
        if table.state == "paused":
            if not table.hold and (table.pause_task is None or table.pause_task.done()):
                table.pause_task = self._spawn(
                    self._resume_after(table), timer=True, name=f"pause-{table.id}"
                )
            return
        match = table.match
        if table.state != "playing" or match is None or match.is_over:
            return
        seat = match.to_act
        if seat is None:
            return
        log_length = len(match.log)
        if table.bot_level(seat) is not None:
            if table.clock_task is not None and table.clock_task is not current:
                table.clock_task.cancel()
                table.clock_task = None
            if table.bot_task is None or table.bot_task.done():
                table.bot_task = self._spawn(
                    self._bot_move(table, seat, log_length), name=f"bot-{table.id}"
                )
            return
        if table.clock:
            if table.clock_task is not None and table.clock_task is not current:
                table.clock_task.cancel()
            table.clock_task = self._spawn(
                self._clock_expire(table, seat, log_length, table.clock * self.clock_scale),
                timer=True,
                name=f"clock-{table.id}",
            )

    async def _bot_move(self, table: Table, seat: int, log_length: int) -> None:
        if self.bot_delay > 0:
            await asyncio.sleep(self.bot_delay)
        match = table.match
        level = table.bot_level(seat)
        if match is None or level is None or len(match.log) != log_length:
            table.bot_task = None
            self._schedule(table)
            return
        bot = bot_for(table, seat, level)
        state = match.state
        try:
            action = await self.thinker.choose(table.rules.name, level, bot, state)
        except Exception:
            log.exception(
                "the %s bot of %s failed; playing its first legal action", level, table.rules.name
            )
            legal = table.rules.legal_actions(state)
            if not legal:
                table.bot_task = None
                return
            action = legal[0]
        async with table.lock:
            table.bot_task = None
            if (
                self.tables.get(table.id) is not table
                or table.match is not match
                or table.state != "playing"
                or len(match.log) != log_length
                or match.to_act != seat
                or table.bot_level(seat) is None
            ):
                self._schedule(table)
                return
            try:
                await self._apply(table, seat, action)
            except ZanzibarError as exc:
                log.error("bot move refused at table %s: %s", table.id, exc.message)
                legal = table.rules.legal_actions(match.state)
                if legal and legal[0] != action:
                    await self._apply(table, seat, legal[0])

    async def _clock_expire(self, table: Table, seat: int, log_length: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with table.lock:
            match = table.match
            if (
                table.clock_task is not asyncio.current_task()
                or match is None
                or table.state != "playing"
                or len(match.log) != log_length
                or match.to_act != seat
            ):
                return
            table.clock_task = None
            snap = Snapshot.of(table)
            table.clock_seat = seat
            table.stage_system("clock_timeout", name=table.seats[seat].name or "?")
            await self._store_then_publish(table, snap, [])
            self._schedule(table)

    async def _resume_after(self, table: Table) -> None:
        await asyncio.sleep(self.round_pause)
        async with table.lock:
            if table.pause_task is asyncio.current_task():
                table.pause_task = None
            if table.state != "paused" or table.hold:
                return
            snap = Snapshot.of(table)
            table.state = "playing"
            table.stage_system("round_resume")
            await self._store_then_publish(table, snap, [])
            table.announced = None
            self._publish_views(table)
            self._publish_table(table)
            self._schedule(table)

    async def _game_ask(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        topic = message.get("topic")
        if not isinstance(topic, str) or not topic:
            raise SalonError("invalid", "say what to ask about")
        if not table.is_present(user.id):
            raise SalonError("forbidden", "join or watch the table first")
        if topic in ("rules", "help"):
            # The game's own texts in the asker's language (the web client's Ctrl+F1 and F1).
            text = (
                table.rules.rules_text(conn.lang, table.options)
                if topic == "rules"
                else table.rules.help_text(conn.lang)
            )
            self._ok(conn, message, table=table.id, topic=topic, text=text)
            return
        match = table.match
        if match is None:
            raise SalonError("conflict", "no game has been played at this table yet")
        seat = table.seat_of(user.id)
        try:
            text = table.rules.describe(match.state, topic, conn.lang, seat, table.current_names())
        except ZanzibarError as exc:
            raise SalonError("invalid", exc.message) from None
        except Exception:
            raise SalonError("invalid", f"no answer about {topic[:40]!r}") from None
        self._ok(conn, message, table=table.id, topic=topic, text=text)

    # =============================================================================
    # chat and history
    # =============================================================================

    async def _chat_say(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._chat_table(conn, message, force_me=False)

    async def _chat_me(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._chat_table(conn, message, force_me=True)

    async def _chat_table(self, conn: Connection, message: dict[str, Any], force_me: bool) -> None:
        user = self._user(conn)
        table = self._table(message)
        text, me = clean_text(message.get("text"))
        me = me or force_me
        async with table.lock:
            if not table.is_present(user.id):
                raise SalonError("forbidden", "join or watch the table to talk there")
            self._chat_limit.check(user.id)
            # counted before waiting for storage: lines sent at once on several
            # sockets (or to several tables) cannot all pass the check together
            self._chat_limit.record(user.id)
            snap = Snapshot.of(table)
            table.stage("chat", {"user": user.id, "from": user.name, "text": text, "me": me})
            try:
                await self._commit(table, snap, [])
            except SalonError:
                self._chat_limit.forget_last(user.id)
                raise
            item = table.commit_staged()
            self._ok(conn, message, table=table.id, seq=item[0].seq)
            self._publish(table, item)

    async def _chat_private(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        to = message.get("to")
        if not isinstance(to, str):
            raise SalonError("invalid", "say whom the message is for")
        text, me = clean_text(message.get("text"))
        target = self.accounts.find(to)
        if target is None:
            raise SalonError("not_found", f"nobody is called {strip_invisible(to)[:40]}")
        target_id = target.id
        self._chat_limit.check(user.id)
        self._chat_limit.record(user.id)  # before waiting: see _chat_table
        message_id = self._new_id("private")
        try:
            await self.store.write(
                [
                    (
                        insert(m.private_messages),
                        {
                            "id": message_id,
                            "sender_id": user.id,
                            "recipient_id": target_id,
                            "text": text,
                            "me": me,
                            "created": time.time(),
                        },
                    )
                ]
            )
        except Exception:
            self._chat_limit.forget_last(user.id)
            raise SalonError(
                "internal", "the message could not be stored; nothing was sent"
            ) from None
        target = self.accounts.users[target_id]
        self._ok(conn, message, delivered=self._connected(target_id))
        out = {
            "v": PROTOCOL,
            "type": "chat",
            "table": None,
            "seq": None,
            "channel": "chat",
            "from": user.name,
            "user": user.id,
            "text": text,
            "me": me,
            "private": True,
            "to": target.name,
        }
        receivers = self._user_conns.get(user.id, set()) | self._user_conns.get(target_id, set())
        for receiver in receivers:
            receiver.put(dict(out))

    async def _history(self, conn: Connection, message: dict[str, Any]) -> None:
        user = self._user(conn)
        table = self._table(message)
        since = since_field(message)
        channel = message.get("channel")
        if channel is not None and channel not in CHANNELS:
            raise SalonError("invalid", f"channel is one of {', '.join(CHANNELS)}")
        limit = self._page_limit(message, self.limits.history_page_max)
        if not table.is_present(user.id):
            raise SalonError("forbidden", "join or watch the table first")
        self._send_history(conn, table, since, channel, request_id(message), limit)

    # =============================================================================
    # read-only queries (HTTP API)
    # =============================================================================

    async def game_record(self, game_id: int, viewer: int | None = None) -> dict[str, Any] | None:
        """A game with its full log (finished or running), or None if unknown.

        A running game's seed is withheld (see :func:`read_record`). A game of a
        private table exists only for the people who played in it (``viewer``, a
        user id): anyone else gets None, as for a game that does not exist.
        """
        record = await read_record(self.store, game_id)
        if record is None:
            return None
        if record["private"] and viewer not in {p["user"] for p in record["players"]} - {None}:
            return None
        return record

    async def user_stats(self, name: str) -> dict[str, Any] | None:
        """Games played, won, lost (and drawn) per game, or None for an unknown user."""
        user_id = self.accounts.user_keys.get(name_key(" ".join(str(name).split())))
        if user_id is None:
            return None
        rows = await self.store.read(
            select(m.games.c.game, m.game_players.c.result)
            .join(m.games, m.games.c.id == m.game_players.c.game_id)
            .where((m.game_players.c.user_id == user_id) & (m.games.c.status == "finished"))
        )
        user = self.accounts.users[user_id]
        return {
            "user": user.name,
            "id": user.id,
            "games": stats_from_rows((r[0], r[1]) for r in rows),
        }

    # =============================================================================
    # restoring after a restart
    # =============================================================================

    async def _restore_tables(self) -> None:
        """Rebuild the open tables: one query per kind of row, linear in what is read.

        Read: the open tables' rows, their history, the players of the games
        played at them (to render those games' events) and the log of each
        running game. Finished games' logs, and everything of closed tables,
        stay in the database until asked for (``GET /api/games/{id}``).
        """
        rows = await self.store.read(select(m.tables).where(m.tables.c.closed.is_(None)))
        if not rows:
            return
        open_ids = [row.id for row in rows]
        items_by_table: dict[int, list[Item]] = {tid: [] for tid in open_ids}
        # the stored JSON text is kept as the item's text: decoding it here (and
        # encoding it again) was most of the cost of a restart
        raw = cast(m.history.c.item, Text).label("raw")
        for h in await self.store.read(
            select(m.history.c.table_id, m.history.c.seq, m.history.c.channel, raw)
            .where(m.history.c.table_id.in_(open_ids))
            .order_by(m.history.c.table_id, m.history.c.seq)
        ):
            items_by_table[h.table_id].append(Item(h.seq, h.channel, h.raw))
        players = await self._players_by_table(open_ids)
        for row in rows:
            try:
                table = await self._restore_table(
                    row, items_by_table[row.id], players.get(row.id, {})
                )
            except Exception:
                log.exception("table %s could not be restored; it stays closed in memory", row.id)
                continue
            self.tables[table.id] = table
        for table in self.tables.values():
            if table.running:
                for seat in table.seats:
                    if seat.user is not None and not seat.away:
                        self._start_takeover_timer(table, seat.user)
                self._schedule(table)

    async def _players_by_table(self, table_ids: list[int]) -> dict[int, dict[int, list[Any]]]:
        """The players of every game of these tables: table id -> game id -> rows by seat.

        One query joined on ``games.table_id``, in chunks so that no statement
        carries too many parameters; each row is read once.
        """
        out: dict[int, dict[int, list[Any]]] = {}
        for start in range(0, len(table_ids), 500):
            chunk = table_ids[start : start + 500]
            for p in await self.store.read(
                select(m.games.c.table_id, m.game_players)
                .join(m.games, m.games.c.id == m.game_players.c.game_id)
                .where(m.games.c.table_id.in_(chunk))
                .order_by(m.game_players.c.game_id, m.game_players.c.seat)
            ):
                out.setdefault(p.table_id, {}).setdefault(p.game_id, []).append(p)
        return out

    async def _restore_table(
        self, row: Any, items: list[Item], players: dict[int, list[Any]]
    ) -> Table:
        """One open table from its row, its history and the players of its games."""
        rules = self._rules_for(row.game)
        table = Table(
            id=row.id,
            rules=rules,
            preset=row.preset,
            options=rules.options.validate(dict(row.options)),
            capacity=row.capacity,
            seats=[Seat.from_json(s) for s in row.seats],
            private=bool(row.private),
            invite=row.invite,
            host=row.host_id,
            state=row.state,
            hold=bool(row.hold),
            clock=row.clock,
            game_id=row.game_id,
            banned=set(row.banned or []),
            created=row.created,
            history=History(items),
        )
        for game_id, plist in players.items():
            table.games[game_id] = GameInfo(
                game_id, tuple(p.name for p in plist), tuple(p.user_id for p in plist)
            )
        if row.game_id is not None:
            table.match = await self._load_match(rules, row.game_id)
        table.stored_row = table.row()
        return table

    async def _load_match(self, rules: GameRules[Any, Any], game_id: int) -> Match[Any, Any]:
        record = await read_match_record(self.store, game_id)
        if record is None:
            raise CorruptDataError(f"game {game_id} is missing")
        return Match.from_record(rules, record)

    # -- for tests and tools ------------------------------------------------------------

    def snapshot(self, table_id: int) -> dict[str, Any]:
        """Everything restorable about a table, as plain data (to compare after a restart)."""
        table = self.tables[table_id]
        match = table.match
        return {
            "row": table.row(),
            "history": [(i.seq, i.channel, i.data) for i in table.history.items],
            "record": match.record().to_json() if match is not None else None,
            "state": table.rules.state_to_json(match.state) if match is not None else None,
            "games": {gid: (info.names, info.users) for gid, info in table.games.items()},
        }

    def state_of_everything(self) -> dict[str, Any]:
        """Every table's snapshot with its spectators, and the users (for tests)."""
        return {
            "tables": {
                tid: {**self.snapshot(tid), "spectators": sorted(t.spectators)}
                for tid, t in self.tables.items()
            },
            "users": sorted(self.accounts.users),
        }


__all__ = ["Connection", "Event", "Salon", "Session", "User"]
