"""Any node takes any socket: commands to a table's owner, and its frames back.

This module is the socket's node's side; the owner's is :mod:`zanzibar.salon.remote`
(docs/cluster.md, "Any node takes any socket", says what travels how, and why).

* **A command** goes to the table's owner over the
  :class:`~zanzibar.cluster.ports.Link` (kind ``cmd``) with a ``cmd_id`` made
  once; the answer (``ans``) says done, with the table's version, or the
  refusal, raised again here. No answer in time, or nobody listening: the same
  ``cmd_id`` goes to whoever runs the table then, or is applied here once the
  lease lapsed; the actor answers a repeat from its stored reply.
* **Frames of a committed change** come on the
  :class:`~zanzibar.cluster.ports.TableBus`, one envelope per version, which
  this node follows for its sockets whoever runs the table; frames made
  outside a commit come in the answer.
* **Failover**: a table followed elsewhere that changed hands (leases are
  pushed to :mod:`zanzibar.salon.owner_watch`, with a slow check as a safety
  net), or a hole the bus reports, is followed again for each socket from the
  last ``seq`` it was sent; its bus frames wait for that answer, and only what comes after it is
  passed on, so nothing is missed or repeated.
* **Sockets gone**: the owners are told (``gone``); an owner drops the
  sockets of a node that no longer listens.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from typing import Any

from zanzibar.cluster.ports import Envelope
from zanzibar.l10n.msg import Msg
from zanzibar.salon.actor import TableActor
from zanzibar.salon.bus_follows import BusFollows
from zanzibar.salon.changes import Command
from zanzibar.salon.connections import Connection, Shared
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import end_tasks, request_id
from zanzibar.salon.frames import (
    DECIDING,
    DROPPED,
    FOLLOWING,
    ITEM_TYPES,
    after_seq,
    is_ok,
    is_pushed_history,
    seq_at_most,
)
from zanzibar.salon.owner_watch import OwnerWatch
from zanzibar.salon.refollow import Refollows
from zanzibar.salon.remote import (
    WIRE_SOCKETS,
    Host,
    RemoteConnection,
    RemoteSockets,
    refusal,
    run_here,
)
from zanzibar.salon.tables import Table

log = logging.getLogger(__name__)

#: Seconds to wait for an owner's answer before sending the command again.
ANSWER_TIMEOUT = 5.0
#: Seconds to keep trying (resends, waiting for a dead owner's lease to lapse).
PATIENCE = 20.0
#: Seconds between two looks for a table's owner when it did not answer.
RETRY_PAUSE = 0.2
#: Seconds between two checks of who runs the tables followed elsewhere: a safety net,
#: since every grant and release is pushed (salon/owner_watch.py).
WATCH_PERIOD = 5.0
#: Seconds between two pings of the nodes whose sockets this node serves.
PING_PERIOD = 0.5
#: How many bases there are to choose from (wire ids stay JSON-safe integers).
WIRE_BOOTS = 1 << 20
#: Seconds a command's answer waits for the bus to bring its frames.
REACH_TIMEOUT = 2.0


class Forwarder(Refollows, BusFollows):
    """This node's side of every table run elsewhere, and of every socket held elsewhere."""

    def __init__(self, host: Host, remote: RemoteSockets) -> None:
        self.host = host
        #: The owner's side (commands from other nodes' sockets, frames to them).
        self.remote = remote
        self.hub = host.hub
        self.node = host.hub.node
        self._boot = secrets.token_hex(4)
        #: This process's part of the socket ids other nodes know (see :meth:`wire_id`).
        self._wire_base = (1 + secrets.randbelow(WIRE_BOOTS - 1)) * WIRE_SOCKETS
        self._counter = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: Table id -> ids of this node's sockets following it on another node.
        self.members: dict[int, set[int]] = {}
        #: (socket id, table id) -> the last history seq the socket was sent.
        self.seqs: dict[tuple[int, int], int] = {}
        #: Table id -> (node, epoch) of the owner this node's sockets follow it on.
        self.owner_of: dict[int, tuple[str, int]] = {}
        #: Table id -> the last version delivered by the bus.
        self.delivered: dict[int, int] = {}
        #: (socket id, table id) -> the version a re-follow's answer covered: the bus
        #: frames of that version or older are not the socket's any more (it was sent the
        #: table, the history and the view as of that version).
        self.floors: dict[tuple[int, int], int] = {}
        self._held: dict[tuple[int, int], list[tuple[int, dict[str, Any]]]] = {}
        self._init_bus_follows()
        #: Socket id -> the request id of the last ``ok`` it was sent from elsewhere.
        self._last_ok: dict[int, Any] = {}
        self._resyncing: set[int] = set()
        self._again: set[int] = set()  # to follow again once more when the one under way ends
        self._reached: dict[int, asyncio.Event] = {}
        #: Table id -> the last hole its bus reported: the versions after the first number
        #: and before the second (None: every later one, until the next that arrives).
        self._holes: dict[int, tuple[int, int | None]] = {}
        #: (socket id, table id) -> the version whose ``ok`` a command asked again for: the
        #: stored reply brings it, so the bus's (late, not lost) is not sent a second time.
        self._asked_again: dict[tuple[int, int], int] = {}
        #: Who runs the tables followed elsewhere: leases pushed, and a slow check.
        self.owners = OwnerWatch(self)
        self._tasks: set[asyncio.Future[Any]] = set()
        self.answer_timeout = ANSWER_TIMEOUT
        self.patience = PATIENCE
        self.watch_period = WATCH_PERIOD
        self.ping_period = PING_PERIOD
        self.hub.on("ans", self._on_ans)

    # -- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Start hearing who runs the tables followed elsewhere, and checking who listens."""
        await self.owners.start()

    async def stop(self) -> None:
        """Stop watching and answering (a stop or a crash)."""
        tasks = [t for t in (self.owners.task, *self._tasks) if t is not None]
        await end_tasks(tasks, grace=0.0)  # bounded: one that ignores its cancel does not hold
        for waiter in self._waiting.values():
            if not waiter.done():
                waiter.cancel()
        await self.remote.stop()

    def _spawn(self, work: Any) -> None:
        """Run ``work`` beside the caller: the salon's settle() waits for it, stop() ends it."""
        task = self.host.start_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _follower(self) -> Forwarder:
        return self

    def wire_id(self, conn_id: int) -> int:
        """The id other nodes know this socket by, unique to this process: a node started
        again under its name counts sockets from 1 again, and an owner still serving the
        dead process's sockets must not send a new socket an old one's frames."""
        return self._wire_base + conn_id

    def local_id(self, wire: Any) -> int | None:
        """The socket here that ``wire`` stands for (None: a socket of another process)."""
        if isinstance(wire, int) and not isinstance(wire, bool):
            local = wire - self._wire_base
            return local if 0 < local < WIRE_SOCKETS else None
        return None

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
        body = {**body, "t": table_id, "user": user.id, "lang": conn.lang}
        body["c"] = self.wire_id(conn.id)
        body.setdefault("cmd", self.new_cmd_id())
        key = (conn.id, table_id)
        # a (re)follow: this socket's bus frames wait for its answer (which comes first)
        hold = body.get("type") in FOLLOWING and key not in self._held
        if hold:
            self._held[key] = []
        self.owners.asking(table_id, 1)
        try:
            await self._ask(table_id, body, conn, node)
        finally:
            if hold:
                self._held.pop(key, None)
            self.owners.asking(table_id, -1)

    async def _ask(
        self, table_id: int, body: dict[str, Any], conn: Connection, node: str | None
    ) -> None:
        user = conn.user
        assert user is not None
        fresh = bool(body.get("fresh"))
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.patience
        attempt = 0
        while True:
            body["acked"] = attempt > 0 and self._acked(conn, body)
            if node is None:
                where = await self.host.router.locate(table_id)
                if isinstance(where, TableActor):
                    if body.get("type") == "follow" and where.table.is_present(user.id):
                        # a re-follow: unless the socket follows the table here already (its
                        # own join claimed it meanwhile), checked in the actor's turn
                        await self._follow_here(where, conn, int(body.get("since", 0)))
                        self._followed_here(table_id, conn)
                        return
                    body["fresh"] = fresh and attempt == 0
                    was = conn.id in self.members.get(table_id, ())
                    since = self.seqs.get((conn.id, table_id), 0)
                    await run_here(self.host, where, body, user, conn)
                    if was and body.get("type") not in FOLLOWING:
                        await self._follow_here(where, conn, since)
                    self._followed_here(table_id, conn)
                    return
                node = where.node
            attempt += 1
            body["fresh"] = fresh and attempt == 1
            answer = await self._send(node, body)
            if answer is not None and "moved" not in answer:
                if await self._answered(table_id, conn, node, answer, body):
                    return
                if loop.time() <= give_up:
                    continue  # its frames were lost on the bus: asked again, same cmd id
            if loop.time() > give_up:
                raise SalonError("internal", Msg("error-table-unreachable"))
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
        self,
        table_id: int,
        conn: Connection,
        node: str,
        answer: dict[str, Any],
        body: dict[str, Any],
    ) -> bool:
        """The owner's answer: frames made outside a commit, who follows, or the refusal.

        False: the change's own frames (its ``ok``; a follow's table, history and view)
        were in a version the bus lost (its owner died between publishing and storing
        it): the command is to be sent again, and answered from its stored reply.
        """
        if not answer.get("ok"):
            raise refusal(answer.get("err"))
        version = int(answer.get("version", 0))
        key = (conn.id, table_id)
        # held frames are a (re-)follow's: only its answer says which of them it covered
        held = self._held.pop(key, None) if body.get("type") in FOLLOWING else None
        if held is not None and self._passed(table_id, answer, version, held):
            # none of the later frames goes out before the history they come after
            self._held[key] = held
            return False
        if answer.get("following"):
            # what the client says it has (a join or watch ``since``): a re-follow that
            # starts before this answer's own history arrived follows from there, not 0
            message = body.get("msg")
            since = message.get("since") if isinstance(message, dict) else None
            if isinstance(since, int) and not isinstance(since, bool) and since > 0:
                self.seqs[key] = max(self.seqs.get(key, 0), since)
        frames = answer.get("frames", ())
        covered = not answer.get("committed") and any(
            is_pushed_history(f, table_id) for f in frames
        )
        if covered:
            # a follow run as a read (or a join answered from its stored reply): it sent
            # the table, the history and the view as of ``version``; the bus frames of
            # that version or older, still on their way, would repeat them
            self.floors[key] = max(self.floors.get(key, 0), version)
        for frame in frames:
            self._give(conn, table_id, frame)
        # held frames the answer's version covers are dropped (an older view after its own
        # would leave the client behind; a silent watch's ``ok`` is nobody's answer)
        silent = body.get("type") == "follow"
        first = 0
        if silent or covered:
            first = version if answer.get("committed") else version + 1
        dropped = False
        for held_version, frame in held or ():
            if held_version < first:
                if is_ok(frame) and frame.get("id") not in (None, self._last_ok.get(conn.id)):
                    self._give(conn, table_id, frame)  # another command's answer
                continue
            if frame is DROPPED:
                dropped = True  # the owner let the socket go after this command followed
            elif not (silent and is_ok(frame) and "id" not in frame):
                self._give(conn, table_id, frame)
        if answer.get("following") and not dropped:
            self.members.setdefault(table_id, set()).add(conn.id)
            conn.tables.add(table_id)
            self.owner_of[table_id] = (node, int(answer.get("epoch", 0)))
            self.owners.answered(table_id)
            after = version - 1 if answer.get("committed") else version
            await self._follow_bus(table_id, after)
        elif body.get("type") not in DECIDING and conn.id in self.members.get(table_id, ()):
            # a follower's command run by an owner that does not know it (a new owner not
            # yet asked): it follows again, unless a follow is on its way already
            if key not in self._held:
                self._spawn(self.resync(table_id))
        else:
            self._unfollowed(table_id, conn.id)
        if answer.get("committed"):
            await self._reach(table_id, version)
            message = body.get("msg")
            asked = request_id(message) if isinstance(message, dict) else None
            if (
                asked is not None
                and self._last_ok.get(conn.id) != asked
                and table_id in self._on_bus
            ):
                # its ``ok`` did not come: the bus went past it, lost it (a hole reported,
                # above all when this node started following the table with this very
                # command), or is later than any wait: asked again, the stored reply brings it
                self._asked_again[key] = version
                return False
        return True

    def _passed(self, table_id: int, answer: dict[str, Any], version: int, held: list[Any]) -> bool:
        """Whether the bus went past a committed ``version`` without bringing this
        socket's frames of it (held: those that came since the command was sent)."""
        return (
            bool(answer.get("committed"))
            and table_id in self._on_bus
            and self.delivered.get(table_id, 0) >= version
            and all(held_version != version for held_version, _ in held)
        )

    async def _reach(self, table_id: int, version: int) -> None:
        """Wait (a little) until the bus delivered ``version`` (or reported it lost): the
        ``ok`` is then sent."""
        loop = asyncio.get_running_loop()
        end = loop.time() + REACH_TIMEOUT
        while (
            self.delivered.get(table_id, 0) < version
            and not self._lost(table_id, version)
            and loop.time() < end
        ):
            event = self._reached.setdefault(table_id, asyncio.Event())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), max(0.0, end - loop.time()))

    async def _follow_here(self, actor: TableActor, conn: Connection, since: int) -> None:
        """A socket that followed the table elsewhere runs a command at it here (this node
        claimed it): it follows it here from the last seq it was sent (at least ``since``),
        or it would hear nothing more of it.

        The last seq is read in the actor's turn, and the socket stops taking the old
        owner's frames in that same turn: one of them still on its way (a node's
        subscriber catching up after a Redis restart) may reach it while the command
        runs, and a history from the seq noted before would send it again.
        """
        user = conn.user
        mirror = self.host.mirror

        def follow(table: Table) -> None:
            last = max(since, self.seqs.get((conn.id, table.id), since))
            self._followed_here(table.id, conn)
            if mirror.subscribers.get(table.id, {}).get(conn.id) is conn:
                return  # it follows the table here already: nothing is sent twice
            if user is not None and table.is_present(user.id) and not conn.closed:
                mirror.follow(conn, table, last)

        await actor.read(follow)

    def _followed_here(self, table_id: int, conn: Connection) -> None:
        """The command ran here: the socket follows the table in this node's own mirror."""
        self._unfollowed(table_id, conn.id, keep=True)

    def _unfollowed(self, table_id: int, conn_id: int, keep: bool = False) -> None:
        members = self.members.get(table_id)
        if members is not None:
            members.discard(conn_id)
        self.seqs.pop((conn_id, table_id), None)
        self.floors.pop((conn_id, table_id), None)
        self._held.pop((conn_id, table_id), None)
        self._asked_again.pop((conn_id, table_id), None)
        conn = self.host.gateway.connections.get(conn_id)
        if conn is not None and not keep:
            conn.tables.discard(table_id)
        if not members:
            self._leave_bus(table_id)

    # -- the bus (Follower) ---------------------------------------------------------------

    async def deliver(self, envelope: Envelope) -> None:
        """One committed version of a table followed elsewhere: its frames for sockets here."""
        table_id, data = envelope.table, envelope.data
        if table_id not in self._on_bus:
            return  # from the bus this node is leaving (its unfollow on its way): a follow
            # again reads from the version its answer gives, and would repeat this one
        mine = data.get("to", {}).get(self.node) if isinstance(data, dict) else None
        if mine:
            messages = data.get("m", [])
            shared = set(data.get("s", ()))
            made: dict[int, dict[str, Any]] = {}
            connections = self.host.gateway.connections
            members = self.members.get(table_id, set())
            for wire, index in mine:
                conn_id = self.local_id(wire)
                if conn_id is None:
                    continue  # a socket of this node's name before it restarted
                message = made.get(index)
                if message is None:
                    raw = messages[index]
                    message = made[index] = Shared(raw) if index in shared else raw
                held = self._held.get((conn_id, table_id))
                answers = is_ok(message) and "id" in message
                if answers and self._asked_again.get((conn_id, table_id)) == envelope.version:
                    del self._asked_again[(conn_id, table_id)]
                    if self._last_ok.get(conn_id) == message.get("id"):
                        continue  # late, not lost: the stored reply brought it already
                if held is not None and not (answers and conn_id in members):
                    # a follow is on its way: its answer says which frames it covered
                    held.append((envelope.version, message))
                    continue
                if envelope.version <= self.floors.get((conn_id, table_id), 0) and not answers:
                    continue  # covered by the answer of a re-follow (answers still go out)
                if conn_id not in members:
                    # the socket follows the table no more, or follows it here now (this
                    # node took the table over): the dead owner's frames are not its own
                    continue
                conn = connections.get(conn_id)
                if conn is None:
                    continue
                if self._skips(conn_id, table_id, message):
                    # items this socket never got came before this one (frames the owner
                    # did not send it while it took this node for gone): it follows again
                    # from what it has, this frame and the next held until the answer
                    log.warning(
                        "socket %s, table %s: seq %s after %s; following again",
                        conn_id,
                        table_id,
                        message.get("seq"),
                        self.seqs.get((conn_id, table_id)),
                    )
                    self._held[(conn_id, table_id)] = [(envelope.version, message)]
                    self._spawn(self._refollow(table_id, conn))
                    continue
                self._give(conn, table_id, message)
        for wire in data.get("drop", {}).get(self.node, ()) if isinstance(data, dict) else ():
            conn_id = self.local_id(wire)
            if conn_id is None:
                continue
            key = (conn_id, table_id)
            held = self._held.get(key)
            if held is not None:  # a follow is on its way: its answer says which came last
                held.append((envelope.version, DROPPED))
            elif envelope.version > self.floors.get(key, 0):
                # (at or below the floor: a re-follow answered since made it follow again)
                self._unfollowed(table_id, conn_id)
        ours = any(self.local_id(wire) is not None for wire, _ in mine or ())
        here = table_id in self.host.router.actors  # its own steps: its sockets follow here
        if not ours and not here and data.get("s") and self.members.get(table_id):
            # frames for every follower went out and none to this node's: the owner took
            # them for gone (it could not reach this node for a moment): follow again
            log.warning("table %s: the owner forgot this node's sockets; following again", table_id)
            self._spawn(self.resync(table_id))
        self.delivered[table_id] = envelope.version
        hole = self._holes.get(table_id)
        if hole is not None and hole[1] is None:  # the bus starts again from this version
            self._holes[table_id] = (hole[0], envelope.version)
        event = self._reached.pop(table_id, None)
        if event is not None:
            event.set()

    def _give(self, conn: Connection, table_id: int, message: dict[str, Any]) -> None:
        """Put one frame to a socket here, noting the last history ``seq`` it was sent.

        Each history item reaches the socket once, in ``seq`` order: two follows of
        one socket can cross (a re-follow after a failover and the client's own
        join, both answered with the history since what they knew), so an item at
        or below the last ``seq`` this socket was sent is not sent again.
        """
        if conn.closed:
            return
        key = (conn.id, table_id)
        sent = self.seqs.get(key, -1)
        seq: Any = None
        if is_pushed_history(message, table_id):
            trimmed = after_seq(message, sent)
            if trimmed is not message:
                log.warning(
                    "socket %s, table %s: history repeating seq %s or older trimmed",
                    conn.id,
                    table_id,
                    sent,
                )
                message = trimmed
            if not message.get("more"):
                seq = message.get("last_seq")
        elif message.get("table") == table_id and message.get("type") in ITEM_TYPES:
            seq = message.get("seq")
            if seq_at_most(message, sent):
                log.warning(
                    "socket %s, table %s: seq %s sent again: dropped", conn.id, table_id, seq
                )
                return
        conn.put(message)
        if is_ok(message) and message.get("id") is not None:
            self._last_ok[conn.id] = message["id"]
        if isinstance(seq, int) and not isinstance(seq, bool) and seq > sent:
            self.seqs[key] = seq

    def moved(self, table: Table) -> None:
        """A table run here is run by another node now: its followers here follow it there."""
        table_id = table.id
        for conn in list(self.host.mirror.subscribers.get(table_id, {}).values()):
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
            self._spawn(self.hub.send(node, "gone", {"c": [self.wire_id(conn.id)]}))


__all__: list[str] = ["Forwarder"]
