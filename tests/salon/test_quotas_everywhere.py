"""The friends-list and kept-message limits hold for the whole salon, not per node (issue 11).

Two salons on one database, each with its own in-process ports and nothing between
them: neither hears of the other's changes, so each one's memory of a list or of
a mailbox is out of date, as a node's is for the instant before another node's news
reaches it. The database decides: what one node stored counts on the other. Then
two nodes at the very same instant (``asyncio.gather``), on SQLite and on PostgreSQL,
where the recipient's account row is locked so that the second count sees the first.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from _salonkit import Client, make_salon
from sqlalchemy import func, select

from zanzibar.salon import Salon
from zanzibar.salon import models as m
from zanzibar.salon.limits import Limits

pytestmark = pytest.mark.anyio

PASSWORD = "correct horse"


def limits(**fields: Any) -> Limits:
    return Limits(message_rate_user="100000/second", **fields)


Two = Callable[..., Awaitable[tuple[Salon, Salon, dict[str, str]]]]


@pytest.fixture
async def two(db_url: str) -> AsyncIterator[Two]:
    """A maker of two salons on one database with the given limits and accounts (their
    session tokens by name; registered before the second salon reads its accounts)."""
    made: list[Salon] = []

    async def make(names: tuple[str, ...], **fields: Any) -> tuple[Salon, Salon, dict[str, str]]:
        for _ in range(2):
            salon = make_salon(db_url, limits=limits(**fields))
            await salon.start()
            made.append(salon)
            if len(made) == 1:
                tokens = {name: (await salon.register(name, PASSWORD)).token for name in names}
        if db_url.startswith("sqlite"):  # SQLite counts ids in its one process
            made[1].ids = made[0].ids
        return made[0], made[1], tokens

    try:
        yield make
    finally:
        for salon in reversed(made):
            await salon.stop()


async def signed_in(salon: Salon, name: str, token: str) -> Client:
    return await Client(salon, name).sign_in(token=token)


async def stored_friends(salon: Salon, user_id: int) -> set[int]:
    f = m.friends
    rows = await salon.store.read(select(f.c.friend_id).where(f.c.user_id == user_id))
    return {row[0] for row in rows}


async def waiting(salon: Salon) -> list[tuple[int, int, str]]:
    pm = m.private_messages
    rows = await salon.store.read(
        select(pm.c.sender_id, pm.c.recipient_id, pm.c.text)
        .where(pm.c.delivered.is_(None))
        .order_by(pm.c.id)
    )
    return [(row[0], row[1], row[2]) for row in rows]


# -- friends lists ----------------------------------------------------------------------


async def test_a_friends_list_full_on_one_node_is_full_on_the_other(two: Two) -> None:
    a, b, tokens = await two(("Anna", "Bob", "Carl", "Dora"), friends_max=2)
    anna_a = await signed_in(a, "Anna", tokens["Anna"])
    anna_b = await signed_in(b, "Anna", tokens["Anna"])
    await anna_a.ok("friends.add", name="Bob")
    await anna_a.ok("friends.add", name="Carl")
    assert b.friends.lists.get(anna_a.user_id, set()) == set()  # b never heard of them
    refused = await anna_b.refused("friends.add", "quota", name="Dora")
    assert refused["message"] == "a friends list holds at most 2 names; remove one first"
    assert len(await stored_friends(a, anna_a.user_id)) == 2
    # b read the list again on the way: what b says of it is what is stored
    assert b.friends.lists[anna_a.user_id] == await stored_friends(b, anna_a.user_id)
    await anna_b.refused("friends.add", "conflict", name="Bob")  # in the list, from a
    await anna_a.ok("friends.remove", name="Bob")
    await anna_b.ok("friends.add", name="Dora")  # room again, counted in storage
    assert len(await stored_friends(a, anna_a.user_id)) == 2


async def test_two_nodes_adding_at_the_same_instant_store_one(two: Two) -> None:
    a, b, tokens = await two(("Anna", "Bob", "Carl"), friends_max=1)
    anna_a = await signed_in(a, "Anna", tokens["Anna"])
    anna_b = await signed_in(b, "Anna", tokens["Anna"])
    replies = await asyncio.gather(
        anna_a.request("friends.add", name="Bob"), anna_b.request("friends.add", name="Carl")
    )
    assert sorted(r["type"] for r in replies) == ["error", "ok"], replies
    (refused,) = [r for r in replies if r["type"] == "error"]
    assert refused["code"] == "quota"
    assert len(await stored_friends(a, anna_a.user_id)) == 1


# -- kept messages ----------------------------------------------------------------------


async def test_a_full_mailbox_on_one_node_is_full_on_the_other(two: Two) -> None:
    a, b, tokens = await two(
        ("Anna", "Bea", "Carl"), offline_messages_per_recipient=2, offline_messages_per_sender=5
    )
    anna = await signed_in(a, "Anna", tokens["Anna"])
    bea = await signed_in(b, "Bea", tokens["Bea"])
    assert (await anna.ok("chat.private", to="Carl", text="un"))["kept"] is True
    assert (await anna.ok("chat.private", to="Carl", text="deux"))["kept"] is True
    assert b.mailbox.waiting == {}  # b never heard of them
    refused = await bea.refused("chat.private", "quota", to="Carl", text="trois")
    assert refused["message"] == (
        "2 messages already wait for Carl; try again once they have been read"
    )
    assert [text for _, _, text in await waiting(a)] == ["un", "deux"]
    # and the sender's own limit, counted over both nodes too
    anna_b = await signed_in(b, "Anna", tokens["Anna"])
    await anna_b.refused("chat.private", "quota", to="Carl", text="trois")


async def test_one_sender_on_two_nodes_keeps_no_more_than_his_share(two: Two) -> None:
    a, b, tokens = await two(
        ("Anna", "Carl"), offline_messages_per_recipient=10, offline_messages_per_sender=2
    )
    anna_a = await signed_in(a, "Anna", tokens["Anna"])
    anna_b = await signed_in(b, "Anna", tokens["Anna"])
    await anna_a.ok("chat.private", to="Carl", text="un")
    await anna_a.ok("chat.private", to="Carl", text="deux")
    refused = await anna_b.refused("chat.private", "quota", to="Carl", text="trois")
    assert refused["message"] == (
        "you already left 2 messages waiting for Carl; wait until they have been read"
    )
    assert [text for _, _, text in await waiting(a)] == ["un", "deux"]


async def test_two_nodes_keeping_a_line_at_the_same_instant_store_one(two: Two) -> None:
    a, b, tokens = await two(
        ("Anna", "Bea", "Carl"), offline_messages_per_recipient=1, offline_messages_per_sender=5
    )
    anna = await signed_in(a, "Anna", tokens["Anna"])
    bea = await signed_in(b, "Bea", tokens["Bea"])
    replies = await asyncio.gather(
        anna.request("chat.private", to="Carl", text="un"),
        bea.request("chat.private", to="Carl", text="deux"),
    )
    assert sorted(r["type"] for r in replies) == ["error", "ok"], replies
    (refused,) = [r for r in replies if r["type"] == "error"]
    assert refused["code"] == "quota"
    pm = m.private_messages
    (count,) = await a.store.read(select(func.count()).where(pm.c.delivered.is_(None)))
    assert count[0] == 1


async def test_lines_kept_by_one_node_are_delivered_by_the_other(two: Two) -> None:
    a, b, tokens = await two(("Anna", "Carl"))
    anna = await signed_in(a, "Anna", tokens["Anna"])
    await anna.ok("chat.private", to="Carl", text="see you at nine")
    carl = await signed_in(b, "Carl", tokens["Carl"])  # b kept nothing: it reads storage
    await b.settle()
    kept = [x for x in carl.inbox if x.get("type") == "chat" and x.get("offline")]
    assert [(x["from"], x["text"]) for x in kept] == [("Anna", "see you at nine")]
    assert await waiting(a) == []
