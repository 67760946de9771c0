"""A socket's node following a table's bus (salon/bus_follows.py), where it went wrong
without an error: the socket heard nothing more of the table (a player who never sees
his turn come stalls his table).

* A follow of the bus that failed (Redis out of reach at that instant) counted the table
  as followed anyway: the client's next try did not follow it.
* A follow made before the node's unfollow of that table (its last socket there had
  just left it) had run was undone by it.
* A follow waiting for that unfollow waited for good when the unfollow did not end (Redis
  out of reach), and raised ``CancelledError`` into its caller when it was cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from _forwarding_kit import chat_lines, nodes, settle
from _local_nodes import Cluster
from _salonkit import Client

from zanzibar.salon import Salon, fields

pytestmark = pytest.mark.anyio

__all__ = ["nodes"]  # the fixture, from _forwarding_kit


async def test_a_join_whose_bus_follow_failed_follows_the_table_when_tried_again(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id: int = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await anna.ok("chat.say", table=table_id, text="before")
    follow = a.ports.bus.follow
    failed: list[int] = []

    async def fails_once(table: int, follower: Any, after: int) -> None:
        if not failed:
            failed.append(table)
            raise ConnectionError("Redis is restarting")
        await follow(table, follower, after)

    a.ports.bus.follow = fails_once  # type: ignore[method-assign]
    await bob.refused("table.join", "internal", table=table_id)
    assert failed == [table_id]
    await bob.ok("table.join", table=table_id)  # his client tries again
    await anna.ok("chat.say", table=table_id, text="after")
    await settle(salons)
    assert chat_lines(bob, table_id)[-1] == "after", chat_lines(bob, table_id)


async def test_a_follow_while_the_node_still_unfollows_the_table_is_not_undone(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    """The last socket of node a following a table leaves it, and another one of a
    follows it before the node's unfollow of the table's bus has run (a busy loop): that
    unfollow must not take away the new follow (its cursor, its channel)."""
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(a, "Carl").sign_in()
    table_id: int = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await settle(salons)
    unfollow = a.ports.bus.unfollow
    late = asyncio.Event()

    async def unfollows_late(table: int, follower: Any) -> None:
        await late.wait()
        await unfollow(table, follower)

    a.ports.bus.unfollow = unfollows_late  # type: ignore[method-assign]
    assert bob.conn is not None and carl.conn is not None
    # Bob leaves (a unfollows the table, late) and Carl watches it at once
    leaving = asyncio.ensure_future(
        a.handle(bob.conn, {"v": 1, "type": "table.leave", "id": "l", "table": table_id})
    )
    watching = asyncio.ensure_future(
        a.handle(carl.conn, {"v": 1, "type": "table.watch", "id": "w", "table": table_id})
    )
    await asyncio.sleep(0.2)
    late.set()
    await asyncio.wait_for(asyncio.gather(leaving, watching), 10)
    await settle(salons)
    # one ok: the frames of the bus being left are not given again by the new follow
    assert [m["type"] for m in carl.inbox if m.get("id") == "w"] == ["ok"]
    await anna.ok("chat.say", table=table_id, text="after")
    await settle(salons)
    assert chat_lines(carl, table_id)[-1:] == ["after"], chat_lines(carl, table_id)


async def leave_and_watch(
    salons: dict[str, Salon], unfollow: Any
) -> tuple[Client, Client, int, asyncio.Future[Any]]:
    """Bob (node a) leaves the table Anna opened on b, Carl (node a) watches it at once;
    node a's unfollow of the table's bus is ``unfollow``. Anna, Carl, the table and the
    watch under way."""
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(a, "Carl").sign_in()
    table_id: int = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await settle(salons)
    a.ports.bus.unfollow = unfollow  # type: ignore[method-assign]
    assert bob.conn is not None and carl.conn is not None
    leaving = asyncio.ensure_future(
        a.handle(bob.conn, {"v": 1, "type": "table.leave", "id": "l", "table": table_id})
    )
    watching = asyncio.ensure_future(
        a.handle(carl.conn, {"v": 1, "type": "table.watch", "id": "w", "table": table_id})
    )
    await leaving
    return anna, carl, table_id, watching


async def test_a_follow_does_not_wait_for_good_for_an_unfollow_that_never_ends(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a = salons["a"]
    a.forwarder.unfollow_wait = 0.2
    never = asyncio.Event()

    async def stuck(table: int, follower: Any) -> None:
        await never.wait()  # Redis does not answer

    anna, carl, table_id, watching = await leave_and_watch(salons, stuck)
    await asyncio.wait_for(watching, 10)  # waited for good before
    await settle(salons)
    assert [m["type"] for m in carl.inbox if m.get("id") == "w"] == ["ok"]
    await anna.ok("chat.say", table=table_id, text="after")
    await settle(salons)
    assert chat_lines(carl, table_id)[-1:] == ["after"], chat_lines(carl, table_id)


async def test_a_follow_waiting_for_an_unfollow_that_is_cancelled_goes_on(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a = salons["a"]
    started = asyncio.Event()

    async def slow(table: int, follower: Any) -> None:
        started.set()
        await asyncio.sleep(30)

    anna, carl, table_id, watching = await leave_and_watch(salons, slow)
    await asyncio.wait_for(started.wait(), 10)
    await asyncio.sleep(0.05)  # the watch waits for the unfollow now
    a.forwarder._leaving[table_id].cancel()  # as a stop cancels the node's tasks
    await asyncio.wait_for(watching, 10)  # raised the unfollow's CancelledError before
    await settle(salons)
    assert [m["type"] for m in carl.inbox if m.get("id") == "w"] == ["ok"]
    await anna.ok("chat.say", table=table_id, text="after")
    await settle(salons)
    assert chat_lines(carl, table_id)[-1:] == ["after"], chat_lines(carl, table_id)


async def test_a_stop_does_not_wait_for_good_for_a_task_that_ignores_its_cancel(
    nodes: tuple[Cluster, dict[str, Salon]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forwarder's and the owner side's stop cancel their tasks and wait for them a
    bounded while (a task can miss its cancel: asyncio.wait_for before Python 3.12
    swallows one that comes as its future completes)."""
    _cluster, salons = nodes
    a = salons["a"]
    monkeypatch.setattr(fields, "STOP_WAIT_S", 0.2)
    done = asyncio.Event()

    async def stubborn() -> None:
        while not done.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await done.wait()

    a.forwarder._spawn(stubborn())
    a.forwarder.remote._spawn(stubborn())
    await asyncio.sleep(0)
    stopping = asyncio.ensure_future(a.forwarder.stop())
    try:
        # (not wait_for: cancelling a stop that swallows the cancel would hang the test)
        stopped, _ = await asyncio.wait({stopping}, timeout=10)
        assert stopped, "the stop still waits"  # it waited for good before
    finally:
        done.set()
        await stopping
