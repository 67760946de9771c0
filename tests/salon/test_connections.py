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


class QueueingTransport:
    """A transport sender with its own non-blocking queue (like the server's Outbox)."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.got: list[dict[str, Any]] = []
        self.fail_on = fail_on

    async def __call__(self, message: dict[str, Any]) -> None:
        raise AssertionError("the connection must use put_message")

    def put_message(self, message: dict[str, Any]) -> None:
        if message.get("type") == self.fail_on:
            raise ValueError("cannot encode")
        self.got.append(message)


def test_a_transport_with_its_own_queue_gets_each_message_at_once_in_order() -> None:
    async def scenario() -> QueueingTransport:
        transport = QueueingTransport()
        conn = Connection(transport)
        for n in range(3):
            conn.put({"type": "chat", "n": n})
        # handed over synchronously: nothing pending, nothing to drain
        assert [m["n"] for m in transport.got] == [0, 1, 2]
        assert conn.pending == 0
        await conn.drained()
        conn.close()
        await conn.wait_closed()
        conn.put({"type": "chat", "n": 3})  # closed: dropped
        return transport

    transport = asyncio.run(scenario())
    assert [m["n"] for m in transport.got] == [0, 1, 2]


def test_a_transport_queue_that_raises_is_used_no_more() -> None:
    told: list[tuple[bool, str]] = []

    async def scenario() -> QueueingTransport:
        transport = QueueingTransport(fail_on="table")
        conn = Connection(transport)
        conn.on_close = lambda slow, reason: told.append((slow, reason))
        conn.put({"type": "chat"})
        conn.put({"type": "table"})
        conn.put({"type": "chat"})
        assert conn.closed
        return transport

    transport = asyncio.run(scenario())
    assert len(transport.got) == 1
    assert told == [(False, "a table message could not be sent: ValueError('cannot encode')")]
