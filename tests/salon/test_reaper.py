"""Ownership that heals itself: a dead node's tables run again elsewhere, games going on.

The live tests run two or three :class:`Salon` nodes in this process on the
private PostgreSQL and Redis (each node with its own connections, leases and
heartbeat, as separate processes would have); a node is "killed" by
:meth:`Salon.crash` (nothing more is written, its leases are left to lapse)
and its heartbeat stops without leaving ``zn:alive``, as after ``kill -9``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _local_nodes import BoardLeases
from _nodes import TTL_MS, Cluster, bot_table, kinds, sweeps, wait_for
from _salonkit import Client, make_salon

from zanzibar.cluster.local import LocalLeases
from zanzibar.cluster.ports import Lease
from zanzibar.salon import Salon
from zanzibar.salon.reaper import Reaper, rank

pytestmark = pytest.mark.anyio


@pytest.fixture
async def cluster(pg_url: str, redis_url: str) -> AsyncIterator[Cluster]:
    made = Cluster(pg_url, redis_url)
    try:
        yield made
    finally:
        await made.stop()


# -- the order in which nodes take a table over ----------------------------------------------


def test_rendezvous_spreads_tables_evenly_and_moves_only_a_leaving_nodes_share() -> None:
    nodes = ["n1", "n2", "n3"]
    first = {t: next(n for n in nodes if rank(n, t, nodes) == 0) for t in range(3000)}
    counts = {n: sum(1 for owner in first.values() if owner == n) for n in nodes}
    assert all(900 < c < 1100 for c in counts.values()), counts
    survivors = ["n1", "n3"]
    after = {t: next(n for n in survivors if rank(n, t, survivors) == 0) for t in range(3000)}
    moved = {t for t in first if first[t] != after[t]}
    assert moved == {t for t, owner in first.items() if owner == "n2"}  # only n2's share moved
    # the dead node's tables spread over both survivors
    heirs = {after[t] for t in moved}
    assert heirs == {"n1", "n3"}


def test_every_node_agrees_on_the_order() -> None:
    nodes = ["a", "b", "c", "d"]
    for table in range(50):
        assert sorted(rank(n, table, nodes) for n in nodes) == [0, 1, 2, 3]


async def test_the_reaper_takes_a_vacant_table_first_in_its_order_and_waits_otherwise() -> None:
    leases = LocalLeases("n1")
    adopted: list[int] = []

    async def adopt(table: int) -> bool:
        adopted.append(table)
        return await leases.acquire(table) is not None

    nodes = ["n1", "n2"]
    mine = next(t for t in range(1, 100) if rank("n1", t, nodes) == 0)
    theirs = next(t for t in range(1, 100) if rank("n1", t, nodes) == 1)
    held = next(t for t in range(1, 100) if t not in (mine, theirs))
    await leases.acquire(held)
    for table in (mine, theirs):  # leased once, then lapsed: the store remembers them
        await leases.acquire(table)
        await leases.release(table)

    async def live() -> list[str]:
        return nodes

    async def open_tables() -> list[int]:
        return [mine, theirs, held]

    reaper = Reaper(leases, open_tables, set, live, adopt, step=0.3, grace=5.0)
    assert await reaper.sweep() == [mine]  # first in its order: at once
    assert adopted == [mine]
    assert await reaper.sweep() == []  # the other node's: not yet
    await asyncio.sleep(0.35)
    assert await reaper.sweep() == [theirs]  # n2 did not take it: this node steps in
    assert await reaper.sweep() == []  # nothing vacant any more
    assert adopted == [mine, theirs]


async def test_a_table_the_store_forgot_waits_for_its_owner_to_take_it_back() -> None:
    leases = LocalLeases("n1")

    async def adopt(table: int) -> bool:
        return await leases.acquire(table) is not None

    async def live() -> list[str]:
        return ["n1"]

    async def open_tables() -> list[int]:
        return [5]

    reaper = Reaper(leases, open_tables, set, live, adopt, step=0.3, grace=0.3)
    assert await leases.vacant([5]) == {5: False}  # never leased: as after a Redis restart
    assert await reaper.sweep() == []
    await asyncio.sleep(0.35)
    assert await reaper.sweep() == [5]


async def test_between_full_sweeps_only_the_tables_near_the_top_of_its_order_are_asked() -> None:
    """Among four live nodes a node asks the leases of the tables it is first or second to
    take (a dead first node's are taken a step later), and of every open table at each
    full sweep (every fifth): a table whose first two nodes are both gone is still taken."""
    leases = LocalLeases("n1")
    asked: list[list[int]] = []
    real = leases.vacant

    async def vacant(tables: list[int]) -> dict[int, bool]:
        asked.append(sorted(tables))
        return await real(tables)

    leases.vacant = vacant  # type: ignore[method-assign]
    nodes = ["n1", "n2", "n3", "n4"]
    tables = list(range(1, 41))
    near = sorted(t for t in tables if rank("n1", t, nodes) < 2)
    last = next(t for t in tables if rank("n1", t, nodes) == 3)

    async def adopt(table: int) -> bool:
        return await leases.acquire(table) is not None

    async def live() -> list[str]:
        return nodes

    async def open_tables() -> list[int]:
        return tables

    for table in tables:
        await leases.acquire(table)
    reaper = Reaper(leases, open_tables, set, live, adopt, step=0.0, grace=5.0)
    assert 10 < len(near) < 30
    taken = [await reaper.sweep()]  # the first sweep is full: nothing vacant
    await leases.release(last)  # its owner died, and the two nodes after it
    taken += [await reaper.sweep() for _ in range(5)]
    assert asked == [tables, near, near, near, near, tables]
    assert taken == [[], [], [], [], [], [last]]  # found by the full sweep


async def test_the_leases_of_a_node_that_no_longer_listens_are_ended_and_its_tables_taken() -> None:
    """A node killed stops listening on its link at once: after ``silence`` seconds over
    two sweeps its leases are ended (not waiting out their ttl) and its tables taken,
    ranked over the nodes that listen. A node that listens keeps them (one that hangs
    still listens), and a node that does not hear itself judges nobody."""
    board: dict[int, Lease] = {}
    epochs: dict[int, int] = {}
    watchers: list[Any] = []
    n1 = BoardLeases("n1", board, epochs, watchers)
    n2 = BoardLeases("n2", board, epochs, watchers)
    tables = list(range(1, 7))
    for table in tables:
        await n2.acquire(table)
    listens = {"n1": True, "n2": True}

    async def listening(node: str) -> bool:
        return listens[node]

    async def live() -> list[str]:
        return ["n1", "n2"]  # n2's heartbeat outlives its process by a few seconds

    async def open_tables() -> list[int]:
        return tables

    async def adopt(table: int) -> bool:
        return await n1.acquire(table) is not None

    reaper = Reaper(
        n1, open_tables, set, live, adopt, step=5.0, grace=5.0, listening=listening, silence=0.3
    )
    assert await reaper.sweep() == []  # n2 listens: its tables stay
    listens["n2"] = False
    assert await reaper.sweep() == []  # silent, not for long yet
    await asyncio.sleep(0.35)
    listens["n1"] = False  # this node's own subscriber is not back (Redis restarting)
    assert await reaper.sweep() == []
    assert {lease.node for lease in board.values()} == {"n2"}
    listens["n1"] = True
    assert await reaper.sweep() == []  # the silence is counted again from here
    await asyncio.sleep(0.35)
    assert await reaper.sweep() == tables  # every one first in its order among those alive
    assert reaper.expired == dict.fromkeys(tables, "n2")
    assert all(board[t].node == "n1" and board[t].epoch == 2 for t in tables)


# -- live: nodes on the private PostgreSQL and Redis -------------------------------------------

SETTINGS: dict[str, Any] = {"clock_scale": 0.02, "bot_delay": 0.05, "takeover_delay": 60}


@pytest.mark.live
async def test_a_killed_nodes_tables_run_again_on_the_others_and_their_games_go_on(
    cluster: Cluster,
) -> None:
    n1 = await cluster.start("n1", **SETTINGS)
    await cluster.start("n2", **SETTINGS)
    await cluster.start("n3", **SETTINGS)
    tables = [(await bot_table(n1, f"Host{i}"))[1] for i in range(4)]
    assert {cluster.runner(t) for t in tables} == {"n1"}
    await asyncio.sleep(0.3)
    before = {t: await stored_epoch(n1, t) for t in tables}
    killed = time.monotonic()
    await cluster.kill("n1")
    await wait_for(lambda: all(cluster.runner(t) for t in tables), 10)
    took = time.monotonic() - killed
    # its link goes silent at once: its leases end after the silence (or lapse within
    # their ttl, if shorter), then a sweep (0.2 s) and a step (0.5 s) at most
    assert took < TTL_MS / 1000 + 0.2 + 0.5 + 1.0, took
    print(f"takeover of 4 tables after a kill: {took:.2f} s (lease ttl {TTL_MS / 1000} s)")
    for table_id in tables:
        owner = cluster.salons[cluster.runner(table_id) or ""]
        assert owner.tables[table_id].epoch == before[table_id] + 1  # the dead node is fenced
        seen = len(owner.tables[table_id].history.items)
        # its game goes on: the clock runs out for the absent host, the bot plays on
        await wait_for(lambda o=owner, t=table_id, s=seen: "clock_timeout" in kinds(o, t)[s:], 5)
        match = owner.tables[table_id].match
        assert match is not None
        length = len(match.log)
        await wait_for(lambda m=match, n=length: len(m.log) > n, 5)


async def stored_epoch(salon: Salon, table_id: int) -> int:
    from sqlalchemy import select

    from zanzibar.salon import models as m

    (row,) = await salon.store.read(select(m.tables.c.epoch).where(m.tables.c.id == table_id))
    return int(row.epoch)


@pytest.mark.live
async def test_the_takeover_time_with_the_production_lease(pg_url: str, redis_url: str) -> None:
    """``kill -9`` of a node with the real ttl (5 s): its link goes silent at once, so its
    table runs again after the silence (1 s) and a sweep or two, well within the ttl."""
    from zanzibar.cluster.redis_leases import TTL_MS as PRODUCTION_TTL

    cluster = Cluster(pg_url, redis_url, ttl_ms=PRODUCTION_TTL)
    try:
        n1 = await cluster.start("n1", **SETTINGS)
        await cluster.start("n2", **SETTINGS)
        for salon in cluster.salons.values():
            assert salon.reaper is not None
            salon.reaper.period = 1.0  # the production sweep
            salon.reaper.step = 1.0
        _host, table_id = await bot_table(n1, "Anna")
        killed = time.monotonic()
        await cluster.kill("n1")
        await wait_for(lambda: cluster.runner(table_id), 15)
        took = time.monotonic() - killed
        print(f"takeover with the production lease: {took:.2f} s (ttl {PRODUCTION_TTL / 1000} s)")
        # the silence, then two sweeps at most; the lease's ttl is not waited for
        assert took < PRODUCTION_TTL / 1000 - 0.5, took
        n2 = cluster.salons["n2"]
        assert n2.reaper is not None and n2.reaper.expired == {table_id: "n1"}
    finally:
        await cluster.stop()


@pytest.mark.live
async def test_a_restarted_node_takes_only_the_tables_nobody_runs(cluster: Cluster) -> None:
    n1 = await cluster.start("n1", **SETTINGS)
    # n2 runs its table throughout: its lease (30 s) cannot lapse while this one process's
    # loop is held up (n1's start, a loaded machine), which would rightly free the table
    n2 = await cluster.start("n2", lease_ttl_ms=30_000, **SETTINGS)
    _anna, on_n1 = await bot_table(n1, "Anna")
    _bob, on_n2 = await bot_table(n2, "Bob")
    epoch = await stored_epoch(n2, on_n2)
    await cluster.kill("n1")
    # n1 comes back at once (its name free once its heartbeat expired): it takes nothing held
    n1 = await cluster.start("n1", **SETTINGS)
    assert on_n2 not in n1.tables and cluster.runner(on_n2) == "n2"
    await wait_for(lambda: cluster.runner(on_n1), 30)  # its old table: whoever is first
    # several sweeps of both nodes, a full one among them: nothing moves twice
    assert n1.reaper is not None
    await sweeps([n1, n2], n1.reaper.full_every)
    assert cluster.runner(on_n2) == "n2"
    assert await stored_epoch(n1, on_n2) == epoch  # never claimed by the restarted node
    assert cluster.runner(on_n1) in ("n1", "n2")


# -- Redis and PostgreSQL restarted mid-game -----------------------------------------------

#: Bots answer quickly, no turn clock: the table waits for its host between turns.
QUIET: dict[str, Any] = {"bot_delay": 0.02, "takeover_delay": 60}
#: Refusals a client meets while a service restarts, and retries.
TRANSIENT = ("internal", "not_found", "rate_limited")


async def acked(client: Client, kind: str, **fields: Any) -> dict[str, Any]:
    """Send until the salon acknowledges (a client retrying through a restart)."""
    for _ in range(100):
        reply = await client.request(kind, **fields)
        if reply["type"] != "error" or reply["code"] not in TRANSIENT:
            assert reply["type"] == "ok", reply
            return reply
        await asyncio.sleep(0.1)
    raise AssertionError(f"{kind} was never acknowledged: {reply}")


async def host_turn(cluster: Cluster, client: Client, table_id: int) -> None:
    """Wait for the host's turn (seat 0) wherever the table runs, then roll and bank."""

    def my_turn() -> bool:
        name = cluster.runner(table_id)
        if name is None:
            return False
        match = cluster.salons[name].tables[table_id].match
        return match is not None and match.to_act == 0

    await wait_for(my_turn, 10)
    await acked(client, "game.action", table=table_id, action={"type": "roll"})
    # a loaded machine may let the table's lease lapse around the roll: another node (or
    # the same) takes it over within seconds, restoring the roll from the database
    await wait_for(lambda: cluster.runner(table_id) is not None, 10)
    name = cluster.runner(table_id)
    assert name is not None
    match = cluster.salons[name].tables[table_id].match
    if match is not None and match.to_act == 0:  # no 1 rolled: bank the points
        await acked(client, "game.action", table=table_id, action={"type": "stop"})


async def stored_snapshot(db_url: str, table_id: int) -> dict[str, Any]:
    """What a fresh one-node salon restores of the table from the database."""
    alone = make_salon(db_url, takeover_delay=60, bot_delay=60)
    await alone.start()
    try:
        return alone.snapshot(table_id)
    finally:
        await alone.stop()


def chat_texts(snapshot: dict[str, Any]) -> list[str]:
    return [data.get("text") for _seq, channel, data in snapshot["history"] if channel == "chat"]


async def final_state(cluster: Cluster, table_id: int) -> dict[str, Any]:
    """The table as its owner holds it once idle (the host's turn): what was acknowledged."""
    name = cluster.runner(table_id)
    assert name is not None
    owner = cluster.salons[name]
    await owner.settle()
    return owner.snapshot(table_id)


@pytest.mark.live
async def test_a_redis_restart_mid_game_loses_no_acknowledged_action(
    cluster: Cluster, redis_server: Any
) -> None:
    n1 = await cluster.start("n1", **QUIET)
    await cluster.start("n2", **QUIET)
    anna, table_id = await bot_table(n1, "Anna", clock=False)
    bob = await Client(n1, "Bob").sign_in()
    await bob.ok("table.watch", table=table_id)
    epoch = n1.tables[table_id].epoch
    await acked(anna, "chat.say", table=table_id, text="before")
    await host_turn(cluster, anna, table_id)
    redis_server.stop()
    try:
        # Redis is down: the owner keeps running its table (the database fences writes)
        await acked(anna, "chat.say", table=table_id, text="while Redis is down")
        await host_turn(cluster, anna, table_id)
        await asyncio.sleep(TTL_MS / 1000)  # renewals fail meanwhile, and the lease's ttl passes
    finally:
        redis_server.start()  # empty: every lease, heartbeat and presence count is gone
    # the owner finds its leases forgotten and takes them back before anyone else
    await wait_for(lambda: table_id in n1.tables and n1.tables[table_id].epoch > epoch, 5)
    assert cluster.runner(table_id) == "n1"
    assert n1.reaper is not None and table_id not in n1.reaper.taken  # its owner, not the reaper
    # reloaded in place: still watching (his watch is a change of its own, posted to the
    # new actor after its load, so it may follow the new epoch by a commit or two)
    await wait_for(lambda: bob.user_id in n1.tables[table_id].spectators, 5)
    heard = len(bob.stream(table_id))
    await acked(anna, "chat.say", table=table_id, text="after")
    await host_turn(cluster, anna, table_id)
    acknowledged = await final_state(cluster, table_id)
    assert cluster.runner(table_id) == "n1"  # it never moved
    assert "after" in [m.get("text") for m in bob.stream(table_id)[heard:]]  # still followed
    await cluster.stop()
    stored = await stored_snapshot(cluster.db_url, table_id)
    assert stored == acknowledged
    assert chat_texts(stored) == ["before", "while Redis is down", "after"]


@pytest.mark.live
async def test_a_postgresql_restart_on_a_shared_node_loses_no_acknowledged_action(
    cluster: Cluster, postgres_server: Any
) -> None:
    n1 = await cluster.start("n1", **QUIET)
    await cluster.start("n2", **QUIET)
    anna, table_id = await bot_table(n1, "Anna", clock=False)
    await acked(anna, "chat.say", table=table_id, text="before")
    await host_turn(cluster, anna, table_id)
    postgres_server.stop("fast")
    try:
        # nothing can be stored: refused as internal, and nothing of it stays in memory
        before = n1.snapshot(table_id)
        reply = await anna.refused("chat.say", "internal", table=table_id, text="lost")
        assert "nothing was changed" in reply["message"]
        assert n1.snapshot(table_id) == before
        await asyncio.sleep(TTL_MS / 1000)  # leases are renewed meanwhile (Redis is up)
    finally:
        postgres_server.start()
    await acked(anna, "chat.say", table=table_id, text="after")
    await host_turn(cluster, anna, table_id)
    assert cluster.runner(table_id) == "n1"
    acknowledged = await final_state(cluster, table_id)
    await cluster.stop()
    stored = await stored_snapshot(cluster.db_url, table_id)
    assert stored == acknowledged
    assert chat_texts(stored) == ["before", "after"]


@pytest.mark.live
async def test_a_node_that_hung_past_its_lease_lets_the_table_go_to_its_new_owner(
    cluster: Cluster,
) -> None:
    n1 = await cluster.start("n1", **QUIET)
    n2 = await cluster.start("n2", **QUIET)
    _anna, table_id = await bot_table(n1, "Anna", clock=False)  # waits for its host: idle
    renewing = n1._renewing
    assert renewing is not None
    renewing.cancel()  # n1 hangs: it renews nothing, its lease lapses
    await wait_for(lambda: table_id in n2.tables, 5)  # n2's reaper took it over
    epoch = n2.tables[table_id].epoch
    assert table_id in n1.tables  # n1 does not know yet
    n1._renewing = asyncio.ensure_future(n1.keeper.run())  # n1 wakes up
    await wait_for(lambda: table_id not in n1.tables, 3)  # its renewal says lost: it lets go
    assert cluster.runner(table_id) == "n2"
    assert n2.tables[table_id].epoch == epoch == await stored_epoch(n2, table_id)
