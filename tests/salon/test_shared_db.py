"""Two salon processes on one PostgreSQL: ids, names, tokens and users hold for both.

Two :class:`Salon` objects in one test stand for two ``zanzibar serve``
processes: each has its own engine, memory and account book, and they share
nothing but the database (tests/live runs real processes). Tables are not
shared yet (each process runs the tables it created): that is the table
actors' and router's work.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from _salonkit import Client, make_salon
from sqlalchemy import select

from zanzibar.salon import Salon
from zanzibar.salon import models as m
from zanzibar.salon.errors import SalonError

pytestmark = [pytest.mark.anyio, pytest.mark.live]


@pytest.fixture
async def pair(pg_url: str) -> AsyncIterator[tuple[Salon, Salon]]:
    one, two = make_salon(pg_url), make_salon(pg_url)
    await one.start()
    await two.start()
    try:
        yield one, two
    finally:
        await one.stop()
        await two.stop()


async def test_ids_are_unique_when_two_processes_create_at_once(
    pair: tuple[Salon, Salon],
) -> None:
    one, two = pair
    names = [f"p{i}" for i in range(16)]
    clients = await asyncio.gather(
        *(Client(one if i % 2 else two, name).sign_in() for i, name in enumerate(names))
    )
    user_ids = [c.user_id for c in clients]
    assert len(set(user_ids)) == 16
    replies = await asyncio.gather(*(c.ok("table.create", game="race") for c in clients))
    table_ids = [r["table"]["id"] for r in replies]
    assert len(set(table_ids)) == 16
    # what is stored agrees: every user and table was written once, by one process or the other
    rows = await one.store.read(select(m.users.c.id))
    assert sorted(r.id for r in rows) == sorted(user_ids)
    rows = await two.store.read(select(m.tables.c.id))
    assert sorted(r.id for r in rows) == sorted(table_ids)


async def test_a_guest_name_is_given_once_across_processes(pair: tuple[Salon, Salon]) -> None:
    one, two = pair
    sessions = await asyncio.gather(
        *(salon.guest("Anna") for salon in (one, two, one, two, one, two))
    )
    names = sorted(s.user.name for s in sessions)
    assert names == ["Anna", "Anna 2", "Anna 3", "Anna 4", "Anna 5", "Anna 6"]
    assert len({s.user.id for s in sessions}) == 6


async def test_a_look_alike_made_elsewhere_is_refused(pair: tuple[Salon, Salon]) -> None:
    one, two = pair
    await one.register("Anna", "secret-1")
    with pytest.raises(SalonError) as refused:
        await two.register("\u0410nna", "secret-2")  # a Cyrillic A: the same skeleton
    assert refused.value.code == "conflict"
    guest = await two.guest("ANNA")
    assert guest.user.name == "ANNA 2"


async def test_a_token_from_one_process_works_on_the_other(pair: tuple[Salon, Salon]) -> None:
    one, two = pair
    made = await one.guest("Bea")
    user = await two.resume(made.token)
    assert user is not None and (user.id, user.name) == (made.user.id, "Bea")
    client = await Client(two, "Bea").sign_in(token=made.token)
    assert client.user_id == made.user.id


async def test_a_user_made_on_one_process_is_found_on_the_other(
    pair: tuple[Salon, Salon],
) -> None:
    one, two = pair
    bea_session = await one.register("Bea", "correct horse")
    bea = await Client(one, "Bea").sign_in("en", bea_session.token)
    # an account made after one started: one never loaded him
    session = await two.register("Carl", "correct horse")
    carl = await Client(two, "Carl").sign_in("en", session.token)
    reply = await bea.ok("chat.private", to="carl", text="hello")
    # Carl's socket is on the other process, which this one cannot see yet: kept for him
    assert reply["delivered"] is False and reply["kept"] is True
    stats = await one.user_stats("CARL")
    assert stats is not None and stats["id"] == carl.user_id


async def test_signing_in_sees_a_password_changed_elsewhere(pair: tuple[Salon, Salon]) -> None:
    one, two = pair
    first = await one.register("Dora", "old-secret")
    await two.login("Dora", "old-secret")  # two now holds Dora's old hash in memory
    await one.change_password(first.token, "old-secret", "new-secret")
    with pytest.raises(SalonError) as refused:
        await two.login("Dora", "old-secret")
    assert refused.value.code == "unauthenticated"
    assert (await two.login("Dora", "new-secret")).user.id == first.user.id


async def test_a_token_revoked_on_one_process_is_refused_on_the_other(
    pair: tuple[Salon, Salon],
) -> None:
    one, two = pair
    made = await one.guest("Eve")
    assert await two.resume(made.token) is not None  # now cached on two
    await one.logout(made.token)
    assert await two.resume(made.token) is None


async def test_unknown_things_stay_unknown(pair: tuple[Salon, Salon]) -> None:
    one, _two = pair
    assert await one.resume("no-such-token") is None
    assert await one.accounts.find("Nobody") is None
    assert await one.accounts.find("x" * 400) is None
    assert await one.accounts.user(999_999) is None


async def test_nodes_starting_together_migrate_once(pg_url: str) -> None:
    """Three processes starting at once on an empty database: one migrates, the others wait."""
    salons = [make_salon(pg_url) for _ in range(3)]
    await asyncio.gather(*(s.start() for s in salons))
    try:
        rows = await salons[0].store.read(select(m.users.c.id))
        assert rows == []
        sessions = await asyncio.gather(*(s.guest("Flo") for s in salons))
        assert sorted(s.user.name for s in sessions) == ["Flo", "Flo 2", "Flo 3"]
    finally:
        for salon in salons:
            await salon.stop()
