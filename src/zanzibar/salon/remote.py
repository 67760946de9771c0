"""The table's owner's side of sockets held by other nodes.

A command forwarded by another node (:mod:`zanzibar.salon.forwarding`,
hub kind ``cmd``) is run here for a :class:`RemoteConnection` standing for
the far socket; the answer (``ans``) says done, with the table's version, or
the refusal. What the mirror puts into remote sockets during one actor step
leaves at the end of the step (:meth:`RemoteSockets.stepped`): a committed
step as the table's next version on the :class:`~zanzibar.cluster.ports.TableBus`
(each message once, shared ones marked; not at all for a table created here that
no other node follows), frames made outside a commit in the command's answer. Sockets whose node says they closed (``gone``) or whose
node no longer listens (a ``ping`` nobody hears) are dropped. docs/cluster.md
says why it travels this way.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from typing import Any, Protocol

from zanzibar.cluster.hub import LinkHub
from zanzibar.cluster.ports import Envelope, Lease, StaleVersion
from zanzibar.cluster.wiring import NodePorts
from zanzibar.engine.errors import ZanzibarError
from zanzibar.l10n.msg import Msg
from zanzibar.salon import play, seating
from zanzibar.salon.accounts import AccountBook, User
from zanzibar.salon.actor import TableActor
from zanzibar.salon.changes import Command
from zanzibar.salon.connections import Connection, Shared
from zanzibar.salon.errors import ERROR_CODES, SalonError
from zanzibar.salon.fields import end_tasks, request_id, since_field
from zanzibar.salon.history import CHANNELS
from zanzibar.salon.limits import Limits
from zanzibar.salon.lobby import page_limit
from zanzibar.salon.mirror import Mirror
from zanzibar.salon.router import Router
from zanzibar.salon.tables import Table

log = logging.getLogger(__name__)

#: Table commands: the transition each one runs in the table's actor.
TRANSITIONS = {**seating.TRANSITIONS, **play.TRANSITIONS}

_proxy_ids = itertools.count(1)

#: Seconds between two tries to publish a version the bus refused (Redis out of reach).
REPUBLISH_PAUSE = 0.2
#: Seconds a version is tried again before it is given up (its followers then find the
#: hole at the next version, or never: a re-follow after a lease change heals them).
REPUBLISH_PATIENCE = 60.0

#: Tries to send a command's answer (0.1, 0.2, ... s apart) before leaving it to a resend.
ANSWER_TRIES = 4
#: Tries to send a command's answer (0.1, 0.2, ... s apart) before leaving it to a resend.
ANSWER_TRIES = 4
#: Seconds a node may not listen (Redis restarting) before its sockets are dropped.
SILENCE = 2.0

#: A socket travels between nodes as ``base + id``, ``base`` a random multiple of this
#: chosen by its process (:meth:`~zanzibar.salon.forwarding.Forwarder.wire_id`).
WIRE_SOCKETS = 1 << 32


class Sockets(Protocol):
    """This node's sockets by id (the gateway's)."""

    connections: dict[int, Connection]


class Host(Protocol):
    """What forwarding needs of the salon around it (each member documented on the salon)."""

    @property
    def hub(self) -> LinkHub: ...
    @property
    def ports(self) -> NodePorts: ...
    @property
    def router(self) -> Router: ...
    @property
    def mirror(self) -> Mirror: ...
    @property
    def accounts(self) -> AccountBook: ...
    @property
    def limits(self) -> Limits: ...
    @property
    def shared(self) -> bool: ...
    @property
    def gateway(self) -> Sockets: ...

    def start_task(self, work: Any) -> asyncio.Future[Any]:
        """Run ``work`` beside the caller (``settle`` waits for it)."""


class RemoteConnection(Connection):
    """A socket held by another node, as the owner's mirror sees it.

    Whatever the mirror puts into it is collected by :class:`RemoteSockets`
    and sent at the end of the actor's step. Its ``id`` is negative, so it
    never collides with a socket of this node in the mirror's maps.
    """

    def __init__(self, sockets: RemoteSockets, node: str, remote_id: int, user: User) -> None:
        self.sockets = sockets
        super().__init__(self)  # its own put_message is the "transport's queue"
        self.id = -next(_proxy_ids)
        self.node = node
        self.remote_id = remote_id
        self.user = user

    def put_message(self, message: dict[str, Any]) -> None:
        """The transport's queue of :class:`Connection`: into the step's outbox."""
        self.sockets.outbox.append((self, message))

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
        return SalonError("internal", Msg("error-internal"))
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


async def run_here(
    host: Host, actor: TableActor, body: dict[str, Any], user: User, conn: Connection
) -> tuple[int, bool]:
    """Run a command, a re-follow or a history page at a table run here, for ``conn``.

    Returns the table's version as the command saw it and whether it stored a
    change: the frames it sent are those of that version (a later step may
    have run before this returns, and its frames are the bus's).
    """
    kind = body.get("type")
    mirror = host.mirror
    seen = [actor.table.version]
    if kind == "follow":
        since = int(body.get("since", 0))
        if not actor.table.is_present(user.id):
            # a spectator of the old owner (spectators are not stored): watches again
            message = {"type": "table.watch", "table": actor.table.id, "since": since}
            cmd = Command("table.watch", user, conn.lang, message, conn)
            await actor.call(seating.watch, cmd)
            return _applied(cmd, actor)

        def follow(table: Table) -> None:
            seen[0] = table.version
            if table.is_present(user.id):
                mirror.follow(conn, table, since)

        await actor.read(follow)
        return seen[0], False
    if kind == "history":
        page_max = host.limits.history_page_max
        message = body.get("msg") or {}

        def page(table: Table) -> None:
            seen[0] = table.version
            history_page(mirror, page_max, conn, table, message)

        await actor.read(page)
        return seen[0], False
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
        return _applied(cmd, actor)


def _applied(cmd: Command, actor: TableActor) -> tuple[int, bool]:
    """The version a command left the table at, and whether it stored a change."""
    version = cmd.applied_at if cmd.applied_at is not None else actor.table.version
    return version, cmd.stored


class RemoteSockets:
    """The sockets of other nodes that follow or command the tables run here."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.hub = host.hub
        #: What the mirror put into remote connections during the current step.
        self.outbox: list[tuple[RemoteConnection, dict[str, Any]]] = []
        self._proxies: dict[tuple[str, int], RemoteConnection] = {}
        #: Node -> the socket id base of the process that runs under its name now.
        self._bases: dict[str, int] = {}
        #: Frames made outside a commit, by proxy id, for the answer of the command.
        self._loose: dict[int, list[dict[str, Any]]] = {}
        self._remote: dict[int, set[RemoteConnection]] = {}
        self._table_locks: dict[Any, _TableQueue] = {}
        #: Node -> when it was first found not listening (its sockets go after a while).
        self._silent_since: dict[str, float] = {}
        #: Seconds a node may not listen before its sockets are taken for gone.
        self.silence = SILENCE
        #: Table id -> its committed versions not published yet (the bus was out of reach),
        #: oldest first: each later version waits behind them, so the order holds.
        self._unpublished: dict[int, list[Envelope]] = {}
        #: Table id -> the epoch under which it was created here: while no other node
        #: follows it, its versions are not published (:meth:`stepped`).
        self._quiet: dict[int, int] = {}
        #: Tables whose stream this node wrote to (published or seeded: it exists).
        self._streamed: set[int] = set()
        #: Versions not published because no other node followed their table (for tests).
        self.unpublished_quiet = 0
        self._tasks: set[asyncio.Future[Any]] = set()
        self.hub.on("cmd", self._on_cmd)
        self.hub.on("gone", self._on_gone)
        self.hub.on("ping", self._on_ping)

    async def stop(self) -> None:
        """Stop answering (a stop or a crash)."""
        await end_tasks(list(self._tasks), grace=0.0)  # bounded (fields.STOP_WAIT_S)

    def _spawn(self, work: Any) -> None:
        task = self.host.start_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def check_listeners(self) -> None:
        """Drop the sockets of nodes that no longer listen (killed) for :data:`SILENCE`
        seconds: right after Redis restarted, a live node's subscriber is not back yet
        (for a moment nobody listens on its channel), and dropping its sockets then would
        leave them hearing nothing of the table until something tells their node."""
        now = asyncio.get_running_loop().time()
        nodes = {proxy.node for proxy in self._proxies.values()}
        for node in list(self._silent_since):
            if node not in nodes:
                del self._silent_since[node]
        for node in nodes:
            if await self.hub.send(node, "ping", {}):
                self._silent_since.pop(node, None)
                continue
            if now - self._silent_since.setdefault(node, now) < self.silence:
                continue
            del self._silent_since[node]
            log.warning("node %s does not listen; its sockets stop following", node)
            for key, proxy in list(self._proxies.items()):
                if key[0] == node:
                    self._drop_proxy(key, proxy)

    def _proxy(self, node: str, remote_id: int, user: User, lang: str) -> RemoteConnection:
        base = remote_id // WIRE_SOCKETS
        if self._bases.setdefault(node, base) != base:
            # the node was started again under its name: its old sockets died with it
            self._bases[node] = base
            for old_key, old in list(self._proxies.items()):
                if old_key[0] == node and old_key[1] // WIRE_SOCKETS != base:
                    self._drop_proxy(old_key, old)
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
        self.host.mirror.forget(proxy)
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
        for attempt in range(1, ANSWER_TRIES + 1):  # Redis may be coming back from a restart
            try:
                await self.hub.send(sender, "ans", answer)
                return
            except Exception as exc:
                if attempt == ANSWER_TRIES:  # its node resends the command after a while
                    log.warning("command %s: its answer was lost (%s)", body.get("cmd"), exc)
                    return
                await asyncio.sleep(0.1 * attempt)

    async def _apply_cmd(self, sender: str, body: dict[str, Any]) -> dict[str, Any]:
        proxy: RemoteConnection | None = None
        try:
            table_id = int(body["t"])
            user = await self.host.accounts.user(int(body["user"]))
            if user is None:
                raise SalonError(
                    "unauthenticated", "unknown, expired or signed-out session; sign in again"
                )
            proxy = self._proxy(sender, int(body["c"]), user, str(body.get("lang", "en")))
            where = await self.host.router.locate(table_id)
            if isinstance(where, Lease):
                return {"ok": False, "moved": where.node}
            await self._seed(where.table)
            version, committed = await run_here(self.host, where, body, user, proxy)
            lease = self.host.router.lease_of.get(table_id)
            return {
                "ok": True,
                "version": version,
                "committed": committed,
                "epoch": lease.epoch if lease is not None else where.table.epoch,
                "following": table_id in proxy.tables,
                "frames": self._loose.pop(proxy.id, []),
            }
        except ZanzibarError as exc:
            return {"ok": False, "err": refusal_json(exc)}
        except Exception:
            log.exception("a command forwarded by %s failed", sender)
            return {"ok": False, "err": refusal_json(SalonError("internal", Msg("error-internal")))}
        finally:
            if proxy is not None:
                self._loose.pop(proxy.id, None)
                if not proxy.tables:
                    self._proxies.pop((proxy.node, proxy.remote_id), None)

    async def _seed(self, table: Table) -> None:
        """Before a command from another node runs: the table's stream must exist when
        that node reads it (its first follow catches up from the answer's version, and a
        stream missing then reads as lost, as after a Redis restart). A table created
        here and followed nowhere else published nothing: its current version goes on
        the bus once, with no frames (refused if it is there already: nothing to do)."""
        if table.id in self._streamed or table.version < 1 or not self.host.shared:
            return
        envelope = Envelope(table.id, table.epoch, table.version, {})
        try:
            await self.host.ports.bus.publish(envelope)
        except StaleVersion:
            pass
        except Exception as exc:  # its follow may then report a hole, and follow again
            log.warning("table %s: its stream could not be started (%s)", table.id, exc)
            return
        self._streamed.add(table.id)

    def _unfollowed(self, table: Table, outbox: bool, remote: bool) -> bool:
        """Whether a committed version need not be published: the table was created
        here under its current epoch (a table claimed from another owner may still have
        followers elsewhere that this node has not heard of yet: those publish every
        version) and no other node follows it, before this step or after it."""
        if table.version == 1:  # created here just now
            if len(self._quiet) > 100_000:  # forgetting only costs publishes
                self._quiet.clear()
            self._quiet[table.id] = table.epoch
        quiet = self._quiet.get(table.id) == table.epoch and not (outbox or remote)
        return quiet and table.id not in self._unpublished

    async def stepped(self, table: Table, committed: bool) -> None:
        """After each actor step: what it put into remote sockets leaves this node.

        A committed step is published on the bus as the table's new version
        (frames or none: followers see every version), unless no other node
        follows a table created here (:meth:`_unfollowed`; the first command from
        another node starts its stream, :meth:`_seed`); frames of a step that
        committed nothing wait for the answer of the command.
        """
        outbox, self.outbox = self.outbox, []
        if not self.host.shared:
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
        subscribers = self.host.mirror.subscribers.get(table.id, {})
        current = {c for c in subscribers.values() if isinstance(c, RemoteConnection)}
        before = self._remote.pop(table.id, set())
        if current:
            self._remote[table.id] = current
        for proxy in before - current:
            if not proxy.tables:  # follows nothing here any more
                self._proxies.pop((proxy.node, proxy.remote_id), None)
        if self._unfollowed(table, bool(followers), bool(current or before)):
            self.unpublished_quiet += 1
            return
        data = encode(followers, before - current)
        envelope = Envelope(table.id, table.epoch, table.version, data)
        waiting = self._unpublished.get(table.id)
        if waiting is not None:  # an earlier version is still to be published: after it
            waiting.append(envelope)
            return
        try:
            await self.host.ports.bus.publish(envelope)
            self._streamed.add(table.id)
        except StaleVersion:
            log.warning("table %s: version %s was published already", table.id, table.version)
        except Exception as exc:
            # committed, so it must reach the followers: a version lost here is a hole they
            # only find at the next one, and a game waiting on its frames never has one
            log.warning(
                "table %s: version %s could not be published (%s); trying again",
                table.id,
                table.version,
                exc,
            )
            self._unpublished[table.id] = [envelope]
            # not a task the salon's settle() waits for: while Redis is down this one is
            # not done, and the salon is otherwise at rest (stop() still ends it)
            task = asyncio.ensure_future(self._republish(table.id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _republish(self, table_id: int) -> None:
        """Publish the versions the bus refused, in order, until it takes them."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + REPUBLISH_PATIENCE
        waiting = self._unpublished.get(table_id, [])
        try:
            while waiting:
                await asyncio.sleep(REPUBLISH_PAUSE)
                try:
                    while waiting:
                        with contextlib.suppress(StaleVersion):  # a new owner went on already
                            await self.host.ports.bus.publish(waiting[0])
                        waiting.pop(0)
                except Exception as exc:
                    if loop.time() > give_up:
                        log.error(
                            "table %s: versions %s could not be published (%s); given up",
                            table_id,
                            [e.version for e in waiting],
                            exc,
                        )
                        return
            log.warning("table %s: the versions held back are published", table_id)
        finally:
            if self._unpublished.get(table_id) is waiting:
                del self._unpublished[table_id]


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
