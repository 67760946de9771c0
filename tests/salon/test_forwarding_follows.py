"""A node that could not start following a table's bus (Redis out of reach at that
instant) follows it at the next try: it used to count the table as followed anyway, so
the socket, once its client tried again, heard nothing more of the table, with no error
(a player who never sees his turn come stalls his table)."""

from __future__ import annotations

from typing import Any

import pytest
from _forwarding_kit import chat_lines, nodes, settle
from _local_nodes import Cluster
from _salonkit import Client

from zanzibar.salon import Salon

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
