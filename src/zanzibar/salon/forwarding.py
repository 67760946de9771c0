"""Any node takes any socket: commands to a table's owner, and its frames back.

A socket may sit on one node while the table it plays at is run by another
(the holder of its lease, :mod:`zanzibar.salon.router`). What travels how:

* **A command** (a table command, a re-follow, a page of history) goes from
  the socket's node to the owner over the :class:`~zanzibar.cluster.ports.Link`
  (kind ``cmd``) with a ``cmd_id`` made once per command. The owner rebuilds
  the :class:`~zanzibar.salon.changes.Command` with a
  :class:`RemoteConnection` standing for the far socket, applies it through
  its own router (claiming the table if nobody runs it) and answers (kind
  ``ans``): done, with the table's version, or the refusal (code and
  catalogue message), which the socket's node raises again so the client is
  answered exactly as by a lone node. No answer in time, or nobody listening
  (the owner died): the same ``cmd_id`` is sent again to whoever runs the
  table then, or applied here once the lease lapsed; the actor answers a
  repeat from its stored reply (``applied_commands``), so an acknowledged
  action is stored once.
* **Frames made by a committed change** (the ``ok``, history items,
  ``table``, ``game.view``, ``your_turn``) that the owner's
  :class:`~zanzibar.salon.mirror.Mirror` put into remote sockets are
  collected per actor step and published on the
  :class:`~zanzibar.cluster.ports.TableBus` as the envelope of the table's new
  version (every committed version is published, with or without frames).
  A message shared by several sockets (:class:`Shared`) travels once. The
  bus orders envelopes, fills holes from its log and reports a gap it cannot
  fill; a socket's node follows the tables its sockets follow whoever runs
  them, so a new owner after a failover continues the same stream.
* **Frames made outside a commit** (a repeat's stored reply, a re-follow, a
  history page) come back in the answer.
* **Failover**: the socket's node watches the lease of every table its
  sockets follow elsewhere. A new holder (node or epoch) is asked to follow
  each socket again from the last history ``seq`` it was sent; bus frames for
  that socket are held until the answer and only those above its version
  are passed on, so nothing is missed or repeated. Nobody holding it: this
  node claims the table and its sockets follow it here. A gap reported by
  the bus is healed the same way.
* **Sockets gone**: a closed socket's node tells the owners (``gone``); an
  owner pings the nodes whose sockets it serves and drops the sockets of a
  node that no longer listens.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from typing import TYPE_CHECKING, Any

from zanzibar.cluster.ports import Envelope, Lease
from zanzibar.engine.errors import ZanzibarError
from zanzibar.l10n.msg import Msg
from zanzibar.salon import play, seating
from zanzibar.salon.accounts import User
from zanzibar.salon.actor import TableActor
from zanzibar.salon.changes import Command
from zanzibar.salon.connections import Connection, Shared
from zanzibar.salon.errors import ERROR_CODES, SalonError
from zanzibar.salon.fields import request_id, since_field
from zanzibar.salon.history import CHANNELS
from zanzibar.salon.lobby import page_limit
from zanzibar.salon.mirror import Mirror
from zanzibar.salon.tables import Table

if TYPE_CHECKING:
    from zanzibar.salon.service import Salon

log = logging.getLogger(__name__)

#: Table commands: the transition each one runs in the table's actor.
TRANSITIONS = {**seating.TRANSITIONS, **play.TRANSITIONS}

#: Seconds to wait for an owner's answer before sending the command again.
ANSWER_TIMEOUT = 5.0
#: Seconds to keep trying (resends, waiting for a dead owner's lease to lapse).
PATIENCE = 20.0
#: Seconds between two looks for a table's owner when it did not answer.
RETRY_PAUSE = 0.2
#: Seconds between two checks of who runs the tables followed elsewhere.
WATCH_PERIOD = 0.5
#: Seconds a command's answer waits for the bus to bring its frames.
REACH_TIMEOUT = 2.0

_proxy_ids = itertools.count(1)


class RemoteConnection(Connection):
    """A socket held by another node, as the owner's mirror sees it.

    Whatever the mirror puts into it is collected by the :class:`Forwarder`
    and sent at the end of the actor's step. Its ``id`` is negative, so it
    never collides with a socket of this node in the mirror's maps.
    """

    def __init__(self, forwarder: Forwarder, node: str, remote_id: int, user: User) -> None:
        self.forwarder = forwarder
        super().__init__(self)  # its own put_message is the "transport's queue"
        self.id = -next(_proxy_ids)
        self.node = node
        self.remote_id = remote_id
        self.user = user

    def put_message(self, message: dict[str, Any]) -> None:
        """The transport's queue of :class:`Connection`: into the step's outbox."""
        self.forwarder.outbox.append((self, message))

    def __repr__(self) -> str:
        return f"<RemoteConnection {self.node}/{self.remote_id} {self.user_id}>"

    async def __call__(self, _message: dict[str, Any]) -> None:
        """Never called: messages go through :meth:`put_message`."""


def refusal_json(exc: ZanzibarError) -> dict[str, Any]:
    """A refusal as it travels between nodes: code, catalogue message or text, details."""
    msg = exc.msg
    details = {
        k: v for k, v in exc.details.items() if isinstance(v, str | int | float | bool | None)
    }
    body: dict[str, Any] = {"code": exc.code, "details": details}
    if msg is not None:
        body["msg"] = msg.to_json()
    else:
        body["text"] = exc.message
    return body


def refusal(body: Any) -> ZanzibarError:
    """The refusal sent by :func:`refusal_json`, raised again on the socket's node."""
    if not isinstance(body, dict):
        return SalonError("internal", "the table's node failed; nothing was changed")
    code = str(body.get("code", "internal"))
    message: str | Msg
    try:
        message = Msg.from_json(body["msg"]) if "msg" in body else str(body.get("text", ""))
    except (KeyError, TypeError, ValueError):
        message = str(body.get("text", ""))
    raw = body.get("details")
    details: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if code in ERROR_CODES:
        return SalonError(code, message, **details)
    error = ZanzibarError(message, **details)
    error.code = code
    return error


