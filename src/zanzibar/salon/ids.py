"""Row ids for the salon, from the :class:`~zanzibar.cluster.ports.Ids` port.

Most ids are asked for where waiting is fine (a table created, a user signed
up, a private message kept): :meth:`SalonIds.next` awaits the port, which on
PostgreSQL is one ``nextval`` shared by every node. A game id is the
exception: it is taken inside a table's transition, a plain synchronous
function (``salon/play.py``). In one process (SQLite) the port counts in
memory and :meth:`SalonIds.take_game` takes the next id at once. On a shared
database a reserve of game ids is taken ahead, in one round trip
(``PgIds.many``), and topped up in the background once half of it is gone,
so only a burst of more game starts than the reserve within one round trip
can find it empty (``internal``, nothing changed). A hole left by a reserved
id that is never used (a node stopped) is harmless: ids are unique, not dense.
"""

from __future__ import annotations

import asyncio
from collections import deque

from zanzibar.cluster.ports import IdKind, Ids
from zanzibar.l10n.msg import Msg
from zanzibar.salon.errors import SalonError

#: Game ids reserved ahead on a shared database (a burst of this many game starts needs no wait;
#: the reserve is topped up in one round trip when half of it is gone).
GAME_RESERVE = 64


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
        """Top the game-id reserve up (at start, then after each take): one round trip."""
        if callable(getattr(self.ids, "take", None)):
            return  # counted in this process: taken at once, no reserve needed
        missing = self.reserve - len(self._games)
        if missing <= 0:
            return
        many = getattr(self.ids, "many", None)
        if callable(many):
            self._games.extend(await many("game", missing))
            return
        while len(self._games) < self.reserve:
            self._games.append(await self.ids.next("game"))

    def take_game(self) -> int:
        """A game id without waiting; ``internal`` (nothing changed) if the reserve ran dry.

        In one process (SQLite) the id is counted at once and never runs dry; on a
        shared database it comes from the reserve, which only a burst of more than
        ``reserve`` game starts within one PostgreSQL round trip can empty.
        """
        take = getattr(self.ids, "take", None)
        if callable(take):
            return int(take("game"))
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
