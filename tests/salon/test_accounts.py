"""Guests, registered accounts, passwords and session tokens."""

from __future__ import annotations

import pytest
from _salonkit import make_salon

from zanzibar.salon.errors import SalonError
from zanzibar.salon.names import clean_name, name_key
from zanzibar.salon.service import Salon
from zanzibar.salon.sessions import token_hash

pytestmark = pytest.mark.anyio


def test_names() -> None:
    assert clean_name("  Anna   Maria ") == "Anna Maria"
    assert name_key("ÉLODIE") == name_key("élodie")
    for bad in ("", " ", "x" * 33, "a\x07b", 3):
        with pytest.raises(SalonError):
            clean_name(bad)


def test_token_hash_is_not_the_token() -> None:
    assert token_hash("abc") != "abc" and len(token_hash("abc")) == 64


async def test_guest_register_login(salon: Salon) -> None:
    first = await salon.guest("Anna", "fr")
    second = await salon.guest("anna")
    assert first.user.name == "Anna" and first.user.lang == "fr" and first.user.guest
    assert second.user.name == "anna 2"
    assert first.token != second.token
    registered = await salon.register("Bob", "secret-pw", "en")
    assert not registered.user.guest
    with pytest.raises(SalonError) as info:
        await salon.register("BOB", "another-pw")
    assert info.value.code == "conflict"
    with pytest.raises(SalonError) as info:
        await salon.register("Carl", "short")
    assert info.value.code == "invalid"
    with pytest.raises(SalonError) as info:
        await salon.guest("Dora", "de")
    assert info.value.code == "invalid"
    again = await salon.login("bob", "secret-pw")
    assert again.user.id == registered.user.id and again.token != registered.token
    for name, password in (("Bob", "wrong-pw"), ("Anna", "anything"), ("Zed", "secret-pw")):
        with pytest.raises(SalonError) as info:
            await salon.login(name, password)
        assert info.value.code == "unauthenticated"
    assert (await salon.resume(again.token)) == registered.user
    assert await salon.resume("nope") is None


async def test_sessions_and_passwords_survive_a_restart(db_url: str) -> None:
    path = db_url
    first = make_salon(path)
    await first.start()
    bob = await first.register("Bob", "secret-pw", "fr")
    guest = await first.guest("Anna")
    await first.stop()
    second = make_salon(path)
    await second.start()
    try:
        assert (await second.resume(bob.token)) == bob.user
        assert (await second.resume(guest.token)) == guest.user
        assert (await second.login("Bob", "secret-pw")).user == bob.user
        assert (await second.guest("Anna")).user.name == "Anna 2"
        new = await second.guest("Eve")
        assert new.user.id > guest.user.id
    finally:
        await second.stop()


async def test_a_failed_account_write_is_refused_and_frees_the_name(
    salon: Salon, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(ops: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(salon.store, "write", broken)
    with pytest.raises(SalonError) as info:
        await salon.guest("Anna")
    assert info.value.code == "internal"
    monkeypatch.undo()
    assert (await salon.guest("Anna")).user.name == "Anna"
