"""One node claims a table once at a time, even when a claim fails.

A table's reload after its lease was lost failed (PostgreSQL restarting), and
while that claim let the lease go, another caller came (a socket's command, a
re-follow): it made a new lock and claimed beside the caller waiting on the old
one, and the node ran two actors of one table, each pushing its history to the
same sockets (the restart test on one node: a client got seq 19 twice).
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from zanzibar.cluster.local import LocalLeases
from zanzibar.salon.router import Router

pytestmark = pytest.mark.anyio


class SlowRelease(LocalLeases):
    """Leases whose release takes a moment (a Redis round trip)."""

    async def release(self, table: int) -> bool:
        await asyncio.sleep(0.05)
        return await super().release(table)


async def test_callers_during_a_failed_claim_load_the_table_once() -> None:
    loaded: list[Any] = []
    first = asyncio.Event()  # the first load (it fails)

    async def load(table_id: int) -> Any:
        await asyncio.sleep(0.02)
        if not first.is_set():
            first.set()
            raise ConnectionError("the database is restarting")
        actor = SimpleNamespace(table=SimpleNamespace(id=table_id), closed=False)
        loaded.append(actor)
        return actor

    router = Router(SlowRelease("n1"), load=load)
    failing = asyncio.ensure_future(router.adopt(7))
    waiting = asyncio.ensure_future(router.adopt(7))  # waits for the first claim
    with pytest.raises(ConnectionError):
        await failing  # its load failed, then it let the lease go
    # the caller that waited claims now; one more comes while it does
    late = asyncio.ensure_future(router.adopt(7))
    results = await asyncio.gather(failing, waiting, late, return_exceptions=True)
    assert len(loaded) == 1, loaded
    assert results[1] is results[2] is loaded[0] is router.actors[7]
    assert not router._claiming  # nothing left as "being claimed"


async def test_a_claim_another_node_won_leaves_nothing_behind() -> None:
    async def load(table_id: int) -> Any:
        raise AssertionError("not claimed here: nothing to load")

    leases = LocalLeases("n1")
    await leases.acquire(7)  # held already
    router = Router(leases, load=load)
    assert await router.adopt(7) is None
    assert not router._claiming and not router._claimers
