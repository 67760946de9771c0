"""``settle``, the tests' wait until a salon is idle, keeps to its timeout.

A connection whose transport never finishes a send (a client that stopped reading)
keeps its queue non-empty for good: ``settle`` must give up at its deadline with a
``TimeoutError`` instead of waiting on that queue for ever.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from zanzibar.salon import settling
from zanzibar.salon.connections import Connection

pytestmark = pytest.mark.anyio


class _QuietLobby:
    """A lobby with no update on its way."""

    def pending(self) -> list[asyncio.Future[Any]]:
        return []


async def _never_returns(message: dict[str, Any]) -> None:
    await asyncio.Event().wait()


async def test_a_send_that_never_returns_does_not_hold_settle_past_its_timeout() -> None:
    stuck = Connection(_never_returns)
    stuck.put({"type": "chat"})
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(
            settling.settle({}, _QuietLobby(), {stuck.id: stuck}, [], timeout=0.3),  # type: ignore[arg-type]
            timeout=10.0,
        )
    assert time.monotonic() - started < 5.0
    assert stuck.pending == 1  # the message is still queued: nothing was dropped to settle
    stuck.close()


async def test_settle_returns_once_every_queue_is_drained() -> None:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        await asyncio.sleep(0.01)
        sent.append(message)

    conn = Connection(send)
    for n in range(3):
        conn.put({"type": "chat", "n": n})
    await settling.settle({}, _QuietLobby(), {conn.id: conn}, [], timeout=5.0)  # type: ignore[arg-type]
    assert [m["n"] for m in sent] == [0, 1, 2]
    assert conn.pending == 0
    conn.close()
