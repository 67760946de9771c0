"""The tournaments' runner runs on one node at a time (issue 11), and moves to another
when its node dies.

Two salons share one database and one set of leases (the in-memory
``BoardLeases`` of ``_local_nodes``); a person has a socket on each. Both runners
tick fast. Only the holder of the runner's lease may start a tournament, so the
person hears "started" once, on the runner's socket: were both runners acting,
each would start it and tell its own socket.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from _local_nodes import BoardLeases
from _salonkit import Client, make_salon

from zanzibar.cluster.pg_ids import ids_for
from zanzibar.cluster.ports import Lease
from zanzibar.salon import Salon
from zanzibar.salon.ids import SalonIds
from zanzibar.salon.tournament_runner import RUNNER_LEASE

pytestmark = pytest.mark.anyio

QUICK = {"target": 500, "entry": 0, "minimum": 0}


async def _until(salon: Salon, tid: int, states: set[str], timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        shown = await salon.tournaments.show_json(tid)
        assert shown is not None
        if shown["state"] in states:
            return shown
        assert time.monotonic() < deadline, f"tournament {tid} stuck in {shown['state']}"
        await asyncio.sleep(0.02)


def _events(client: Client, tid: int, kind: str) -> list[dict[str, Any]]:
    return [
        x
        for x in client.inbox
        if x.get("type") == "tournament.event" and x["tournament"] == tid and x["kind"] == kind
    ]


async def _bots_tournament(client: Client, bots: int, **fields: Any) -> int:
    created = await client.ok(
        "tournament.create", game="zilch", options=QUICK, seats=2, rounds=1, **fields
    )
    tid = int(created["tournament"]["id"])
    for _ in range(bots):
        await client.ok("tournament.add_bot", tournament=tid, level="simple")
    return tid


async def test_one_runner_acts_and_another_node_takes_over_when_it_dies(db_url: str) -> None:
    url = db_url
    board: dict[int, Lease] = {}
    leases_a, leases_b = BoardLeases("a", board), BoardLeases("b", board)
    node_a = make_salon(url, leases=leases_a, takeover_delay=60)
    node_a.tournaments.tick = 0.05
    await node_a.start()
    node_b: Salon | None = None
    try:
        anna_a = await Client(node_a, "Anna").sign_in()
        node_b = make_salon(url, leases=leases_b, takeover_delay=60)
        node_b.tournaments.tick = 0.05
        await node_b.start()
        anna_b = await Client(node_b, "Anna").sign_in(token=anna_a.token)
        assert board[RUNNER_LEASE].node == "a"
        assert node_a.tournaments.is_runner and not node_b.tournaments.is_runner

        # asked on node b, which is not the runner: the tournament is due now, and
        # node a's runner starts it at its next tick
        tid = await _bots_tournament(anna_b, bots=2)
        await anna_b.ok("tournament.register", tournament=tid)
        await anna_b.ok("tournament.start", tournament=tid)
        deadline = time.monotonic() + 30
        while not _events(anna_a, tid, "round"):  # the runner began it and opened round 1
            assert time.monotonic() < deadline, anna_a.inbox[-5:]
            await asyncio.sleep(0.02)
        for _ in range(10):  # many more ticks of both runners
            await asyncio.sleep(0.05)
        await node_a.settle()
        await node_b.settle()
        shown = await _until(node_b, tid, {"running", "finished"})
        for kind in ("started", "round"):
            assert len(_events(anna_a, tid, kind)) == 1, kind
            assert _events(anna_b, tid, kind) == [], kind
        tables = [b["table"] for r in shown["rounds_played"] for b in r["boards"] if b["table"]]
        assert len(tables) == 1 and tables[0] not in node_b.tables  # opened by node a

        # node a dies: its leases lapse, its runner stops without a word
        leases_a.lapse()
        await node_a.crash()
        deadline = time.monotonic() + 10
        while not node_b.tournaments.is_runner:
            assert time.monotonic() < deadline, "node b never took the runner over"
            await asyncio.sleep(0.02)
        assert board[RUNNER_LEASE].node == "b"
        if url.startswith("sqlite"):
            # SQLite is one process in real use, so each salon counts ids from the largest
            # it saw at start; node b counts on from what node a stored, as a node would
            # that starts after it (PostgreSQL's sequences need no such thing)
            node_b.ids = SalonIds(await ids_for(node_b.store))
        # node b now runs tournaments from start to finish
        second = await _bots_tournament(anna_b, bots=3)
        await anna_b.ok("tournament.start", tournament=second)
        done = await _until(node_b, second, {"finished"})
        assert [s["name"] for s in done["standings"]] and done["note"] is None
        assert len(done["rounds_played"]) == 1
    finally:
        if node_b is not None:
            await node_b.stop()
        await node_a.stop()


async def test_a_clean_stop_hands_the_runner_over_at_once(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'salon.sqlite3'}"
    board: dict[int, Lease] = {}
    node_a = make_salon(url, leases=BoardLeases("a", board))
    node_b = make_salon(url, leases=BoardLeases("b", board))
    await node_a.start()
    await node_b.start()
    try:
        assert board[RUNNER_LEASE].node == "a"
        await node_a.stop()
        assert RUNNER_LEASE not in board  # released, not left to lapse
        assert await node_b.tournaments.take_runner()
        assert board[RUNNER_LEASE].node == "b"
    finally:
        await node_b.stop()


async def test_a_single_salon_is_the_runner_with_its_own_leases(tmp_path: Path) -> None:
    salon = make_salon(tmp_path / "salon.sqlite3")
    await salon.start()
    try:
        assert salon.tournaments.is_runner
    finally:
        await salon.stop()


async def test_two_runners_at_once_start_or_cancel_a_tournament_once(db_url: str) -> None:
    """A node paused past its lease still believes it runs the tournaments: here each
    salon has leases of its own, so both are runners. The database lets one of them
    start (or cancel) a tournament, and only that one tells the entrants."""
    node_a = make_salon(db_url)
    node_a.tournaments.tick = 0.02
    await node_a.start()
    node_b: Salon | None = None
    try:
        anna_a = await Client(node_a, "Anna").sign_in()
        node_b = make_salon(db_url)
        node_b.tournaments.tick = 0.02
        await node_b.start()
        anna_b = await Client(node_b, "Anna").sign_in(token=anna_a.token)
        assert node_a.tournaments.is_runner and node_b.tournaments.is_runner
        # one wall clock for both runners, moved by the test: on a loaded machine the
        # real one could pass the start time before the registrations below
        now = [time.time()]
        node_a.tournaments.clock = node_b.tournaments.clock = lambda: now[0]
        lonely = await _bots_tournament(anna_a, bots=0, start_in=1)
        await anna_a.ok("tournament.register", tournament=lonely)
        full = await _bots_tournament(anna_a, bots=1, start_in=1)
        await anna_a.ok("tournament.register", tournament=full)
        now[0] += 1.0  # both due: both runners see it at their next tick
        await _until(node_b, lonely, {"cancelled"})
        await _until(node_b, full, {"running", "finished"})
        for _ in range(10):
            await asyncio.sleep(0.02)
        await node_a.settle()
        await node_b.settle()
        for tid, kind in ((lonely, "cancelled"), (full, "started")):
            told = _events(anna_a, tid, kind) + _events(anna_b, tid, kind)
            assert len(told) == 1, (kind, told)
    finally:
        if node_b is not None:
            await node_b.stop()
        await node_a.stop()
