"""A first-in first-out queue read by one task: a table actor's inbox, the store's jobs.

``asyncio.Queue`` does more than these need, on every message: a bound to
check, a list of waiting putters to wake, a count of unfinished tasks and an
``Event`` cleared per put, and a new getter future per wait. A table actor
and the store's writer each have exactly one reader task and no bound, and a
player's action passes through two such queues (the actor's command, the
store's job) and often a third time (the bot's move): what that machinery cost
was some 2 % of the salon's Python per player action. :class:`Inbox` keeps the
part they use, with the same order and the same wake-up (the reader's future
is answered, so it runs in the next turn of the loop, as with ``asyncio.Queue``).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Inbox(Generic[T]):
    """Unbounded FIFO for ONE reader task (a second concurrent :meth:`get` is refused).

    >>> inbox: Inbox[int] = Inbox()
    >>> inbox.put_nowait(1); inbox.put_nowait(2)
    >>> inbox.qsize(), inbox.get_nowait(), inbox.empty()
    (2, 1, False)
    >>> asyncio.run(inbox.get())
    2
    >>> inbox.get_nowait()
    Traceback (most recent call last):
    ...
    asyncio.queues.QueueEmpty
    """

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        #: The reader's future while it waits for an item (None: not waiting).
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        """Queue ``item``; wake the reader if it waits."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, waiting for one if there is none."""
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("an Inbox has one reader")
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:  # cancelled while waiting: nobody waits any more
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.popleft()

    def get_nowait(self) -> T:
        """The oldest item (``asyncio.QueueEmpty`` if there is none)."""
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    def empty(self) -> bool:
        """No item is queued."""
        return not self._items

    def qsize(self) -> int:
        """How many items are queued."""
        return len(self._items)
