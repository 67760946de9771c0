"""A connection the salon gives up on tells its transport, which closes that one socket."""

from __future__ import annotations

import asyncio
from typing import Any

from zanzibar.salon import connections
from zanzibar.salon.connections import Connection


def test_a_connection_too_far_behind_tells_the_transport(monkeypatch: Any) -> None:
    monkeypatch.setattr(connections, "MAX_QUEUE", 5)
    told: list[tuple[bool, str]] = []

    async def stuck(message: dict[str, Any]) -> None:
        await asyncio.sleep(3600)

    async def scenario() -> None:
        conn = Connection(stuck)
        conn.on_close = lambda slow, reason: told.append((slow, reason))
        for n in range(20):
            conn.put({"type": "chat", "n": n})
        await asyncio.sleep(0)
        assert conn.closed
        await conn.wait_closed()

    asyncio.run(scenario())
    assert told == [(True, "too slow to read: 5 messages waiting")]


def test_a_failed_send_tells_the_transport_once() -> None:
    told: list[tuple[bool, str]] = []

    async def broken(message: dict[str, Any]) -> None:
        raise ValueError("cannot encode")

    async def scenario() -> None:
        conn = Connection(broken)
        conn.on_close = lambda slow, reason: told.append((slow, reason))
        conn.put({"type": "chat"})
        conn.put({"type": "table"})
        for _ in range(10):
            await asyncio.sleep(0)
        assert conn.closed and conn.pending == 0

    asyncio.run(scenario())
    assert told == [(False, "a chat message could not be sent: ValueError('cannot encode')")]
