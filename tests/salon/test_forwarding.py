"""Any node takes any socket: three salon nodes in one process on one database.

The nodes share their leases, link and table bus the in-process way
(``_local_nodes.Cluster``); each has its own sockets, presence and lobby. A player
on node a plays at a table run by node b, a spectator on node c watches;
then b dies and the game goes on under a new owner.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from _forwarding_kit import chat_lines, contiguous, nodes, owner, play, seqs, settle
from _local_nodes import Cluster
from _salonkit import Client, make_salon
from sqlalchemy import func, select

from zanzibar.l10n.msg import Msg
from zanzibar.salon import Salon, connections, forwarding
from zanzibar.salon import models as m
from zanzibar.salon.connections import Shared
from zanzibar.salon.errors import SalonError
from zanzibar.salon.remote import RemoteConnection, encode, refusal, refusal_json

pytestmark = pytest.mark.anyio

__all__ = ["nodes"]  # the fixture, from _forwarding_kit


async def stored_log(salon: Salon, game_id: int) -> int:
    rows = await salon.store.read(
        select(func.count()).select_from(m.game_log).where(m.game_log.c.game_id == game_id)
    )
    return int(rows[0][0])


async def test_a_player_on_another_node_plays_and_a_spectator_sees_every_event_once(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b, c = salons["a"], salons["b"], salons["c"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(c, "Carl").sign_in("fr")
    created = await anna.ok("table.create", game="race", seats=2, options={"target": 40})
    table_id = created["table"]["id"]
    joined = await bob.ok("table.join", table=table_id)  # a forwards it to b
    assert joined["type"] == "ok" and joined["seat"] == 1
    assert bob.last("table")["table"]["you"]["seat"] == 1
    await carl.ok("table.watch", table=table_id)
    await anna.ok("table.start", table=table_id)
    await bob.ok("chat.say", table=table_id, text="hello from node a")
    assert table_id in b.tables and table_id not in a.tables and table_id not in c.tables
    # a refusal comes back as the owner's own: same code, same words
    turn = b.tables[table_id].match.to_act  # type: ignore[union-attr]
    waiting = bob if turn == 0 else anna
    refused = await waiting.refused(
        "game.action", "not_your_turn", table=table_id, action={"type": "roll"}
    )
    bob_on_b = await Client(b, "Bob").sign_in(token=bob.token)
    if waiting is bob:
        local = await bob_on_b.refused(
            "game.action", "not_your_turn", table=table_id, action={"type": "roll"}
        )
        assert local["message"] == refused["message"]
    await bob_on_b.disconnect()
    await play(salons, table_id, {0: anna, 1: bob}, 400)
    table = b.tables[table_id]
    assert table.match is not None and table.match.is_over
    last = table.history.last_seq
    for client in (anna, bob, carl):
        got = seqs(client, table_id)
        assert contiguous(got), (client.name, got)
        assert got[-1] == last, client.name
    assert seqs(bob, table_id)[0] == 1  # joined at the start: the whole story
    # Carl reads French, Bob English: the same events, each in his language
    bob_events = [x for x in bob.inbox if x.get("type") == "game.event"]
    carl_events = [x for x in carl.inbox if x.get("type") == "game.event"]
    assert [x["seq"] for x in carl_events] == [x["seq"] for x in bob_events]
    assert [x["event"] for x in carl_events] == [x["event"] for x in bob_events]
    assert carl_events[0]["text"] != bob_events[0]["text"]
    # every game.view Bob got was sent once per change, never twice for one seq
    views = [(x["seq"], x["log_length"]) for x in bob.of_type("game.view", table_id)]
    assert len(views) == len(set(views))
    # stored once each
    assert table.game_id is not None
    assert await stored_log(b, table.game_id) == len(table.match.log)


async def test_history_pages_and_hello_places_for_a_table_run_elsewhere(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    for n in range(5):
        await anna.ok("chat.say", table=table_id, text=f"line {n}")
    page = await bob.ok("history", table=table_id, since=0, limit=3)
    assert page["type"] == "history" and page["more"] is True
    here = await anna.ok("history", table=table_id, since=0, limit=3)
    assert page["items"] == here["items"]
    assert [i["seq"] for i in page["items"]] == [1, 2, 3]
    # not a member: refused by the owner, the answer is the same as there
    carl = await Client(a, "Carl").sign_in()
    await carl.refused("history", "forbidden", table=table_id, since=0)
    await carl.refused("history", "not_found", table=table_id + 100, since=0)
    # hello on any node lists the places, whoever runs the tables
    await carl.ok("table.watch", table=table_id)
    c = salons["c"]
    bob_on_c = await Client(c, "Bob").sign_in(token=bob.token)
    welcome = bob_on_c.last("welcome")
    assert welcome["tables"] == [{"table": table_id, "seat": 1, "game": "race"}]
    carl_on_c = await Client(c, "Carl").sign_in(token=carl.token)
    assert carl_on_c.last("welcome")["tables"] == [
        {"table": table_id, "seat": None, "game": "race"}
    ]
    await bob.ok("table.leave", table=table_id)
    again = await Client(c, "Bob").sign_in(token=bob.token)
    assert again.last("welcome")["tables"] == []
    assert await members_stored(b, table_id) == {anna.user_id: 0, carl.user_id: None}
    await carl.ok("table.leave", table=table_id)
    await anna.ok("table.leave", table=table_id)  # the last one leaves: closed
    await settle(salons)
    assert table_id not in b.tables
    assert await members_stored(b, table_id) == {}


async def members_stored(salon: Salon, table_id: int) -> dict[int, int | None]:
    rows = await salon.store.read(
        select(m.table_members.c.user_id, m.table_members.c.seat).where(
            m.table_members.c.table_id == table_id
        )
    )
    return {int(r[0]): r[1] for r in rows}


async def test_an_answer_lost_on_the_way_is_resent_and_applied_once(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await anna.ok("table.start", table=table_id)
    table = b.tables[table_id]
    assert table.match is not None
    if table.match.to_act == 0:
        await anna.ok("game.action", table=table_id, action={"type": "roll"})
        await anna.ok("game.action", table=table_id, action={"type": "stop"})
    assert table.match.to_act == 1
    a.forwarder.answer_timeout = 0.2
    send = b.hub.send
    dropped: list[Any] = []

    async def lossy(node: str, kind: str, body: Any) -> bool:
        if kind == "ans" and not dropped:
            dropped.append(body)
            return True  # lost on the way
        return await send(node, kind, body)

    b.hub.send = lossy  # type: ignore[method-assign]
    before = len(table.match.log)
    reply = await bob.ok("game.action", table=table_id, action={"type": "roll"})
    assert dropped and dropped[0]["ok"] is True
    assert reply["log_length"] == before + 2  # the roll and its die, once
    assert len(table.match.log) == before + 2
    assert table.game_id is not None
    assert await stored_log(b, table.game_id) == before + 2
    oks = [x for x in bob.inbox if x.get("id") == reply["id"]]
    assert len(oks) == 1  # the client is answered once


async def test_an_action_applied_by_an_owner_that_died_before_answering_is_not_applied_again(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await anna.ok("table.start", table=table_id)
    table = b.tables[table_id]
    assert table.match is not None
    if table.match.to_act == 0:
        await anna.ok("game.action", table=table_id, action={"type": "roll"})
        await anna.ok("game.action", table=table_id, action={"type": "stop"})
    before = len(table.match.log)
    a.forwarder.answer_timeout = 0.2
    send = b.hub.send
    applied = asyncio.Event()

    async def dies_before_answering(node: str, kind: str, body: Any) -> bool:
        if kind == "ans":
            applied.set()
            return True  # never arrives: b dies now
        return await send(node, kind, body)

    b.hub.send = dies_before_answering  # type: ignore[method-assign]
    assert bob.conn is not None
    message = {"v": 1, "type": "game.action", "id": "roll", "table": table_id}
    message["action"] = {"type": "roll"}
    sent = asyncio.ensure_future(a.handle(bob.conn, message))
    await asyncio.wait_for(applied.wait(), 5)
    cluster.crashed.add("b")
    await b.crash()
    cluster.leases["b"].lapse()
    await asyncio.wait_for(sent, 15)
    await settle({"a": a, "c": salons["c"]})
    # a claimed it to run the resent command, or c's reaper was quicker and a sent it there
    again = owner({"a": a, "c": salons["c"]}, table_id).tables[table_id]
    assert again.match is not None and len(again.match.log) == before + 2  # once
    assert again.game_id is not None
    assert await stored_log(a, again.game_id) == before + 2
    replies = [x for x in bob.inbox if x.get("id") == "roll"]
    assert [r["type"] for r in replies] == ["ok"], replies
    assert replies[0]["log_length"] == before + 2
    rows = await a.store.read(
        select(m.applied_commands.c.cmd_id).where(m.applied_commands.c.table_id == table_id)
    )
    assert len(rows) >= 1  # the forwarded commands were remembered with their replies


async def test_the_owner_dies_and_the_game_goes_on_without_gap_or_repeat(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    cluster, salons = nodes
    a, b, c = salons["a"], salons["b"], salons["c"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(c, "Carl").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2, options={"target": 50}))[
        "table"
    ]["id"]
    await bob.ok("table.join", table=table_id)
    await carl.ok("table.watch", table=table_id)
    await anna.ok("table.start", table=table_id)
    await play(salons, table_id, {0: anna, 1: bob}, 6)
    before = b.tables[table_id]
    assert before.match is not None and not before.match.is_over
    acted = len(before.match.log)
    anna_seq = max(seqs(anna, table_id))
    # b dies: its sockets with it; its lease lapses after a while
    cluster.crashed.add("b")
    await b.crash()
    cluster.leases["b"].lapse()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        runner = [s for s in (a, c) if table_id in s.tables]
        if runner and not any(s.forwarder._resyncing for s in (a, c)):
            break
        await asyncio.sleep(0.02)
    live = {"a": a, "c": c}
    await settle(live)
    new_owner = owner(live, table_id)
    table = new_owner.tables[table_id]
    assert table.match is not None and len(table.match.log) == acted
    assert cluster.board[table_id].node in ("a", "c")
    # Anna comes back on node c, from the last seq she had
    anna2 = await Client(c, "Anna").sign_in(token=anna.token)
    await anna2.ok("table.join", table=table_id, since=anna_seq)
    await play(live, table_id, {0: anna2, 1: bob}, 400)
    table = owner(live, table_id).tables[table_id]
    assert table.match is not None and table.match.is_over
    last = table.history.last_seq
    for client in (bob, carl):
        got = seqs(client, table_id)
        assert contiguous(got), (client.name, got)
        assert got[-1] == last
    resumed = seqs(anna, table_id) + seqs(anna2, table_id)
    assert contiguous(resumed) and resumed[-1] == last
    assert table.game_id is not None
    assert await stored_log(new_owner, table.game_id) == len(table.match.log)


async def test_sockets_gone_are_forgotten_by_the_owner(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    cluster, salons = nodes
    a, b, c = salons["a"], salons["b"], salons["c"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(c, "Carl").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await carl.ok("table.watch", table=table_id)

    def remote() -> set[str]:
        subscribers = b.mirror.subscribers.get(table_id, {}).values()
        return {x.node for x in subscribers if isinstance(x, RemoteConnection)}

    assert remote() == {"a", "c"}
    await bob.disconnect()  # a closes Bob's socket: b forgets it
    await settle(salons)
    assert remote() == {"c"}
    cluster.crashed.add("c")
    await c.crash()  # c dies: b notices it no longer listens
    deadline = time.monotonic() + 5
    while remote() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert remote() == set()


async def test_sockets_an_owner_forgot_by_mistake_follow_again(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b, c = salons["a"], salons["b"], salons["c"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(c, "Carl").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await carl.ok("table.watch", table=table_id)
    await anna.ok("chat.say", table=table_id, text="one")
    # b took node c for dead (a blip) and dropped its socket, c is alive and not told
    owner = b.forwarder.remote
    for key, proxy in list(owner._proxies.items()):
        if key[0] == "c":
            owner._drop_proxy(key, proxy)
    await anna.ok("chat.say", table=table_id, text="two")  # c sees frames for a only
    await anna.ok("chat.say", table=table_id, text="three")
    await settle(salons)
    got = seqs(carl, table_id)
    assert contiguous(got) and got[-1] == b.tables[table_id].history.last_seq
    lines = [x["text"] for x in carl.inbox if x.get("type") == "chat"] + [
        i["text"] for x in carl.of_type("history", table_id) for i in x["items"] if "text" in i
    ]
    assert lines.count("two") == 1 and lines.count("three") == 1


def test_a_step_is_encoded_with_each_shared_message_once() -> None:
    class Proxy:
        def __init__(self, node: str, remote_id: int) -> None:
            self.node, self.remote_id = node, remote_id

    one, two, three = Proxy("a", 1), Proxy("a", 2), Proxy("c", 7)
    shared = Shared({"type": "game.view", "seq": 3})
    own = {"type": "table", "table": {"id": 1}}
    data = encode(
        [(one, shared), (two, shared), (three, shared), (one, own)],  # type: ignore[list-item]
        {Proxy("c", 9)},  # type: ignore[arg-type]
    )
    assert data["m"] == [shared, own]
    assert data["s"] == [0]
    assert data["to"] == {"a": [[1, 0], [2, 0], [1, 1]], "c": [[7, 0]]}
    assert data["drop"] == {"c": [9]}


def test_a_refusal_travels_with_its_code_and_catalogue_message() -> None:
    error = SalonError("forbidden", Msg("error-no-such-table"))
    again = refusal(refusal_json(error))
    assert isinstance(again, SalonError)
    assert again.code == "forbidden" and again.msg == error.msg
    assert again.text("fr") == error.text("fr")
    plain = refusal(refusal_json(SalonError("invalid", "seat is required")))
    assert plain.code == "invalid" and plain.message == "seat is required"
    assert refusal(None).code == "internal"


class Delays:
    """Holds back the bus envelopes a node's forwarder is given, until released."""

    def __init__(self, salon: Salon) -> None:
        self.forwarder = salon.forwarder
        self.deliver = salon.forwarder.deliver
        self.queue: list[Any] = []
        self.forwarder.deliver = self.hold  # type: ignore[method-assign]

    async def hold(self, envelope: Any) -> None:
        self.queue.append(envelope)

    async def release(self) -> None:
        self.forwarder.deliver = self.deliver  # type: ignore[method-assign]
        queue, self.queue = self.queue, []
        for envelope in queue:
            await self.deliver(envelope)


