"""One table, one task, one inbox: the table actor.

Every change of a table (a player's command, a bot's move, the clock, the
pause's end, a takeover, a player going offline) is a message in the
actor's inbox, applied one at a time, so a table's changes have a single
order without any lock. The walk of one message goes forward only:

    command -> transition (seating / play) -> commit (storage) -> publish (mirror) -> reply

A transition that refuses changes nothing; if storing fails the table is
put back from its :class:`~zanzibar.salon.snapshots.Snapshot` and ``internal``
is answered. Nothing is published or acknowledged before it is committed.

The actor keeps one timer, for the table's next deadline
(:mod:`zanzibar.salon.deadlines`); a bot thinks outside the actor (inline,
in a thread or a worker process) and its choice comes back as a message,
dropped if the game moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert

from zanzibar.engine.errors import ZanzibarError
from zanzibar.l10n.msg import Msg
from zanzibar.salon import deadlines, play, seating, tablestore
from zanzibar.salon import models as m
from zanzibar.salon.bots import Thinker, bot_for
from zanzibar.salon.changes import Change, Command, TableContext
from zanzibar.salon.connections import Connection
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import STOP_WAIT_S, since_field
from zanzibar.salon.inbox import Inbox
from zanzibar.salon.members import MemberIndex, member_ops, members_of
from zanzibar.salon.mirror import Mirror
from zanzibar.salon.persistence import Fenced
from zanzibar.salon.snapshots import Snapshot
from zanzibar.salon.tables import Table

log = logging.getLogger(__name__)

#: The commands that start following the table (their change's ``follow``).
FOLLOWING_COMMANDS = frozenset({"table.join", "table.watch"})

#: Replies of applied command ids kept in memory per table (older ones are read back).
APPLIED_IN_MEMORY = 256

#: A transition: the table, the context and the command in, a change out (None: nothing to do).
Transition = Callable[[Table, TableContext, Command], Change | None]


@dataclass
class ActorServices:
    """What every actor of a salon shares: context, timing, storage, fan-out, bots."""

    ctx: TableContext
    timing: deadlines.Timing
    #: Stores one change (the table, its staged items, the change's ops); raises if it cannot.
    commit: Callable[[Table, Change], Awaitable[None]]
    mirror: Mirror
    thinker: Thinker
    #: Called once the table is closed (and stored as such) or claimed by another process.
    closed: Callable[[Table], None]
    #: The stored reply of a command id already applied to a table (None: not applied).
    recall: Callable[[int, str], Awaitable[dict[str, Any] | None]] | None = None
    #: Called after each committed change (a hook: e.g. a finished game's ratings).
    committed: list[Callable[[Table, Change], None]] = field(default_factory=list)
    #: Called after each message the actor handled, with whether it committed a change:
    #: what the step put into other nodes' sockets leaves then (salon/forwarding.py).
    stepped: Callable[[Table, bool], Awaitable[None]] | None = None
    #: Called when the table is found claimed by another node, before its followers
    #: here are dropped (they follow it on its new owner: salon/forwarding.py).
    moved: Callable[[Table], None] | None = None
    #: Who sits at or watches which table run here (kept by the actors; ``Gateway.went``).
    members: MemberIndex = field(default_factory=MemberIndex)


@dataclass
class _Do:
    """Apply ``transition`` for ``cmd``; ``done`` gets None, or the refusal."""

    transition: Transition
    cmd: Command
    done: asyncio.Future[None] | None


@dataclass
class _Read:
    """Run ``read`` between two changes (a read that must see committed state only)."""

    read: Callable[[Table], None]
    done: asyncio.Future[None]


@dataclass
class _BotChose:
    game_id: int
    log_length: int
    seat: int
    action: Any


#: Built once: an INSERT statement is an immutable value, and building one costs
#: more than the row it writes (every command a table applies stores one).
INSERT_APPLIED = insert(m.applied_commands)


def applied_op(
    table: Table, cmd_id: str, reply: dict[str, Any] | None, now: float
) -> tuple[Any, dict[str, Any]]:
    """The row saying ``cmd_id`` was applied as the table's next version, with its reply."""
    return (
        INSERT_APPLIED,
        {
            "table_id": table.id,
            "cmd_id": cmd_id,
            "version": table.version + 1,
            "status": "applied",
            "reply": dict(reply or {}),
            "created": now,
        },
    )


