"""One node claims a table once at a time, even when a claim fails.

A table's reload after its lease was lost failed (PostgreSQL restarting), and
while that claim let the lease go, another caller came (a socket's command, a
re-follow): it made a new lock and claimed beside the caller waiting on the old
one, and the node ran two actors of one table, each pushing its history to the
same sockets (the restart test on one node: a client got seq 19 twice).

A retake (the lease lost, the table reloaded in place) that fails says why: its
reload failed on the database (then its lease is let go for a reaper), or another
node holds the lease now. It used to say "lost to another node" in every case.
"""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from zanzibar.cluster.local import LocalLeases
from zanzibar.cluster.ports import Lease
from zanzibar.salon.reaper import LeaseKeeper
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


class FakeActor:
    """What :meth:`LeaseKeeper.retake` asks of a table's actor."""

    def __init__(self, table_id: int) -> None:
        self.table = SimpleNamespace(id=table_id, spectators=set())
        self.processing = False
        self.closed = False
        self.refused: list[Any] = []

    async def stop(self, keep_queued: bool = False) -> list[Any]:
        self.closed = True
        return ["queued command"]

    def take_queued(self, queued: list[Any]) -> None:
        self.refused += queued


async def retake_failing(load: Any, leases: LocalLeases) -> tuple[Router, list[Any], FakeActor]:
    """A table run here whose lease was lost, retaken with ``load`` as its reload."""
    router = Router(leases, load=load)
    old = FakeActor(7)
    router.actors[7] = old  # type: ignore[assignment]
    closed: list[Any] = []
    await LeaseKeeper(router, closed.append).retake(old)  # type: ignore[arg-type]
    return router, closed, old


async def test_a_retake_whose_reload_failed_says_so(caplog: pytest.LogCaptureFixture) -> None:
    async def load(table_id: int) -> Any:
        raise ConnectionError("the database system is starting up")

    leases = LocalLeases("n1")
    with caplog.at_level(logging.WARNING, logger="zanzibar.salon.reaper"):
        router, closed, old = await retake_failing(load, leases)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "ConnectionError: the database system is starting up" in said, said
    assert "lease is let go" in said and "another node" not in said, said
    assert closed == [old.table] and old.refused == ["queued command"]
    assert 7 not in router.actors and 7 not in router.lease_of
    assert await leases.owner(7) is None  # let go: a reaper takes it again


async def test_a_retake_another_node_won_names_it(caplog: pytest.LogCaptureFixture) -> None:
    async def load(table_id: int) -> Any:
        raise AssertionError("not claimed here: nothing to load")

    class TakenByN2(LocalLeases):
        async def acquire(self, table: int, floor: int = 0) -> Lease | None:
            return None

        async def owner(self, table: int) -> Lease | None:
            return Lease(table, "n2", 5)

    leases = TakenByN2("n1")
    with caplog.at_level(logging.WARNING, logger="zanzibar.salon.reaper"):
        _router, closed, old = await retake_failing(load, leases)
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "node n2 holds its lease (epoch 5)" in said, said
    assert closed == [old.table]