async def test_a_bus_frame_arriving_after_a_re_follow_covered_it_is_not_sent_again(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await anna.ok("chat.say", table=table_id, text="before")
    await settle(salons)
    delays = Delays(a)
    await anna.ok("chat.say", table=table_id, text="late")  # its envelope is on its way
    # the owner changed meanwhile (as seen from a): Bob's socket follows the table again,
    # from the last seq it was sent, and the answer's history holds "late" already
    await a.forwarder.resync(table_id)
    await delays.release()  # the envelope of "late" arrives after the re-follow's answer
    await anna.ok("chat.say", table=table_id, text="after")
    await settle(salons)
    got = seqs(bob, table_id)
    assert contiguous(got) and got[-1] == b.tables[table_id].history.last_seq, got
    assert chat_lines(bob, table_id) == ["before", "late", "after"]


async def test_a_re_follow_before_a_join_s_history_arrived_starts_from_the_join_s_since(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    b, c = salons["b"], salons["c"]
    anna = await Client(b, "Anna").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    for n in range(4):
        await anna.ok("chat.say", table=table_id, text=f"line {n}")
    had = b.tables[table_id].history.last_seq  # what the client had before reconnecting
    await anna.ok("chat.say", table=table_id, text="missed")
    # a client comes back on node c and watches again from the seq it had; its watch is a
    # stored change, so its history travels on the bus, held back on the way
    dan = await Client(c, "Dan").sign_in()
    delays = Delays(c)
    assert dan.conn is not None
    message = {"v": 1, "type": "table.watch", "id": "w", "table": table_id, "since": had}
    watching = asyncio.ensure_future(c.handle(dan.conn, message))
    deadline = time.monotonic() + 5
    while dan.conn.id not in c.forwarder.members.get(table_id, ()):
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)
    await c.forwarder.resync(table_id)  # the owner changed before that history arrived
    await delays.release()
    await watching
    await settle(salons)
    got = seqs(dan, table_id)
    assert got == list(range(had + 1, b.tables[table_id].history.last_seq + 1)), got
    assert chat_lines(dan, table_id) == ["missed"]
    assert [x["type"] for x in dan.inbox if x.get("id") == "w"] == ["ok"]


async def test_a_node_restarted_under_its_name_gets_no_frames_of_its_dead_sockets(
    nodes: tuple[Cluster, dict[str, Salon]],
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await anna.ok("chat.say", table=table_id, text="one")
    assert bob.conn is not None
    dead_id = bob.conn.id
    # node a is killed and started again at once under its name: b still serves Bob's
    # old socket, and the new process counts its sockets from the same numbers
    cluster.crashed.add("a")
    await a.crash()
    again = make_salon(db_url, ports=cluster.ports("a"), takeover_delay=60)
    await again.start()
    again.ids = salons["b"].ids
    try:
        monkeypatch.setattr(connections, "_ids", itertools.count(dead_id))
        dan = await Client(again, "Dan").sign_in()
        assert dan.conn is not None and dan.conn.id == dead_id
        await dan.ok("table.watch", table=table_id, since=0)
        await anna.ok("chat.say", table=table_id, text="two")
        await settle({"b": b, "a": again})
        got = seqs(dan, table_id)
        assert contiguous(got) and got[-1] == b.tables[table_id].history.last_seq, got
        assert chat_lines(dan, table_id) == ["one", "two"]
        seats = [x["table"]["you"].get("seat") for x in dan.inbox if x.get("type") == "table"]
        assert seats and set(seats) == {None}, seats  # never Bob's view of the table
        # and the owner forgot the dead process's sockets once the new one spoke
        left = [x for x in b.mirror.subscribers[table_id].values() if x.user_id == bob.user_id]
        assert left == []
    finally:
        await again.stop()


async def test_a_re_follow_of_a_socket_already_following_the_table_here_sends_nothing_again(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a = salons["a"]
    anna = await Client(a, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await anna.ok("chat.say", table=table_id, text="one")
    assert bob.conn is not None and table_id in a.tables
    # a re-follow decided while the table was elsewhere (the lease changed hands) runs after
    # Bob's own join claimed the table here: he follows it here already
    await a.forwarder.ask(table_id, {"type": "follow", "since": 0}, bob.conn)
    await anna.ok("chat.say", table=table_id, text="two")
    await settle(salons)
    got = seqs(bob, table_id)
    assert contiguous(got) and got[-1] == a.tables[table_id].history.last_seq, got
    assert chat_lines(bob, table_id) == ["one", "two"]
    assert len(bob.of_type("history", table_id)) == 1


async def test_a_socket_let_go_during_a_re_follow_is_not_followed_again_from_nothing(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(a, "Carl").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await carl.ok("table.watch", table=table_id)
    for n in range(3):
        await anna.ok("chat.say", table=table_id, text=f"line {n}")
    await settle(salons)
    assert bob.conn is not None and carl.conn is not None
    forwarder = a.forwarder
    ask = forwarder.ask
    bob_id = bob.conn.id

    class BobFirst(set[int]):
        def __iter__(self) -> Iterator[int]:
            return iter(sorted(set.__iter__(self), key=lambda c: c != bob_id))

    forwarder.members[table_id] = BobFirst(forwarder.members[table_id])
    first = True

    async def drop_carl_meanwhile(*args: Any, **kwargs: Any) -> None:
        nonlocal first
        if first:  # while Bob follows again, the owner's drop of Carl arrives
            first = False
            forwarder._unfollowed(table_id, carl.conn.id)  # type: ignore[union-attr]
        await ask(*args, **kwargs)

    forwarder.ask = drop_carl_meanwhile  # type: ignore[method-assign]
    await forwarder.resync(table_id)
    await settle(salons)
    got = seqs(carl, table_id)
    assert contiguous(got), got
    assert len(carl.of_type("history", table_id)) == 1


async def test_a_player_whose_command_claims_the_table_here_keeps_following_it(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await anna.ok("chat.say", table=table_id, text="one")
    await settle(salons)
    a.forwarder.watch_period = 60  # no re-follow: Bob's own command finds the owner gone
    a.forwarder.answer_timeout = 0.2
    cluster.crashed.add("c")
    await salons["c"].crash()  # only a is left to take the table over
    await asyncio.sleep(0.05)
    send = b.hub.send
    applied = asyncio.Event()

    async def dies_before_answering(node: str, kind: str, body: Any) -> bool:
        if kind == "ans":
            applied.set()
            return True  # never arrives: b dies now
        return await send(node, kind, body)

    b.hub.send = dies_before_answering  # type: ignore[method-assign]
    assert bob.conn is not None
    message = {"v": 1, "type": "chat.say", "id": "two", "table": table_id, "text": "two"}
    sent = asyncio.ensure_future(a.handle(bob.conn, message))
    await asyncio.wait_for(applied.wait(), 5)
    cluster.crashed.add("b")
    await b.crash()
    cluster.leases["b"].lapse()
    await asyncio.wait_for(sent, 15)  # resent, and run here: a claimed the table
    await a.settle()
    assert table_id in a.tables
    anna2 = await Client(a, "Anna").sign_in(token=anna.token)
    await anna2.ok("table.join", table=table_id, since=0)
    await anna2.ok("chat.say", table=table_id, text="three")
    await a.settle()
    got = seqs(bob, table_id)
    assert contiguous(got) and got[-1] == a.tables[table_id].history.last_seq, got
    assert chat_lines(bob, table_id) == ["one", "two", "three"]


async def test_a_new_owner_is_heard_at_once_with_no_lease_polling(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    """The new owner's claim is pushed to the nodes following the table: they follow it
    there without asking anyone for its lease."""
    cluster, salons = nodes
    a, b, c = salons["a"], salons["b"], salons["c"]
    asked: list[tuple[str, Any]] = []
    for name, salon in salons.items():
        salon.forwarder.watch_period = 60  # no safety check during the test
        leases = cluster.leases[name]
        owners = leases.owners

        async def counted(tables: Any, name: str = name, owners: Any = owners) -> Any:
            asked.append((name, list(tables)))
            return await owners(tables)

        leases.owners = counted  # type: ignore[method-assign]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(c, "Carl").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2, options={"target": 50}))[
        "table"
    ]["id"]
    await bob.ok("table.join", table=table_id)
    await carl.ok("table.watch", table=table_id)
    await anna.ok("table.start", table=table_id)
    await play(salons, table_id, {0: anna, 1: bob}, 4)
    acted = len(b.tables[table_id].match.log)  # type: ignore[union-attr]
    anna_seq = max(seqs(anna, table_id))
    cluster.crashed.add("b")
    await b.crash()
    cluster.leases["b"].lapse()  # unannounced, as Redis expires a key
    assert a.forwarder.owner_of[table_id][0] == "b"
    assert c.forwarder.owner_of[table_id][0] == "b"
    started = time.monotonic()
    claimed = await c.router.adopt(table_id)  # what the reaper does; announced
    assert claimed is not None
    lease = cluster.board[table_id]
    assert lease.node == "c"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        following_a = a.forwarder.owner_of.get(table_id) == ("c", lease.epoch)
        # Carl is in c's mirror from the step of his watch there, and out of c's
        # forwarder once the re-follow that ran it resumes: one step later (read in
        # between, under load, this failed; test_a_socket_followed_here_again_...)
        following_c = carl.conn in c.mirror.subscribers.get(table_id, {}).values()
        forwarded_c = table_id in c.forwarder.members
        if following_a and following_c and not forwarded_c and not a.forwarder._resyncing:
            break
        await asyncio.sleep(0.01)
    took = time.monotonic() - started
    assert a.forwarder.owner_of.get(table_id) == ("c", lease.epoch)
    assert carl.conn in c.mirror.subscribers[table_id].values()  # c's own socket, here now
    assert table_id not in c.forwarder.members
    assert took < 2.0, took
    assert asked == []  # nobody polled a lease
    live = {"a": a, "c": c}
    await settle(live)
    assert len(c.tables[table_id].match.log) == acted  # type: ignore[union-attr]
    anna2 = await Client(c, "Anna").sign_in(token=anna.token)
    await anna2.ok("table.join", table=table_id, since=anna_seq)
    await play(live, table_id, {0: anna2, 1: bob}, 400)
    table = c.tables[table_id]
    assert table.match is not None and table.match.is_over
    for client in (bob, carl):
        got = seqs(client, table_id)
        assert contiguous(got), (client.name, got)
        assert got[-1] == table.history.last_seq


async def test_the_safety_check_finds_an_owner_whose_claim_went_unheard(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    """A grant announced while a node was not listening is found by the slow check."""
    cluster, salons = nodes
    a, b, c = salons["a"], salons["b"], salons["c"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await settle(salons)
    a.forwarder.watch_period = 60
    cluster.watchers.remove(a.forwarder.owners)  # a hears nothing more
    cluster.crashed.add("b")
    await b.crash()
    cluster.leases["b"].lapse()
    assert await c.router.adopt(table_id) is not None
    await asyncio.sleep(0.3)
    assert a.forwarder.owner_of[table_id][0] == "b"  # unheard, unchecked
    a.forwarder.watch_period = 0.05
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and a.forwarder.owner_of.get(table_id, ("b",))[0] != "c":
        await asyncio.sleep(0.02)
    assert a.forwarder.owner_of[table_id] == ("c", cluster.board[table_id].epoch)
    anna2 = await Client(c, "Anna").sign_in(token=anna.token)
    await anna2.ok("table.join", table=table_id)
    await anna2.ok("chat.say", table=table_id, text="still here")
    await settle({"a": a, "c": c})
    assert "still here" in chat_lines(bob, table_id)


async def test_a_socket_followed_here_again_is_a_remote_member_no_more_one_step_later(
    nodes: tuple[Cluster, dict[str, Salon]],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Node c claims the table its spectator Carl watched on b: his re-follow runs his
    watch in c's actor, whose step puts him into c's mirror; the re-follow takes him out
    of c's forwarder when it resumes, a step later. Held open meanwhile, that moment
    gives him nothing twice, and c does not take its own step's envelope (frames for
    node a's follower, none for c's sockets) for an owner that forgot c's sockets."""
    cluster, salons = nodes
    a, b, c = salons["a"], salons["b"], salons["c"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(c, "Carl").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await carl.ok("table.watch", table=table_id)
    await anna.ok("chat.say", table=table_id, text="before")
    await settle(salons)
    caplog.set_level(logging.WARNING, logger="zanzibar")
    ran = forwarding.run_here
    in_between = asyncio.Event()
    go_on = asyncio.Event()
    both: list[bool] = []

    async def held_open(host: Any, actor: Any, body: Any, user: Any, conn: Any) -> Any:
        done = await ran(host, actor, body, user, conn)
        if conn is carl.conn:
            subscribed = c.mirror.subscribers.get(table_id, {}).get(conn.id) is conn
            both.append(subscribed and conn.id in c.forwarder.members.get(table_id, ()))
            in_between.set()
            await go_on.wait()
        return done

    monkeypatch.setattr(forwarding, "run_here", held_open)
    cluster.crashed.add("b")
    await b.crash()
    cluster.leases["b"].lapse()
    assert await c.router.adopt(table_id) is not None
    await asyncio.wait_for(in_between.wait(), 10)
    assert both == [True]  # a local subscriber and a remote member at once
    # meanwhile Bob (node a) follows the table on c and c commits a step
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and a.forwarder.owner_of.get(table_id, ("b",))[0] != "c":
        await asyncio.sleep(0.01)
    assert a.forwarder.owner_of[table_id][0] == "c"
    await bob.ok("chat.say", table=table_id, text="meanwhile")
    forgot = [r for r in caplog.records if "forgot this node's sockets" in r.getMessage()]
    assert forgot == []  # its own step's envelope (it logged so, and followed again)
    go_on.set()
    await settle({"a": a, "c": c})
    assert table_id not in c.forwarder.members
    assert chat_lines(carl, table_id) == ["before", "meanwhile"]
    got = seqs(carl, table_id)
    assert contiguous(got) and got[-1] == c.tables[table_id].history.last_seq, got
