"""Commands resent after their owner died, on three salon nodes in one process.

A command whose first try was applied by an owner that died before answering
is sent again (same ``cmd_id``) and answered from its stored reply. A join or
a watch answered that way must still follow the table: its first try's table,
history and view may never have reached the socket, and without following the
socket would hear nothing more of the table (a player who never sees his turn
come stalls the game).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _forwarding_kit import chat_lines, contiguous, lose_next_envelope, nodes, seqs, settle
from _local_nodes import Cluster
from _salonkit import Client

from zanzibar.salon import Salon
from zanzibar.salon.errors import SalonError

pytestmark = pytest.mark.anyio

__all__ = ["nodes"]  # the fixture, from _forwarding_kit


async def _owner_dies_before_answering(
    cluster: Cluster, salons: dict[str, Salon], sender: Salon, client: Client, message: Any
) -> asyncio.Future[None]:
    """Send ``message`` from ``client`` on ``sender`` to the table's owner b, which applies
    it and dies before its answer leaves; the sending, still waiting for the answer."""
    b = salons["b"]
    send = b.hub.send
    applied = asyncio.Event()

    async def dies_before_answering(node: str, kind: str, body: Any) -> bool:
        if kind == "ans":
            applied.set()
            return True  # never arrives: b dies now
        return await send(node, kind, body)

    b.hub.send = dies_before_answering  # type: ignore[method-assign]
    assert client.conn is not None
    sent = asyncio.ensure_future(sender.handle(client.conn, message))
    await asyncio.wait_for(applied.wait(), 5)
    cluster.crashed.add("b")
    await b.crash()
    cluster.leases["b"].lapse()
    return sent


def tables_sent(client: Client, table_id: int) -> list[dict[str, Any]]:
    """The ``table`` messages the client was sent about ``table_id``."""
    return [m for m in client.inbox if m.get("type") == "table" and m["table"]["id"] == table_id]


async def _table_with_lines(anna: Client, bob: Client) -> int:
    table_id: int = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    for n in range(3):
        await anna.ok("chat.say", table=table_id, text=f"line {n}")
    return table_id


async def test_a_watch_resent_and_run_here_after_its_owner_died_sends_the_history(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    carl = await Client(a, "Carl").sign_in()
    table_id = await _table_with_lines(anna, bob)
    await settle(salons)
    a.forwarder.watch_period = 60  # no re-follow: Carl's own resend finds the owner gone
    a.forwarder.answer_timeout = 0.2
    cluster.crashed.add("c")
    await salons["c"].crash()  # only a is left to take the table over
    message = {"v": 1, "type": "table.watch", "id": "w", "table": table_id, "since": 0}
    sent = await _owner_dies_before_answering(cluster, salons, a, carl, message)
    await asyncio.wait_for(sent, 15)  # resent, and run here: a claimed the table
    await a.settle()
    assert table_id in a.tables
    assert [x["type"] for x in carl.inbox if x.get("id") == "w"] == ["ok"]
    assert tables_sent(carl, table_id)
    await bob.ok("chat.say", table=table_id, text="after")
    await a.settle()
    got = seqs(carl, table_id)
    assert got == list(range(1, a.tables[table_id].history.last_seq + 1)), got
    assert chat_lines(carl, table_id) == ["line 0", "line 1", "line 2", "after"]


async def test_a_join_resent_to_the_new_owner_is_followed_there(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    cluster, salons = nodes
    a, b, c = salons["a"], salons["b"], salons["c"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(c, "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    await anna.ok("table.start", table=table_id)
    dan = await Client(a, "Dan").sign_in()
    await dan.ok("table.watch", table=table_id)  # node a follows the table's envelopes
    await settle(salons)
    # Anna's socket closed (her seat is dropped); she is back on node a, joins from seq 2
    await anna.disconnect()
    await settle(salons)
    assert b.tables[table_id].seats[0].dropped_at is not None
    anna2 = await Client(a, "Anna").sign_in(token=anna.token)
    a.forwarder.watch_period = 60
    a.forwarder.answer_timeout = 0.5
    message = {"v": 1, "type": "table.join", "id": "j", "table": table_id, "since": 2}
    sent = await _owner_dies_before_answering(cluster, salons, a, anna2, message)
    assert await c.router.adopt(table_id) is not None  # c takes the table over first
    assert not sent.done()
    await bob.ok("chat.say", table=table_id, text="meanwhile")  # the table moves on
    await asyncio.wait_for(sent, 15)  # resent to c, answered from its stored reply
    await settle({"a": a, "c": c})
    assert [x["type"] for x in anna2.inbox if x.get("id") == "j"] == ["ok"]
    assert tables_sent(anna2, table_id) and anna2.of_type("game.view", table_id)
    # what b sent before dying is older than c's answer: the view she keeps is c's
    assert anna2.last("game.view")["seq"] == c.tables[table_id].history.last_seq
    await bob.ok("chat.say", table=table_id, text="after")
    await settle({"a": a, "c": c})
    got = seqs(anna2, table_id)
    assert got == list(range(3, c.tables[table_id].history.last_seq + 1)), got
    assert chat_lines(anna2, table_id)[-2:] == ["meanwhile", "after"]


async def test_a_version_never_published_reaches_a_follower_before_the_next_one(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    await settle(salons)
    # b stores a change and dies before publishing it (here: the envelope is lost); the
    # next version to arrive shows the hole, which node a fills by following again
    lost = lose_next_envelope(b)

    await anna.ok("chat.say", table=table_id, text="lost")
    await anna.ok("chat.say", table=table_id, text="after")
    await settle(salons)
    assert lost
    got = seqs(bob, table_id)
    assert contiguous(got) and got[-1] == b.tables[table_id].history.last_seq, got
    assert chat_lines(bob, table_id) == ["line 0", "line 1", "line 2", "lost", "after"]


async def test_a_join_whose_answer_was_lost_sends_its_history_when_resent(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(b, "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    await anna.ok("table.start", table=table_id)
    await bob.disconnect()  # his seat is dropped: his join again stores a change
    await settle(salons)
    # Bob is back on node a, which follows nothing of the table: the frames of his join's
    # first try travel on the bus before node a listens to it, and its answer is lost
    bob2 = await Client(a, "Bob").sign_in(token=bob.token)
    a.forwarder.answer_timeout = 0.2
    send = b.hub.send
    lost: list[Any] = []

    async def lossy(node: str, kind: str, body: Any) -> bool:
        if kind == "ans" and not lost:
            lost.append(body)
            return True  # lost on the way
        return await send(node, kind, body)

    b.hub.send = lossy  # type: ignore[method-assign]
    reply = await bob2.ok("table.join", table=table_id, since=2)
    assert lost and lost[0]["ok"] is True and lost[0]["committed"] is True
    assert [x["type"] for x in bob2.inbox if x.get("id") == reply["id"]] == ["ok"]
    assert len(tables_sent(bob2, table_id)) == 1
    assert len(bob2.of_type("history", table_id)) == 1
    assert bob2.of_type("game.view", table_id)
    await anna.ok("chat.say", table=table_id, text="after")
    await settle(salons)
    got = seqs(bob2, table_id)
    assert got == list(range(3, b.tables[table_id].history.last_seq + 1)), got
    assert chat_lines(bob2, table_id)[-1] == "after"


async def test_a_re_follow_refused_while_the_table_changes_hands_is_tried_again(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    await settle(salons)
    cluster.crashed.add("c")
    await salons["c"].crash()  # only a is left to take the table over
    # b dies; a's first look for the table finds it in nobody's hands and not loadable
    # yet (another node was claiming it): the re-follow is refused ``not_found``
    locate = a.router.locate
    refused: list[int] = []

    async def not_yet(wanted: int | None) -> Any:
        if wanted == table_id and not refused:
            refused.append(wanted)
            raise SalonError("not_found", f"there is no table {wanted}")
        return await locate(wanted)

    a.router.locate = not_yet  # type: ignore[method-assign]
    a.forwarder.patience = 5
    cluster.crashed.add("b")
    await b.crash()
    cluster.leases["b"].lapse()
    deadline = asyncio.get_running_loop().time() + 10
    while table_id not in a.tables:
        assert asyncio.get_running_loop().time() < deadline, "a never took the table over"
        await asyncio.sleep(0.05)
    await a.settle()
    assert refused
    anna2 = await Client(a, "Anna").sign_in(token=anna.token)
    await anna2.ok("table.join", table=table_id, since=0)
    await anna2.ok("chat.say", table=table_id, text="after")
    await a.settle()
    got = seqs(bob, table_id)
    assert contiguous(got) and got[-1] == a.tables[table_id].history.last_seq, got
    assert chat_lines(bob, table_id)[-1] == "after"


async def test_a_command_answered_during_a_re_follow_leaves_the_held_frames_to_it(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    await settle(salons)
    lost = lose_next_envelope(b)

    await anna.ok("chat.say", table=table_id, text="lost")  # stored, never published
    # Bob's own line shows node a the hole: his frames wait for a re-follow, and the
    # answer of his line (which comes first) must not hand them out before it
    reply = await bob.ok("chat.say", table=table_id, text="mine")
    await settle(salons)
    assert lost
    got = seqs(bob, table_id)
    assert contiguous(got) and got[-1] == b.tables[table_id].history.last_seq, got
    assert chat_lines(bob, table_id) == ["line 0", "line 1", "line 2", "lost", "mine"]
    assert [x["type"] for x in bob.inbox if x.get("id") == reply["id"]] == ["ok"]


async def test_a_member_s_command_run_by_an_owner_that_forgot_it_follows_again(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    await settle(salons)
    # b took node a for dead (a blip) and dropped Bob's socket, or a new owner has not
    # been asked to follow it yet: Bob's next command runs there as from a stranger
    owner = b.forwarder.remote
    for key, proxy in list(owner._proxies.items()):
        if key[0] == "a":
            owner._drop_proxy(key, proxy)
    a.forwarder.watch_period = 60
    reply = await bob.ok("chat.say", table=table_id, text="mine")
    await settle(salons)
    await anna.ok("chat.say", table=table_id, text="after")
    await settle(salons)
    got = seqs(bob, table_id)
    assert contiguous(got) and got[-1] == b.tables[table_id].history.last_seq, got
    assert chat_lines(bob, table_id)[-2:] == ["mine", "after"]
    assert [x["type"] for x in bob.inbox if x.get("id") == reply["id"]] == ["ok"]
