"""Property: ``Salon.handle`` never raises, and a refused message changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from _salonkit import Client, make_salon
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

TYPES = [
    "hello", "ping", "lobby.subscribe", "lobby.unsubscribe", "games.list", "table.create",
    "table.join", "table.watch", "table.leave", "table.options", "table.start", "table.add_bot",
    "table.remove_bot", "table.kick", "table.hand_host", "table.hold", "table.clock",
    "game.action", "game.ask", "chat.say", "chat.me", "chat.private", "history",
]  # fmt: skip
KEYS = [
    "table", "seat", "seq", "since", "action", "text", "to", "user", "game", "preset", "options",
    "seats", "private", "invite", "level", "hold", "seconds", "topic", "channel", "token", "lang",
]  # fmt: skip

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=5),
    st.integers(),
    st.floats(allow_nan=True),
    st.sampled_from(["race", "roll", "stop", "Anna", "en", "fr", "short", "easy", "chat", ""]),
    st.text(max_size=20),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["type", "target", "fast", "x"]), inner, max_size=3),
    ),
    max_leaves=6,
)
random_messages = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(TYPES), st.text(max_size=10))},
    optional={"v": st.sampled_from([1, 1, 1, 2, "1", None])},
).flatmap(
    lambda base: st.dictionaries(st.sampled_from(KEYS), values, max_size=5).map(
        lambda extra: {**extra, **base}
    )
)


small = st.integers(min_value=-1, max_value=4)
plausible = st.fixed_dictionaries(
    {
        "v": st.just(1),
        "type": st.sampled_from(TYPES),
        "table": st.integers(min_value=0, max_value=3),
    },
    optional={
        "seat": small,
        "user": small,
        "seq": st.integers(min_value=0, max_value=30),
        "since": st.integers(min_value=0, max_value=30),
        "action": st.sampled_from([{"type": "roll"}, {"type": "stop"}, {"type": "jump"}, {}]),
        "text": st.sampled_from(["hi", "/me waves", "", "x" * 501]),
        "to": st.sampled_from(["Anna", "Bob", "Nobody"]),
        "game": st.sampled_from(["race", "chess?"]),
        "preset": st.sampled_from(["short", "standard", "nope"]),
        "options": st.sampled_from([{}, {"target": 5}, {"target": 0}, {"fast": True}, {"x": 1}]),
        "seats": st.integers(min_value=1, max_value=5),
        "private": st.booleans(),
        "level": st.sampled_from(["easy", "hard", "god"]),
        "hold": st.booleans(),
        "seconds": st.sampled_from([None, 1, 5, 30]),
        "topic": st.sampled_from(["scores", "weather"]),
        "channel": st.sampled_from(["game", "chat", "system", "radio"]),
    },
)
messages = st.one_of(random_messages, plausible, plausible, plausible)


def test_handle_never_raises_and_refusals_change_nothing(tmp_path: Path) -> None:
    run_fuzz(tmp_path, messages)


PLAY_TYPES = ["game.action"] * 6 + [
    "table.hold",
    "table.leave",
    "table.join",
    "table.start",
    "chat.say",
    "table.kick",
]
play_messages = st.fixed_dictionaries(
    {
        "v": st.just(1),
        "type": st.sampled_from(PLAY_TYPES),
        "table": st.integers(min_value=1, max_value=2),
        "action": st.sampled_from([{"type": "roll"}] * 3 + [{"type": "stop"}, {"type": "jump"}]),
    },
    optional={
        "seq": st.integers(min_value=0, max_value=40),
        "seat": st.integers(min_value=0, max_value=2),
        "user": st.integers(min_value=1, max_value=3),
        "hold": st.booleans(),
        "text": st.just("hi"),
    },
)


def test_random_play_never_raises_and_refusals_change_nothing(tmp_path: Path) -> None:
    run_fuzz(tmp_path, play_messages)


def run_fuzz(tmp_path: Path, strategy: st.SearchStrategy[dict[str, Any]]) -> None:
    loop = asyncio.new_event_loop()
    salon = make_salon(tmp_path / "fuzz.sqlite3")
    clients: list[Client] = []

    async def setup() -> None:
        await salon.start()
        anna = await Client(salon, "Anna").sign_in()
        bob = await Client(salon, "Bob").sign_in()
        table_id = (await anna.ok("table.create", game="race", seats=3))["table"]["id"]
        await bob.ok("table.join", table=table_id)
        await anna.ok("table.start", table=table_id)
        await anna.ok("table.create", game="race")
        anonymous = Client(salon, "Nobody")
        anonymous.conn = await salon.connect(anonymous._send)
        clients.extend([anna, bob, anonymous])

    loop.run_until_complete(setup())
    counter = [0]

    @settings(
        max_examples=300,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(message=strategy, who=st.integers(min_value=0, max_value=2))
    def check(message: dict[str, Any], who: int) -> None:
        client = clients[who]
        counter[0] += 1
        message = {**message, "id": f"fuzz-{counter[0]}"}

        async def run() -> dict[str, Any] | None:
            before = salon.state_of_everything()
            assert client.conn is not None
            await salon.handle(client.conn, message)
            await salon.settle()
            replies = [m for m in client.inbox if m.get("id") == message["id"]]
            assert len(replies) == 1, message
            if replies and replies[0]["type"] == "error":
                assert replies[0]["code"] != "internal", replies[0]
                assert salon.state_of_everything() == before, (message, replies[0])
            return replies[0] if replies else None

        loop.run_until_complete(run())

    try:
        check()
    finally:
        loop.run_until_complete(salon.stop())
        loop.close()
