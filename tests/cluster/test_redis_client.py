"""The salon's Redis client across a Redis restart: commands retried, pub/sub noticed.

A connection idle in the pool while Redis restarted is dead; the first command sent
on it used to fail (the client's retry policy was the synchronous one, which the
asyncio client cannot run: nothing was ever retried), so a frame told to another
node long after the restart was lost (the tournament's ``started`` in
tests/live/test_tournament_restarts.py). The pub/sub reader must still see its
connection drop, so that the port reloads what was published meanwhile.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _clusterkit import eventually

from zanzibar.cluster.redis_common import Subscriber, connect

pytestmark = [pytest.mark.anyio, pytest.mark.live]


async def test_commands_on_connections_from_before_a_redis_restart_are_retried(
    redis_server: Any, redis_url: str
) -> None:
    client = connect(redis_url)
    try:
        # three connections in the pool, each used once before the restart
        blockers = [client.blpop(["nothing"], timeout=0.2) for _ in range(3)]
        await asyncio.gather(*blockers)
        assert len(client.connection_pool._available_connections) == 3
        redis_server.restart()
        for i in range(6):  # every pooled connection is dead: each is replaced at its use
            assert await client.publish("somewhere", "x") == 0
            assert await client.set(f"k{i}", i)
        assert await client.get("k5") == b"5"
    finally:
        await client.aclose()


async def test_the_subscriber_hears_its_connection_drop_and_reloads(
    redis_server: Any, redis_url: str
) -> None:
    client = connect(redis_url)
    heard: list[bytes] = []
    reloads: list[int] = []

    async def on_message(_channel: str, data: bytes) -> None:
        heard.append(data)

    async def on_reconnect() -> None:
        reloads.append(1)

    subscriber = Subscriber(client, on_message, on_reconnect)
    try:
        await subscriber.start("news")
        assert reloads == [1]
        await client.publish("news", "before")
        await eventually(lambda: heard == [b"before"])
        redis_server.restart()
        # the reader must notice (its port reloads what it may have missed), not
        # reconnect silently inside the client's retries
        await eventually(lambda: len(reloads) == 2, 10)
        deadline = asyncio.get_running_loop().time() + 10
        while b"after" not in heard:
            assert asyncio.get_running_loop().time() < deadline, "never heard again"
            await client.publish("news", "after")
            await asyncio.sleep(0.1)
    finally:
        await subscriber.close()
        await client.aclose()
