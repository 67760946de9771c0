"""One contract per port, on every implementation: in-process, and on the private Redis."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from _clusterkit import Backend, Recorder, env, eventually

from zanzibar.cluster.ports import StaleVersion
from zanzibar.salon.errors import SalonError

pytestmark = pytest.mark.anyio


# -- the bus -----------------------------------------------------------------------


async def test_bus_delivers_every_version_once_in_order(backend: Backend) -> None:
    owner, node_b, node_c = await backend.bus(), await backend.bus(), await backend.bus()
    b, c, other_table = Recorder(), Recorder(), Recorder()
    await node_b.follow(7, b, after=0)
    await node_c.follow(7, c, after=0)
    await node_c.follow(8, other_table, after=0)
    for version in range(1, 51):
        await owner.publish(env(version))
    await eventually(lambda: len(b.events) == 50 and len(c.events) == 50)
    assert b.events == c.events == [("v", v) for v in range(1, 51)]
    assert b.data[50] == {"n": 50, "text": "été 50"}
    assert other_table.events == []


async def test_bus_refuses_a_version_twice_even_from_another_node(backend: Backend) -> None:
    first, second = await backend.bus(), await backend.bus()
    await first.publish(env(1))
    await first.publish(env(2))
    for version in (2, 1):
        with pytest.raises(StaleVersion):
            await second.publish(env(version, epoch=2))
    await second.publish(env(3, epoch=2))
    assert [e.version for e in await first.since(7, 0) or []] == [1, 2, 3]
    assert [e.epoch for e in await first.since(7, 0) or []] == [1, 1, 2]


async def test_a_late_follower_catches_up_from_the_log_then_live(backend: Backend) -> None:
    owner, node_b = await backend.bus(), await backend.bus()
    for version in range(1, 11):
        await owner.publish(env(version))
    late = Recorder()
    await node_b.follow(7, late, after=6)
    assert late.events == [("v", 7), ("v", 8), ("v", 9), ("v", 10)]
    await owner.publish(env(11))
    await eventually(lambda: late.versions()[-1:] == [11])
    assert late.versions() == [7, 8, 9, 10, 11]
    assert await owner.since(7, 10) == [env(11)]
    assert await owner.since(7, 11) == []


async def test_a_follower_behind_the_kept_log_gets_a_gap_then_live(backend: Backend) -> None:
    owner, node_b = await backend.bus(kept=5), await backend.bus(kept=5)
    for version in range(1, 21):
        await owner.publish(env(version))
    assert await owner.since(7, 2) is None
    assert [e.version for e in await owner.since(7, 15) or []] == [16, 17, 18, 19, 20]
    behind = Recorder()
    await node_b.follow(7, behind, after=2)
    assert behind.events == [("gap", 2, None)]
    await owner.publish(env(21))
    await eventually(lambda: len(behind.events) == 2)
    assert behind.events[1] == ("v", 21)


async def test_unfollow_stops_delivery(backend: Backend) -> None:
    owner, node_b = await backend.bus(), await backend.bus()
    gone, stays = Recorder(), Recorder()
    await node_b.follow(7, gone, after=0)
    await node_b.follow(7, stays, after=0)
    await owner.publish(env(1))
    await eventually(lambda: len(stays.events) == 1 and len(gone.events) == 1)
    await node_b.unfollow(7, gone)
    await owner.publish(env(2))
    await eventually(lambda: len(stays.events) == 2)
    await asyncio.sleep(0.05)
    assert gone.versions() == [1] and stays.versions() == [1, 2]


@pytest.mark.live
async def test_redis_forgetting_the_log_is_reported_as_a_gap(redis_url: str) -> None:
    from zanzibar.cluster.redis_bus import RedisBus

    owner, node_b = RedisBus(redis_url), RedisBus(redis_url)
    try:
        follower = Recorder()
        await node_b.follow(7, follower, after=0)
        for version in (1, 2, 3):
            await owner.publish(env(version))
        await eventually(lambda: follower.versions() == [1, 2, 3])
        await owner.redis.flushall()  # what a restart without persistence leaves
        await owner.publish(env(7))  # the owner carries on from its own (database) version
        await eventually(lambda: len(follower.events) == 5)
        assert follower.events[3:] == [("gap", 3, 7), ("v", 7)]
        assert await owner.since(7, 3) is None
    finally:
        await owner.close()
        await node_b.close()


@pytest.mark.live
async def test_the_bus_follows_again_after_a_redis_restart(
    redis_server: Any, redis_url: str
) -> None:
    from zanzibar.cluster.redis_bus import RedisBus

    owner, node_b = RedisBus(redis_url), RedisBus(redis_url)
    try:
        follower = Recorder()
        await node_b.follow(7, follower, after=0)
        await owner.publish(env(1))
        await eventually(lambda: follower.versions() == [1])
        redis_server.restart()
        version = 1
        deadline = time.monotonic() + 15
        while follower.versions()[-1] == 1:  # publish until the follower hears again
            assert time.monotonic() < deadline, "the follower never heard from Redis again"
            version += 1
            try:
                await owner.publish(env(version))
            except Exception:  # the owner's own connection is coming back too
                version -= 1
            await asyncio.sleep(0.1)
        # every version after 1 is either delivered or reported lost, in order, none twice
        seen = follower.versions()
        assert seen == sorted(set(seen)) and seen[0] == 1
        if seen[1] != 2:
            assert ("gap", 1, seen[1]) in follower.events
    finally:
        await owner.close()
        await node_b.close()


# -- leases ------------------------------------------------------------------------


async def test_a_lease_is_held_by_one_node_at_a_time(backend: Backend) -> None:
    a, b = await backend.leases("node-a"), await backend.leases("node-b")
    first = await a.acquire(3)
    assert first is not None and first.node == a.node and first.epoch == 1
    assert await b.acquire(3) is None
    assert await b.owner(3) == first
    assert await b.owner(4) is None
    assert a.held() == {3: first}
    assert await a.renew() == set()
    assert await a.release(3) is True
    assert await a.release(3) is False
    again = await b.acquire(3, floor=0)
    assert again is not None and again.node == b.node and again.epoch == 2
    assert await a.owner(3) == again


async def test_epochs_rise_above_the_floor(backend: Backend) -> None:
    a = await backend.leases("node-a")
    lease = await a.acquire(5, floor=41)
    assert lease is not None and lease.epoch == 42
    await a.release(5)
    lease = await a.acquire(5, floor=3)
    assert lease is not None and lease.epoch == 43


async def test_vacant_tables_are_told_apart_from_held_and_forgotten_ones(backend: Backend) -> None:
    a = await backend.leases("node-a")
    b = await backend.leases("node-b")
    assert await b.acquire(21) is not None  # held
    assert await a.acquire(22) is not None
    assert await a.release(22)  # leased once, given up: vacant, remembered
    assert await a.vacant([21, 22, 23]) == {22: True, 23: False}  # 23: never leased
    assert await b.vacant([]) == {}
    many = list(range(100, 1300))  # more than one round trip's worth
    assert await a.vacant(many) == dict.fromkeys(many, False)


async def test_many_nodes_racing_for_a_table_get_one_lease(backend: Backend) -> None:
    nodes = [await backend.leases(f"n{i}") for i in range(8)]
    won = await asyncio.gather(*(node.acquire(9) for node in nodes))
    granted = [lease for lease in won if lease is not None]
    assert len(granted) == 1
    assert await nodes[0].owner(9) == granted[0]


async def test_a_lapsed_lease_is_lost_and_cannot_drop_the_next_one(backend: Backend) -> None:
    if backend.local:
        pytest.skip("in one process a lease lives as long as the process")
    slow = await backend.leases("slow", ttl_ms=150)
    quick = await backend.leases("quick", ttl_ms=5000)
    old = await slow.acquire(11)
    assert old is not None
    await asyncio.sleep(0.3)  # the slow node stalls past its ttl
    new = await quick.acquire(11)
    assert new is not None and new.epoch == old.epoch + 1
    assert await slow.renew() == {11}
    assert slow.held() == {}
    assert await slow.release(11) is False  # compare-and-delete: not its lease any more
    assert await quick.owner(11) == new
    assert await quick.renew() == set()


async def test_renewing_keeps_a_lease_past_its_ttl(backend: Backend) -> None:
    a = await backend.leases("a", ttl_ms=200)
    b = await backend.leases("b", ttl_ms=200)
    lease = await a.acquire(12)
    for _ in range(5):
        await asyncio.sleep(0.08)
        assert await a.renew() == set()
    assert await b.acquire(12) is None
    assert await b.owner(12) == lease


class LeaseEars:
    """A :class:`~zanzibar.cluster.ports.LeaseWatcher` writing down what it hears."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, int, str, int]] = []
        self.misses = 0

    async def granted(self, lease: Any) -> None:
        self.heard.append(("granted", lease.table, lease.node, lease.epoch))

    async def released(self, lease: Any) -> None:
        self.heard.append(("released", lease.table, lease.node, lease.epoch))

    async def missed(self) -> None:
        self.misses += 1


