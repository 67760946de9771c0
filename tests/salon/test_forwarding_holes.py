"""Follows that cross a hole in the table bus, on three salon nodes in one process.

What the three-node chaos test (tests/live/test_chaos.py) found, made to
happen in order: the version that carried a join's or a watch's table,
history and view is lost on the bus (its owner died between storing and
publishing it), and the next version reaches the socket's node before the
answer. The socket must get the history first and then each item once, as
the protocol says (a client takes a history's ``since`` at its word and
appends the live items it kept meanwhile after it).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _forwarding_kit import chat_lines, hold_first_answer, lose_next_envelope, nodes, seqs, settle
from _local_nodes import Cluster
from _salonkit import Client

from zanzibar.salon import Salon, forwarding

pytestmark = pytest.mark.anyio

__all__ = ["nodes"]  # the fixture, from _forwarding_kit

ITEMS = ("game.event", "chat", "system")


async def _table_with_lines(anna: Client, bob: Client) -> int:
    table_id: int = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob.ok("table.join", table=table_id)
    for n in range(3):
        await anna.ok("chat.say", table=table_id, text=f"line {n}")
    return table_id


def first_history_before_items(client: Client, table_id: int) -> bool:
    """Whether the client was sent the table's history before any live item of it."""
    for message in client.inbox:
        if message.get("table") != table_id:
            continue
        if message.get("type") == "history" and "channel" not in message:
            return True
        if message.get("type") in ITEMS:
            return False
    return False


def read_as_a_client(client: Client, table_id: int, since: int) -> list[int]:
    """The seqs a client that asked ``since`` keeps: the history's items after the
    history's own ``since`` (the older ones it would read page by page from there),
    then the live items kept meanwhile, in order, the repeats included."""
    got: list[int] = []
    for message in client.inbox:
        if message.get("table") != table_id:
            continue
        if message.get("type") == "history" and "channel" not in message:
            start = message["since"]
            if start > (got[-1] if got else since):
                got.extend(range((got[-1] if got else since) + 1, start + 1))  # the pages
            got.extend(item["seq"] for item in message["items"])
        elif message.get("type") in ITEMS:
            got.append(message["seq"])
    return got


