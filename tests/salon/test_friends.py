"""Private messages kept for accounts that are away, and friends lists (issue 14)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from _salonkit import Client, make_salon
from sqlalchemy import select

from zanzibar.salon import Salon
from zanzibar.salon import models as m
from zanzibar.salon.limits import Limits

pytestmark = pytest.mark.anyio


async def account(salon: Salon, name: str, lang: str = "en") -> Client:
    """A registered account, signed in on one socket."""
    session = await salon.register(name, "correct horse", lang)
    return await Client(salon, name).sign_in(lang, session.token)


async def away(salon: Salon, name: str, lang: str = "en") -> Client:
    """A registered account that is not connected (its token kept for later)."""
    session = await salon.register(name, "correct horse", lang)
    client = Client(salon, name)
    client.token = session.token
    client.user_id = session.user.id
    return client


def kept_chats(client: Client) -> list[dict[str, Any]]:
    return [msg for msg in client.inbox if msg.get("type") == "chat" and msg.get("offline")]


async def waiting_rows(salon: Salon) -> list[tuple[int, str]]:
    pm = m.private_messages
    rows = await salon.store.read(
        select(pm.c.id, pm.c.text).where(pm.c.delivered.is_(None)).order_by(pm.c.id)
    )
    return [(row[0], row[1]) for row in rows]


# -- kept messages ----------------------------------------------------------------------


async def test_a_message_to_an_account_away_is_kept_then_delivered_once(salon: Salon) -> None:
    anna = await account(salon, "Anna")
    bob = await away(salon, "Bob")
    first = await anna.ok("chat.private", to="bob", text="see you at nine")
    assert first["delivered"] is False and first["kept"] is True
    assert first["sentence"] == (
        "Bob is away: your message is kept and will be delivered when Bob signs in."
    )
    await anna.ok("chat.private", to="Bob", text="/me waves")
    echo = anna.last("chat")
    assert echo["private"] and echo["kept"] is True and echo["to"] == "Bob"
    assert [text for _, text in await waiting_rows(salon)] == ["see you at nine", "waves"]

    await bob.reconnect()
    got = kept_chats(bob)
    assert [(g["from"], g["text"], g["me"], g["to"]) for g in got] == [
        ("Anna", "see you at nine", False, "Bob"),
        ("Anna", "waves", True, "Bob"),
    ]
    assert [g["sentence"] for g in got] == [
        "While you were away, Anna wrote: see you at nine",
        "While you were away: * Anna waves",
    ]
    assert got[0]["sent"] <= got[1]["sent"]
    welcome_at = next(i for i, msg in enumerate(bob.inbox) if msg["type"] == "welcome")
    assert bob.inbox.index(got[0]) > welcome_at  # after the welcome, in order
    assert await waiting_rows(salon) == []
    assert salon.mailbox.waiting == {}

    await bob.disconnect()
    bob.inbox.clear()
    await bob.reconnect()
    assert kept_chats(bob) == []  # not twice


async def test_kept_messages_survive_a_restart_and_come_once(tmp_path: Path) -> None:
    where = tmp_path / "salon.sqlite3"
    first = make_salon(where)
    await first.start()
    anna = await account(first, "Anna")
    bob = await account(first, "Bob", "fr")
    await bob.disconnect()
    reply = await anna.ok("chat.private", to="Bob", text="partie ce soir ?")
    assert reply["kept"] is True
    await first.stop()

    second = make_salon(where)
    await second.start()
    try:
        assert second.mailbox.waiting == {bob.user_id: 1}
        bob.salon = second
        await bob.reconnect("fr")
        got = kept_chats(bob)
        assert [g["text"] for g in got] == ["partie ce soir ?"]
        assert got[0]["sentence"] == "Pendant votre absence, Anna a écrit\u00a0: partie ce soir ?"
        await bob.disconnect()
        bob.inbox.clear()
        await bob.reconnect("fr")
        assert kept_chats(bob) == []
    finally:
        await second.stop()
    third = make_salon(where)
    await third.start()
    try:
        assert third.mailbox.waiting == {}
        assert await waiting_rows(third) == []
    finally:
        await third.stop()


async def test_a_message_to_someone_online_is_delivered_now(salon: Salon) -> None:
    anna = await account(salon, "Anna")
    bob = await account(salon, "Bob")
    reply = await anna.ok("chat.private", to="Bob", text="hello")
    assert reply["delivered"] is True and reply["kept"] is False and "sentence" not in reply
    assert bob.last("chat")["text"] == "hello" and bob.last("chat")["kept"] is False
    assert await waiting_rows(salon) == []
    await bob.disconnect()
    await bob.reconnect()
    assert kept_chats(bob) == []


async def test_a_socket_dropped_before_delivery_keeps_the_messages(salon: Salon) -> None:
    anna = await account(salon, "Anna")
    bob = await away(salon, "Bob")
    await anna.ok("chat.private", to="Bob", text="one")
    # Bob's socket is gone before the salon could hand it anything
    bob.conn = await salon.connect(bob._send)
    bob.conn.close()
    user = salon.accounts.users[bob.user_id]
    assert await salon.mailbox.deliver(user, bob.conn, salon._name_of) == 0
    assert [text for _, text in await waiting_rows(salon)] == ["one"]
    await bob.reconnect()
    assert [g["text"] for g in kept_chats(bob)] == ["one"]


async def test_guests_vanish_so_nothing_is_kept_for_them_or_from_them(salon: Salon) -> None:
    anna = await account(salon, "Anna")
    guest = await Client(salon, "Gus").sign_in()
    await guest.disconnect()
    refused = await anna.refused("chat.private", "forbidden", to="Gus", text="hi")
    assert refused["message"] == (
        "Gus was a guest and has left; messages are kept only for accounts"
    )
    bob = await away(salon, "Bob")
    other = await Client(salon, "Gina").sign_in("fr")
    refused = await other.refused("chat.private", "forbidden", to=bob.name, text="hi")
    assert refused["message"] == (
        "Bob n'est pas en ligne et un invité ne peut pas laisser de message\u202f;"
        " créez un compte pour en laisser un"
    )
    assert await waiting_rows(salon) == []
    # refusals count nothing against the chat rate: five lines still pass
    for n in range(5):
        await anna.ok("chat.private", to="Bob", text=f"line {n}")


async def test_the_mailbox_is_bounded_per_sender_and_per_recipient(db_url: str) -> None:
    limits = Limits(
        message_rate_user="100000/second",
        offline_messages_per_recipient=3,
        offline_messages_per_sender=2,
    )
    salon = make_salon(db_url, limits=limits)
    await salon.start()
    try:
        anna = await account(salon, "Anna")
        carl = await account(salon, "Carl")
        bob = await away(salon, "Bob")
        await anna.ok("chat.private", to="Bob", text="1")
        await anna.ok("chat.private", to="Bob", text="2")
        refused = await anna.refused("chat.private", "quota", to="Bob", text="3")
        assert refused["message"] == (
            "you already left 2 messages waiting for Bob; wait until they have been read"
        )
        salon.chat_limit._times.clear()
        await carl.ok("chat.private", to="Bob", text="3")
        refused = await carl.refused("chat.private", "quota", to="Bob", text="4")
        assert refused["message"] == (
            "3 messages already wait for Bob; try again once they have been read"
        )
        assert [text for _, text in await waiting_rows(salon)] == ["1", "2", "3"]
        await bob.reconnect()
        assert [g["text"] for g in kept_chats(bob)] == ["1", "2", "3"]
        await bob.disconnect()
        await anna.ok("chat.private", to="Bob", text="again")  # room once read
    finally:
        await salon.stop()


async def test_the_offline_limits_are_settings() -> None:
    from zanzibar.salon.limits import limits_from

    limits = limits_from(
        ["offline_messages_per_recipient=7", "offline_messages_per_sender=2", "friends_max=9"], {}
    )
    assert (limits.offline_messages_per_recipient, limits.offline_messages_per_sender) == (7, 2)
    assert limits.friends_max == 9
    defaults = Limits()
    assert (defaults.offline_messages_per_recipient, defaults.offline_messages_per_sender) == (
        100,
        20,
    )


# -- friends ----------------------------------------------------------------------------


async def test_add_list_and_remove_friends(salon: Salon) -> None:
    anna = await account(salon, "Anna")
    await away(salon, "Bob")
    carl = await account(salon, "Carl")
    empty = await anna.ok("friends.list")
    assert empty["friends"] == [] and empty["alerts"] is True
    assert empty["text"] == "Your friends list is empty."
    added = await anna.ok("friends.add", name="bob")
    assert added["text"] == "Bob is now in your friends list."
    assert added["friend"] == {
        "user": salon.accounts.known("Bob").id,
        "name": "Bob",
        "online": False,
        "places": [],
        "text": "Bob is offline.",
    }
    await anna.ok("friends.add", name="Carl")
    listing = await anna.ok("friends.list")
    assert [(f["name"], f["online"], f["text"]) for f in listing["friends"]] == [
        ("Carl", True, "Carl is online, not at a table."),
        ("Bob", False, "Bob is offline."),
    ]
    assert listing["text"] == "2 friends, 1 online."
    # one-sided: Carl's own list is untouched
    assert (await carl.ok("friends.list"))["friends"] == []
    removed = await anna.ok("friends.remove", name="BOB")
    assert removed["name"] == "Bob" and removed["text"] == "Bob is no longer in your friends list."
    assert [f["name"] for f in (await anna.ok("friends.list"))["friends"]] == ["Carl"]


async def test_friends_refusals(salon: Salon) -> None:
    anna = await account(salon, "Anna", "fr")
    await away(salon, "Bob")
    guest = await Client(salon, "Gus").sign_in()
    refusals = [
        ("friends.add", {"name": "Anna"}, "invalid"),
        ("friends.add", {"name": "anna"}, "invalid"),
        ("friends.add", {"name": "Nobody"}, "not_found"),
        ("friends.add", {"name": "Gus"}, "forbidden"),
        ("friends.add", {"name": ""}, "invalid"),
        ("friends.add", {"name": "\u200b\u200b"}, "invalid"),
        ("friends.add", {"name": 7}, "invalid"),
        ("friends.add", {}, "invalid"),
        ("friends.remove", {"name": "Bob"}, "not_found"),
        ("friends.alerts", {"on": "yes"}, "invalid"),
    ]
    for kind, fields, code in refusals:
        await anna.refused(kind, code, **fields)
    said = await anna.refused("friends.add", "invalid", name="Anna")
    assert said["message"] == "vous ne pouvez pas vous ajouter à votre propre liste d'amis"
    await anna.ok("friends.add", name="Bob")
    again = await anna.refused("friends.add", "conflict", name="bob")
    assert again["message"] == "Bob est déjà dans votre liste d'amis"
    for kind, fields in (("friends.list", {}), ("friends.add", {"name": "Bob"})):
        refused = await guest.refused(kind, "forbidden", **fields)
        assert refused["message"] == (
            "guests have no friends list; register an account to keep one"
        )
    rows = await salon.store.read(select(m.friends.c.user_id, m.friends.c.friend_id))
    assert [tuple(row) for row in rows] == [(anna.user_id, salon.accounts.known("Bob").id)]


async def test_look_alike_names_find_the_one_account(salon: Salon) -> None:
    anna = await account(salon, "Anna")
    await away(salon, "Chloé")
    # a Cyrillic "С", a zero-width space and full-width letters all mean Chloé
    added = await anna.ok("friends.add", name="\u0421hlo\u200bé")
    assert added["friend"]["name"] == "Chloé"
    await anna.refused("friends.add", "conflict", name="ＣＨＬＯÉ")
    reply = await anna.ok("chat.private", to="\u0421hloé", text="hi")
    assert reply["kept"] is True


async def test_a_friends_list_is_bounded(db_url: str) -> None:
    salon = make_salon(db_url, limits=Limits(message_rate_user="100000/second", friends_max=2))
    await salon.start()
    try:
        anna = await account(salon, "Anna")
        for name in ("Bob", "Carl", "Dora"):
            await away(salon, name)
        await anna.ok("friends.add", name="Bob")
        await anna.ok("friends.add", name="Carl")
        refused = await anna.refused("friends.add", "quota", name="Dora")
        assert refused["message"] == "a friends list holds at most 2 names; remove one first"
        await anna.ok("friends.remove", name="Bob")
        await anna.ok("friends.add", name="Dora")
    finally:
        await salon.stop()


async def test_where_friends_are_public_tables_named_private_ones_not(salon: Salon) -> None:
    anna = await account(salon, "Anna")
    bob = await account(salon, "Bob")
    carl = await account(salon, "Carl")
    public = (await bob.ok("table.create", game="race", seats=2))["table"]["id"]
    secret = (await carl.ok("table.create", game="race", private=True))["table"]
    await bob.ok("table.watch", table=secret["id"], invite=secret["invite"])
    await anna.ok("friends.add", name="Bob")
    entry = (await anna.ok("friends.list"))["friends"][0]
    race = salon.tables[public].rules.title["en"]
    assert entry["places"] == [
        {"table": public, "game": "race", "title": race, "seat": 0},
        {"table": None, "game": None, "title": None, "seat": None},
    ]
    assert entry["text"] == (
        f"Bob is online, at table {public} ({race}), seat 1 and a private table."
    )
    # Carl sits at the private table: to him it is named
    await carl.ok("friends.add", name="Bob")
    seen = (await carl.ok("friends.list"))["friends"][0]["places"]
    assert {"table": secret["id"], "game": "race", "title": race, "seat": None} in seen


async def test_friends_hear_who_comes_and_goes_unless_they_turn_it_off(salon: Salon) -> None:
    anna = await account(salon, "Anna")
    frida = await account(salon, "Frida", "fr")
    bob = await away(salon, "Bob")
    await anna.ok("friends.add", name="Bob")
    await frida.ok("friends.add", name="Bob")
    await bob.reconnect()
    assert anna.last("friend") == {
        "v": 1,
        "type": "friend",
        "user": bob.user_id,
        "name": "Bob",
        "online": True,
        "text": "Your friend Bob is online.",
    }
    assert frida.last("friend")["text"] == "Connexion de Bob, de votre liste d'amis."
    # a second socket of Bob is not news
    second = Client(salon, "Bob")
    await second.sign_in(token=bob.token)
    assert len(anna.of_type("friend")) == 1
    await second.disconnect()
    assert len(anna.of_type("friend")) == 1
    quiet = await frida.ok("friends.alerts", on=False)
    assert quiet["alerts"] is False
    await bob.disconnect()
    await salon.settle()
    assert anna.last("friend")["online"] is False
    assert anna.last("friend")["text"] == "Your friend Bob went offline."
    assert len(frida.of_type("friend")) == 1
    # the choice is kept
    await frida.disconnect()
    await frida.reconnect("fr")
    assert (await frida.ok("friends.list"))["alerts"] is False
    await frida.ok("friends.alerts", on=True)
    await bob.reconnect()
    assert frida.last("friend")["online"] is True


async def test_friends_lists_and_settings_survive_a_restart(tmp_path: Path) -> None:
    where = tmp_path / "salon.sqlite3"
    first = make_salon(where)
    await first.start()
    anna = await account(first, "Anna")
    await away(first, "Bob")
    await away(first, "Carl")
    await anna.ok("friends.add", name="Bob")
    await anna.ok("friends.add", name="Carl")
    await anna.ok("friends.remove", name="Carl")
    await anna.ok("friends.alerts", on=False)
    await first.stop()
    second = make_salon(where)
    await second.start()
    try:
        anna.salon = second
        await anna.reconnect()
        listing = await anna.ok("friends.list")
        assert [f["name"] for f in listing["friends"]] == ["Bob"]
        assert listing["alerts"] is False
    finally:
        await second.stop()


async def test_a_reload_is_not_news_but_staying_away_is(db_url: str) -> None:
    salon = make_salon(db_url, takeover_delay=0.3)
    await salon.start()
    try:
        anna = await account(salon, "Anna")
        bob = await away(salon, "Bob")
        await anna.ok("friends.add", name="Bob")
        await bob.reconnect()
        assert [f["online"] for f in anna.of_type("friend")] == [True]
        # a page reload: gone and back within the grace, nothing said either way
        await bob.disconnect()
        await bob.reconnect()
        await asyncio.sleep(0.5)
        assert [f["online"] for f in anna.of_type("friend")] == [True]
        # gone for good: said once the grace is over
        await bob.disconnect()
        await asyncio.sleep(0.1)
        assert [f["online"] for f in anna.of_type("friend")] == [True]
        await asyncio.sleep(0.5)
        assert [f["online"] for f in anna.of_type("friend")] == [True, False]
    finally:
        await salon.stop()


async def test_two_sockets_saying_hello_at_once_get_each_message_once(salon: Salon) -> None:
    anna = await account(salon, "Anna")
    bob = await away(salon, "Bob")
    for n in range(3):
        await anna.ok("chat.private", to="Bob", text=f"line {n}")
    first, second = Client(salon, "Bob"), Client(salon, "Bob")
    first.conn = await salon.connect(first._send)
    second.conn = await salon.connect(second._send)
    hello = {"v": 1, "type": "hello", "token": bob.token}
    await asyncio.gather(
        salon.handle(first.conn, {**hello, "id": 1}), salon.handle(second.conn, {**hello, "id": 2})
    )
    await salon.settle()
    texts = sorted(g["text"] for g in kept_chats(first) + kept_chats(second))
    assert texts == ["line 0", "line 1", "line 2"]
    assert await waiting_rows(salon) == []


def test_the_migration_marks_older_messages_delivered(tmp_path: Path) -> None:
    """Messages stored before 0007 were delivered live or lost: none comes as news."""
    from alembic import command
    from sqlalchemy import create_engine, text

    from zanzibar.salon.persistence import alembic_config

    path = tmp_path / "old.sqlite3"
    config = alembic_config(f"sqlite+aiosqlite:///{path}")
    command.upgrade(config, "0002")
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        for user_id, name in ((1, "Anna"), (2, "Bob")):
            conn.execute(
                text(
                    "INSERT INTO users (id, name, name_key, lang, guest, created)"
                    " VALUES (:id, :name, :key, 'en', 0, 1.0)"
                ),
                {"id": user_id, "name": name, "key": name.lower()},
            )
        conn.execute(
            text(
                "INSERT INTO private_messages (id, sender_id, recipient_id, text, me, created)"
                " VALUES (1, 1, 2, 'old news', 0, 42.5)"
            )
        )
    command.upgrade(config, "0007")
    with engine.begin() as conn:
        rows = conn.execute(text("SELECT id, delivered FROM private_messages")).all()
        assert [tuple(row) for row in rows] == [(1, 42.5)]
        assert conn.execute(text("SELECT count(*) FROM friends")).scalar() == 0
    command.downgrade(config, "0002")
    engine.dispose()


async def test_changing_the_list_is_rate_limited(db_url: str) -> None:
    limits = Limits(message_rate_user="100000/second", friends_change_rate="3/minute")
    salon = make_salon(db_url, limits=limits)
    await salon.start()
    try:
        anna = await account(salon, "Anna")
        await away(salon, "Bob")
        await anna.refused("friends.remove", "not_found", name="Bob")  # refusals cost nothing
        await anna.ok("friends.add", name="Bob")
        await anna.ok("friends.remove", name="Bob")
        await anna.ok("friends.add", name="Bob")
        refused = await anna.refused("friends.remove", "rate_limited", name="Bob")
        assert refused["message"].startswith(
            "too many changes to the friends list: at most 3 per minute; try again in"
        )
        assert refused["retry_after"] >= 1
        assert [f["name"] for f in (await anna.ok("friends.list"))["friends"]] == ["Bob"]
    finally:
        await salon.stop()


def test_hostile_friends_and_private_messages_never_fail_and_refusals_change_nothing(
    tmp_path: Path,
) -> None:
    """Random names (look-alikes, invisible characters, controls, very long) and fields."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    loop = asyncio.new_event_loop()
    salon = make_salon(
        tmp_path / "fuzz.sqlite3",
        limits=Limits(
            message_rate_user="100000/second",
            friends_max=3,
            offline_messages_per_sender=2,
            friends_change_rate="100000/second",
        ),
    )
    clients: list[Client] = []

    async def setup() -> None:
        await salon.start()
        clients.append(await account(salon, "Anna"))
        await away(salon, "Bob")
        await away(salon, "Chloé")
        clients.append(await Client(salon, "Gus").sign_in())

    loop.run_until_complete(setup())
    names = st.one_of(
        st.sampled_from(
            ["Bob", "bob", "B\u043eb", "Chloé", "ＣＨＬＯÉ", "Anna", "Gus", "Nobody", "\u200b"]
        ),
        st.text(max_size=70),
        st.integers(),
        st.none(),
    )
    kinds = st.sampled_from(["friends.add", "friends.remove", "friends.list", "friends.alerts"])
    requests = st.one_of(
        st.fixed_dictionaries({"type": kinds}, optional={"name": names, "on": st.booleans()}),
        st.fixed_dictionaries(
            {"type": st.just("chat.private"), "to": names},
            optional={"text": st.sampled_from(["hi", "", "/me waves", "x" * 501])},
        ),
    )

    def state() -> Any:
        lists = {user: sorted(friends) for user, friends in salon.friends.lists.items() if friends}
        return lists, sorted(salon.friends.quiet), dict(salon.mailbox.waiting)

    counter = [0]

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(message=requests, who=st.integers(min_value=0, max_value=1))
    def check(message: dict[str, Any], who: int) -> None:
        client = clients[who]
        counter[0] += 1
        message = {"v": 1, **message, "id": f"f-{counter[0]}"}

        async def run() -> None:
            salon.chat_limit._times.clear()
            before = state()
            assert client.conn is not None
            await salon.handle(client.conn, message)
            await salon.settle()
            replies = [m for m in client.inbox if m.get("id") == message["id"]]
            assert len(replies) == 1, message
            if replies[0]["type"] == "error":
                assert replies[0]["code"] != "internal", replies[0]
                assert replies[0]["message"], replies[0]
                assert state() == before, (message, replies[0])

        loop.run_until_complete(run())

    try:
        check()
        assert len(salon.friends.lists.get(clients[0].user_id, ())) <= 3
        assert all(count <= 2 for count in salon.mailbox.waiting_pair.values())
    finally:
        loop.run_until_complete(salon.stop())
        loop.close()