def history_page(
    mirror: Mirror, page_max: int, conn: Connection, table: Table, message: Any
) -> None:
    """Send ``conn`` the page of ``table``'s history its ``history`` request asks for."""
    user = conn.user
    assert user is not None
    since = since_field(message)
    channel = message.get("channel")
    if channel is not None and channel not in CHANNELS:
        raise SalonError("invalid", f"channel is one of {', '.join(CHANNELS)}")
    limit = page_limit(message, page_max)
    if not table.is_present(user.id):
        raise SalonError("forbidden", "join or watch the table first")
    mirror.history(conn, table, since, channel, request_id(message), limit)


class Forwarder:
    """This node's side of every table run elsewhere, and of every socket held elsewhere."""

    def __init__(self, salon: Salon) -> None:
        self.salon = salon
        self.hub = salon.hub
        self.node = salon.hub.node
        self._boot = secrets.token_hex(4)
        self._counter = itertools.count(1)
        # -- as a table's owner
        #: What the mirror put into remote connections during the current step.
        self.outbox: list[tuple[RemoteConnection, dict[str, Any]]] = []
        self._proxies: dict[tuple[str, int], RemoteConnection] = {}
        #: Frames made outside a commit, by proxy id, for the answer of the command.
        self._loose: dict[int, list[dict[str, Any]]] = {}
        self._remote: dict[int, set[RemoteConnection]] = {}
        self._table_locks: dict[Any, _TableQueue] = {}
        # -- as a socket's node
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: Table id -> ids of this node's sockets following it on another node.
        self.members: dict[int, set[int]] = {}
        #: (socket id, table id) -> the last history seq the socket was sent.
        self.seqs: dict[tuple[int, int], int] = {}
        #: Table id -> (node, epoch) of the owner this node's sockets follow it on.
        self.owner_of: dict[int, tuple[str, int]] = {}
        #: Table id -> the last version delivered by the bus.
        self.delivered: dict[int, int] = {}
        self._held: dict[tuple[int, int], list[tuple[int, dict[str, Any]]]] = {}
        self._on_bus: set[int] = set()
        #: Socket id -> the request id of the last ``ok`` it was sent from elsewhere.
        self._last_ok: dict[int, Any] = {}
        self._resyncing: set[int] = set()
        self._reached: dict[int, asyncio.Event] = {}
        self._watch: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self.answer_timeout = ANSWER_TIMEOUT
        self.patience = PATIENCE
        self.watch_period = WATCH_PERIOD
        self.hub.on("cmd", self._on_cmd)
        self.hub.on("ans", self._on_ans)
        self.hub.on("gone", self._on_gone)
        self.hub.on("ping", self._on_ping)

    # -- life cycle -----------------------------------------------------------------------

    def start(self) -> None:
        """Start watching who runs the tables followed elsewhere, and who listens."""
        self._watch = asyncio.ensure_future(self._watching())

    async def stop(self) -> None:
        """Stop watching and answering (a stop or a crash)."""
        tasks = [t for t in (self._watch, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for waiter in self._waiting.values():
            if not waiter.done():
                waiter.cancel()

    def _spawn(self, work: Any) -> None:
        """Run ``work`` beside the caller: the salon's settle() waits for it, stop() ends it."""
        task = self.salon.spawn(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def new_cmd_id(self) -> str:
        """A command id never made before by any node (node, start, counter)."""
        return f"{self.node}.{self._boot}.{next(self._counter)}"

    # =====================================================================================
    # the socket's node
    # =====================================================================================

    async def forward(self, node: str, table_id: int, cmd: Command) -> None:
        """Apply ``cmd`` at ``table_id``, run by ``node``; raise its refusal."""
        assert cmd.conn is not None and cmd.user is not None
        body = {
            "t": table_id,
            "type": cmd.type,
            "msg": cmd.message,
            "cmd": cmd.cmd_id or self.new_cmd_id(),
            "fresh": cmd.fresh,
        }
        await self.ask(table_id, body, cmd.conn, node)

    async def ask(
        self, table_id: int, body: dict[str, Any], conn: Connection, node: str | None = None
    ) -> None:
        """Have the table's owner run ``body`` for ``conn``: resent until answered or given up.

        When the table turns out to be run here (this node claimed it after
        its owner died), it is run here.
        """
        user = conn.user
        assert user is not None
        body = {**body, "t": table_id, "user": user.id, "lang": conn.lang, "c": conn.id}
        body.setdefault("cmd", self.new_cmd_id())
        fresh = bool(body.get("fresh"))
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.patience
        attempt = 0
        while True:
            body["acked"] = attempt > 0 and self._acked(conn, body)
            if node is None:
                where = await self.salon.router.locate(table_id)
                if isinstance(where, TableActor):
                    body["fresh"] = fresh and attempt == 0
                    await self._here(where, body, user, conn)
                    self._followed_here(table_id, conn)
                    return
                node = where.node
            attempt += 1
            body["fresh"] = fresh and attempt == 1
            answer = await self._send(node, body)
            if answer is not None and "moved" not in answer:
                await self._answered(table_id, conn, node, answer)
                return
            if loop.time() > give_up:
                raise SalonError(
                    "internal", "the node running this table does not answer; try again"
                )
            await asyncio.sleep(RETRY_PAUSE)
            node = None

    async def _send(self, node: str, body: dict[str, Any]) -> dict[str, Any] | None:
        """Send a command and wait for its answer; None if nobody listened or in time."""
        cmd_id = str(body["cmd"])
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[cmd_id] = waiter
        try:
            if not await self.hub.send(node, "cmd", body):
                return None
            return await asyncio.wait_for(waiter, self.answer_timeout)
        except TimeoutError:
            log.warning("node %s did not answer command %s in time; resending", node, cmd_id)
            return None
        finally:
            self._waiting.pop(cmd_id, None)

    async def _on_ans(self, _sender: str, body: Any) -> None:
        waiter = self._waiting.get(str(body.get("cmd")))
        if waiter is not None and not waiter.done():
            waiter.set_result(dict(body))

    def _acked(self, conn: Connection, body: dict[str, Any]) -> bool:
        """Whether the socket already got the ``ok`` of this command (a resend's first try
        was applied and its frames arrived; only the answer was lost)."""
        message = body.get("msg")
        asked = request_id(message) if isinstance(message, dict) else None
        return asked is not None and self._last_ok.get(conn.id) == asked

    async def _answered(
        self, table_id: int, conn: Connection, node: str, answer: dict[str, Any]
    ) -> None:
        """The owner's answer: frames made outside a commit, who follows, or the refusal."""
        if not answer.get("ok"):
            raise refusal(answer.get("err"))
        version = int(answer.get("version", 0))
        key = (conn.id, table_id)
        held = self._held.pop(key, None)
        for frame in answer.get("frames", ()):
            self._give(conn, table_id, frame)
        # following again: the frames of the old stream the answer's version covers are
        # dropped, and the ``ok`` of a spectator's silent watch is nobody's answer
        first = version if answer.get("committed") else version + 1
        for held_version, frame in held or ():
            if held_version >= first and not (_is_ok(frame) and "id" not in frame):
                self._give(conn, table_id, frame)
        if answer.get("following"):
            self.members.setdefault(table_id, set()).add(conn.id)
            conn.tables.add(table_id)
            self.owner_of[table_id] = (node, int(answer.get("epoch", 0)))
            if table_id not in self._on_bus:
                self._on_bus.add(table_id)
                after = version - 1 if answer.get("committed") else version
                await self.salon.ports.bus.follow(table_id, self, max(0, after))
        else:
            self._unfollowed(table_id, conn.id)
        if answer.get("committed"):
            await self._reach(table_id, version)

    async def _reach(self, table_id: int, version: int) -> None:
        """Wait (a little) until the bus delivered ``version``: the ``ok`` is then sent."""
        loop = asyncio.get_running_loop()
        end = loop.time() + REACH_TIMEOUT
        while self.delivered.get(table_id, 0) < version and loop.time() < end:
            event = self._reached.setdefault(table_id, asyncio.Event())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), max(0.0, end - loop.time()))

    def _followed_here(self, table_id: int, conn: Connection) -> None:
        """The command ran here: the socket follows the table in this node's own mirror."""
        self._unfollowed(table_id, conn.id, keep=True)

    def _unfollowed(self, table_id: int, conn_id: int, keep: bool = False) -> None:
        members = self.members.get(table_id)
        if members is not None:
            members.discard(conn_id)
        self.seqs.pop((conn_id, table_id), None)
        self._held.pop((conn_id, table_id), None)
        conn = self.salon.gateway.connections.get(conn_id)
        if conn is not None and not keep:
            conn.tables.discard(table_id)
        if not members:
            self._leave_bus(table_id)

    def _leave_bus(self, table_id: int) -> None:
        self.members.pop(table_id, None)
        self.owner_of.pop(table_id, None)
        if table_id in self._on_bus:
            self._on_bus.discard(table_id)
            self.delivered.pop(table_id, None)
            self._spawn(self.salon.ports.bus.unfollow(table_id, self))

    # -- the bus (Follower) ---------------------------------------------------------------

    async def deliver(self, envelope: Envelope) -> None:
        """One committed version of a table followed elsewhere: its frames for sockets here."""
        table_id, data = envelope.table, envelope.data
        mine = data.get("to", {}).get(self.node) if isinstance(data, dict) else None
        if mine:
            messages = data.get("m", [])
            shared = set(data.get("s", ()))
            made: dict[int, dict[str, Any]] = {}
            connections = self.salon.gateway.connections
            for conn_id, index in mine:
                message = made.get(index)
                if message is None:
                    raw = messages[index]
                    message = made[index] = Shared(raw) if index in shared else raw
                held = self._held.get((conn_id, table_id))
                if held is not None:
                    held.append((envelope.version, message))
                    continue
                conn = connections.get(conn_id)
                if conn is not None:
                    self._give(conn, table_id, message)
        for conn_id in data.get("drop", {}).get(self.node, ()) if isinstance(data, dict) else ():
            self._unfollowed(table_id, conn_id)
        if not mine and data.get("s") and self.members.get(table_id):
            # frames for every follower went out and none to this node's: the owner took
            # them for gone (it could not reach this node for a moment): follow again
            log.warning("table %s: the owner forgot this node's sockets; following again", table_id)
            self._spawn(self.resync(table_id))
        self.delivered[table_id] = envelope.version
        event = self._reached.pop(table_id, None)
        if event is not None:
            event.set()

    async def gap(self, table: int, after: int, before: int | None) -> None:
        """Versions were lost on the way: every socket here follows the table again."""
        log.warning("table %s: versions after %s were lost; following it again", table, after)
        self._spawn(self.resync(table))

    def _give(self, conn: Connection, table_id: int, message: dict[str, Any]) -> None:
        """Put one frame to a socket here, noting the last history ``seq`` it was sent."""
        if conn.closed:
            return
        conn.put(message)
        if _is_ok(message) and message.get("id") is not None:
            self._last_ok[conn.id] = message["id"]
        seq: Any = None
        if message.get("table") == table_id:
            kind = message.get("type")
            if kind == "history":
                if "id" not in message and "channel" not in message:
                    seq = message.get("last_seq")
            elif kind != "ok":
                seq = message.get("seq")
        if isinstance(seq, int) and not isinstance(seq, bool):
            key = (conn.id, table_id)
            if seq > self.seqs.get(key, -1):
                self.seqs[key] = seq

    # -- failover -------------------------------------------------------------------------

    async def resync(self, table_id: int) -> None:
        """Every socket here that follows ``table_id`` follows it again from its last seq."""
        if table_id in self._resyncing:
            return
        self._resyncing.add(table_id)
        try:
            for conn_id in list(self.members.get(table_id, ())):
                conn = self.salon.gateway.connections.get(conn_id)
                if conn is None or conn.user is None:
                    self._unfollowed(table_id, conn_id)
                    continue
                key = (conn_id, table_id)
                since = self.seqs.get(key, 0)
                self._held.setdefault(key, [])
                try:
                    await self.ask(table_id, {"type": "follow", "since": since}, conn)
                except ZanzibarError as exc:
                    log.warning(
                        "socket %s could not follow table %s again: %s", conn_id, table_id, exc
                    )
                    self._unfollowed(table_id, conn_id)
                finally:
                    self._held.pop(key, None)
        finally:
            self._resyncing.discard(table_id)

    async def _watching(self) -> None:
        while True:
            await asyncio.sleep(self.watch_period)
            try:
                await self._check_owners()
                await self._check_listeners()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("checking the owners of followed tables failed")

    async def _check_owners(self) -> None:
        """A table followed elsewhere changed owner (or has none): follow it again."""
        for table_id in list(self.members):
            if table_id in self._resyncing or not self.members.get(table_id):
                continue
            lease = await self.salon.ports.leases.owner(table_id)
            known = self.owner_of.get(table_id)
            if lease is not None and (lease.node, lease.epoch) == known:
                continue
            if (
                lease is not None
                and lease.node == self.node
                and table_id not in self.salon.router.actors
            ):
                continue  # being claimed here right now
            self._spawn(self.resync(table_id))

    async def _check_listeners(self) -> None:
        """Drop the sockets of nodes that no longer listen (killed)."""
        for node in {proxy.node for proxy in self._proxies.values()}:
            if not await self.hub.send(node, "ping", {}):
                log.warning("node %s does not listen; its sockets stop following", node)
                for key, proxy in list(self._proxies.items()):
                    if key[0] == node:
                        self._drop_proxy(key, proxy)

    def moved(self, table: Table) -> None:
        """A table run here is run by another node now: its followers here follow it there."""
        table_id = table.id
        for conn in list(self.salon.mirror.subscribers.get(table_id, {}).values()):
            if isinstance(conn, RemoteConnection) or conn.user is None:
                continue
            self.members.setdefault(table_id, set()).add(conn.id)
            key = (conn.id, table_id)
            self.seqs[key] = max(self.seqs.get(key, -1), table.history.last_seq)
        if self.members.get(table_id):
            self.owner_of[table_id] = (self.node, table.epoch)
            self._spawn(self.resync(table_id))

    def forget(self, conn: Connection) -> None:
        """A socket here closed (or signed out): the owners of its tables elsewhere forget it."""
        self._last_ok.pop(conn.id, None)
        nodes: set[str] = set()
        for table_id in [t for t, members in self.members.items() if conn.id in members]:
            owner = self.owner_of.get(table_id)
            if owner is not None:
                nodes.add(owner[0])
            self._unfollowed(table_id, conn.id)
        for node in nodes:
            self._spawn(self.hub.send(node, "gone", {"c": [conn.id]}))

    # =====================================================================================
    # the table's owner
    # =====================================================================================

    def _proxy(self, node: str, remote_id: int, user: User, lang: str) -> RemoteConnection:
        key = (node, remote_id)
        proxy = self._proxies.get(key)
        if proxy is None or proxy.user_id != user.id:
            proxy = self._proxies[key] = RemoteConnection(self, node, remote_id, user)
        proxy.lang = lang
        return proxy

    def _drop_proxy(self, key: tuple[str, int], proxy: RemoteConnection) -> None:
        """Forget a socket of another node (closed, or its node is gone): no ``drop`` is
        announced for it, which is only for sockets that left a table."""
        self._proxies.pop(key, None)
        for table_id in proxy.tables:
            self._remote.get(table_id, set()).discard(proxy)
        self.salon.mirror.forget(proxy)
        self._loose.pop(proxy.id, None)

    async def _on_ping(self, _sender: str, _body: Any) -> None:
        return None

    async def _on_gone(self, sender: str, body: Any) -> None:
        for remote_id in body.get("c", ()):
            proxy = self._proxies.get((sender, remote_id))
            if proxy is not None:
                self._drop_proxy((sender, remote_id), proxy)

    async def _on_cmd(self, sender: str, body: Any) -> None:
        # each command in its own task (the link hands messages over one at a time), but
        # those of one table in arrival order: a lock per table, taken in that order
        table_id = body.get("t")
        entry = self._table_locks.get(table_id)
        if entry is None:
            entry = self._table_locks[table_id] = _TableQueue()
        entry.count += 1
        self._spawn(self._run_cmd(sender, dict(body), table_id, entry))

    async def _run_cmd(
        self, sender: str, body: dict[str, Any], table_id: Any, entry: _TableQueue
    ) -> None:
        try:
            async with entry.lock:
                answer = await self._apply_cmd(sender, body)
        finally:
            entry.count -= 1
            if entry.count == 0:
                self._table_locks.pop(table_id, None)
        answer["cmd"] = body.get("cmd")
        await self.hub.send(sender, "ans", answer)

    async def _apply_cmd(self, sender: str, body: dict[str, Any]) -> dict[str, Any]:
        proxy: RemoteConnection | None = None
        try:
            table_id = int(body["t"])
            user = await self.salon.accounts.user(int(body["user"]))
            if user is None:
                raise SalonError("unauthenticated", "unknown account; sign in again")
            proxy = self._proxy(sender, int(body["c"]), user, str(body.get("lang", "en")))
            where = await self.salon.router.locate(table_id)
            if isinstance(where, Lease):
                return {"ok": False, "moved": where.node}
            before = where.table.version
            await self._here(where, body, user, proxy)
            lease = self.salon.router.lease_of.get(table_id)
            return {
                "ok": True,
                "version": where.table.version,
                "committed": where.table.version != before,
                "epoch": lease.epoch if lease is not None else where.table.epoch,
                "following": table_id in proxy.tables,
                "frames": self._loose.pop(proxy.id, []),
            }
        except ZanzibarError as exc:
            return {"ok": False, "err": refusal_json(exc)}
        except Exception:
            log.exception("a command forwarded by %s failed", sender)
            return {"ok": False, "err": refusal_json(SalonError("internal", "the salon failed"))}
        finally:
            if proxy is not None:
                self._loose.pop(proxy.id, None)
                if not proxy.tables:
                    self._proxies.pop((proxy.node, proxy.remote_id), None)

    async def _here(
        self, actor: TableActor, body: dict[str, Any], user: User, conn: Connection
    ) -> None:
        """Run a command, a re-follow or a history page at a table run here, for ``conn``."""
        kind = body.get("type")
        mirror = self.salon.mirror
        if kind == "follow":
            since = int(body.get("since", 0))
            if not actor.table.is_present(user.id):
                # a spectator of the old owner (spectators are not stored): watches again
                message = {"type": "table.watch", "table": actor.table.id, "since": since}
                cmd = Command("table.watch", user, conn.lang, message, conn)
                await actor.call(seating.watch, cmd)
                return

            def follow(table: Table) -> None:
                if table.is_present(user.id):
                    mirror.follow(conn, table, since)

            await actor.read(follow)
        elif kind == "history":
            page_max = self.salon.limits.history_page_max
            message = body.get("msg") or {}
            await actor.read(lambda table: history_page(mirror, page_max, conn, table, message))
        else:
            transition = TRANSITIONS.get(str(kind))
            if transition is None:
                raise SalonError("unknown_type", f"unknown message type {str(kind)[:40]!r}")
            cmd = Command(
                str(kind),
                user,
                conn.lang,
                dict(body.get("msg") or {}),
                conn,
                cmd_id=str(body["cmd"]),
                fresh=bool(body.get("fresh")),
                acked=bool(body.get("acked")),
            )
            await actor.call(transition, cmd)

    async def stepped(self, table: Table, committed: bool) -> None:
        """After each actor step: what it put into remote sockets leaves this node.

        A committed step is published on the bus as the table's new version
        (always, frames or none: followers see every version); frames of a
        step that committed nothing wait for the answer of the command.
        """
        outbox, self.outbox = self.outbox, []
        if not self.salon.shared:
            return  # a lone node: no other node follows anything
        if not committed:
            for proxy, message in outbox:
                self._loose.setdefault(proxy.id, []).append(message)
            return
        # a socket that does not follow the table (it asked, or just left) gets its
        # frames in the answer: its node may not follow the table's envelopes
        followers = []
        for proxy, message in outbox:
            if table.id in proxy.tables:
                followers.append((proxy, message))
            else:
                self._loose.setdefault(proxy.id, []).append(message)
        subscribers = self.salon.mirror.subscribers.get(table.id, {})
        current = {c for c in subscribers.values() if isinstance(c, RemoteConnection)}
        before = self._remote.pop(table.id, set())
        if current:
            self._remote[table.id] = current
        for proxy in before - current:
            if not proxy.tables:  # follows nothing here any more
                self._proxies.pop((proxy.node, proxy.remote_id), None)
        data = encode(followers, before - current)
        try:
            await self.salon.ports.bus.publish(Envelope(table.id, table.epoch, table.version, data))
        except Exception:
            log.exception("table %s: version %s could not be published", table.id, table.version)


def encode(
    outbox: list[tuple[RemoteConnection, dict[str, Any]]], dropped: set[RemoteConnection]
) -> dict[str, Any]:
    """One step's frames as an envelope's data: each message once, then who gets which.

    >>> encode([], set())
    {}
    """
    if not outbox and not dropped:
        return {}
    messages: list[dict[str, Any]] = []
    index: dict[int, int] = {}
    shared: list[int] = []
    to: dict[str, list[list[int]]] = {}
    for proxy, message in outbox:
        i = index.get(id(message))
        if i is None:
            i = index[id(message)] = len(messages)
            messages.append(message)
            if isinstance(message, Shared):
                shared.append(i)
        to.setdefault(proxy.node, []).append([proxy.remote_id, i])
    data: dict[str, Any] = {"m": messages, "to": to}
    if shared:
        data["s"] = shared
    if dropped:
        drop: dict[str, list[int]] = {}
        for proxy in dropped:
            drop.setdefault(proxy.node, []).append(proxy.remote_id)
        data["drop"] = drop
    return data


class _TableQueue:
    """The commands of one table being run for other nodes, in arrival order."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.count = 0


def _is_ok(message: Any) -> bool:
    return isinstance(message, dict) and message.get("type") == "ok"


__all__: list[str] = ["Forwarder", "RemoteConnection", "encode", "history_page", "refusal"]
