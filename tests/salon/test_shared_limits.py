"""Every per-account limit holds for the whole salon, not per node.

Two nodes of one salon (private PostgreSQL and Redis, ``_nodes.py``); one
account with a socket on each. Without the shared counts each node would give
the account its whole budget.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from _nodes import Cluster
from _salonkit import Client

from zanzibar.salon import Salon
from zanzibar.salon.chat import RateLimiter
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import Limits, TokenBuckets, share_buckets, share_limiter

pytestmark = pytest.mark.anyio

#: A synced count reaches the other node within two periods (0.25 s each).
SYNCED = 0.7


@pytest.fixture
async def cluster(pg_url: str, redis_url: str) -> AsyncIterator[Cluster]:
    made = Cluster(pg_url, redis_url)
    try:
        yield made
    finally:
        await made.stop()


class FromAddress(Client):
    """A client whose socket comes from a given (non-exempt) address."""

    def __init__(self, salon: Salon, name: str, address: str) -> None:
        super().__init__(salon, name)
        self.address = address

    async def sign_in(self, lang: str = "en", token: str | None = None) -> Client:
        if token is None:
            session = await self.salon.guest(self.name, lang)
            token = session.token
            self.name = session.user.name
        self.token = token
        self.conn = await self.salon.connect(self._send, self.address)
        reply = await self.request("hello", token=token, lang=lang)
        assert reply["type"] == "welcome", reply
        self.user_id = reply["user"]["id"]
        return self


async def on_both(cluster: Cluster, name: str, **kwargs: Any) -> tuple[Client, Client]:
    """One account signed in on n1 and on n2."""
    first = await Client(cluster.salons["n1"], name).sign_in()
    second = await Client(cluster.salons["n2"], name).sign_in(token=first.token)
    return first, second


async def create(client: Client) -> dict[str, Any]:
    return await client.request("table.create", game="race", seats=2, options={"target": 50})


# -- the mechanism, without services --------------------------------------------------------


class Tally:
    """Two nodes' counts in memory: what RedisCounts does, synced by hand."""

    def __init__(self) -> None:
        self.totals: dict[tuple[str, str], dict[str, int]] = {}
        self.nodes: list[Node] = []

    def node(self, name: str) -> Node:
        made = Node(self, name)
        self.nodes.append(made)
        return made

    def sync(self) -> None:
        for node in self.nodes:
            for pair, count in node.pending.items():
                self.totals.setdefault(pair, {}).setdefault(node.name, 0)
                self.totals[pair][node.name] += count
            node.pending.clear()
        for node in self.nodes:
            for pair, per_node in self.totals.items():
                others = sum(n for who, n in per_node.items() if who != node.name)
                before = node.seen.get(pair, 0)
                if others > before:
                    node.charges[pair[0]](pair[1], others - before)
                node.seen[pair] = others


class Node:
    def __init__(self, tally: Tally, name: str) -> None:
        self.name = name
        self.pending: dict[tuple[str, str], int] = {}
        self.seen: dict[tuple[str, str], int] = {}
        self.charges: dict[str, Any] = {}

    def note(self, name: str, key: str, count: int = 1) -> None:
        self.pending[(name, key)] = self.pending.get((name, key), 0) + count

    def register(self, name: str, charge: Any) -> None:
        self.charges[name] = charge


def test_token_buckets_charged_with_the_other_nodes_tokens() -> None:
    now = [0.0]
    tally = Tally()
    a, b = (
        TokenBuckets("10/hour", clock=lambda: now[0]),
        TokenBuckets("10/hour", clock=lambda: now[0]),
    )
    share_buckets(tally.node("a"), "mu", a)
    share_buckets(tally.node("b"), "mu", b)
    assert [a.wait("7") for _ in range(6)] == [0.0] * 6
    tally.sync()
    assert [b.wait("7") for _ in range(4)] == [0.0] * 4
    assert b.wait("7") > 0  # 6 + 4: the account's ten for the hour
    tally.sync()
    assert a.wait("7") > 0
    assert a.wait("8") == 0.0  # another account is not touched