@pytest.mark.parametrize("role", ["table.watch", "table.join"])
async def test_a_follow_whose_version_was_lost_gets_its_history_before_later_items(
    nodes: tuple[Cluster, dict[str, Salon]], role: str
) -> None:
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(salons["c"], "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    dan = await Client(a, "Dan").sign_in()
    await dan.ok("table.watch", table=table_id)  # node a follows the table's envelopes
    if role == "table.join":  # a seat to take back: Carl held it and his socket closed
        carl0 = await Client(b, "Carl").sign_in()
        await bob.ok("table.leave", table=table_id)
        await carl0.ok("table.join", table=table_id)
        await anna.ok("table.start", table=table_id)
        await carl0.disconnect()  # his seat is dropped: his join again stores a change
        token = carl0.token
    await settle(salons)
    since = b.tables[table_id].history.last_seq - 1
    carl = await Client(a, "Carl").sign_in(token=token if role == "table.join" else None)
    a.forwarder.watch_period = 60  # no safety check: the hole is what shows the loss
    # b stores Carl's follow (its table, history and view in that version's envelope) and
    # the envelope is lost; b's answer is slow, and the next version reaches node a first
    lost = lose_next_envelope(b)
    late, answered, send = hold_first_answer(b)

    assert carl.conn is not None
    message = {"v": 1, "type": role, "id": "f", "table": table_id, "since": since}
    sent = asyncio.ensure_future(a.handle(carl.conn, message))
    await asyncio.wait_for(answered.wait(), 5)
    assert lost and late[0][1]["committed"] is True
    await anna.ok("chat.say", table=table_id, text="after the hole")  # the next version
    await send(late[0][0], "ans", late[0][1])
    await asyncio.wait_for(sent, 10)
    await settle(salons)
    await anna.ok("chat.say", table=table_id, text="later")
    await settle(salons)
    last = b.tables[table_id].history.last_seq
    assert [x["type"] for x in carl.inbox if x.get("id") == "f"] == ["ok"]
    assert first_history_before_items(carl, table_id), carl.inbox
    got = read_as_a_client(carl, table_id, since)
    assert got == list(range(since + 1, last + 1)), got
    assert seqs(carl, table_id)[-1] == last
    assert chat_lines(carl, table_id)[-2:] == ["after the hole", "later"]


async def test_a_late_frame_during_a_command_run_here_is_not_sent_again_in_the_history(
    nodes: tuple[Cluster, dict[str, Salon]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob (node a) follows b's table; b dies, and his next command finds no owner, so
    node a claims the table and runs it, then follows it here for him from the last seq
    he was sent. An envelope of b's still on its way (a node's subscriber catching up
    after a Redis restart) reaches him while the command runs: the history that follows
    must start after it, not repeat it (the restart test's repeat of seq 12)."""
    cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    await settle(salons)
    # nobody tells node a that b died, nor that it took the table (a grant announced while
    # its subscriber was reconnecting, say): Bob's command finds it out
    a.forwarder.watch_period = 60

    async def not_heard(_lease: Any) -> None:
        return None

    monkeypatch.setattr(a.forwarder.owners, "granted", not_heard)
    cluster.crashed.add("c")
    await salons["c"].crash()  # only a is left to take the table over
    deliver = a.forwarder.deliver
    late: list[Any] = []
    kept: list[Any] = []

    async def keeps_one(envelope: Any) -> None:
        if envelope.table == table_id and not kept:
            kept.append(envelope)
            late.append(envelope)  # on its way: it arrives while Bob's command runs
            return
        await deliver(envelope)

    monkeypatch.setattr(a.forwarder, "deliver", keeps_one)
    await anna.ok("chat.say", table=table_id, text="late")
    assert late
    cluster.crashed.add("b")
    await b.crash()  # its lease lapses only once Bob's command went to it and found nobody
    run_here = forwarding.run_here

    async def late_frame_first(*args: Any) -> Any:
        while late:
            await deliver(late.pop())
        return await run_here(*args)

    monkeypatch.setattr(forwarding, "run_here", late_frame_first)
    assert bob.conn is not None
    message = {"v": 1, "type": "chat.say", "id": "mine", "table": table_id, "text": "mine"}
    sent = asyncio.ensure_future(a.handle(bob.conn, message))
    await asyncio.sleep(0.3)
    assert not sent.done()
    cluster.leases["b"].lapse()
    await asyncio.wait_for(sent, 10)  # node a claimed the table and ran it
    await a.settle()
    assert [x["type"] for x in bob.inbox if x.get("id") == "mine"] == ["ok"]
    assert table_id in a.tables and not late
    await anna_again(a, anna, table_id, "after")
    got = seqs(bob, table_id)
    assert got == list(range(1, a.tables[table_id].history.last_seq + 1)), got
    assert chat_lines(bob, table_id) == ["line 0", "line 1", "line 2", "late", "mine", "after"]


async def anna_again(salon: Salon, anna: Client, table_id: int, text: str) -> None:
    """Anna back on ``salon`` (her node died), saying ``text`` at the table."""
    again = await Client(salon, "Anna").sign_in(token=anna.token)
    await again.ok("table.join", table=table_id, since=0)
    await again.ok("chat.say", table=table_id, text=text)
    await salon.settle()


async def test_a_command_whose_version_was_lost_still_gets_its_ok(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    """Bob's line is stored by b and its envelope (his ``ok`` in it) is lost; the bus goes
    past it: his node asks again and the stored reply brings the ``ok``, once (before,
    his client waited for it until it gave the socket up)."""
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(a, "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    await settle(salons)
    a.forwarder.watch_period = 60
    lost = lose_next_envelope(b)
    late, answered, send = hold_first_answer(b)

    assert bob.conn is not None
    message = {"v": 1, "type": "chat.say", "id": "mine", "table": table_id, "text": "mine"}
    sent = asyncio.ensure_future(a.handle(bob.conn, message))
    await asyncio.wait_for(answered.wait(), 5)
    await anna.ok("chat.say", table=table_id, text="after")  # the bus goes past his line
    await send(late[0][0], "ans", late[0][1])
    await asyncio.wait_for(sent, 5)
    await settle(salons)
    assert lost
    assert [x["type"] for x in bob.inbox if x.get("id") == "mine"] == ["ok"]
    got = seqs(bob, table_id)
    assert got == list(range(1, b.tables[table_id].history.last_seq + 1)), got
    assert chat_lines(bob, table_id) == ["line 0", "line 1", "line 2", "mine", "after"]


async def test_a_socket_left_out_of_one_version_follows_again_before_the_next_item(
    nodes: tuple[Cluster, dict[str, Salon]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner leaves one socket of a node out of a version (it took that socket for
    gone a moment) while the node's other socket gets it, so the bus has no hole: the
    next item that reaches the socket is numbered past the one after its last. It is
    held, the socket follows again from what it has, and it reads every item once, in
    order (the three-node chaos test's gap: seq 20 after 16)."""
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    bob = await Client(salons["c"], "Bob").sign_in()
    table_id = await _table_with_lines(anna, bob)
    dan = await Client(a, "Dan").sign_in()
    eve = await Client(a, "Eve").sign_in()
    await dan.ok("table.watch", table=table_id)
    await eve.ok("table.watch", table=table_id)
    await settle(salons)
    a.forwarder.watch_period = 60  # no safety check: the next item shows the loss
    assert dan.conn is not None
    dan_wire = a.forwarder.wire_id(dan.conn.id)
    publish = b.ports.bus.publish
    left_out: list[Any] = []

    async def without_dan(envelope: Any) -> None:
        mine = (
            envelope.data.get("to", {}).get(a.forwarder.node)
            if isinstance(envelope.data, dict)
            else None
        )
        if mine and not left_out:
            kept = [entry for entry in mine if entry[0] != dan_wire]
            if len(kept) < len(mine):
                left_out.append(envelope.version)
                envelope.data["to"][a.forwarder.node] = kept
        await publish(envelope)

    monkeypatch.setattr(b.ports.bus, "publish", without_dan)
    await anna.ok("chat.say", table=table_id, text="missed by Dan")
    await settle(salons)
    assert left_out
    monkeypatch.setattr(b.ports.bus, "publish", publish)
    await anna.ok("chat.say", table=table_id, text="after")
    await settle(salons)
    await bob.ok("chat.say", table=table_id, text="later")
    await settle(salons)
    last = b.tables[table_id].history.last_seq
    for client in (dan, eve):
        got = seqs(client, table_id)
        assert got == list(range(got[0], last + 1)), (client.name, got)
        assert chat_lines(client, table_id)[-3:] == ["missed by Dan", "after", "later"]


@pytest.mark.parametrize("then", ["nothing", "another line"])
@pytest.mark.parametrize("role", ["table.watch", "table.join"])
async def test_a_first_follow_whose_version_was_lost_still_gets_its_ok(
    nodes: tuple[Cluster, dict[str, Salon]], role: str, then: str
) -> None:
    """Carl's node follows nothing of b's table; his join (or watch) is stored by b and its
    envelope (his ``ok``, the table, the history, the view) is lost. His node starts
    following the table only with the answer, so the bus has nothing to go past: the
    version is simply never delivered (``nothing``), or a later one shows the hole
    (``another line``). Either way his node asks again and the stored reply brings the
    ``ok`` once, with the history (before, his client waited for the ``ok`` until it
    gave the socket up)."""
    _cluster, salons = nodes
    a, b = salons["a"], salons["b"]
    anna = await Client(b, "Anna").sign_in()
    table_id: int = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    for n in range(3):
        await anna.ok("chat.say", table=table_id, text=f"line {n}")
    await settle(salons)
    carl = await Client(a, "Carl").sign_in()
    a.forwarder.watch_period = 60  # no safety check
    assert table_id not in a.forwarder.members
    lost = lose_next_envelope(b)

    assert carl.conn is not None
    message = {"v": 1, "type": role, "id": "f", "table": table_id, "since": 0}
    sent = asyncio.ensure_future(a.handle(carl.conn, message))
    for _ in range(200):  # until b stored his follow (and lost its envelope)
        if lost:
            break
        await asyncio.sleep(0.05)
    assert lost
    if then == "another line":
        await anna.ok("chat.say", table=table_id, text="after the hole")
    await asyncio.wait_for(sent, forwarding.REACH_TIMEOUT + 5)
    await settle(salons)
    await anna.ok("chat.say", table=table_id, text="later")
    await settle(salons)
    assert [x["type"] for x in carl.inbox if x.get("id") == "f"] == ["ok"]
    assert first_history_before_items(carl, table_id), carl.inbox
    last = b.tables[table_id].history.last_seq
    got = read_as_a_client(carl, table_id, 0)
    assert got == list(range(1, last + 1)), got
    expected = ["line 0", "line 1", "line 2"]
    expected += ["after the hole", "later"] if then == "another line" else ["later"]
    assert [line for line in chat_lines(carl, table_id) if line in expected] == expected
