"""A tournament run by one node, its entrants on another (issue 11).

The runner (the holder of the runner's lease, node a) starts the tournament,
opens its tables and tells entrants where to go, the rounds' standings and the
end; the entrants' sockets are on node b. Every message reaches them there, once,
in their language, and one who comes to the table from node b is not taken
for a no-show. Two salons in one process on one database, with the in-process
ports shared the way separate processes share Redis (``_local_nodes.Cluster``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _local_nodes import Cluster
from _salonkit import Client, make_salon

from zanzibar.cluster.local import PresenceBoard
from zanzibar.salon import Salon
from zanzibar.salon.tournament_runner import RUNNER_LEASE

pytestmark = pytest.mark.anyio

ZILCH_QUICK = {"target": 500, "entry": 0, "minimum": 0}


@pytest.fixture
async def nodes(db_url: str) -> AsyncIterator[tuple[Cluster, dict[str, Salon]]]:
    cluster = Cluster(presence=PresenceBoard())
    salons: dict[str, Salon] = {}
    for name in "ab":  # a starts first: it holds the runner's lease
        salon = salons[name] = make_salon(db_url, ports=cluster.ports(name), takeover_delay=0)
        salon.tournaments.tick = 0.05
        await salon.start()
        salon.ids = salons["a"].ids  # SQLite counts ids in the process: one counter
    yield cluster, salons
    for salon in reversed(salons.values()):
        await salon.stop()


def of_type(client: Client, kind: str, tid: int) -> list[dict[str, Any]]:
    return [x for x in client.inbox if x.get("type") == kind and x.get("tournament") == tid]


def events(client: Client, tid: int) -> list[str]:
    return [x["kind"] for x in of_type(client, "tournament.event", tid)]


async def until(check: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.02)


async def test_entrants_on_another_node_hear_the_runner_and_play(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    assert cluster.board[RUNNER_LEASE].node == "a"
    anna = await Client(b, "Anna").sign_in("fr")
    bruno = await Client(b, "Bruno").sign_in()
    created = await anna.ok("tournament.create", game="zilch", options=ZILCH_QUICK, rounds=1)
    tid = created["tournament"]["id"]
    await anna.ok("tournament.register", tournament=tid)
    await bruno.ok("tournament.register", tournament=tid)
    await anna.ok("tournament.start", tournament=tid)  # b is not the runner: due now
    await until(
        lambda: of_type(anna, "tournament.table", tid) and of_type(bruno, "tournament.table", tid)
    )
    assert events(anna, tid) == events(bruno, tid) == ["started", "round"]
    (going,) = of_type(bruno, "tournament.table", tid)
    (anna_going,) = of_type(anna, "tournament.table", tid)
    table_id = going["table"]
    assert anna_going["table"] == table_id and anna_going["seat"] == 1 - going["seat"]
    assert table_id in a.tables and table_id not in b.tables  # opened by the runner
    assert "round 1" in going["text"] and "against Anna" in going["text"]
    assert anna_going["text"] != going["text"]  # told in French
    assert "ronde 1" in anna_going["text"] and "contre Bruno" in anna_going["text"]

    seat = (await bruno.ok("table.join", table=table_id))["seat"]  # forwarded to a
    assert seat == going["seat"]
    await asyncio.sleep(a.tournaments.no_show_delay() + 0.5)
    await a.settle()
    table = a.tables[table_id]
    assert table.seats[1 - seat].away  # Anna never came: a bot plays for her
    assert not table.seats[seat].away  # Bruno came, from node b

    for _ in range(4000):  # Bruno plays his turns from node b (banking when he may)
        shown = await b.tournaments.show_json(tid)
        assert shown is not None
        if shown["state"] == "finished":
            break
        views = [x for x in bruno.inbox if x.get("type") == "game.view" and x["table"] == table_id]
        view = views[-1]["view"] if views else None
        if view and view["to_act"] == seat and view["legal"]:
            banks = [x for x in view["legal"] if "bank" in str(x)]
            await bruno.request(
                "game.action",
                table=table_id,
                action=(banks or view["legal"])[0],
                seq=views[-1]["log_length"],
            )
        else:
            await asyncio.sleep(0.01)
    await until(
        lambda: (
            of_type(anna, "tournament.finished", tid) and of_type(bruno, "tournament.finished", tid)
        )
    )
    for client in (anna, bruno):
        (standings,) = of_type(client, "tournament.standings", tid)
        assert {s["name"]: s["points"] for s in standings["standings"]} == {
            "Anna": 0.0,
            "Bruno": 1.0,
        }
        assert len(of_type(client, "tournament.finished", tid)) == 1
        assert "Bruno" in of_type(client, "tournament.finished", tid)[0]["text"]
    assert (
        of_type(anna, "tournament.finished", tid)[0]["text"]
        != (of_type(bruno, "tournament.finished", tid)[0]["text"])
    )


async def test_the_runner_comes_back_after_its_lease_and_its_database_failed(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    """The lease store forgets every lease (Redis restarted empty): the runner's lease is
    taken again. Then the runner's database reads fail for a while (PostgreSQL down):
    its tick tries again afterwards instead of ending, so a tournament that only the
    runner's tick can start (asked on the other node) starts."""
    cluster, salons = nodes
    cluster.forget_leases()
    await until(lambda: RUNNER_LEASE in cluster.board, 15.0)  # a renewal, then a tick
    runner = salons[cluster.board[RUNNER_LEASE].node]
    other = salons["b" if runner is salons["a"] else "a"]
    reads = runner.store.read
    down = True

    async def failing(*args: Any, **kwargs: Any) -> Any:
        if down:
            raise ConnectionError("the database is restarting")
        return await reads(*args, **kwargs)

    runner.store.read = failing  # type: ignore[method-assign]
    await asyncio.sleep(0.5)  # ten ticks meet the database down
    down = False
    anna = await Client(other, "Anna").sign_in()
    bruno = await Client(other, "Bruno").sign_in()
    tid = (await anna.ok("tournament.create", game="zilch", options=ZILCH_QUICK, rounds=1))[
        "tournament"
    ]["id"]
    await anna.ok("tournament.register", tournament=tid)
    await bruno.ok("tournament.register", tournament=tid)
    await anna.ok("tournament.start", tournament=tid)  # not the runner here: due now
    await until(
        lambda: of_type(anna, "tournament.table", tid) and of_type(bruno, "tournament.table", tid)
    )
    assert events(anna, tid) == ["started", "round"]