async def test_every_node_hears_each_grant_and_release(backend: Backend) -> None:
    a, b = await backend.leases("node-a"), await backend.leases("node-b")
    ears_a, ears_b = LeaseEars(), LeaseEars()
    await a.watch(ears_a)
    await b.watch(ears_b)
    assert await a.acquire(31) is not None
    assert await b.acquire(31) is None  # refused: nothing to announce
    assert await a.release(31)
    assert await a.release(31) is False  # not held: nothing to announce
    assert await b.acquire(31, floor=6) is not None
    expected = [
        ("granted", 31, "node-a", 1),
        ("released", 31, "node-a", 1),
        ("granted", 31, b.node, 7),
    ]
    if backend.local:  # one process, one node: its leases are all "node-a"'s
        expected[2] = ("granted", 31, "node-a", 7)
    await eventually(lambda: ears_a.heard == expected and ears_b.heard == expected)
    await asyncio.sleep(0.1)
    assert ears_a.heard == ears_b.heard == expected  # each once


async def test_a_gone_nodes_lease_is_ended_only_if_it_is_still_that_very_lease(
    backend: Backend,
) -> None:
    a, b = await backend.leases("node-a"), await backend.leases("node-b")
    ears = LeaseEars()
    await b.watch(ears)
    lease = await a.acquire(51)
    assert lease is not None
    assert await b.expire(lease) is True  # node-a no longer listens: its lease ends now
    assert await b.owner(51) is None
    assert await b.vacant([51]) == {51: True}  # remembered: claimed at once, as after a lapse
    assert await b.expire(lease) is False
    again = await b.acquire(51)
    assert again is not None and again.epoch == lease.epoch + 1
    assert await a.expire(lease) is False  # a grant made since is left alone
    assert await a.owner(51) == again
    await eventually(lambda: ("released", 51, lease.node, lease.epoch) in ears.heard)