def test_a_chat_window_counts_the_other_nodes_lines_and_not_a_taken_back_one() -> None:
    now = [0.0]
    tally = Tally()
    a = RateLimiter(5, 5.0, clock=lambda: now[0])
    b = RateLimiter(5, 5.0, clock=lambda: now[0])
    share_limiter(tally.node("a"), "chat", a)
    share_limiter(tally.node("b"), "chat", b)
    for _ in range(3):
        a.record(1)
    a.record(1)
    a.forget_last(1)  # could not be stored: does not count anywhere
    tally.sync()
    assert b.allow(1) and b.allow(1)
    assert not b.allow(1)  # 3 + 2
    now[0] = 5.1  # the window moved on
    assert b.allow(1)


# -- live: two nodes ---------------------------------------------------------------------------


@pytest.mark.live
async def test_the_message_rate_of_an_account_holds_over_both_nodes(cluster: Cluster) -> None:
    limits = Limits(message_rate_user="20/hour")
    await cluster.start("n1", limits=limits)
    await cluster.start("n2", limits=limits)
    on_n1, on_n2 = await on_both(cluster, "Anna")
    await asyncio.sleep(SYNCED)  # each node follows the account from its hello there
    await on_n2.ok("ping")
    for _ in range(15):
        await on_n1.ok("ping")
    await asyncio.sleep(SYNCED)
    passed = 0
    while (await on_n2.request("ping"))["type"] == "pong":
        passed += 1
        assert passed < 20, "the other node's messages were not counted"
    assert passed == 4  # 1 + 4 on n2, 15 on n1: 20
    await asyncio.sleep(SYNCED)
    await on_n1.refused("ping", "rate_limited")  # and n1 counts n2's
    other = await Client(cluster.salons["n2"], "Bob").sign_in()
    await other.ok("ping")


@pytest.mark.live
async def test_the_chat_rate_of_an_account_holds_over_both_nodes(cluster: Cluster) -> None:
    await cluster.start("n1")
    await cluster.start("n2")
    on_n1, on_n2 = await on_both(cluster, "Anna")
    here = (await create(on_n1))["table"]["id"]
    there = (await create(on_n2))["table"]["id"]
    await on_n2.ok("chat.say", table=there, text="one")
    for text in ("two", "three", "four"):
        await on_n1.ok("chat.say", table=here, text=text)
    await asyncio.sleep(SYNCED)
    await on_n2.ok("chat.say", table=there, text="five")
    await on_n2.refused("chat.say", "rate_limited", table=there, text="six")


@pytest.mark.live
async def test_tables_hosted_and_created_by_an_account_count_over_both_nodes(
    cluster: Cluster,
) -> None:
    limits = Limits(message_rate_user="100000/second", tables_per_user=2)
    await cluster.start("n1", limits=limits)
    await cluster.start("n2", limits=limits)
    on_n1, on_n2 = await on_both(cluster, "Anna")
    first = (await create(on_n1))["table"]["id"]
    assert (await create(on_n2))["type"] == "ok"
    refused = await create(on_n2)
    assert (refused["type"], refused["code"]) == ("error", "quota")
    await on_n1.ok("table.leave", table=first)  # closed: it no longer counts
    assert (await create(on_n2))["type"] == "ok"


@pytest.mark.live
async def test_the_table_creation_rate_of_an_account_counts_over_both_nodes(
    cluster: Cluster,
) -> None:
    limits = Limits(message_rate_user="100000/second", table_create_rate_user="2/hour")
    await cluster.start("n1", limits=limits)
    await cluster.start("n2", limits=limits)
    on_n1, on_n2 = await on_both(cluster, "Anna")
    assert (await create(on_n1))["type"] == "ok"
    assert (await create(on_n2))["type"] == "ok"
    refused = await create(on_n1)
    assert (refused["type"], refused["code"]) == ("error", "rate_limited")


@pytest.mark.live
async def test_friends_list_changes_of_an_account_count_over_both_nodes(
    cluster: Cluster,
) -> None:
    limits = Limits(message_rate_user="100000/second", friends_change_rate="3/hour")
    n1 = await cluster.start("n1", limits=limits)
    n2 = await cluster.start("n2", limits=limits)
    bob = await n1.register("Bob", "correct horse", "en")
    await n1.register("Cleo", "correct horse", "en")
    session = await n1.register("Anna", "correct horse", "en")
    on_n1 = await Client(n1, "Anna").sign_in(token=session.token)
    on_n2 = await Client(n2, "Anna").sign_in(token=session.token)
    await on_n1.ok("friends.add", name="Bob")
    await on_n2.ok("friends.add", name="Cleo")
    await on_n1.ok("friends.remove", name="Bob")
    refused = await on_n2.refused("friends.remove", "rate_limited", name="Cleo")
    assert refused["message"].startswith("too many changes to the friends list: at most 3 per hour")
    other = await Client(n2, "Bob").sign_in(token=bob.token)
    await other.ok("friends.add", name="Cleo")  # another account's budget is untouched


