"""A table no other node follows publishes nothing on the bus; its first follower elsewhere
still gets every item, with no hole reported.

A table's versions go on the bus (a Redis stream and a channel) for the other nodes whose
sockets follow it. Most tables are followed only on their owner's node (their players
came through that node), and their publishes were three Redis commands per version for
nobody. Now a table created on a node and followed nowhere else publishes nothing; the
first command from another node starts its stream first (its current version, with no
frames), so that node's first catch-up finds the stream, and from then on every version
goes out. On the live Redis: a stream missing at a follow after version 0 reads as lost
(as after a Redis restart), which is what the start of the stream prevents.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from _forwarding_kit import contiguous, play, seqs
from _nodes import Cluster
from _salonkit import Client

pytestmark = [pytest.mark.anyio, pytest.mark.live]


async def test_a_table_followed_on_its_node_only_publishes_nothing(
    pg_url: str, redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from redis.asyncio import Redis

    # the production lease: a lease lost on a busy machine is taken back under a new
    # epoch, and a table claimed again publishes every version (followers unknown)
    cluster = Cluster(pg_url, redis_url, ttl_ms=5000)
    redis = Redis.from_url(redis_url)
    try:
        a = await cluster.start("a")
        b = await cluster.start("b")
        salons = {"a": a, "b": b}
        anna = await Client(a, "Anna").sign_in()
        bob = await Client(a, "Bob").sign_in()
        created = await anna.ok("table.create", game="race", seats=2, options={"target": 60})
        table_id = created["table"]["id"]
        await bob.ok("table.join", table=table_id)
        await anna.ok("table.start", table=table_id)
        await play(salons, table_id, {0: anna, 1: bob}, 4)
        remote = a.forwarder.remote
        quiet = remote.unpublished_quiet
        assert quiet >= 7  # created, joined, started, four actions (and their items)
        assert not await redis.exists(f"zt:{table_id}:log")  # nothing on the bus

        # the owner's publishes of frames now reach Redis late: a follower that read the
        # stream before its first version arrived found no stream (read as lost)
        publish = a.ports.bus.publish

        async def late(envelope: Any) -> None:
            if envelope.data:
                await asyncio.sleep(0.3)
            await publish(envelope)

        a.ports.bus.publish = late  # type: ignore[method-assign]
        caplog.set_level(logging.WARNING, logger="zanzibar.salon")
        carl = await Client(b, "Carl").sign_in()
        await carl.ok("table.watch", table=table_id)  # b forwards it to a: b follows
        await play(salons, table_id, {0: anna, 1: bob}, 6)
        await asyncio.sleep(0.5)
        for salon in salons.values():
            await salon.settle()
        last = a.tables[table_id].history.last_seq
        got = seqs(carl, table_id)
        assert contiguous(got) and got[-1] == last, got
        lost = [r.getMessage() for r in caplog.records if "were lost" in r.getMessage()]
        assert not lost, lost
        assert remote.unpublished_quiet == quiet  # followed on b: every version published
        assert await redis.exists(f"zt:{table_id}:log")

        await carl.ok("table.leave", table=table_id)
        await play(salons, table_id, {0: anna, 1: bob}, 2)
        assert remote.unpublished_quiet > quiet  # followed nowhere else again
        await carl.ok("table.watch", table=table_id)  # and again: no hole either
        await play(salons, table_id, {0: anna, 1: bob}, 2)
        await asyncio.sleep(0.5)
        for salon in salons.values():
            await salon.settle()
        again = seqs(carl, table_id)[len(got) :]
        assert again and again[-1] == a.tables[table_id].history.last_seq, again
        lost = [r.getMessage() for r in caplog.records if "were lost" in r.getMessage()]
        assert not lost, lost
    finally:
        await redis.aclose()
        await cluster.stop()