def _writes(table: Table, change: Change) -> bool:
    """Whether storing ``change`` writes anything (tablestore.commit's own test)."""
    return bool(
        change.ops
        or table.staged
        or not table.stored_row
        or tablestore.stored_columns(table) != table.stored_row
    )


class _Wake:
    """The timer fired: do what is due."""


class TableActor:
    """Runs one table: its inbox, its timer, its bot."""

    def __init__(self, table: Table, services: ActorServices) -> None:
        self.table = table
        self.services = services
        self.inbox: Inbox[_Do | _Read | _BotChose | _Wake] = Inbox()
        self.processing = False
        self.thinking = False
        self.closed = False
        #: Replies of the command ids applied here (the database keeps them for a failover).
        self.applied: dict[str, dict[str, Any]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._armed_for: float | None = None
        self._think_task: asyncio.Task[None] | None = None
        #: The command or read being run now (answered by :meth:`stop` if it cuts it short).
        self._current: _Do | _Read | None = None
        services.members.put(table.id, members_of(table.seats, table.spectators))
        self._task = asyncio.create_task(self._run(), name=f"table-{table.id}")

    def __repr__(self) -> str:
        return f"<TableActor {self.table.id}>"

    # -- from outside --------------------------------------------------------------------

    async def call(self, transition: Transition, cmd: Command) -> None:
        """Apply ``transition`` for ``cmd`` in turn; raise its refusal (nothing changed)."""
        if self.closed:
            raise SalonError("not_found", f"there is no table {self.table.id}")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(_Do(transition, cmd, done))
        await done

    async def read(self, read: Callable[[Table], None]) -> None:
        """Run ``read(table)`` in turn, between two changes; raise what it raises.

        Following a table from another node, or a page of its history, reads
        the table here so that it sees no change half-stored.
        """
        if self.closed:
            raise SalonError("not_found", f"there is no table {self.table.id}")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(_Read(read, done))
        await done

    def post(self, transition: Transition, cmd: Command | None = None) -> None:
        """Apply ``transition`` in turn, answering nobody (the salon's own changes)."""
        if not self.closed:
            self.inbox.put_nowait(_Do(transition, cmd or Command("salon"), None))

    def busy(self) -> bool:
        """Work is queued or running, a bot is to move, or an immediate takeover: tests wait.

        The turn clock, the pause between rounds and a delayed takeover are not
        waited for (their change is, once their timer fired).
        """
        if self.closed:
            return False
        if self.processing or self.thinking or not self.inbox.empty():
            return True
        return any(
            wake.kind == "bot"
            or (wake.kind == "takeover" and self.services.timing.takeover_delay <= 0)
            for wake in deadlines.pending(self.table, self.services.timing, self.thinking)
        )

    async def stop(self, keep_queued: bool = False) -> list[_Do | _Read]:
        """End the actor at once (the salon stops or crashes): queued work is refused.

        ``keep_queued``: the commands and reads queued and not started are
        returned instead, for the actor of the same table reloaded in place
        (:meth:`take_queued`; a lease taken back after Redis forgot it):
        they are applied there rather than refused for a reload nobody asked for.
        """
        self.closed = True
        self._disarm()
        running = [t for t in (self._task, self._think_task) if t is not None and not t.done()]
        for task in running:
            task.cancel()
        if running:  # bounded: a task that ignores its cancellation must not hold the stop
            _, left = await asyncio.wait(running, timeout=STOP_WAIT_S)
            if left:
                log.warning("table %s: its actor did not end when cancelled", self.table.id)
        cut = self._current
        if cut is not None and cut.done is not None and not cut.done.done():
            # cut short in its step (maybe stored, maybe not): its caller waited for good
            cut.done.set_exception(SalonError("internal", Msg("error-table-unreachable")))
        kept: list[_Do | _Read] = []
        while keep_queued and not self.inbox.empty():
            message = self.inbox.get_nowait()
            if isinstance(message, _Do | _Read):  # a bot's choice or a wake-up: re-armed there
                kept.append(message)
        self._answer_queued()
        return kept

    def take_queued(self, queued: list[_Do | _Read]) -> None:
        """Run the work queued on this table's previous actor (:meth:`stop`), in order;
        refused (``internal``: try again) if this actor is closed too."""
        for message in queued:
            if message.done is not None and message.done.done():
                continue
            if self.closed:  # the table went to another node meanwhile: resent, it goes there
                if message.done is not None:
                    message.done.set_exception(SalonError("internal", Msg("error-table-moved")))
                continue
            self.inbox.put_nowait(message)

    # -- the loop --------------------------------------------------------------------------

    async def _run(self) -> None:
        self.arm()
        while not self.closed:
            message = await self.inbox.get()
            self.processing = True
            version = self.table.version
            self._current = message if isinstance(message, _Do | _Read) else None
            try:
                if isinstance(message, _Do):
                    await self._do(message)
                elif isinstance(message, _Read):
                    self._read(message)
                elif isinstance(message, _BotChose):
                    self.thinking = False
                    await self._bot_chose(message)
                else:
                    await self._wake()
            except Exception:
                log.exception("table %s failed on %r", self.table.id, message)
            finally:
                self.processing = False
            self._current = None  # (not when cancelled in its step: stop() answers it)
            stepped = self.services.stepped
            if stepped is not None:
                try:
                    await stepped(self.table, self.table.version != version)
                except Exception:
                    log.exception("table %s: sending a step to other nodes failed", self.table.id)
            if not self.closed:
                self.arm()
        self._answer_queued()

    def _answer_queued(self) -> None:
        while not self.inbox.empty():
            message = self.inbox.get_nowait()
            done = message.done if isinstance(message, _Do | _Read) else None
            if done is not None and not done.done():
                done.set_exception(SalonError("not_found", f"there is no table {self.table.id}"))

    def _read(self, message: _Read) -> None:
        try:
            message.read(self.table)
        except Exception as exc:
            if not message.done.done():
                message.done.set_exception(exc)
            return
        if not message.done.done():
            message.done.set_result(None)

    async def _do(self, message: _Do) -> None:
        done = message.done
        before = self.table.version
        try:
            await self.apply(message.transition, message.cmd)
            message.cmd.applied_at = self.table.version
            message.cmd.stored = self.table.version != before
        except ZanzibarError as exc:
            if done is not None and not done.done():
                done.set_exception(exc)
            return
        except Exception as exc:
            log.exception("table %s failed on %s", self.table.id, message.cmd.type)
            if done is not None and not done.done():
                done.set_exception(exc)
            return
        if done is not None and not done.done():
            done.set_result(None)

    async def apply(self, transition: Transition, cmd: Command) -> None:
        """Transition, commit, publish, reply: one change, forward only.

        A command id already applied (a resend after a failover) is answered
        with its stored reply and not applied again.
        """
        table = self.table
        if cmd.cmd_id is not None and await self._answered(cmd):
            return
        snap = Snapshot.of(table)
        try:
            change = transition(table, self.services.ctx, cmd)
        except Exception:
            snap.restore(table)
            raise
        if change is None:
            return
        before = members_of(snap.seats, snap.spectators) if table.stored_row else {}
        after = members_of(table.seats, table.spectators)
        moved = before != after or change.close
        if moved:
            change.ops += member_ops(table.id, before, after, change.close)
        started = time.time()
        deadlines.refresh(table, self.services.timing, started)
        if cmd.cmd_id is not None and _writes(table, change):  # a question stores nothing
            change.ops.append(applied_op(table, cmd.cmd_id, change.reply, started))
        try:
            await self.services.commit(table, change)
            deadlines.committed(
                table, snap.deadlines, [s.dropped_at for s in snap.seats], time.time() - started
            )
        except Fenced:
            log.warning("table %s was claimed by another process; releasing it", table.id)
            self._undo(snap, change)
            self._release(moved=True)
            raise SalonError("internal", Msg("error-table-moved")) from None
        except Exception:
            log.exception("storing a change of table %s failed; undone", table.id)
            self._undo(snap, change)
            raise SalonError(
                "internal", "the change could not be stored; nothing was changed"
            ) from None
        if moved:
            self.services.members.put(table.id, () if change.close else after)
        self._publish(change, cmd)

    async def _answered(self, cmd: Command) -> bool:
        """Answer a command id already applied from its stored reply; False if it is new."""
        assert cmd.cmd_id is not None
        reply = self.applied.get(cmd.cmd_id)
        if reply is None and not cmd.fresh and self.services.recall is not None:
            reply = await self.services.recall(self.table.id, cmd.cmd_id)
        if reply is None:
            return False
        watcher = cmd.user if cmd.type == "table.watch" else None
        if watcher is not None and not self.table.is_present(watcher.id):
            # spectators are not stored: a new owner forgot the one its first try added;
            # he watches again, a change of its own (the id names the first try's)
            cmd.cmd_id = None
            return False
        if cmd.conn is not None and not cmd.acked:
            self.services.mirror.reply(cmd.conn, cmd.message, reply, self.table)
        if cmd.conn is not None and cmd.type in FOLLOWING_COMMANDS:
            self._follow_again(cmd.conn, cmd)
        return True

    def _follow_again(self, conn: Connection, cmd: Command) -> None:
        """A join or watch answered from its stored reply still follows the table.

        Its first try's table, history and view may never have reached the
        socket (the node that applied it died before they left, or they went
        on the bus before the socket's node listened to the table), and a
        socket that does not follow hears nothing more of the table: a player
        who never sees his turn come stalls the game. A socket of another node
        (a negative id) is sent them even if it follows already: its node
        passes on only what the socket lacks (salon/forwarding.py).
        """
        table = self.table
        mirror = self.services.mirror
        if conn.id > 0 and mirror.subscribers.get(table.id, {}).get(conn.id) is conn:
            return  # a socket of this node follows the table here already
        if conn.closed or conn.user_id is None or not table.is_present(conn.user_id):
            return
        try:
            since = since_field(cmd.message)
        except SalonError:
            since = 0
        mirror.follow(conn, table, since)

    def _undo(self, snap: Snapshot, change: Change) -> None:
        snap.restore(self.table)
        for undo in change.undo:
            undo()

    def _release(self, moved: bool = False) -> None:
        """Stop running the table here (closed, or claimed elsewhere): the salon forgets it.

        ``moved``: another node runs it now; its followers here follow it there.
        """
        self.closed = True
        self._disarm()
        self.services.members.drop(self.table.id)
        if self._think_task is not None:
            self._think_task.cancel()
        if moved and self.services.moved is not None:
            self.services.moved(self.table)
        self.services.mirror.closed(self.table.id)
        self.services.closed(self.table)

    def _publish(self, change: Change, cmd: Command) -> None:
        table = self.table
        mirror = self.services.mirror
        if cmd.cmd_id is not None:
            self.applied[cmd.cmd_id] = dict(change.reply or {})
            if len(self.applied) > APPLIED_IN_MEMORY:  # the oldest: the database keeps it
                del self.applied[next(iter(self.applied))]
        items = table.commit_staged()
        conn = cmd.conn if change.reply is not None else None
        if conn is not None and change.reply_at == "first":
            mirror.reply(conn, cmd.message, change.reply or {}, table)
        mirror.items(table, items)
        last = change.reply_at == "last"
        if last:
            mirror.publish(table, change, last=True)
        if conn is not None and change.reply_at != "first":
            mirror.reply(conn, cmd.message, change.reply or {}, table)
        if conn is not None and change.follow is not None and not change.close:
            mirror.follow(conn, table, change.follow)
        if not last:
            mirror.publish(table, change)
        if change.unfollow is not None:
            mirror.unfollow_user(table.id, change.unfollow)
        for hook in self.services.committed:
            try:
                hook(table, change)
            except Exception:
                log.exception("a hook failed after a change of table %s", table.id)
        if change.close:
            self._release()

    # -- time --------------------------------------------------------------------------------

    def arm(self) -> None:
        """Set the one timer for the table's next deadline (kept if that did not move)."""
        wake = deadlines.next_wake(self.table, self.services.timing, self.thinking)
        when = None if wake is None else wake.when
        if self._timer is not None and when == self._armed_for:
            return
        self._disarm()
        if when is None:
            return
        delay = max(0.0, when - time.time())
        self._armed_for = when
        self._timer = asyncio.get_running_loop().call_later(delay, self._ring)

    def _ring(self) -> None:
        self._timer = None
        self.inbox.put_nowait(_Wake())

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def _wake(self) -> None:
        """Do the earliest thing due (the next one is armed after it)."""
        table = self.table
        wake = deadlines.next_wake(table, self.services.timing, self.thinking)
        if wake is None or wake.when > time.time():
            return
        if wake.kind == "bot":
            self._think()
        elif wake.kind == "clock":
            await self._quietly(lambda t, c, _: play.clock_timeout(t, c), "clock")
        elif wake.kind == "pause":
            await self._quietly(lambda t, c, _: play.resume(t, c), "pause")
        else:
            user = wake.user
            assert user is not None
            await self._quietly(lambda t, c, _: seating.takeover(t, c, user), "takeover")

    async def _quietly(self, transition: Transition, what: str) -> None:
        try:
            await self.apply(transition, Command(what))
        except ZanzibarError as exc:
            log.error("table %s: %s failed: %s", self.table.id, what, exc.message)

    def _think(self) -> None:
        table = self.table
        match = table.match
        seat = match.to_act if match is not None else None
        if match is None or seat is None or table.game_id is None:
            table.bot_due = None
            return
        level = table.bot_level(seat)
        if level is None:
            table.bot_due = None
            return
        thinker = self.services.thinker
        if thinker.inline(table.rules.name, level):
            bot = bot_for(table, seat, level)
            try:
                chosen = thinker.choose_now(table.rules.name, level, bot, match.state)
            except Exception:
                log.exception("the %s bot of %s failed", level, table.rules.name)
                chosen = None
            self.inbox.put_nowait(_BotChose(table.game_id, len(match.log), seat, chosen))
            self.thinking = True
            return
        self.thinking = True
        self._think_task = asyncio.create_task(
            self._choose(table.game_id, len(match.log), seat, level),
            name=f"bot-{table.id}",
        )

    async def _choose(self, game_id: int, log_length: int, seat: int, level: str) -> None:
        table = self.table
        match = table.match
        assert match is not None
        state = match.state
        try:
            bot = bot_for(table, seat, level)
            chosen = await self.services.thinker.choose(table.rules.name, level, bot, state)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "the %s bot of %s failed; playing its first legal action", level, table.rules.name
            )
            legal = table.rules.legal_actions(state)
            if not legal:
                self.thinking = False
                table.bot_due = None
                return
            chosen = legal[0]
        self.inbox.put_nowait(_BotChose(game_id, log_length, seat, chosen))

    async def _bot_chose(self, message: _BotChose) -> None:
        game_id, log_length, seat = message.game_id, message.log_length, message.seat

        def move(table: Table, ctx: TableContext, _cmd: Command) -> Change | None:
            return play.bot_move(table, ctx, game_id, log_length, seat, message.action)

        def fallback(table: Table, ctx: TableContext, _cmd: Command) -> Change | None:
            return play.first_legal(table, ctx, game_id, log_length, seat)

        try:
            await self.apply(move, Command("bot"))
        except ZanzibarError as exc:
            log.error("bot move refused at table %s: %s", self.table.id, exc.message)
            await self._quietly(fallback, "bot")