async def test_owners_answers_many_tables_at_once(backend: Backend) -> None:
    a, b = await backend.leases("node-a"), await backend.leases("node-b")
    first, second = await a.acquire(41), await b.acquire(42)
    assert first is not None and second is not None
    assert await a.owners([41, 42, 43]) == {41: first, 42: second}
    assert await b.owners([]) == {}
    many = [41, *range(1000, 1700)]  # more than one round trip's worth
    assert await b.owners(many) == {41: first}


@pytest.mark.live
async def test_a_lease_watcher_hears_of_a_redis_restart(redis_server: Any, redis_url: str) -> None:
    """Announcements sent while the connection was down are lost: the watcher is told."""
    from zanzibar.cluster.redis_leases import RedisLeases

    a, b = RedisLeases(redis_url, "a"), RedisLeases(redis_url, "b")
    ears = LeaseEars()
    try:
        await b.watch(ears)
        assert ears.misses == 0  # the first subscription misses nothing
        redis_server.restart()
        await eventually(lambda: ears.misses == 1, seconds=10)
        lease = await a.acquire(51)  # heard again once subscribed again
        assert lease is not None
        await eventually(lambda: ("granted", 51, "a", lease.epoch) in ears.heard)
    finally:
        await a.close()
        await b.close()


# -- presence ----------------------------------------------------------------------


