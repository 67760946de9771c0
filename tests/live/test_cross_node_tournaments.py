"""A Swiss tournament among real nodes: the runner is one node, the entrants on others.

The tournaments' runner is the holder of one lease (any of the three nodes);
the two entrants' sockets are on nodes 2 and 3, so at least one of them is on
another node than the runner. Each hears the start, the round, where to go, the
standings and the end once, plays at the table from his own node (the runner's
table is run elsewhere for one of them at least), and the tournament finishes.

After Redis and PostgreSQL restarts, see ``test_tournament_restarts.py``.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from _livekit import Cluster
from _sockets import Socket
from test_nodes import guest

pytestmark = pytest.mark.live

QUICK = {"target": 500, "entry": 0, "minimum": 0}


def of_type(sock: Socket, kind: str, tid: int) -> list[dict[str, Any]]:
    return [m for m in sock.inbox if m.get("type") == kind and m.get("tournament") == tid]


def until(socks: list[Socket], check: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, [s.inbox[-3:] for s in socks]
        for sock in socks:
            sock.drain(0.1)


def play_the_round(socks: list[Socket], table: int, seats: list[int], tid: int) -> None:
    """Both entrants come to their table and play it out (banking whenever allowed);
    each hears the standings and the end once."""
    for sock, seat in zip(socks, seats, strict=True):
        assert sock.ok("table.join", table=table)["seat"] == seat
    deadline = time.monotonic() + 120
    while not all(of_type(s, "tournament.finished", tid) for s in socks):
        assert time.monotonic() < deadline, "the game did not end"
        for sock in socks:
            sock.drain(0.05)
        for sock, seat in zip(socks, seats, strict=True):
            views = [m for m in sock.inbox if m.get("type") == "game.view" and m["table"] == table]
            view = views[-1] if views else None
            if view and view["view"].get("to_act") == seat and view["view"].get("legal"):
                legal = view["view"]["legal"]
                banks = [a for a in legal if "bank" in str(a)]
                sock.request(
                    "game.action", table=table, action=(banks or legal)[0], seq=view["log_length"]
                )
    for sock in socks:
        sock.drain(0.5)
        (standings,) = of_type(sock, "tournament.standings", tid)
        points = sorted(line["points"] for line in standings["standings"])
        assert points == [0.0, 1.0], standings
        assert len(of_type(sock, "tournament.finished", tid)) == 1


def test_entrants_on_other_nodes_than_the_runner_hear_it_and_play(cluster: Cluster) -> None:
    tia = Socket(cluster.node(2), guest(cluster.node(2), "Tia")["token"])
    uri = Socket(cluster.node(3), guest(cluster.node(3), "Uri")["token"])
    socks = [tia, uri]
    try:
        created = tia.ok("tournament.create", game="zilch", options=QUICK, rounds=1)
        tid = created["tournament"]["id"]
        tia.ok("tournament.register", tournament=tid)
        uri.ok("tournament.register", tournament=tid)
        tia.ok("tournament.start", tournament=tid)  # the runner starts it at its next tick
        until(socks, lambda: all(of_type(s, "tournament.table", tid) for s in socks), 30)
        goings = [of_type(s, "tournament.table", tid) for s in socks]
        assert [len(g) for g in goings] == [1, 1]
        table = goings[0][0]["table"]
        assert goings[1][0]["table"] == table
        seats = [g[0]["seat"] for g in goings]
        assert sorted(seats) == [0, 1]
        for sock in socks:
            kinds = [m["kind"] for m in of_type(sock, "tournament.event", tid)]
            assert kinds == ["started", "round"], kinds
        play_the_round(socks, table, seats, tid)
    finally:
        for sock in socks:
            sock.close()
