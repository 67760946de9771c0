"""Waiting until a salon is idle: the tests' ``await salon.settle()``.

Kept apart from the façade (``service.py``) so that it stays a wiring of
parts. Timers (turn clock, round pauses, delayed takeovers) are not waited
for until they are due.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

from zanzibar.salon.actor import TableActor
from zanzibar.salon.connections import Connection
from zanzibar.salon.lobby import LobbyFeed

log = logging.getLogger(__name__)

#: How long a stop waits for cancelled background work to end (seconds).
STOP_WAIT_S = 5.0


async def settle(
    actors: Mapping[int, TableActor],
    lobby: LobbyFeed,
    connections: Mapping[int, Connection],
    spawned: Iterable[asyncio.Future[Any]],
    timeout: float,
) -> None:
    """Wait until bots, lobby updates, spawned work and outgoing queues are idle."""
    deadline = time.monotonic() + timeout
    quiet_rounds = 0
    while quiet_rounds < 3:
        if time.monotonic() > deadline:
            raise TimeoutError("the salon did not settle")
        for _ in range(5):
            await asyncio.sleep(0)
        busy = any(a.busy() for a in list(actors.values()))
        lobby_busy = lobby.pending()
        pending = [c for c in connections.values() if c.pending and not c.closed]
        running = [t for t in list(spawned) if not t.done()]
        if running:
            await asyncio.wait(running, timeout=max(0.0, deadline - time.monotonic()))
            quiet_rounds = 0
        elif busy:
            await asyncio.sleep(0.001)
            quiet_rounds = 0
        elif lobby_busy:
            await asyncio.wait(lobby_busy, timeout=deadline - time.monotonic())
            quiet_rounds = 0
        elif pending:
            await asyncio.gather(*(c.drained() for c in pending))
            quiet_rounds = 0
        else:
            quiet_rounds += 1


async def end_tasks(tasks: Iterable[asyncio.Future[Any]], grace: float) -> None:
    """Let ``tasks`` end (``grace`` seconds at most), then cancel what is left and wait
    (:data:`STOP_WAIT_S` at most) for it to end: the salon's stop, before its storage closes.

    None of the work spawned beside commands may outlive the storage: a task cancelled in
    the middle of a database call that was still giving its connection back when the event
    loop ended made the database driver wait for good for a worker thread that had already
    stopped (a hang seen in the test suite; see ``TournamentRunner.stop``)."""
    every = list(tasks)
    pending = {task for task in every if not task.done()}
    if pending and grace > 0:
        _, pending = await asyncio.wait(pending, timeout=grace)
    for task in pending:
        task.cancel()
    if pending:
        _, left = await asyncio.wait(pending, timeout=STOP_WAIT_S)
        if left:
            log.warning("%d task(s) did not end when cancelled at the stop", len(left))
    for task in every:  # their failures were logged where they ran, or do not matter now
        if task.done() and not task.cancelled():
            task.exception()
