"""Any node takes any socket, through three real ``zanzibar serve --redis`` nodes.

A table created on node 1 is joined from node 2 and watched from node 3:
the commands travel to node 1 over the Redis link, its frames come back
over the Redis table bus. Then node 1 is killed (``kill -9``): another node
claims the table once its lease lapsed, the sockets on nodes 2 and 3 follow
it there, and the game goes on with every client's seqs contiguous. On the
live tests' shared cluster (``conftest.py``'s ``cluster``, ``_livekit.py``).
"""

from __future__ import annotations

import time

import pytest
from _livekit import Cluster
from _sockets import Socket
from test_nodes import guest

pytestmark = pytest.mark.live


def contiguous(values: list[int]) -> bool:
    return bool(values) and values == list(range(values[0], values[0] + len(values)))


def play(table: int, players: list[Socket], watchers: list[Socket], actions: int) -> int:
    """The seat to act plays its first legal action; ``actions`` times or until the end."""
    done = 0
    for _ in range(actions):
        for sock in players + watchers:
            sock.drain(0.3)
        view = players[0].view(table)["view"]
        if view.get("over"):
            break
        seat = view["to_act"]
        mover = players[seat]
        legal = mover.view(table)["view"]["legal"]
        assert legal, mover.view(table)
        reply = mover.request("game.action", table=table, action=legal[0])
        assert reply["type"] == "ok", reply
        done += 1
    for sock in players + watchers:
        sock.drain(0.5)
    return done


def test_players_on_two_nodes_and_a_spectator_on_a_third_survive_the_owner_kill(
    cluster: Cluster,
) -> None:
    anna_s, bob_s, carl_s = (guest(cluster.node(i + 1), n) for i, n in enumerate("ABC"))
    anna = Socket(cluster.node(1), anna_s["token"])
    bob = Socket(cluster.node(2), bob_s["token"])
    carl = Socket(cluster.node(3), carl_s["token"])
    try:
        table = anna.ok("table.create", game="421", seats=2)["table"]["id"]
        joined = bob.ok("table.join", table=table)  # node 2 -> node 1
        assert joined["seat"] == 1
        carl.ok("table.watch", table=table)  # node 3 -> node 1
        anna.ok("table.start", table=table)
        bob.ok("chat.say", table=table, text="from node 2")
        assert play(table, [anna, bob], [carl], 6) == 6
        for sock in (anna, bob, carl):
            assert contiguous(sock.seqs(table)), sock.seqs(table)
        heard = [m["text"] for m in carl.inbox if m.get("type") == "chat"]
        assert heard.count("from node 2") == 1
        # a node's hello lists the places at tables other nodes run
        again = Socket(cluster.node(3), bob_s["token"])
        assert {"table": table, "seat": 1, "game": "421"} in again.welcome["tables"]
        again.close()
        last_anna = max(anna.seqs(table))
        # node 1 dies with the table: nodes 2 and 3 follow it on its next owner
        anna.close()
        cluster.kill(1)
        anna = Socket(cluster.node(2), anna_s["token"])
        deadline = time.monotonic() + 30
        while True:  # the first command claims the table once the lease lapsed
            reply = anna.request("table.join", table=table, since=last_anna)
            if reply["type"] == "ok" or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert reply["type"] == "ok", reply
        bob.drain(1.0)
        carl.drain(1.0)
        assert play(table, [anna, bob], [carl], 6) == 6
        for sock in (bob, carl):
            got = sock.seqs(table)
            assert contiguous(got), got
        resumed = [s for s in anna.seqs(table)]
        assert resumed and resumed[0] <= last_anna + 1 and contiguous(resumed)
        assert max(bob.seqs(table)) == max(carl.seqs(table)) == max(anna.seqs(table))
    finally:
        for sock in (anna, bob, carl):
            sock.close()
        cluster.start(1)
