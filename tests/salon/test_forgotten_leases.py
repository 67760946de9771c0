"""Redis restarted empty under three salon nodes (in one process, on one database).

Every lease and every envelope of the bus is forgotten at once. The table must stay
with its owner (it takes its lease back at its next renewal; the other nodes wait for
that instead of claiming the table themselves, which moved every table of the salon),
and no socket may miss a version whose publishing failed meanwhile. Issue 11:
"Redis restarted mid-game: the salon recovers without losing an acknowledged action".
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _forwarding_kit import contiguous, owner, play, seqs, settle
from _local_nodes import BoardLeases, Cluster
from _salonkit import Client, make_salon

from zanzibar.cluster.ports import Envelope
from zanzibar.salon import Salon

pytestmark = pytest.mark.anyio

#: Lease ttl of these nodes: renewals every 0.2 s, a forgotten lease waited for 1.2 s.
TTL_MS = 600


@pytest.fixture
async def nodes(db_url: str) -> AsyncIterator[tuple[Cluster, dict[str, Salon]]]:
    cluster = Cluster()
    salons = {}
    for name in "abc":
        leases = cluster.leases[name] = BoardLeases(
            name, cluster.board, cluster.epochs, ttl_ms=TTL_MS
        )
        salons[name] = make_salon(db_url, ports=cluster.ports(name, leases), takeover_delay=60)
    for salon in salons.values():
        await salon.start()
        salon.forwarder.watch_period = 0.02
        salon.ids = salons["a"].ids  # SQLite counts ids in the process: one counter
    yield cluster, salons
    for salon in salons.values():
        await salon.stop()


async def a_game(salons: dict[str, Salon]) -> tuple[int, Client, Client, Client]:
    """A race table run by b: Anna (on b) hosts, Bob (on a) plays, Carl (on c) watches."""
    anna = await Client(salons["b"], "Anna").sign_in()
    bob = await Client(salons["a"], "Bob").sign_in()
    carl = await Client(salons["c"], "Carl").sign_in()
    created = await anna.ok("table.create", game="race", seats=2, options={"target": 50})
    table_id = int(created["table"]["id"])
    await bob.ok("table.join", table=table_id)
    await carl.ok("table.watch", table=table_id)
    await anna.ok("table.start", table=table_id)
    await play(salons, table_id, {0: anna, 1: bob}, 4)
    return table_id, anna, bob, carl


def said(client: Client, table_id: int) -> list[str]:
    """The chat lines the client was sent, live or in a history pushed by a re-follow."""
    lines = []
    for message in client.inbox:
        if message.get("table") != table_id:
            continue
        if message.get("type") == "history" and "channel" not in message:
            lines += [str(i.get("text")) for i in message["items"] if i.get("type") == "chat"]
        elif message.get("type") == "chat":
            lines.append(str(message.get("text")))
    return lines


def whole(client: Client, table_id: int, last: int) -> None:
    got = seqs(client, table_id)
    assert contiguous(got) and got[-1] == last, (client.name, got, last)


async def test_a_lease_store_that_forgot_everything_moves_no_table(
    nodes: tuple[Cluster, dict[str, Salon]],
) -> None:
    cluster, salons = nodes
    a, b, c = salons["a"], salons["b"], salons["c"]
    table_id, anna, bob, carl = await a_game(salons)
    epoch = b.tables[table_id].epoch
    cluster.forget_leases()  # Redis restarted empty: nobody holds any table
    # at once, before b's next renewal: a command through a node that does not run the
    # table (and whose watcher sees no lease), then one on the owner
    await bob.ok("chat.say", table=table_id, text="right after the restart")
    await anna.ok("chat.say", table=table_id, text="the host too")
    await settle(salons)
    assert owner(salons, table_id) is b  # taken back in place by its owner
    assert cluster.board[table_id].node == "b"
    assert b.tables[table_id].epoch > epoch  # reloaded: the old actor is fenced
    assert all(s.reaper is not None and table_id not in s.reaper.taken for s in (a, c))
    await play(salons, table_id, {0: anna, 1: bob}, 400)
    table = b.tables[table_id]
    assert table.match is not None and table.match.is_over
    for client in (anna, bob, carl):
        lines = said(client, table_id)
        assert lines == ["right after the restart", "the host too"], (client.name, lines)
        whole(client, table_id, table.history.last_seq)


async def test_a_version_the_bus_refused_is_published_again_in_order(
    nodes: tuple[Cluster, dict[str, Salon]], monkeypatch: pytest.MonkeyPatch
) -> None:
    _cluster, salons = nodes
    b = salons["b"]
    table_id, anna, bob, carl = await a_game(salons)
    publish = b.ports.bus.publish
    refused: list[int] = []

    async def down_for_a_while(envelope: Envelope) -> Any:
        if len(refused) < 3:  # the first version refused, then its first two retries
            refused.append(envelope.version)
            raise ConnectionError("Redis is restarting")
        return await publish(envelope)

    monkeypatch.setattr(b.ports.bus, "publish", down_for_a_while)
    # the last change for a while (nobody acts next): nothing later would show the hole
    await anna.ok("chat.say", table=table_id, text="while the bus was down")
    await bob.ok("chat.say", table=table_id, text="once it was back")  # queued behind it
    deadline = time.monotonic() + 5
    while b.forwarder.remote._unpublished and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    await settle(salons)
    version = b.tables[table_id].version
    assert refused == [version - 1] * 3  # the chat line's version, tried three times
    for client in (anna, bob, carl):
        assert said(client, table_id) == ["while the bus was down", "once it was back"]
        whole(client, table_id, b.tables[table_id].history.last_seq)


async def test_a_version_lost_on_the_way_reaches_the_socket_before_the_next_one(
    nodes: tuple[Cluster, dict[str, Salon]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A version that never reached node a (published while its subscriber was away):
    the bus reports the hole when the next one comes, then hands that one over. Its
    frames must wait for the re-follow, or Bob is sent the line after the hole first
    and the re-follow, asked from there, never sends what the hole held."""
    _cluster, salons = nodes
    b = salons["b"]
    table_id, anna, bob, carl = await a_game(salons)
    forwarder = salons["a"].forwarder
    deliver = forwarder.deliver
    lost: list[int] = []

    async def lossy(envelope: Envelope) -> None:
        if envelope.table == table_id and not lost:
            lost.append(envelope.version)  # lost on the way
            return
        if envelope.table == table_id and len(lost) == 1:  # what the bus does next
            lost.append(envelope.version)
            await forwarder.gap(table_id, lost[0] - 1, envelope.version)
        await deliver(envelope)

    monkeypatch.setattr(forwarder, "deliver", lossy)
    await anna.ok("chat.say", table=table_id, text="lost on the way")
    await anna.ok("chat.say", table=table_id, text="the next one")
    await settle(salons)
    assert lost == [lost[0], lost[0] + 1]
    for client in (anna, bob, carl):
        assert said(client, table_id) == ["lost on the way", "the next one"], client.name
        whole(client, table_id, b.tables[table_id].history.last_seq)


async def test_a_lone_node_refuses_an_unknown_table_at_once(db_url: str) -> None:
    """Waiting for the owner of a lease nobody remembers is for nodes of several: a lone
    node's leases know every table it has, and an unknown id is refused at once."""
    salon = make_salon(db_url)
    await salon.start()
    try:
        alice = await Client(salon, "Alice").sign_in()
        started = time.monotonic()
        await alice.refused("chat.say", "not_found", table=4242, text="anyone?")
        assert time.monotonic() - started < 1.0
    finally:
        await salon.stop()
