"""Two salon nodes in one process, one database: presence, the lobby and private lines hold
for the whole salon, not per node.

The nodes share in-process ports as the Redis ones are shared between processes:
one :class:`~zanzibar.cluster.local.PresenceBoard`, one lobby, one link hub, one
lease board. A table is run by the node that created it (forwarding commands
to another node's table is not this file's concern); its players' sockets may
be on either node.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from _local_nodes import BoardLeases
from _salonkit import Client, make_salon

from zanzibar.cluster.local import LocalBus, LocalLink, LocalLobby, LocalPresence, PresenceBoard
from zanzibar.cluster.ports import Lease
from zanzibar.cluster.wiring import NodePorts
from zanzibar.salon import Salon
from zanzibar.salon.limits import Limits

pytestmark = pytest.mark.anyio


class Nodes:
    """Ports shared by the nodes of one test, and a maker of nodes on them."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.leases: dict[int, Lease] = {}
        self.links: dict[str, LocalLink] = {}
        self.board = PresenceBoard()
        self.lobby = LocalLobby()
        self.salons: list[Salon] = []

    def ports(self, node: str) -> NodePorts:
        return NodePorts(
            node=node,
            leases=BoardLeases(node, self.leases),
            link=LocalLink(node, self.links),
            bus=LocalBus(),
            presence=LocalPresence(node, self.board),
            lobby=self.lobby,
            shared=True,
        )

    async def start(self, node: str, **settings: Any) -> Salon:
        salon = make_salon(self.url, ports=self.ports(node), **settings)
        await salon.start()
        self.salons.append(salon)
        return salon


@pytest.fixture
async def nodes(tmp_path: Path) -> AsyncIterator[Nodes]:
    made = Nodes(f"sqlite+aiosqlite:///{tmp_path / 'salon.sqlite3'}")
    try:
        yield made
    finally:
        for salon in reversed(made.salons):
            await salon.stop()


