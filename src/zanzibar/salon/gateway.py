"""A node's sockets: sessions, presence, the message dispatch, and what is not a table's.

Every frame the transport receives comes to :meth:`Gateway.handle`: the
session and rate checks, then either an answer of its own (hello, ping,
lobby, games, private chat) or a table command handed to the table's actor
through the :class:`~zanzibar.salon.router.Router`. The gateway never changes
a table: it only reads them (hello's places, the history pages) and posts
to their actors (a user who came online or went offline).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import orjson

from zanzibar.engine.errors import ZanzibarError
from zanzibar.salon import members, play, seating
from zanzibar.salon.accounts import User
from zanzibar.salon.actor import TableActor
from zanzibar.salon.changes import Change, Command, TableContext
from zanzibar.salon.chat import clean_text
from zanzibar.salon.connections import Connection, Send
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import (
    PROTOCOL,
    error_reply,
    int_field,
    ok_reply,
    request_id,
)
from zanzibar.salon.friends import find_account
from zanzibar.salon.gateway_host import GatewayHost
from zanzibar.salon.limits import AddressSockets, take_tokens
from zanzibar.salon.mailbox import kept_sentence
from zanzibar.salon.names import clean_lang
from zanzibar.salon.remote import history_page
from zanzibar.salon.tables import Table
from zanzibar.salon.text import is_well_formed, strip_invisible

log = logging.getLogger(__name__)

Handler = Callable[[Connection, dict[str, Any]], Awaitable[None]]

#: The node message carrying a private line to the recipient's sockets on that node.
PRIVATE_LINE = "chat.private"

#: Table commands: the transition each one runs in the table's actor.
TABLE_COMMANDS = {**seating.TRANSITIONS, **play.TRANSITIONS}


def well_formed(value: Any) -> bool:
    """True if every string in a decoded message (keys included) is valid Unicode.

    orjson refuses to write a lone surrogate (nor anything else it cannot
    write): what it writes is well formed, found in one pass in C. Only what it
    refuses is walked in Python (:func:`_walk`), which has the last word.

    >>> well_formed({"text": "ok", "list": ["é"]}), well_formed({"text": chr(0xD800)})
    (True, False)
    >>> well_formed({"n": 10**30, "deep": [[chr(0xDC00)]]})
    False
    """
    try:
        orjson.dumps(value)
    except (orjson.JSONEncodeError, TypeError):
        return _walk(value)
    return True


def _walk(value: Any, depth: int = 0) -> bool:
    """:func:`well_formed`, string by string."""
    if isinstance(value, str):
        return is_well_formed(value)
    if depth > 64:
        return True
    if isinstance(value, dict):
        return all(_walk(k, depth + 1) and _walk(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return all(_walk(v, depth + 1) for v in value)
    return True


def _seen(user_id: int, online: bool) -> Callable[[Table, TableContext, Command], Change | None]:
    def transition(table: Table, ctx: TableContext, _cmd: Command) -> Change | None:
        return seating.seen(table, ctx, user_id, online)

    return transition


class Gateway:
    """The sockets of this node and who is behind each."""

    def __init__(self, salon: GatewayHost) -> None:
        self.salon = salon
        self.connections: dict[int, Connection] = {}
        self.user_conns: dict[int, set[Connection]] = {}
        #: Open sockets per client address (for the per-address socket quota).
        self._address_conns: dict[str, int] = {}
        #: Connection id -> its client address, and the hash of the token it said hello with.
        self.addresses: dict[int, str] = {}
        self.digests: dict[int, str] = {}
        #: Sockets per user this node told the presence port of (attach minus detach).
        self._counted: dict[int, int] = {}
        self._presence_lock = asyncio.Lock()
        self._handlers: dict[str, Handler] = {
            "hello": self._hello,
            "ping": self._ping,
            "lobby.subscribe": self._lobby_subscribe,
            "lobby.unsubscribe": self._lobby_unsubscribe,
            "lobby.list": self._lobby_list,
            "games.list": self._games_list,
            "table.create": self._table_create,
            "chat.private": self._chat_private,
            "history": self._history,
        }
        for kind in TABLE_COMMANDS:
            self._handlers[kind] = self._table_command

    def add_handlers(self, handlers: dict[str, Handler]) -> None:
        """More message types for signed-in sockets (e.g. ``friends.*``)."""
        self._handlers.update(handlers)

    # -- presence -----------------------------------------------------------------------

    def connected(self, user_id: int) -> bool:
        """The user has a signed-in socket on some node (the presence port's local view)."""
        return self.salon.ports.presence.online(user_id)

    def conns_of(self, user_id: int) -> set[Connection]:
        """The user's signed-in sockets on this node."""
        return self.user_conns.get(user_id, set())

    async def sync_presence(self) -> None:
        """Make the presence port count exactly the sockets this node told it of.

        Under the same lock as attach and detach, so that none of them is in flight
        (and could land after the sync, counting a socket twice or not at all).
        """
        async with self._presence_lock:
            await self.salon.ports.presence.sync(dict(self._counted))
        if self.address_sockets is not None:  # and the sockets per address, likewise
            await self.address_sockets.sync(dict(self._address_conns))

    async def went(self, user_id: int, online: bool) -> None:
        """The presence port says a user came online or went offline, whatever node he is on.

        Every node hears it: its followers of him are told (friends), the actors
        it runs of his tables are told (a dropped seat's takeover starts or stops;
        a spectator who left stops watching), and its lobby followers see the
        seat's ``connected`` flag change.
        """
        salon = self.salon
        if salon.friends.followers.get(user_id) and user_id not in salon.accounts.users:
            try:  # someone here follows him, and he signed up on another node
                await salon.accounts.user(user_id)
            except Exception as exc:
                log.warning("presence: user %s could not be read: %s", user_id, exc)
        salon.friends.presence_changed(user_id, online)
        router = salon.router
        for table_id in router.members.tables_of(user_id):  # his tables only, not every one
            actor = router.actors.get(table_id)
            if actor is not None and actor.table.is_member(user_id):
                actor.post(_seen(user_id, online))
        if salon.lobby.seated(user_id):
            salon.lobby.changed()

    async def _sockets_of(self, user_id: int) -> int:
        """The user's signed-in sockets on every node (this node's if presence cannot say)."""
        try:
            return sum((await self.salon.ports.presence.where(user_id)).values())
        except Exception as exc:
            log.warning("presence: sockets of user %s not counted: %s", user_id, exc)
            return len(self.user_conns.get(user_id, ()))

    async def _attach(self, user_id: int) -> None:
        async with self._presence_lock:
            self._counted[user_id] = self._counted.get(user_id, 0) + 1
            try:
                await self.salon.ports.presence.attach(user_id)
            except Exception as exc:  # the next sync counts it
                log.warning("presence: a socket of user %s was not counted: %s", user_id, exc)

    async def _detach(self, user_id: int) -> None:
        async with self._presence_lock:
            held = self._counted.get(user_id, 0)
            if held <= 0:
                return
            if held == 1:
                del self._counted[user_id]
            else:
                self._counted[user_id] = held - 1
            try:
                await self.salon.ports.presence.detach(user_id)
            except Exception as exc:  # the next sync takes it off
                log.warning("presence: a closed socket of %s was not counted: %s", user_id, exc)

    # -- sockets ------------------------------------------------------------------------

    async def connect(self, send: Send, address: str | None = None) -> Connection:
        """A new connection from ``address``; ``quota`` if the address holds its share."""
        limits = self.salon.limits
        if not limits.exempt(address):
            assert address is not None
            most, held = limits.sockets_per_address, self._address_conns.get(address, 0)
            refused = held >= most
            if not refused:
                self._address_conns[address] = held + 1  # before asking the others: no race here
                shared = self.address_sockets
                if shared is not None and not await shared.take(address, held + 1, most):
                    self._uncount(address)  # the other nodes hold the rest
                    refused = True
            if refused:
                log.warning(
                    "socket refused: %s holds its %d sockets (%d here)", address, most, held
                )
                raise SalonError(
                    "quota", f"at most {most} connections from one address; close one first"
                )
        conn = Connection(send)
        self.connections[conn.id] = conn
        if address:
            self.addresses[conn.id] = address
        return conn

    async def disconnect(self, conn: Connection) -> None:
        """The connection closed: forget it; a seated player's seat may go to a bot."""
        if self.connections.pop(conn.id, None) is None:
            return  # unknown, or already disconnected
        conn.close()
        self.salon.lobby.page_sizes.pop(conn.id, None)
        address = self.addresses.pop(conn.id, None)
        if address is not None and address in self._address_conns:
            self._uncount(address)
            if self.address_sockets is not None:
                self.salon.spawn(self.address_sockets.release(address))
        user = self.forget_user(conn)
        if user is not None:
            await self._detach(user.id)

    def _uncount(self, address: str) -> None:
        held = self._address_conns.get(address, 0) - 1
        if held > 0:
            self._address_conns[address] = held
        else:
            self._address_conns.pop(address, None)

    @property
    def address_sockets(self) -> AddressSockets | None:
        """The sockets per address counted over every node (None: this node's alone)."""
        shared = self.salon.ports.limits
        return None if shared is None else shared.address_sockets

    def forget_user(self, conn: Connection) -> User | None:
        """Detach a connection from its user and tables (it stays open, signed out)."""
        self.digests.pop(conn.id, None)
        user = conn.user
        self.salon.forwarder.forget(conn)
        self.salon.mirror.forget(conn)
        conn.lobby = False
        conn.user = None
        if user is None:
            return None
        conns = self.user_conns.get(user.id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.user_conns[user.id]
        return user

    def drop_sessions(self, which: Callable[[Connection], bool], why: str) -> None:
        """Sign out the sockets ``which`` selects: they are told, and must say hello again."""
        for conn in list(self.connections.values()):
            if conn.user is None or not which(conn):
                continue
            conn.put(error_reply(None, SalonError("unauthenticated", why)))
            user = self.forget_user(conn)
            if user is not None:
                self.salon.spawn(self._detach(user.id))

    def close_all(self) -> None:
        """Close every socket (the salon stops)."""
        for conn in list(self.connections.values()):
            conn.close()

    # -- dispatch -----------------------------------------------------------------------

    async def handle(self, conn: Connection, message: dict[str, Any]) -> None:
        """Act on one message; every refusal becomes an ``error`` reply, never an exception."""
        reply_id = request_id(message)
        try:
            await self._check_session(conn, message)
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

    async def _check_session(self, conn: Connection, message: Any) -> None:
        """A signed-in socket whose session expired (or was revoked) is signed out first;
        anything but a new ``hello`` is then refused."""
        digest = self.digests.get(conn.id)
        if digest is None or self.salon.accounts.touch(digest):
            return
        user = self.forget_user(conn)
        if user is not None:
            await self._detach(user.id)
        if not (isinstance(message, dict) and message.get("type") == "hello"):
            raise SalonError("unauthenticated", "your session has expired; sign in again")

    def _count_message(self, conn: Connection) -> None:
        """Count one message against its account and address (``rate_limited`` beyond)."""
        salon = self.salon
        checks = []
        if conn.user is not None:
            checks.append((salon.message_rate_user, str(conn.user.id)))
        address = self.addresses.get(conn.id)
        if address is not None and not salon.limits.exempt(address):
            checks.append((salon.message_rate_address, address))
        take_tokens(checks, "messages")

    @staticmethod
    def ok(conn: Connection, message: dict[str, Any], **fields: Any) -> None:
        """The ``ok`` answer to ``message``."""
        conn.put(ok_reply(message, **fields))

    # -- hello, ping, lobby, games --------------------------------------------------------

    async def _hello(self, conn: Connection, message: dict[str, Any]) -> None:
        """Sign the socket in. The single place where "a user said hello" is known."""
        salon = self.salon
        lang = clean_lang(message.get("lang"), default="")
        found = await salon.accounts.session(message.get("token"))
        user = salon.accounts.users.get(found[1].user_id) if found is not None else None
        if found is None or user is None:
            raise SalonError(
                "unauthenticated", "unknown, expired or signed-out session; sign in again"
            )
        if conn.user is not None and conn.user.id != user.id:
            raise SalonError("conflict", "this connection already belongs to another user")
        first = conn.user is None
        held = await self._sockets_of(user.id) if first else 0
        if first and held >= salon.limits.sockets_per_user:
            log.warning("hello refused: %s already holds %d sockets", user.name, held)
            raise SalonError(
                "quota",
                f"at most {salon.limits.sockets_per_user} connections per account;"
                " close another tab or window first",
            )
        conn.user = user
        self.digests[conn.id] = found[0]
        conn.lang = lang or user.lang
        self.user_conns.setdefault(user.id, set()).add(conn)
        # where he sits or watches, whoever runs the table: as its owner stored it with the
        # change that seated him (the lobby of another node may lag, or be reloading)
        places = [
            {"table": table_id, "seat": seat, "game": game}
            for table_id, seat, game in await members.places(salon.store, user.id)
        ]
        reply: dict[str, Any] = {
            "v": PROTOCOL,
            "type": "welcome",
            "user": user.to_json(),
            "protocol": conn.protocol,
            "lang": conn.lang,
            "tables": places,
        }
        reply_id = request_id(message)
        if reply_id is not None:
            reply["id"] = reply_id
        conn.put(reply)
        if first:
            try:  # put on the socket now: before the answer to whatever it asks next
                await salon.mailbox.deliver_at_hello(user, conn, salon._name_of, salon.spawn)
            except Exception:
                log.exception("the kept messages of %s were not delivered", user.name)
        if first and salon.ports.shared and not user.guest:
            try:  # his list may have changed on another node
                await salon.friends.reload(user.id)
            except Exception as exc:
                log.warning("the friends list of %s was not read again: %s", user.name, exc)
        if first:
            await self._attach(user.id)
        for hook in salon.hello_hooks:
            try:
                await hook(conn, user)
            except Exception:
                log.exception("a hello hook failed for %s", user.name)

    async def _ping(self, conn: Connection, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"v": PROTOCOL, "type": "pong"}
        reply_id = request_id(message)
        if reply_id is not None:
            reply["id"] = reply_id
        conn.put(reply)

    async def _lobby_subscribe(self, conn: Connection, message: dict[str, Any]) -> None:
        first = self.salon.lobby.subscribe(conn, message)
        self.ok(conn, message)
        conn.put(first)

    async def _lobby_unsubscribe(self, conn: Connection, message: dict[str, Any]) -> None:
        self.salon.lobby.unsubscribe(conn)
        self.ok(conn, message)

    async def _lobby_list(self, conn: Connection, message: dict[str, Any]) -> None:
        self.ok(conn, message, **self.salon.lobby.listing(conn, message))

    async def _games_list(self, conn: Connection, message: dict[str, Any]) -> None:
        self.ok(conn, message, games=self.salon.lobby.games_info(conn.lang))

    # -- tables ---------------------------------------------------------------------------

    async def _table_command(self, conn: Connection, message: dict[str, Any]) -> None:
        kind = message["type"]
        # an id per command: stored with its change, so a resend (failover) applies it once
        cmd_id = self.salon.forwarder.new_cmd_id()
        cmd = Command(kind, conn.user, conn.lang, message, conn, cmd_id=cmd_id, fresh=True)
        table_id = int_field(message, "table")
        await self.salon.router.call(table_id, TABLE_COMMANDS[kind], cmd)

    async def _table_create(self, conn: Connection, message: dict[str, Any]) -> None:
        salon = self.salon
        user = conn.user
        assert user is not None
        table, change = seating.create(salon.rules_for, 0, user, message)
        address = self.addresses.get(conn.id)
        await salon.quotas.check(user.id, address)
        table.id = await salon.next_id("table")
        change.ops += salon.standing.on_create(table.id, user.guest, message)
        await salon.open_table(
            table, change, Command("table.create", user, conn.lang, message, conn)
        )
        await salon.quotas.opened(table.id, address)

    async def _history(self, conn: Connection, message: dict[str, Any]) -> None:
        """A page of a table's history: read here, or by the node that runs the table."""
        table_id = int_field(message, "table")
        where = await self.salon.router.locate(table_id)
        if isinstance(where, TableActor):
            page_max = self.salon.limits.history_page_max
            history_page(self.salon.mirror, page_max, conn, where.table, message)
            return
        assert table_id is not None
        body = {"type": "history", "msg": message}
        await self.salon.forwarder.ask(table_id, body, conn, where.node)

    # -- private chat ---------------------------------------------------------------------

    async def _chat_private(self, conn: Connection, message: dict[str, Any]) -> None:
        """A private line: to the recipient's sockets on every node, else kept for him."""
        salon = self.salon
        user = conn.user
        assert user is not None
        to = message.get("to")
        if not isinstance(to, str):
            raise SalonError("invalid", "say whom the message is for")
        text, me = clean_text(message.get("text"))
        target = await find_account(salon.accounts, to)
        if target is None:
            raise SalonError("not_found", f"nobody is called {strip_invisible(to)[:40]}")
        if salon.ports.shared and not salon.online(target.id):
            await salon.mailbox.recount(target.id)  # other nodes keep lines for him too
        salon.mailbox.check(user, target)  # kept for later? refused first if it may not be
        salon.chat_limit.check(user.id)
        salon.chat_limit.record(user.id)  # before waiting: see seating.chat
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
            "kept": False,
        }

        async def reach() -> bool:
            return await self._reach(target.id, out)

        try:
            delivered = await salon.mailbox.post(user, target, text, me, reach)
        except SalonError:
            salon.chat_limit.forget_last(user.id)
            raise
        kept = {} if delivered else {"sentence": kept_sentence(conn.lang, target.name)}
        self.ok(conn, message, delivered=delivered, kept=not delivered, **kept)
        echo = {**out, "kept": not delivered}
        for receiver in self.conns_of(user.id):
            if not (delivered and receiver in self.conns_of(target.id)):  # had it from reach
                receiver.put(dict(echo))
        back = next(iter(self.conns_of(target.id)), None)
        if not delivered and back is not None:  # came back while it was being stored
            salon.spawn(salon.mailbox.deliver(target, back, salon._name_of))

    async def _reach(self, user_id: int, out: dict[str, Any]) -> bool:
        """Hand a private line to every socket of ``user_id``, here and on the other nodes.

        True if a socket here took it or a node holding his sockets was listening.
        """
        reached = False
        for receiver in self.conns_of(user_id):
            receiver.put(dict(out))
            reached = True
        hub = self.salon.hub
        try:
            nodes = await self.salon.ports.presence.where(user_id)
        except Exception as exc:
            log.warning("presence: the nodes of user %s are unknown: %s", user_id, exc)
            nodes = {}
        for node in sorted(nodes):
            if node != hub.node and await hub.send(node, PRIVATE_LINE, {"to": user_id, "out": out}):
                reached = True
        return reached

    async def private_line(self, _sender: str, body: Mapping[str, Any]) -> None:
        """Another node hands over a private line for a user whose sockets are here."""
        to, out = body.get("to"), body.get("out")
        if isinstance(to, int) and isinstance(out, dict):
            for receiver in self.conns_of(to):
                receiver.put(dict(out))
