"""Table chat, /me, private messages, length and rate limits."""

from __future__ import annotations

from typing import Any

import pytest

from zanzibar.salon.chat import MAX_LENGTH, RateLimiter, clean_text
from zanzibar.salon.errors import SalonError
from zanzibar.salon.service import Salon

pytestmark = pytest.mark.anyio


def test_clean_text() -> None:
    assert clean_text("/me waves") == ("waves", True)
    assert clean_text("  hello  ") == ("hello", False)
    assert clean_text("x" * MAX_LENGTH)[0] == "x" * MAX_LENGTH
    with pytest.raises(SalonError) as info:
        clean_text("x" * (MAX_LENGTH + 1))
    assert info.value.code == "too_long"
    for bad in ("", "   ", "/me", "/me   ", 5, None):
        with pytest.raises(SalonError) as info:
            clean_text(bad)
        assert info.value.code == "invalid"


def test_rate_limiter_sliding_window() -> None:
    now = [100.0]
    limiter = RateLimiter(5, 5.0, clock=lambda: now[0])
    assert [limiter.allow(1) for _ in range(6)] == [True] * 5 + [False]
    assert limiter.allow(2)  # per user
    now[0] += 4.9
    assert not limiter.allow(1)
    now[0] += 0.2
    assert limiter.allow(1)


async def test_table_chat_me_and_private(salon: Salon, client_factory: Any) -> None:
    anna = await client_factory("Anna")
    bob = await client_factory("Bob")
    carl = await client_factory("Carl")
    table_id = (await anna.ok("table.create", game="race"))["table"]["id"]
    await bob.ok("table.watch", table=table_id)
    said = await anna.ok("chat.say", table=table_id, text="hello")
    await anna.ok("chat.me", table=table_id, text="waves")
    await anna.ok("chat.say", table=table_id, text="/me smiles")
    lines = [m for m in bob.of_type("chat", table_id)]
    assert [(m["from"], m["text"], m["me"], m["seq"]) for m in lines] == [
        ("Anna", "hello", False, said["seq"]),
        ("Anna", "waves", True, said["seq"] + 1),
        ("Anna", "smiles", True, said["seq"] + 2),
    ]
    reply = await bob.ok("chat.private", to="carl", text="psst")
    assert reply["delivered"] is True
    got = carl.last("chat")
    assert got["private"] and got["table"] is None and got["from"] == "Bob" and got["to"] == "Carl"
    assert bob.last("chat")["private"]  # the sender sees it too
    assert not [m for m in anna.of_type("chat") if m["private"]]
    await bob.refused("chat.private", "not_found", to="Nobody", text="hi")


async def test_rate_limit_refuses_and_changes_nothing(salon: Salon, client_factory: Any) -> None:
    anna = await client_factory("Anna")
    table_id = (await anna.ok("table.create", game="race"))["table"]["id"]
    for i in range(5):
        await anna.ok("chat.say", table=table_id, text=f"line {i}")
    before = salon.snapshot(table_id)
    await anna.refused("chat.say", "rate_limited", table=table_id, text="one too many")
    await anna.refused("chat.private", "rate_limited", to="Anna", text="me again")
    assert salon.snapshot(table_id) == before
