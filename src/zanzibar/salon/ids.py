"""Row ids for the salon, from the :class:`~zanzibar.cluster.ports.Ids` port.

Most ids are asked for where waiting is fine (a table created, a user signed
up, a private message kept): :meth:`SalonIds.next` awaits the port, which on
PostgreSQL is one ``nextval`` shared by every node. A game id is the
exception: it is taken inside a table's transition, a plain synchronous
function (``salon/play.py``), so a few game ids are reserved ahead and
:meth:`SalonIds.take_game` pops one without waiting; the reserve is topped up
in the background after each take. A hole left by a reserved id that is never
used (a node stopped) is harmless: ids are unique, not dense.
"""

from __future__ import annotations

import asyncio
from collections import deque

from zanzibar.cluster.ports import IdKind, Ids
from zanzibar.l10n.msg import Msg
from zanzibar.salon.errors import SalonError

#: Game ids reserved ahead (a burst of this many game starts needs no wait).
GAME_RESERVE = 8


class SalonIds:
    """The salon's id allocation: awaited ids, plus a small reserve of game ids."""

    def __init__(self, ids: Ids, reserve: int = GAME_RESERVE) -> None:
        self.ids = ids
        self.reserve = reserve
        self._games: deque[int] = deque()
        self._filling: asyncio.Task[None] | None = None

    async def next(self, kind: IdKind) -> int:
        """A new id of ``kind``, unique over every process on this database."""
        return await self.ids.next(kind)

    async def fill(self) -> None:
        """Top the game-id reserve up (at start, then after each take)."""
        while len(self._games) < self.reserve:
            self._games.append(await self.ids.next("game"))

    def take_game(self) -> int:
        """A game id without waiting; ``internal`` (nothing changed) if the reserve ran dry."""
        if not self._games:
            self._refill()
            raise SalonError("internal", Msg("error-internal"))
        value = self._games.popleft()
        if len(self._games) <= self.reserve // 2:
            self._refill()
        return value

    def _refill(self) -> None:
        if self._filling is None or self._filling.done():
            self._filling = asyncio.get_running_loop().create_task(self.fill())

    async def close(self) -> None:
        """Wait for a top-up in flight (so nothing runs after the store closes)."""
        if self._filling is not None and not self._filling.done():
            await asyncio.gather(self._filling, return_exceptions=True)
