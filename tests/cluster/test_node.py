"""A node's name, heartbeat and drain on Redis (``cluster/node.py``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from zanzibar.cluster.node import Node, NodeNameTaken
from zanzibar.cluster.ports import check_node_name
from zanzibar.cluster.redis_presence import RedisPresence

pytestmark = [pytest.mark.anyio]


@pytest.fixture
async def nodes(redis_url: str) -> AsyncIterator[Callable[..., Node]]:
    made: list[Node] = []

    def make(name: str, ttl_ms: int = 1500, **more: Any) -> Node:
        node = Node(redis_url, name, ttl_ms, **more)
        made.append(node)
        return node

    try:
        yield make
    finally:
        for node in made:
            await node.stop()


@pytest.mark.live
async def test_nodes_see_each_other_and_a_drained_one_leaves_at_once(
    nodes: Callable[..., Node],
) -> None:
    one, two = nodes("n1"), nodes("n2")
    await one.start()
    await two.start()
    assert await one.live_nodes() == ["n1", "n2"]
    assert one.beating and two.beating and one.boot != two.boot
    await two.drain()
    assert not two.beating
    assert await one.live_nodes() == ["n1"]  # no ttl to wait for


@pytest.mark.live
async def test_a_killed_node_expires_and_its_heartbeat_keeps_a_live_one(
    nodes: Callable[..., Node],
) -> None:
    one, two = nodes("n1"), nodes("n2")
    await one.start()
    await two.start()
    await two._stop_beating()  # what kill -9 leaves: the key, no more beats
    await asyncio.sleep(2.0)  # past the 1.5 s ttl, several beats of n1
    assert await one.live_nodes() == ["n1"]


@pytest.mark.live
async def test_a_node_whose_loop_stalls_a_while_keeps_beating(
    nodes: Callable[..., Node],
) -> None:
    """The heartbeat runs in a thread: a loop blocked for longer than the ttl (a start's
    work on a loaded machine) does not make the node look dead; a loop stuck for longer
    than its patience does."""
    one, other = nodes("n1"), nodes("n2")
    await one.start()
    await other.start()
    time.sleep(2.5)  # the event loop blocked: 1.5 s ttl, no beat from the loop
    assert await other.live_nodes() == ["n1", "n2"]
    assert one.beating
    stuck = nodes("n3", loop_patience=0.6)
    await stuck.start()
    assert await other.live_nodes() == ["n1", "n2", "n3"]
    time.sleep(3.5)  # past its patience, then past its ttl
    assert await other.live_nodes() == ["n1", "n2"]


@pytest.mark.live
async def test_a_restarted_node_waits_for_its_dead_predecessor(
    nodes: Callable[..., Node],
) -> None:
    old = nodes("n1")
    await old.start()
    await old._stop_beating()  # killed: its heartbeat stays fresh for up to 1.5 s
    new = nodes("n1")
    started = time.monotonic()
    await new.start()
    waited = time.monotonic() - started
    assert 0.3 < waited < 3.0, waited
    assert await new.live_nodes() == ["n1"]


@pytest.mark.live
async def test_a_second_live_process_cannot_take_a_name(nodes: Callable[..., Node]) -> None:
    first = nodes("n1")
    await first.start()
    with pytest.raises(NodeNameTaken):
        await nodes("n1").start(patience=2.0)
    assert first.beating


@pytest.mark.live
async def test_presence_reaps_the_sockets_of_a_node_whose_heartbeat_expired(
    nodes: Callable[..., Node], redis_url: str
) -> None:
    """The node's heartbeat is the one ``RedisPresence.reap`` reads."""
    one, two = nodes("n1"), nodes("n2")
    await one.start()
    await two.start()
    seen = RedisPresence(redis_url, "n1", 1500)
    theirs = RedisPresence(redis_url, "n2", 1500)
    await seen.start()
    try:
        await theirs.attach(7)
        await asyncio.sleep(0.1)
        assert seen.online(7)
        await two._stop_beating()
        await asyncio.sleep(2.0)
        assert await seen.reap() == ["n2"]
        await asyncio.sleep(0.1)
        assert not seen.online(7)
    finally:
        await seen.close()
        await theirs.close()


@pytest.mark.live
async def test_ping_says_when_redis_is_gone(nodes: Callable[..., Node], redis_server: Any) -> None:
    node = nodes("n1")
    await node.start()
    assert await node.ping()
    redis_server.stop()
    try:
        assert not await node.ping(0.5)
    finally:
        redis_server.start()
    assert await node.ping()


@pytest.mark.parametrize("bad", ["", " n1", "a b", "n1:x", "-n", "x" * 65, "nœud"])
def test_node_names_are_plain(bad: str) -> None:
    with pytest.raises(ValueError):
        check_node_name(bad)
    assert check_node_name("web-1.eu_2") == "web-1.eu_2"
