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


async def test_a_sync_reads_only_what_was_noted_or_counted_elsewhere(redis_url: str) -> None:
    """A sync costs what happened, not one read per account followed: b follows fifty
    accounts; a sync reads the one b noted and the one a counted events of (b follows
    it too), each charged as before; every ``idle_period`` every key is read."""
    from zanzibar.cluster.redis_limits import RedisCounts

    a = RedisCounts(redis_url, "a")
    b = RedisCounts(redis_url, "b", idle_period=3600)
    charged: list[tuple[str, int]] = []
    b.register("mu", lambda key, n: charged.append((key, n)))
    sent: list[list[str]] = []
    real = b._sync

    async def counting(**kwargs: Any) -> Any:
        sent.append([k.split(":", 2)[2] for k in kwargs["keys"]])
        return await real(**kwargs)

    b._sync = counting  # type: ignore[assignment]
    try:
        for user in range(50):  # fifty accounts followed on b
            b.note("mu", str(user), 0)
        a.note("mu", "3", 0)  # account 3 on a too
        await b.sync()  # the first sync reads them all: their baselines
        await a.sync()
        assert len(sent[-1]) == 50
        a.note("mu", "3", 4)  # account 3 busy on a, idle on b
        a.note("mu", "60", 2)  # an account b does not follow
        await a.sync()
        b.note("mu", "8")  # account 8 sends one message on b
        await b.sync()
        assert sent[-1] == ["8"] and charged == [("3", 4)]  # 3 read as dirty, not sent
        await b.sync()  # nothing new: nothing charged twice; 8 held (b alone follows it)
        assert sent[-1] == ["8"] and charged == [("3", 4)]
        a.note("mu", "3", 1)
        await a.sync()
        b._full_at = 0.0  # idle_period elapsed: every followed key read again
        await b.sync()
        assert len(sent[-1]) == 50 and charged == [("3", 4), ("3", 1)]
        await a.redis.flushall()  # Redis forgot the followers: the full round joins again
        await b.sync()
        a.note("mu", "3", 2)
        await a.sync()
        await b.sync()
        assert charged == [("3", 4), ("3", 1)]  # b not yet a follower again: a's tally new
        b._full_at = 0.0
        await b.sync()  # joins again; the new tally (2) is below what b knew: a baseline
        a.note("mu", "3", 5)
        await a.sync()
        await b.sync()
        assert charged == [("3", 4), ("3", 1), ("3", 5)]
    finally:
        await a.close()
        await b.close()


async def test_a_sync_of_a_key_with_events_reads_its_tally_once(redis_url: str) -> None:
    """The tally's fields are its followers: a key with events costs its HINCRBY and one
    HGETALL (the others' sum and whom to mark dirty), not a followers set read beside it."""
    from zanzibar.cluster.redis_limits import RedisCounts

    a = RedisCounts(redis_url, "a", idle_period=3600)
    b = RedisCounts(redis_url, "b", idle_period=3600)
    charged: list[tuple[str, int]] = []
    b.register("mu", lambda key, n: charged.append((key, n)))
    try:
        for node in (a, b):  # both follow account 3
            node.note("mu", "3", 0)
            await node.sync()
        a.note("mu", "3", 2)
        await a.redis.config_resetstat()
        await a.sync()
        calls = {
            name.removeprefix("cmdstat_"): int(stats["calls"])
            for name, stats in (await a.redis.info("commandstats")).items()
        }
        assert calls.get("hincrby") == 1 and calls.get("hgetall") == 1, calls
        assert calls.get("smembers") == 1, calls  # its own dirty set only
        assert calls.get("sadd") == 1 and "pexpire" in calls, calls  # b marked dirty
        await b.sync()
        assert charged == [("3", 2)]
    finally:
        await a.close()
        await b.close()


async def test_a_key_no_other_node_follows_keeps_its_events_until_shared(redis_url: str) -> None:
    """An account followed on one node alone costs no Redis command per event: its events
    wait on that node (the full sync sends them), and go at once, in the same single call,
    when another node joins the tally or counts events of it, so that node is charged them
    at its next sync as before."""
    from zanzibar.cluster.redis_limits import RedisCounts

    a = RedisCounts(redis_url, "a", idle_period=3600)
    b = RedisCounts(redis_url, "b", idle_period=3600)
    charged: list[tuple[str, int]] = []
    b.register("mu", lambda key, n: charged.append((key, n)))

    async def calls() -> dict[str, int]:
        stats = await a.redis.info("commandstats")
        return {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()}

    try:
        a.note("mu", "5")
        await a.sync()  # its first event: the tally's baseline, a alone follows it
        assert await a.redis.hget("zc:mu:5", "a") == b"1"
        await a.redis.config_resetstat()
        for _ in range(3):
            a.note("mu", "5")
            await a.sync()
        got = await calls()
        assert "hincrby" not in got and "hgetall" not in got, got
        assert got.get("evalsha") == 3, got  # one call per sync: its dirty set only
        assert await a.redis.hget("zc:mu:5", "a") == b"1"  # the three wait on a
        b.note("mu", "5", 0)  # a socket of account 5 on b: b joins the tally
        await b.sync()
        a.note("mu", "5")
        await a.sync()  # a finds 5 dirty: its four events go in this call
        assert await a.redis.hget("zc:mu:5", "a") == b"5"
        await b.sync()
        assert charged == [("5", 4)]
        a.note("mu", "5", 2)  # shared now: sent at the next sync
        await a.sync()
        await b.sync()
        assert charged == [("5", 4), ("5", 2)]
    finally:
        await a.close()
        await b.close()


async def test_held_events_go_with_the_full_sync(redis_url: str) -> None:
    from zanzibar.cluster.redis_limits import RedisCounts

    a = RedisCounts(redis_url, "a", idle_period=3600)
    try:
        a.note("chat", "2")
        await a.sync()
        a.note("chat", "2", 6)
        await a.sync()
        assert await a.redis.hget("zc:chat:2", "a") == b"1"
        a._full_at = 0.0  # the idle period elapsed: every key sent, held ones too
        await a.sync()
        assert await a.redis.hget("zc:chat:2", "a") == b"7"
        assert await a.redis.pttl("zc:chat:2") > 0
    finally:
        await a.close()
