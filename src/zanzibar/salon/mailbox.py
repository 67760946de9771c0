"""Private messages, kept for an account that is away and delivered when it comes back.

A private message to someone connected goes out at once (the salon sends it)
and is stored as delivered. To an *account* that is away it is stored as
waiting (``delivered`` null) and sent, oldest first, on the next ``hello`` of
that account, each with a sentence ("While you were away, Anna wrote: ...").
It is marked delivered once the connection has handed it to the socket; if
the socket drops first, it waits for the next ``hello``: a message may be sent
twice after a crash at that very moment, but it is never lost.

Guests vanish (nobody can sign in as a guest again once its tab is closed), so
a message to a guest who is gone is refused, and a guest may not leave
messages either: a reply could not reach them, and throw-away guest names must
not be able to fill someone's mailbox. Two limits bound what waits
(:class:`zanzibar.salon.limits.Limits`): ``offline_messages_per_recipient``
(all senders together) and ``offline_messages_per_sender`` (one sender to one
recipient); beyond them the sender is refused with ``quota``.

**The database is the truth for both limits, over every node.** The counts kept
here only refuse early what is surely over; a message to keep is stored by an
``INSERT ... SELECT ... WHERE`` whose conditions count, in the same statement,
the messages waiting in storage (:func:`kept_insert`), after the transaction
has locked the recipient's account row on PostgreSQL (:func:`account_lock`): two
nodes keeping a message for one account at the same instant take turns, and the
second counts the first. A message stored as delivered to someone who left at
that very moment is kept for him even beyond the limits: it was accepted, and
is never lost.

Whether someone is online is read through one function (``online``), so that
a salon of several processes can answer it from its shared presence.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Executable, func, insert, literal, select, update

from zanzibar.l10n import Msg, Voice
from zanzibar.salon import models as m
from zanzibar.salon.accounts import User
from zanzibar.salon.connections import Connection
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import PROTOCOL
from zanzibar.salon.limits import Limits
from zanzibar.salon.persistence import Fenced, Op, Store, fenced

log = logging.getLogger(__name__)

#: Seconds a delivery waits for the socket to take the messages before giving up for now.
DELIVERY_WAIT_S = 30.0


def away_sentence(lang: str, sender: str, text: str, me: bool) -> str:
    """How a message kept while the recipient was away is announced.

    >>> away_sentence("en", "Anna", "see you at nine", False)
    'While you were away, Anna wrote: see you at nine'
    >>> away_sentence("en", "Anna", "waves", True)
    'While you were away: * Anna waves'
    """
    key = "friends-away-me" if me else "friends-away"
    return Voice(lang).say(Msg(key, name=sender, text=text))


def kept_sentence(lang: str, recipient: str) -> str:
    """What the sender hears when their message waits for the recipient.

    >>> kept_sentence("en", "Bob")
    'Bob is away: your message is kept and will be delivered when Bob signs in.'
    """
    return Voice(lang).say(Msg("friends-kept", name=recipient))


def account_lock(store: Store, user_id: int) -> list[Op]:
    """The op that makes a transaction wait for any other one counting rows of this
    account (its ``users`` row locked ``FOR UPDATE`` until the commit), so that a limit
    counted in storage holds between nodes. None on SQLite: one writer at a time.

    Under PostgreSQL's READ COMMITTED, two transactions counting at the same instant
    would both see room for one more; the lock makes the second wait, and its count
    (a new statement) then sees the first one's row.
    """
    if store.engine.dialect.name == "sqlite":
        return []
    lock = select(m.users.c.id).where(m.users.c.id == user_id).with_for_update()
    return [(lock, None)]


def kept_insert(row: dict[str, Any], per_recipient: int, per_sender: int) -> Executable:
    """The fenced insert of a message to keep, made only while fewer than ``per_recipient``
    messages wait for its recipient and fewer than ``per_sender`` from its sender to him
    (counted in storage, in the statement itself); else it changes no row (``Fenced``)."""
    pm = m.private_messages
    waiting = pm.c.delivered.is_(None) & (pm.c.recipient_id == row["recipient_id"])
    for_him = select(func.count()).select_from(pm).where(waiting).scalar_subquery()
    from_me = (
        select(func.count())
        .select_from(pm)
        .where(waiting & (pm.c.sender_id == row["sender_id"]))
        .scalar_subquery()
    )
    columns = ["id", "sender_id", "recipient_id", "text", "me", "created"]
    values = select(*(literal(row[c], pm.c[c].type) for c in columns)).where(
        (for_him < per_recipient) & (from_me < per_sender)
    )
    return fenced(insert(pm).from_select(columns, values))


class Mailbox:
    """Stores private messages and delivers those kept for an account that was away.

    ``new_id`` hands out message ids; ``online(user_id)`` says whether a user is
    connected (anywhere). Counts of waiting messages are kept in memory, loaded
    at start, to refuse at once what is surely over a limit; storage decides
    (:func:`kept_insert`), and a ``hello`` reads what waits from storage, whichever
    node kept it.
    """

    def __init__(
        self,
        store: Store,
        limits: Limits,
        new_id: Callable[[], Awaitable[int]],
        online: Callable[[int], bool],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.limits = limits
        self.new_id = new_id
        self.online = online
        self.clock = clock
        #: recipient -> messages waiting for them
        self.waiting: dict[int, int] = {}
        #: (sender, recipient) -> messages waiting
        self.waiting_pair: dict[tuple[int, int], int] = {}
        #: One delivery at a time per user (two sockets saying hello at once get each
        #: message once between them).
        self._delivering: dict[int, asyncio.Lock] = {}

    async def load(self) -> None:
        """Count the messages waiting in storage (after a restart)."""
        pm = m.private_messages
        rows = await self.store.read(
            select(pm.c.sender_id, pm.c.recipient_id, func.count())
            .where(pm.c.delivered.is_(None))
            .group_by(pm.c.sender_id, pm.c.recipient_id)
        )
        self.waiting.clear()
        self.waiting_pair.clear()
        for sender, recipient, count in rows:
            self.waiting[recipient] = self.waiting.get(recipient, 0) + int(count)
            self.waiting_pair[(sender, recipient)] = int(count)

    async def recount(self, recipient: int) -> None:
        """Count again, from storage, the messages waiting for ``recipient``.

        Other nodes of the salon keep messages for him too: before refusing or
        accepting one more for an away account, a node of several reads the
        true counts (two nodes accepting at the same instant may still pass
        the quota by one each).
        """
        pm = m.private_messages
        rows = await self.store.read(
            select(pm.c.sender_id, func.count())
            .where(pm.c.recipient_id == recipient, pm.c.delivered.is_(None))
            .group_by(pm.c.sender_id)
        )
        for pair in [pair for pair in self.waiting_pair if pair[1] == recipient]:
            del self.waiting_pair[pair]
        self.waiting.pop(recipient, None)
        for sender, count in rows:
            self._count(int(sender), recipient, int(count))

    # -- sending -----------------------------------------------------------------------

    def check(self, sender: User, recipient: User) -> bool:
        """True if ``recipient`` is online now; if away, refuse what may not be kept.

        Raises before anything is counted or stored.
        """
        if self.online(recipient.id):
            return True
        if recipient.guest:
            raise SalonError("forbidden", Msg("error-pm-guest-gone", name=recipient.name))
        if sender.guest:
            raise SalonError("forbidden", Msg("error-pm-guest-sender", name=recipient.name))
        if self.waiting.get(recipient.id, 0) >= self.limits.offline_messages_per_recipient:
            raise self._full(recipient)
        if (
            self.waiting_pair.get((sender.id, recipient.id), 0)
            >= self.limits.offline_messages_per_sender
        ):
            raise SalonError(
                "quota",
                Msg(
                    "error-pm-pair-full",
                    name=recipient.name,
                    max=self.limits.offline_messages_per_sender,
                ),
            )
        return False

    def _full(self, recipient: User) -> SalonError:
        limit = self.limits.offline_messages_per_recipient
        return SalonError("quota", Msg("error-pm-mailbox-full", name=recipient.name, max=limit))

    async def post(
        self,
        sender: User,
        recipient: User,
        text: str,
        me: bool,
        reach: Callable[[], Awaitable[bool]] | None = None,
    ) -> bool:
        """Store one message; True if it goes out now, False if it waits for the recipient.

        Call :meth:`check` first. If the recipient came or went while the
        message was being stored, the stored state is corrected: a message
        marked delivered to someone who just left is kept for them, and one
        kept for someone who just came back is delivered by the caller's
        :meth:`deliver` (see ``Gateway._chat_private``). ``reach``, called once
        a message to someone online is stored, hands it to his sockets (on any
        node) and says whether any took it: if none did, it is kept too.
        """
        live = self.check(sender, recipient)
        message_id = await self.new_id()
        now = self.clock()
        if not live:
            self._count(sender.id, recipient.id, +1)  # reserved before waiting
        row = {
            "id": message_id,
            "sender_id": sender.id,
            "recipient_id": recipient.id,
            "text": text,
            "me": me,
            "created": now,
            "delivered": now if live else None,
        }
        if live:
            ops: list[Op] = [(insert(m.private_messages), row)]
        else:
            limits = self.limits
            kept = kept_insert(
                row, limits.offline_messages_per_recipient, limits.offline_messages_per_sender
            )
            ops = [*account_lock(self.store, recipient.id), (kept, None)]
        try:
            await self.store.write(ops)
        except Fenced:  # full in storage: another node kept messages for him meanwhile
            await self.recount(recipient.id)
            self.check(sender, recipient)  # the refusal that applies now
            raise self._full(recipient) from None
        except Exception:
            if not live:
                self._count(sender.id, recipient.id, -1)
            raise SalonError("internal", Msg("error-message-not-stored")) from None
        if live and not recipient.guest:
            reached = self.online(recipient.id) and (reach is None or await reach())
            if not reached:
                await self._unmark(message_id, sender.id, recipient.id)
                return False
        elif live and reach is not None:
            await reach()  # a guest's line cannot wait: it goes now or is lost with him
        return live

    async def _unmark(self, message_id: int, sender: int, recipient: int) -> None:
        """The recipient left while their message was stored: keep it for them."""
        pm = m.private_messages
        try:
            await self.store.write([(update(pm).where(pm.c.id == message_id), {"delivered": None})])
        except Exception:
            log.exception("could not keep private message %s for later", message_id)
            return
        self._count(sender, recipient, +1)

    def _count(self, sender: int, recipient: int, change: int) -> None:
        total = self.waiting.get(recipient, 0) + change
        pair = self.waiting_pair.get((sender, recipient), 0) + change
        if total > 0:
            self.waiting[recipient] = total
        else:
            self.waiting.pop(recipient, None)
        if pair > 0:
            self.waiting_pair[(sender, recipient)] = pair
        else:
            self.waiting_pair.pop((sender, recipient), None)

    # -- delivering --------------------------------------------------------------------

    async def deliver(self, user: User, conn: Connection, name_of: Callable[[int], str]) -> int:
        """Send ``user`` (on ``conn``) the messages kept for them, oldest first.

        Each becomes a ``chat`` message with ``offline`` true, the time it was
        ``sent`` and its ``sentence``; once the socket has taken them all they
        are marked delivered. Returns how many were marked (0 if the socket
        dropped first: they wait for the next ``hello``).
        """
        if user.guest:
            return 0
        async with self._delivering.setdefault(user.id, asyncio.Lock()):
            return await self._deliver(user, conn, name_of)

    async def deliver_at_hello(
        self,
        user: User,
        conn: Connection,
        name_of: Callable[[int], str],
        spawn: Callable[[Awaitable[Any]], Any],
    ) -> None:
        """As :meth:`deliver`, but the kept messages are on the socket when this returns.

        ``hello`` awaits it, so they come before the answer to anything the
        client asks next (a terminal that types ``/friends`` at once reads its
        kept lines first); waiting for the socket to take them and marking
        them delivered go on in a task (``spawn``), still under the user's lock.
        """
        if user.guest:
            return
        lock = self._delivering.setdefault(user.id, asyncio.Lock())
        await lock.acquire()
        try:
            rows = await self._put_kept(user, conn, name_of)
        except BaseException:
            lock.release()
            raise
        if not rows:
            lock.release()
            return

        async def confirm() -> None:
            try:
                await self._confirm(user, conn, rows)
            finally:
                lock.release()

        spawn(confirm())

    async def _deliver(self, user: User, conn: Connection, name_of: Callable[[int], str]) -> int:
        rows = await self._put_kept(user, conn, name_of)
        return await self._confirm(user, conn, rows) if rows else 0

    async def _put_kept(
        self, user: User, conn: Connection, name_of: Callable[[int], str]
    ) -> list[Any]:
        """The messages kept for ``user``, oldest first, put on ``conn`` (none: [])."""
        if conn.closed:  # read from storage: another node may have kept them
            return []
        pm = m.private_messages
        rows = await self.store.read(
            select(pm)
            .where(pm.c.recipient_id == user.id, pm.c.delivered.is_(None))
            .order_by(pm.c.id)
            .limit(self.limits.offline_messages_per_recipient)
        )
        if not rows or conn.closed:
            return []
        for row in rows:
            conn.put(self._message(row, user, conn.lang, name_of(row.sender_id)))
        return list(rows)

    async def _confirm(self, user: User, conn: Connection, rows: list[Any]) -> int:
        """Once the socket took them, mark ``rows`` delivered; how many (0: it dropped)."""
        pm = m.private_messages
        try:
            await asyncio.wait_for(conn.drained(), DELIVERY_WAIT_S)
        except TimeoutError:
            log.warning("private messages for %s still queued; marked delivered", user.name)
        if conn.closed:
            return 0
        ids = [row.id for row in rows]
        await self.store.write([(update(pm).where(pm.c.id.in_(ids)), {"delivered": self.clock()})])
        for row in rows:
            self._count(row.sender_id, user.id, -1)
        return len(ids)

    @staticmethod
    def _message(row: Any, user: User, lang: str, sender: str) -> dict[str, Any]:
        """The ``chat`` message of a kept private message, with its sentence in ``lang``."""
        return {
            "v": PROTOCOL,
            "type": "chat",
            "table": None,
            "seq": None,
            "channel": "chat",
            "from": sender,
            "user": row.sender_id,
            "text": row.text,
            "me": bool(row.me),
            "private": True,
            "to": user.name,
            "offline": True,
            "sent": row.created,
            "sentence": away_sentence(lang, sender, row.text, bool(row.me)),
        }