async def test_presence_counts_sockets_across_nodes(backend: Backend) -> None:
    a, b = await backend.presence("a"), await backend.presence("b")
    changes: list[tuple[int, bool]] = []

    async def seen(user: int, online: bool) -> None:
        changes.append((user, online))

    b.watch(seen)
    assert await a.attach(1) is True
    assert await b.attach(1) is False  # already online (on the other node)
    assert await a.attach(1) is False
    await eventually(lambda: b.online(1))
    assert await a.detach(1) is False
    assert await a.detach(1) is False
    assert await b.detach(1) is True  # the last socket anywhere
    await eventually(lambda: not a.online(1) and not b.online(1))
    assert await b.detach(1) is False  # nothing left to detach
    assert changes == [(1, True), (1, False)]


async def test_presence_says_where_a_user_s_sockets_are(backend: Backend) -> None:
    if backend.local:  # the kit's one object stands for every node: here each has its own
        from zanzibar.cluster.local import LocalPresence, PresenceBoard

        board = PresenceBoard()
        a, b = LocalPresence("a", board), LocalPresence("b", board)
    else:
        a, b = await backend.presence("a"), await backend.presence("b")
    await a.attach(1)
    await b.attach(1)
    await b.attach(1)
    assert await a.where(1) == {"a": 1, "b": 2}
    assert await b.where(2) == {}
    await b.detach(1)
    await a.detach(1)
    assert await a.where(1) == {"b": 1}


async def test_sync_sets_a_node_s_counts_to_the_truth(backend: Backend) -> None:
    if backend.local:
        from zanzibar.cluster.local import LocalPresence, PresenceBoard

        board = PresenceBoard()
        a, b = LocalPresence("a", board), LocalPresence("b", board)
    else:
        a, b = await backend.presence("a"), await backend.presence("b")
    changes: list[tuple[int, bool]] = []

    async def seen(user: int, online: bool) -> None:
        changes.append((user, online))

    b.watch(seen)
    await a.attach(1)
    await a.attach(2)
    await b.attach(2)
    await eventually(lambda: changes == [(1, True), (2, True)])
    # a lost track (Redis forgot, or a was reaped while slow): the truth is 2 on a, 3 twice
    await a.sync({2: 2, 3: 2})
    await eventually(lambda: sorted(changes) == [(1, False), (1, True), (2, True), (3, True)])
    assert await b.where(2) == {"a": 2, "b": 1}
    assert await b.where(3) == {"a": 2}
    assert await b.where(1) == {}
    await a.sync({2: 2, 3: 2})  # nothing changes twice
    await a.sync({})
    await eventually(lambda: not b.online(3) and b.online(2))
    assert await b.where(2) == {"b": 1}
    assert await b.detach(2) is True


async def test_the_users_of_a_dead_node_go_offline(backend: Backend) -> None:
    if backend.local:
        pytest.skip("in one process no node dies alone")
    doomed = await backend.presence("doomed", ttl_ms=200)
    alive = await backend.presence("alive", ttl_ms=5000)
    await doomed.heartbeat()
    await alive.heartbeat()
    assert await alive.live_nodes() == ["alive", "doomed"]
    await doomed.attach(1)  # only on the doomed node
    await doomed.attach(2)
    await alive.attach(2)  # on both
    await eventually(lambda: alive.online(1) and alive.online(2))
    # the doomed node is killed: no detach, no more heartbeats
    await asyncio.sleep(0.3)
    assert await alive.live_nodes() == ["alive"]
    assert await alive.reap() == ["doomed"]
    await eventually(lambda: not alive.online(1))
    assert alive.online(2)
    assert await alive.reap() == []
    assert await alive.detach(2) is True


# -- lobby -------------------------------------------------------------------------


async def test_every_node_lists_the_same_tables(backend: Backend) -> None:
    a, b = await backend.lobby(), await backend.lobby()
    changed: list[int] = []

    async def seen(table: int) -> None:
        changed.append(table)

    b.watch(seen)
    await a.put(1, {"game": "421", "seats": 2})
    await a.put(2, {"game": "zilch", "seats": 4})
    await a.put(1, {"game": "421", "seats": 3})
    await eventually(lambda: b.summaries().get(1) == {"game": "421", "seats": 3})
    await b.put(2, None)
    await b.put(99, None)  # not listed: nothing happens
    await eventually(lambda: 2 not in a.summaries())
    assert a.summaries() == b.summaries() == {1: {"game": "421", "seats": 3}}
    await eventually(lambda: changed.count(2) == 2)
    assert 99 not in changed