@pytest.mark.live
async def test_tables_opened_from_one_address_count_over_both_nodes(cluster: Cluster) -> None:
    limits = Limits(message_rate_user="100000/second", tables_per_address=2)
    n1 = await cluster.start("n1", limits=limits)
    n2 = await cluster.start("n2", limits=limits)
    address = "203.0.113.9"
    anna = await FromAddress(n1, "Anna", address).sign_in()
    bob = await FromAddress(n2, "Bob", address).sign_in()
    cleo = await FromAddress(n2, "Cleo", address).sign_in()
    first = (await create(anna))["table"]["id"]
    assert (await create(bob))["type"] == "ok"
    refused = await create(cleo)
    assert (refused["type"], refused["code"]) == ("error", "quota")
    elsewhere = await FromAddress(n2, "Dan", "198.51.100.4").sign_in()
    assert (await create(elsewhere))["type"] == "ok"  # another address is not touched
    await anna.ok("table.leave", table=first)  # closed on n1: n2 stops counting it
    assert (await create(cleo))["type"] == "ok"


@pytest.mark.live
async def test_without_redis_table_limits_fail_closed_and_message_rates_open(
    cluster: Cluster, redis_server: Any
) -> None:
    n1 = await cluster.start("n1")
    anna = await FromAddress(n1, "Anna", "203.0.113.9").sign_in()
    redis_server.stop()
    try:
        for _ in range(3):
            await anna.ok("ping")  # messages still flow: each node's own limits hold
        refused = await create(anna)  # table limits cannot be counted: refused, nothing made
        assert (refused["type"], refused["code"]) == ("error", "rate_limited"), refused
        assert "limits" in refused["message"]
        assert not n1.tables
    finally:
        redis_server.start()
    for _ in range(50):  # the client's connections come back
        reply = await create(anna)
        if reply["type"] == "ok":
            break
        await asyncio.sleep(0.1)
    assert reply["type"] == "ok", reply


async def _ignore(_message: Any) -> None:
    return None


@pytest.mark.live
async def test_sockets_from_one_address_count_over_both_nodes(cluster: Cluster) -> None:
    limits = Limits(message_rate_user="100000/second", sockets_per_address=3)
    n1 = await cluster.start("n1", limits=limits)
    n2 = await cluster.start("n2", limits=limits)
    address = "203.0.113.7"
    first = await n1.connect(_ignore, address)
    await n1.connect(_ignore, address)
    await n2.connect(_ignore, address)
    for node in (n2, n1):  # three sockets over both nodes: the most allowed
        with pytest.raises(SalonError) as refused:
            await node.connect(_ignore, address)
        assert refused.value.code == "quota"
    assert n1.gateway._address_conns == {address: 2}  # the refused ones count nowhere
    assert n2.gateway._address_conns == {address: 1}
    await n2.connect(_ignore, "198.51.100.4")  # another address is not touched
    await n1.disconnect(first)  # one closes on n1: n2 may take one
    await n1.settle()
    await n2.connect(_ignore, address)
    with pytest.raises(SalonError):
        await n2.connect(_ignore, address)

    # Redis forgets n1's count: the upkeep's sync puts it back
    redis = n1.ports.limits.address_sockets.redis  # type: ignore[union-attr]
    await redis.delete("zq:n:n1")
    await n1.gateway.sync_presence()
    with pytest.raises(SalonError):
        await n2.connect(_ignore, address)

    # n1 is killed: once its heartbeat expires its sockets count no more
    await cluster.kill("n1")
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        try:
            await n2.connect(_ignore, address)
            break
        except SalonError:
            assert asyncio.get_running_loop().time() < deadline, "n1's sockets still count"
            await asyncio.sleep(0.1)
    assert n2.gateway._address_conns == {address: 3, "198.51.100.4": 1}
    with pytest.raises(SalonError):
        await n2.connect(_ignore, address)
