"""A client connection: who it is, its language, and its outgoing queue.

Messages to a connection go through its own queue and writer task, so a slow
socket never holds a table's lock and every connection receives its messages
in the order the salon produced them. The queue is bounded: a connection that
falls :data:`MAX_QUEUE` messages behind, or whose ``send`` fails, gets nothing
more, and the transport is told through ``on_close`` so that it closes that one
socket (the others at the table go on).

A transport whose ``send`` object also has a ``put_message`` method (one that
queues a message in the transport's own bounded, ordered queue without ever
waiting or raising) is handed each message directly: no second queue and no
writer task per connection, which halves the work of every broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from zanzibar.salon.accounts import User

log = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]

#: A connection whose queue grows past this is too slow to follow; it is cut off.
MAX_QUEUE = 5000

_ids = itertools.count(1)


class Shared(dict[str, Any]):
    """One message put unchanged to many connections (a table's audience).

    The transport encodes it once and keeps the text in ``encoded`` for the
    next socket: a broadcast costs one encoding per audience, not per socket.
    Nobody changes a message once put, so the text stays true.
    """

    #: The message's JSON text, once a transport has encoded it (a class default: no
    #: ``__init__`` of its own, so making one is dict's own C call, once per audience).
    encoded: str | None = None


class Connection:
    """One socket of one user (a user may hold several)."""

    def __init__(self, send: Send) -> None:
        self.id = next(_ids)
        self.send = send
        #: The transport's own non-blocking queue, if it has one (see the module's doc).
        self._put_now: Callable[[dict[str, Any]], None] | None = getattr(send, "put_message", None)
        #: The protocol version its transport frames for (2: one frame per step; ``welcome``
        #: says it). The messages are the same in every version.
        protocol = getattr(send, "protocol", 1)
        self.protocol: int = protocol if type(protocol) is int else 1
        self.user: User | None = None
        self.lang = "en"
        self.lobby = False
        #: Tables whose live items this connection receives.
        self.tables: set[int] = set()
        self.closed = False
        #: Called once when the salon gives up on this connection: ``(too_slow, reason)``
        #: (set by the transport, which then closes the socket).
        self.on_close: Callable[[bool, str], None] | None = None
        #: Messages queued and not yet handed to ``send``.
        self.pending = 0
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        if self._put_now is None:
            self._writer = asyncio.create_task(self._write(), name=f"salon-conn-{self.id}")

    def __repr__(self) -> str:
        who = self.user.name if self.user else "?"
        return f"<Connection {self.id} {who}>"

    @property
    def user_id(self) -> int | None:
        """The signed-in user's id, if any."""
        return self.user.id if self.user else None

    def put(self, message: dict[str, Any]) -> None:
        """Queue one message (never blocks)."""
        if self.closed:
            return
        if self._put_now is not None:
            try:
                self._put_now(message)
            except Exception as exc:  # the transport promised not to raise: stop using it
                self._failed(message, exc)
            return
        if self._queue.qsize() >= MAX_QUEUE:
            reason = f"too slow to read: {MAX_QUEUE} messages waiting"
            log.warning("%r: %s; cutting it off", self, reason)
            self.close()
            self._notify(too_slow=True, reason=reason)
            return
        self.pending += 1
        self._queue.put_nowait(message)

    async def drained(self) -> None:
        """Wait until every queued message has been handed to ``send``."""
        if not self.closed:
            await self._queue.join()

    def close(self) -> None:
        """Stop sending (queued messages are dropped)."""
        self.closed = True
        if self._writer is not None:
            self._writer.cancel()
        self._discard()

    def give_up(self, reason: str) -> None:
        """Stop serving this socket and have its transport close it: its client
        reconnects and resumes from what it has (the salon could not keep its stream
        whole)."""
        log.warning("%r: %s; closing it", self, reason)
        self.close()
        self._notify(too_slow=False, reason=reason)

    def _notify(self, too_slow: bool, reason: str) -> None:
        callback, self.on_close = self.on_close, None
        if callback is not None:
            try:
                callback(too_slow, reason)
            except Exception:
                log.exception("%r: the transport failed to close it", self)

    def _discard(self) -> None:
        while not self._queue.empty():
            self._queue.get_nowait()
            self._queue.task_done()
        self.pending = 0

    async def _write(self) -> None:
        while True:
            message = await self._queue.get()
            try:
                await self.send(message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._queue.task_done()
                self._failed(message, exc)
                return
            self.pending -= 1
            self._queue.task_done()

    def _failed(self, message: dict[str, Any], exc: Exception) -> None:
        """A message could not be handed over: send nothing more, tell the transport."""
        reason = f"a {message.get('type')} message could not be sent: {exc!r}"
        log.warning("%r: %s; no more messages go to it", self, reason)
        self.closed = True
        self._discard()
        self._notify(too_slow=False, reason=reason)

    async def wait_closed(self) -> None:
        """Wait for the writer task to end after :meth:`close`."""
        if self._writer is None:
            return
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer
