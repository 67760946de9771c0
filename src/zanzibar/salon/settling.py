"""Waiting until a salon is idle: the tests' ``await salon.settle()``.

Kept apart from the façade (``service.py``) so that it stays a wiring of
parts. Timers (turn clock, round pauses, delayed takeovers) are not waited
for until they are due.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from typing import Any

from zanzibar.salon.actor import TableActor
from zanzibar.salon.connections import Connection
from zanzibar.salon.lobby import LobbyFeed


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
            await _drain(pending, deadline)
            quiet_rounds = 0
        else:
            quiet_rounds += 1


async def _drain(pending: list[Connection], deadline: float) -> None:
    """Wait for these connections' queues to empty, no later than the deadline: a socket
    whose ``send`` never returns (a client that stops reading) must not hold ``settle``
    past its timeout, which then says so."""
    drains = [asyncio.ensure_future(c.drained()) for c in pending]
    try:
        await asyncio.wait(drains, timeout=max(0.0, deadline - time.monotonic()))
    finally:
        for drain in drains:
            drain.cancel()
