"""RedisCounts: each node's events reach the other nodes' limiters, one script call per sync."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.anyio, pytest.mark.live]


async def test_each_node_is_charged_what_the_others_counted_since_it_followed(
    redis_url: str,
) -> None:
    from zanzibar.cluster.redis_limits import RedisCounts

    a, b = RedisCounts(redis_url, "a"), RedisCounts(redis_url, "b")
    charged: dict[str, list[tuple[str, int]]] = {"a": [], "b": []}
    a.register("mu", lambda key, n: charged["a"].append((key, n)))
    b.register("mu", lambda key, n: charged["b"].append((key, n)))
    try:
        a.note("mu", "7", 0)  # a socket of account 7 on each node: both follow it
        b.note("mu", "7", 0)
        await a.sync()
        await b.sync()
        for _ in range(3):
            a.note("mu", "7")
        b.note("mu", "7")
        b.note("mu", "9")  # only b follows account 9
        await a.sync()
        await b.sync()
        await a.sync()
        assert charged == {"a": [("7", 1)], "b": [("7", 3)]}
        await b.sync()  # nothing new: nothing charged twice
        assert charged["b"] == [("7", 3)]
        b.note("mu", "7", -1)  # taken back on b: a is not charged negative amounts
        await b.sync()
        await a.sync()
        assert charged["a"] == [("7", 1)]
        await a.redis.flushall()  # Redis restarted: tallies start afresh, nothing charged
        a.note("mu", "7")
        await a.sync()
        await b.sync()
        b.note("mu", "7", 2)
        await b.sync()
        await a.sync()
        assert charged == {"a": [("7", 1), ("7", 2)], "b": [("7", 3)]}
    finally:
        await a.close()
        await b.close()


async def test_a_failed_sync_keeps_the_events_for_the_next(redis_url: str) -> None:
    from zanzibar.cluster.redis_limits import RedisCounts

    a = RedisCounts(redis_url, "a")
    b = RedisCounts(redis_url, "b")
    seen: list[Any] = []
    b.register("chat", lambda key, n: seen.append((key, n)))
    real = a._sync

    async def broken(**_kwargs: Any) -> Any:
        raise ConnectionError("Redis is down")

    try:
        b.note("chat", "1", 0)
        await b.sync()
        a.note("chat", "1", 2)
        a._sync = broken  # type: ignore[assignment]
        with pytest.raises(ConnectionError):
            await a.sync()
        a._sync = real
        a.note("chat", "1")
        await a.sync()
        await b.sync()
        assert seen == [("1", 3)]  # the two kept from the failed sync, and the new one
    finally:
        await a.close()
        await b.close()