async def eventually(check: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        await asyncio.sleep(0.01)


async def account(salon: Salon, name: str) -> Client:
    """A registered account, signed in on ``salon`` (its token works on every node)."""
    session = await salon.register(name, "secret-421")
    return await Client(salon, name).sign_in(token=session.token)


async def test_a_user_online_on_one_node_is_online_on_the_other(nodes: Nodes) -> None:
    a, b = await nodes.start("a"), await nodes.start("b")
    anna = await Client(a, "Anna").sign_in()
    assert a.online(anna.user_id) and b.online(anna.user_id)
    again = await Client(b, "Anna").sign_in(token=anna.token)  # a second socket, on b
    await anna.disconnect()
    assert a.online(anna.user_id) and b.online(anna.user_id)  # still there, on b
    await again.disconnect()
    assert not a.online(anna.user_id) and not b.online(anna.user_id)


async def test_a_table_made_on_one_node_is_listed_on_the_other_in_both_languages(
    nodes: Nodes,
) -> None:
    a, b = await nodes.start("a"), await nodes.start("b")
    anna = await Client(a, "Anna").sign_in()
    made = await anna.ok("table.create", game="zilch", seats=3)
    table = made["table"]["id"]
    hidden = (await anna.ok("table.create", game="421", seats=2, private=True))["table"]["id"]
    await a.settle()
    on_a = a.lobby_page("en", None, None)
    await eventually(lambda: b.lobby_page("en", None, None) == on_a)
    english = b.lobby_page("en", None, None)["tables"]
    french = b.lobby_page("fr", None, None)["tables"]
    assert [t["id"] for t in english] == [table]  # the private table is not listed
    assert hidden in a.tables
    (en,), (fr,) = english, french
    assert (en["title"], fr["title"]) == (
        a.rules_for("zilch").title["en"],
        a.rules_for("zilch").title["fr"],
    )
    assert en["seats"][0] == {
        "seat": 0,
        "user": anna.user_id,
        "name": "Anna",
        "bot": None,
        "away": False,
        "connected": True,
    }
    assert {k: en[k] for k in ("id", "game", "preset", "options", "host", "state")} == {
        k: made["table"][k] for k in ("id", "game", "preset", "options", "host", "state")
    }
    assert await b.list_tables("fr") == french
    # followers on b hear of a change made on a
    bob = await Client(b, "Bob").sign_in(token=(await a.guest("Bob")).token)
    await bob.ok("lobby.subscribe")
    before = len(bob.of_type("lobby"))
    await anna.ok("table.leave", table=table)  # the last person leaves: the table closes
    await a.settle()
    await eventually(lambda: len(bob.of_type("lobby")) > before)
    await b.settle()
    assert bob.last("lobby")["tables"] == []
    assert table not in b.lobby.summaries()


async def test_a_private_line_from_one_node_reaches_a_socket_on_the_other(nodes: Nodes) -> None:
    a, b = await nodes.start("a"), await nodes.start("b")
    anna = await account(a, "Anna")
    bob_session = await a.register("Bob", "secret-421")
    bob = await Client(b, "Bob").sign_in(token=bob_session.token)
    reply = await anna.ok("chat.private", to="bob", text="bonjour")
    assert (reply["delivered"], reply["kept"]) == (True, False)
    await b.settle()
    (line,) = bob.of_type("chat")
    assert (line["from"], line["text"], line["private"], line["kept"]) == (
        "Anna",
        "bonjour",
        True,
        False,
    )
    assert [m["text"] for m in anna.of_type("chat")] == ["bonjour"]  # the sender's echo
    await bob.disconnect()
    kept = await anna.ok("chat.private", to="bob", text="tu es là ?")
    assert (kept["delivered"], kept["kept"]) == (False, True)
    back = await Client(a, "Bob").sign_in(token=bob_session.token)
    await a.settle()
    assert [m["text"] for m in back.of_type("chat")] == ["tu es là ?"]


async def test_a_seat_is_taken_over_when_its_player_drops_on_another_node(
    nodes: Nodes,
) -> None:
    a = await nodes.start("a", takeover_delay=0.3)
    b = await nodes.start("b", takeover_delay=0.3)
    anna = await Client(a, "Anna").sign_in()
    bob_a = await Client(a, "Bob").sign_in(token=(await a.guest("Bob")).token)
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await bob_a.ok("table.join", table=table_id)
    await anna.ok("table.start", table=table_id)
    bob_b = await Client(b, "Bob").sign_in(token=bob_a.token)
    assert bob_b.last("welcome")["tables"] == [{"table": table_id, "seat": 1, "game": "race"}]
    await bob_a.disconnect()  # his socket on b holds him online
    await a.settle()
    seat = a.tables[table_id].seats[1]
    assert seat.dropped_at is None and not seat.away
    await bob_b.disconnect()  # gone from b: a, which runs the table, starts the delay
    await a.settle()
    assert a.tables[table_id].seats[1].dropped_at is not None
    table_on_b = b.lobby_page("en", None, None)["tables"][0]
    assert table_on_b["seats"][1]["connected"] is False
    back = await Client(b, "Bob").sign_in(token=bob_a.token)  # back, on b: no takeover
    await a.settle()
    assert a.tables[table_id].seats[1].dropped_at is None
    await asyncio.sleep(0.5)
    await a.settle()
    assert not a.tables[table_id].seats[1].away
    await back.disconnect()
    await eventually(lambda: a.tables[table_id].seats[1].away, seconds=5)
    assert any(m.get("type") == "system" for m in anna.stream(table_id))


async def test_friends_hear_and_find_a_friend_on_another_node(nodes: Nodes) -> None:
    a, b = await nodes.start("a"), await nodes.start("b")
    # ids come from one node on SQLite (max + 1 per process): accounts are made on a
    bob = await Client(b, "Bob").sign_in(token=(await a.register("Bob", "secret-421")).token)
    anna_session = await a.register("Anna", "secret-421")
    await bob.ok("friends.add", name="Anna")
    anna = await Client(a, "Anna").sign_in(token=anna_session.token)  # online on a
    await b.settle()
    (told,) = bob.of_type("friend")
    assert (told["name"], told["online"]) == ("Anna", True)
    table_id = (await anna.ok("table.create", game="zilch", seats=2))["table"]["id"]
    await a.settle()
    await eventually(lambda: table_id in b.lobby.port.summaries())
    listing = await bob.ok("friends.list")
    (entry,) = listing["friends"]
    assert entry["online"] is True
    assert entry["places"] == [
        {"table": table_id, "game": "zilch", "title": entry["places"][0]["title"], "seat": 0}
    ]
    await anna.disconnect()
    await b.settle()
    assert bob.last("friend")["online"] is False  # no grace in these tests


async def test_the_sockets_of_an_account_are_counted_on_every_node(nodes: Nodes) -> None:
    limits = Limits(message_rate_user="100000/second", sockets_per_user=2)
    a = await nodes.start("a", limits=limits)
    b = await nodes.start("b", limits=limits)
    anna = await Client(a, "Anna").sign_in()
    await Client(b, "Anna").sign_in(token=anna.token)
    third = Client(b, "Anna")
    third.conn = await b.connect(third._send)
    refused = await third.request("hello", token=anna.token)
    assert (refused["type"], refused["code"]) == ("error", "quota")


async def test_a_list_changed_on_one_node_holds_on_the_next_hello_on_another(
    nodes: Nodes,
) -> None:
    a, b = await nodes.start("a"), await nodes.start("b")
    bob_session = await a.register("Bob", "secret-421")
    anna_session = await a.register("Anna", "secret-421")
    bob_a = await Client(a, "Bob").sign_in(token=bob_session.token)
    await bob_a.ok("friends.add", name="Anna")  # on a: b read every list before that
    await bob_a.ok("friends.alerts", on=True)
    await bob_a.disconnect()
    bob_b = await Client(b, "Bob").sign_in(token=bob_session.token)
    (entry,) = (await bob_b.ok("friends.list"))["friends"]
    assert (entry["name"], entry["online"]) == ("Anna", False)
    await Client(a, "Anna").sign_in(token=anna_session.token)
    await b.settle()
    assert [(m["name"], m["online"]) for m in bob_b.of_type("friend")] == [("Anna", True)]


@pytest.mark.live
async def test_two_nodes_on_redis_share_presence_lobby_and_private_lines(
    tmp_path: Path, redis_url: str
) -> None:
    """The same, through the Redis ports (pub/sub: every check waits a moment)."""
    from zanzibar.cluster.wiring import redis_ports

    url = f"sqlite+aiosqlite:///{tmp_path / 'salon.sqlite3'}"
    a = make_salon(url, ports=redis_ports(redis_url, "a"), takeover_delay=0.3)
    b = make_salon(url, ports=redis_ports(redis_url, "b"), takeover_delay=0.3)
    await a.start()
    await b.start()
    try:
        anna = await account(a, "Anna")
        bob_session = await a.register("Bob", "secret-421")
        bob = await Client(b, "Bob").sign_in(token=bob_session.token)
        await eventually(lambda: b.online(anna.user_id) and a.online(bob.user_id))
        assert await a.ports.presence.where(bob.user_id) == {"b": 1}
        # a table made on a is listed on b
        table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
        await eventually(
            lambda: [t["id"] for t in b.lobby_page("fr", None, None)["tables"]] == [table_id]
        )
        # a private line from a reaches bob's socket on b
        reply = await anna.ok("chat.private", to="Bob", text="salut")
        assert (reply["delivered"], reply["kept"]) == (True, False)
        await eventually(lambda: [m["text"] for m in bob.of_type("chat")] == ["salut"])
        # bob sits at a's table through a socket on a, then drops from b: a starts the delay
        bob_a = await Client(a, "Bob").sign_in(token=bob_session.token)
        await bob_a.ok("table.join", table=table_id)
        await anna.ok("table.start", table=table_id)
        await bob_a.disconnect()
        await a.settle()
        assert a.tables[table_id].seats[1].dropped_at is None  # still on b
        await bob.disconnect()
        await eventually(lambda: a.tables[table_id].seats[1].away)
        await eventually(
            lambda: b.lobby_page("en", None, None)["tables"][0]["seats"][1]["connected"] is False
        )
    finally:
        await b.stop()
        await a.stop()
    # a clean stop leaves nobody counted online
    from zanzibar.cluster.redis_presence import RedisPresence

    probe = RedisPresence(redis_url, "probe")
    try:
        assert await probe.redis.hgetall("zp:all") == {}
    finally:
        await probe.close()


@pytest.mark.live
async def test_a_redis_restart_sends_nobody_offline_and_the_counts_come_back(
    tmp_path: Path, redis_server: Any, redis_url: str
) -> None:
    from zanzibar.cluster.wiring import redis_ports

    url = f"sqlite+aiosqlite:///{tmp_path / 'salon.sqlite3'}"
    a = make_salon(url, ports=redis_ports(redis_url, "a"))
    b = make_salon(url, ports=redis_ports(redis_url, "b"))
    await a.start()
    await b.start()
    try:
        anna = await Client(a, "Anna").sign_in()
        bob = await Client(b, "Bob").sign_in(token=(await a.guest("Bob")).token)
        table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
        await eventually(lambda: a.online(bob.user_id) and table_id in b.lobby.port.summaries())
        redis_server.restart()  # every key is gone
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # past the grace and a few upkeep rounds
            assert a.online(bob.user_id) and b.online(anna.user_id)
            await asyncio.sleep(0.05)
        assert await a.ports.presence.where(bob.user_id) == {"b": 1}
        assert await b.ports.presence.where(anna.user_id) == {"a": 1}
        await eventually(lambda: table_id in b.lobby.port.summaries())  # the owner put it back
        await bob.disconnect()
        await eventually(lambda: not a.online(bob.user_id))
    finally:
        await b.stop()
        await a.stop()


@pytest.mark.live
async def test_the_lines_kept_for_an_away_account_are_counted_on_every_node(
    pg_url: str,
) -> None:
    # on PostgreSQL: both nodes store lines, and only its sequences keep their ids apart
    nodes = Nodes(pg_url)
    limits = Limits(message_rate_user="100000/second", offline_messages_per_recipient=2)
    a = await nodes.start("a", limits=limits)
    b = await nodes.start("b", limits=limits)
    try:
        await _two_nodes_keep_lines(a, b)
    finally:
        await b.stop()
        await a.stop()


async def _two_nodes_keep_lines(a: Salon, b: Salon) -> None:
    await a.register("Carl", "secret-421")  # away
    anna = await account(a, "Anna")
    bea = await Client(b, "Bea").sign_in(token=(await a.register("Bea", "secret-421")).token)
    assert (await anna.ok("chat.private", to="Carl", text="un"))["kept"] is True
    assert (await bea.ok("chat.private", to="Carl", text="deux"))["kept"] is True
    await anna.refused("chat.private", "quota", to="Carl", text="trois")
    await bea.refused("chat.private", "quota", to="Carl", text="trois")


async def test_a_list_changed_on_one_node_holds_at_once_for_his_sockets_on_another(
    nodes: Nodes,
) -> None:
    a, b = await nodes.start("a"), await nodes.start("b")
    bob_session = await a.register("Bob", "secret-421")
    anna_session = await a.register("Anna", "secret-421")
    bob_a = await Client(a, "Bob").sign_in(token=bob_session.token)
    bob_b = await Client(b, "Bob").sign_in(token=bob_session.token)  # open before the change
    await bob_a.ok("friends.add", name="Anna")
    await b.settle()
    await Client(a, "Anna").sign_in(token=anna_session.token)
    await b.settle()
    assert [(m["name"], m["online"]) for m in bob_b.of_type("friend")] == [("Anna", True)]
    await bob_a.ok("friends.alerts", on=False)
    await a.settle()
    await b.settle()
    assert bob_session.user.id in b.friends.quiet


@pytest.mark.live
async def test_the_players_of_a_killed_node_go_offline_and_their_seats_are_taken_over(
    tmp_path: Path, redis_url: str
) -> None:
    """Node b dies without a word: once its heartbeat expired, a reaps its sockets."""
    from zanzibar.cluster.wiring import redis_ports

    url = f"sqlite+aiosqlite:///{tmp_path / 'salon.sqlite3'}"
    a = make_salon(url, ports=redis_ports(redis_url, "a"), takeover_delay=0.3)
    doomed_ports = redis_ports(redis_url, "b")
    doomed_ports.presence.node_ttl_ms = 400  # type: ignore[attr-defined]
    b = make_salon(url, ports=doomed_ports, takeover_delay=0.3)
    await a.start()
    await b.start()
    crashed = False
    try:
        anna = await Client(a, "Anna").sign_in()
        bob_session = await a.guest("Bob")
        bob_a = await Client(a, "Bob").sign_in(token=bob_session.token)
        table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
        await bob_a.ok("table.join", table=table_id)
        await anna.ok("table.start", table=table_id)
        await Client(b, "Bob").sign_in(token=bob_session.token)
        await b.ports.presence.heartbeat()  # zanzibar serve's node beats; here, once
        await bob_a.disconnect()
        await a.settle()
        assert a.online(bob_session.user.id)  # his socket on b
        await b.crash()  # no detach, no more heartbeats
        crashed = True
        await eventually(lambda: not a.online(bob_session.user.id), seconds=10)
        await eventually(lambda: a.tables[table_id].seats[1].away, seconds=5)
    finally:
        if not crashed:
            await b.stop()
        await a.stop()


async def test_the_tables_an_account_hosts_are_counted_on_every_node(nodes: Nodes) -> None:
    limits = Limits(message_rate_user="100000/second", tables_per_user=1)
    a = await nodes.start("a", limits=limits)
    b = await nodes.start("b", limits=limits)
    anna = await Client(a, "Anna").sign_in()
    await anna.ok("table.create", game="race", seats=2)
    await a.settle()
    anna_b = await Client(b, "Anna").sign_in(token=anna.token)
    await anna_b.refused("table.create", "quota", game="race", seats=2)
