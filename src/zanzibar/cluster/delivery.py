"""In-order delivery to a table's followers, shared by every :class:`TableBus`.

Each follower has a cursor: the last version it was given (or told was lost).
An envelope at or below the cursor is a repeat and is dropped; one just above
is delivered; one further up means something was missed (a pub/sub message
lost while Redis restarted, say), so the bus's log is asked for the missing
versions, and only what it cannot give is reported as a gap. Deliveries of
one table run one at a time, so a follower never sees two of them at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from zanzibar.cluster.ports import Envelope, Follower

log = logging.getLogger(__name__)

#: Reads the bus's log: every envelope of a table above a version, or None if not all kept.
Fill = Callable[[int, int], Awaitable["list[Envelope] | None"]]


@dataclass
class _Cursor:
    follower: Follower
    last: int
    #: After an unbounded gap: take the next envelope as the new start.
    blind: bool = False


@dataclass
class _TableFollowers:
    cursors: list[_Cursor] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Deliveries:
    """The followers of every table and how far each one got."""

    def __init__(self, fill: Fill) -> None:
        self._fill = fill
        self._tables: dict[int, _TableFollowers] = {}

    def tables(self) -> list[int]:
        return list(self._tables)

    def following(self, table: int) -> bool:
        return bool(self._tables.get(table, _TableFollowers()).cursors)

    async def add(self, table: int, follower: Follower, after: int) -> None:
        """Follow from ``after``, first catching up from the log (or reporting what it lacks)."""
        entry = self._tables.setdefault(table, _TableFollowers())
        async with entry.lock:
            entry.cursors = [c for c in entry.cursors if c.follower is not follower]
            cursor = _Cursor(follower, after)
            entry.cursors.append(cursor)
            backlog = await self._fill(table, after)
            if backlog is None:
                # the log lost track: everything after `after` may be missing; the follower
                # resyncs, and the next envelope that arrives is delivered as it comes
                cursor.blind = True
                await self._report(cursor, table, after, None)
                return
            for envelope in backlog:
                await self._give(cursor, envelope)

    async def catch_up(self) -> None:
        """Read every followed table's log after each follower's cursor: what was
        published while the deliveries were cut off (a lost pub/sub connection) is
        delivered, and what the log lacks (Redis restarted empty) is reported.

        Without this, a version published while a node was not listening would be
        found missing only when the next one arrives, and a game that waits on the
        frames of that last version never makes another.
        """
        for table, entry in list(self._tables.items()):
            async with entry.lock:
                for cursor in list(entry.cursors):
                    try:
                        backlog = await self._fill(table, cursor.last)
                    except Exception:  # out of reach again: count it as lost (a resync is safe)
                        log.warning("could not read the log of table %s", table, exc_info=True)
                        backlog = None
                    if backlog is None:
                        cursor.blind = True
                        await self._report(cursor, table, cursor.last, None)
                        continue
                    for envelope in backlog:
                        await self._give(cursor, envelope)

    def remove(self, table: int, follower: Follower) -> bool:
        """Stop following; True if the table has no follower left."""
        entry = self._tables.get(table)
        if entry is None:
            return True
        entry.cursors = [c for c in entry.cursors if c.follower is not follower]
        if not entry.cursors:
            del self._tables[table]
            return True
        return False

    async def offer(self, envelope: Envelope) -> None:
        """An envelope that arrived: to every follower of its table that needs it, in order."""
        entry = self._tables.get(envelope.table)
        if entry is None:
            return
        async with entry.lock:
            for cursor in list(entry.cursors):
                await self._advance(cursor, envelope)

    async def _advance(self, cursor: _Cursor, envelope: Envelope) -> None:
        if cursor.blind:
            cursor.blind = False
            cursor.last = envelope.version - 1
        if envelope.version <= cursor.last:
            return
        if envelope.version > cursor.last + 1:
            try:
                missing = await self._fill(envelope.table, cursor.last)
            except Exception:  # the log is out of reach: what it would give counts as lost
                log.warning("could not read the log of table %s", envelope.table, exc_info=True)
                missing = None
            for earlier in missing or ():
                if earlier.version < envelope.version:
                    await self._give(cursor, earlier)
            if envelope.version > cursor.last + 1:
                await self._report(cursor, envelope.table, cursor.last, envelope.version)
        await self._give(cursor, envelope)

    async def _give(self, cursor: _Cursor, envelope: Envelope) -> None:
        if envelope.version <= cursor.last:
            return
        cursor.last = envelope.version
        try:
            await cursor.follower.deliver(envelope)
        except Exception:  # one broken follower must not stop the others
            log.exception("a follower of table %s failed", envelope.table)

    async def _report(self, cursor: _Cursor, table: int, after: int, before: int | None) -> None:
        if before is not None:
            cursor.last = before - 1
        try:
            await cursor.follower.gap(table, after, before)
        except Exception:
            log.exception("a follower of table %s failed on a gap", table)
