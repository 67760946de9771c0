"""The Redis pub/sub reader when several callers subscribe at once.

A node's bus starts its subscriber at its first follow. Several first follows at
once (sockets of a node that has followed nothing elsewhere yet joining tables
run by other nodes, as in the live restart test across nodes, or players
rejoining their tables on a node just restarted) used to subscribe on several
connections: redis-py's ``PubSub`` opens its connection in its first command,
and a command sent while that one was connecting opened another and replaced
it. The tables subscribed on a connection nobody reads were never heard, with
no error: a player who never sees his turn stalls his table
(tests/live/test_restarts.py's table that acknowledged nothing for 45 s).
"""

from __future__ import annotations

import asyncio

import pytest
from _clusterkit import Recorder, env, eventually

pytestmark = [pytest.mark.anyio, pytest.mark.live]


async def test_first_follows_at_once_each_hear_their_table(redis_url: str) -> None:
    from zanzibar.cluster.redis_bus import RedisBus

    for round_ in range(3):  # each round a fresh node's first follows, six at once
        tables = range(10 * round_ + 1, 10 * round_ + 7)
        owner, node = RedisBus(redis_url), RedisBus(redis_url)
        try:
            followers = {t: Recorder() for t in tables}
            await asyncio.gather(*(node.follow(t, f, after=0) for t, f in followers.items()))
            for table in tables:
                await owner.publish(env(1, table=table))
            await eventually(
                lambda heard=followers: all(f.versions() == [1] for f in heard.values())
            )
        finally:
            await owner.close()
            await node.close()


async def test_follows_while_the_reader_connects_again_are_heard(redis_url: str) -> None:
    """The connection lost (killed by Redis): tables followed while the reader subscribes
    again on a new connection are heard, as are those followed before."""
    from redis.asyncio import Redis

    from zanzibar.cluster.redis_bus import RedisBus

    owner, node = RedisBus(redis_url), RedisBus(redis_url)
    admin = Redis.from_url(redis_url)
    try:
        first = Recorder()
        await node.follow(1, first, after=0)
        followers = {t: Recorder() for t in range(2, 42)}

        async def follow_one_by_one() -> None:
            for table, follower in followers.items():
                await node.follow(table, follower, after=0)
                await asyncio.sleep(0.005)

        await admin.client_kill_filter(_type="pubsub")
        await follow_one_by_one()
        for table in (1, *followers):
            await owner.publish(env(1, table=table))
        await eventually(lambda: first.versions() == [1])
        await eventually(lambda: all(f.versions() == [1] for f in followers.values()))
    finally:
        await admin.aclose()
        await owner.close()
        await node.close()
