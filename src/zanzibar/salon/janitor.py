"""Closing the tables nobody uses, and pruning old command replies.

A table with no game running, no spectator and no seated person online for
``idle_close`` seconds is closed through its own actor (the ``close_idle``
transition), so the close is stored and announced like any other change.
Only the tables this node runs are looked at: each node sweeps its own.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from zanzibar.salon import seating, tablestore
from zanzibar.salon.persistence import Store
from zanzibar.salon.router import Router

log = logging.getLogger(__name__)

#: Seconds between two prunings of the stored replies of forwarded commands.
PRUNE_PERIOD = 60.0


async def sweep_idle_tables(
    router: Router, store: Store, connected: Callable[[int], bool], idle_close: float
) -> None:
    """Run until cancelled: close idle tables, prune applied commands every minute."""
    idle_since: dict[int, float] = {}
    pruned = time.monotonic()
    while True:
        await asyncio.sleep(min(60.0, max(idle_close / 4, 0.01)))
        now = time.monotonic()
        if now - pruned >= PRUNE_PERIOD:
            pruned = now
            try:
                await tablestore.prune_applied(store, time.time())
            except Exception:
                log.exception("pruning applied commands failed")
        for actor in list(router.actors.values()):
            table = actor.table
            busy = table.running or table.spectators or any(connected(u) for u in table.humans())
            if busy:
                idle_since.pop(table.id, None)
                continue
            since = idle_since.setdefault(table.id, now)
            if now - since >= idle_close:
                idle_since.pop(table.id, None)
                actor.post(lambda t, c, _cmd: seating.close_idle(t, c))
