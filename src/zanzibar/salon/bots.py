"""The salon's bots: one per seat and level, thinking inline when quick, in a thread when slow.

A bot is the game's own (``rules.make_bot(level, options, seed)``), seeded from
the game's dice seed and the seat so a replayed table gets the same bots. Dice
bots answer in microseconds: handing them to a thread would cost more than
their move (each hand-over of the GIL waits for the OS to schedule the other
thread, tens of milliseconds on a busy machine). A chess bot thinks for a
second or more and must not stall the other tables. So every level's first move
runs in a worker thread and is timed; a level whose moves take on average
(an exponential moving average, so a slow first move that fills a cache is
soon forgotten) less than :data:`INLINE_BOT_SECONDS` then plays inline.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from zanzibar.engine.rules import Bot
from zanzibar.salon.tables import Table

#: Bots of a level whose moves take less than this on average play inline.
INLINE_BOT_SECONDS = 0.002
#: Weight of the newest move in the average.
_WEIGHT = 0.3


def bot_for(table: Table, seat: int, level: str) -> Bot[Any, Any]:
    """The bot of ``level`` playing ``seat`` at this table (made once per game)."""
    bot = table.bots.get((seat, level))
    if bot is None:
        seed = (table.match.rng.seed if table.match else 0) + seat
        bot = table.bots[(seat, level)] = table.rules.make_bot(level, table.options, seed)
    return bot


class Thinker:
    """Runs bots' choices, inline or in a thread depending on how long they take."""

    def __init__(self, threads: bool = True) -> None:
        #: False: always inline (tests, or a machine with one core to spare).
        self.threads = threads
        #: Average seconds per move, per (game, level).
        self.average: dict[tuple[str, str], float] = {}

    async def choose(self, game: str, level: str, bot: Bot[Any, Any], state: Any) -> Any:
        """The bot's action for ``state``."""
        key = (game, level)
        average = self.average.get(key)
        inline = not self.threads or (average is not None and average < INLINE_BOT_SECONDS)

        def timed() -> Any:
            started = time.perf_counter()
            action = bot.choose(state)
            took = time.perf_counter() - started
            before = self.average.get(key)
            self.average[key] = took if before is None else before + _WEIGHT * (took - before)
            return action

        if inline:
            return timed()
        return await asyncio.to_thread(timed)