# -- rate limits -------------------------------------------------------------------


async def test_limits_are_summed_across_nodes(backend: Backend) -> None:
    a, b = await backend.limits(5, 0.5), await backend.limits(5, 0.5)
    for _ in range(3):
        await a.check(42)
        await a.record(42)
    for _ in range(2):
        await b.check(42)
        await b.record(42)
    for node in (a, b):
        with pytest.raises(SalonError) as refused:
            await node.check(42)
        assert refused.value.code == "rate_limited"
    await a.check(43)  # another account is not affected
    await asyncio.sleep(0.6)
    await a.check(42)  # the window has passed


async def test_a_check_alone_does_not_count(backend: Backend) -> None:
    a = await backend.limits(2, 5.0)
    for _ in range(10):
        await a.check(1)
    await a.record(1)
    await a.check(1)
    await a.record(1)
    with pytest.raises(SalonError):
        await a.check(1)


# -- node-to-node link -------------------------------------------------------------


async def test_nodes_message_each_other_in_order_and_see_who_listens(backend: Backend) -> None:
    a, b = await backend.link("a"), await backend.link("b")
    got: dict[str, list[tuple[str, Any]]] = {"a": [], "b": []}

    def keep(node: str) -> Any:
        async def handler(sender: str, message: Any) -> None:
            got[node].append((sender, message))

        return handler

    a.serve(keep("a"))
    b.serve(keep("b"))
    await a.start()
    assert await a.send("b", {"n": 0}) is False  # b is not listening yet
    await b.start()
    for n in range(1, 31):
        assert await a.send("b", {"cmd": "table.join", "n": n, "name": "Zoé"}) is True
    assert await b.send("a", {"reply": "ok"}) is True
    assert await a.send("a", {"self": True}) is True  # a node may reach itself
    await eventually(lambda: len(got["b"]) == 30 and len(got["a"]) == 2)
    assert got["b"] == [("a", {"cmd": "table.join", "n": n, "name": "Zoé"}) for n in range(1, 31)]
    assert sorted(got["a"], key=str) == sorted(
        [("b", {"reply": "ok"}), ("a", {"self": True})], key=str
    )
    await b.close()
    assert await a.send("b", {"n": 99}) is False  # a dead node is noticed at once
    assert await a.send("nobody", {}) is False


@pytest.mark.live
async def test_mirrors_reload_after_a_redis_restart(redis_server: Any, redis_url: str) -> None:
    """Redis forgets everything; the mirrors follow, and what owners put again is seen."""
    from zanzibar.cluster.redis_lobby import RedisLobby
    from zanzibar.cluster.redis_presence import RedisPresence

    owner, other = RedisLobby(redis_url), RedisLobby(redis_url)
    here, there = RedisPresence(redis_url, "here"), RedisPresence(redis_url, "there")
    ports: list[Any] = [owner, other, here, there]
    try:
        for port in ports:
            await port.start()
        await owner.put(1, {"game": "421"})
        await here.attach(5)
        await eventually(lambda: 1 in other.summaries() and there.online(5))
        redis_server.restart()
        # the mirrors reload on reconnect: the lobby holds nothing now, while the node
        # whose socket is still attached put it back on its own reconnect (user 5 never
        # went offline: no seat's takeover, no spectator sent away)
        await eventually(lambda: other.summaries() == {}, seconds=10)
        deadline = time.monotonic() + 10
        while await there.where(5) != {"here": 1}:
            assert time.monotonic() < deadline, "the node never put its socket back"
            await asyncio.sleep(0.05)
        assert there.online(5)
        # the owner puts its table again, the node attaches another socket: all see them
        await owner.put(1, {"game": "421", "seats": 2})
        await here.attach(5)
        await eventually(lambda: other.summaries() == {1: {"game": "421", "seats": 2}})
        assert await there.where(5) == {"here": 2}
        await eventually(lambda: there.online(5))
    finally:
        for port in ports:
            await port.close()
