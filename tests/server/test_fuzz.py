"""Property-based fuzzing of incoming messages (hypothesis).

Whatever a client sends, the server answers, keeps the socket usable, and a
refused message (an ``error`` reply) changes nothing: the table's history and
the lobby are the same before and after. Most examples run in process through
Starlette's test client against the real salon (fast); a few run against a
real ``zanzibar serve`` process.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _server import ServerProcess
from _wsclient import WsClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from zanzibar.games import game_names
from zanzibar.salon.limits import Limits
from zanzibar.server.app import create_app
from zanzibar.server.schemas import CLIENT_SCHEMAS
from zanzibar.server.settings import Settings

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")

TABLE_PLACEHOLDER = "__table__"

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
field_values: dict[str, Any] = {
    "table": st.one_of(
        st.just(TABLE_PLACEHOLDER), st.integers(-5, 10**6), st.text(max_size=8), json_values
    ),
    "seat": st.one_of(st.integers(-2, 8), json_values),
    "seq": st.one_of(st.integers(-2, 10**4), json_values),
    "since": st.one_of(st.integers(-2, 10**4), json_values),
    "action": st.one_of(
        st.fixed_dictionaries(
            {"type": st.sampled_from(["roll", "stop", "keep", "move", "resign", "bank", "x"])},
            optional={
                "dice": st.lists(st.integers(-1, 7), max_size=4),
                "move": st.text(max_size=6),
            },
        ),
        json_values,
    ),
    "text": st.one_of(st.text(max_size=40), st.text(min_size=490, max_size=520), json_values),
    "game": st.one_of(st.sampled_from(["421", "zilch", "zanzibar-s", "poker"]), json_values),
    "options": st.one_of(
        st.dictionaries(st.sampled_from(["tokens", "x", "dry"]), json_values, max_size=3),
        json_values,
    ),
    "preset": st.one_of(st.sampled_from(["salon", "bar", "nope"]), json_values),
    "level": st.one_of(st.sampled_from(["easy", "medium", "strong", "?"]), json_values),
    "user": st.one_of(st.integers(-1, 50), json_values),
    "hold": st.one_of(st.booleans(), json_values),
    "seconds": st.one_of(st.none(), st.integers(-5, 100), json_values),
    "topic": st.one_of(st.sampled_from(["scores", "turn", "status", "dice", "?"]), json_values),
    "to": st.one_of(st.sampled_from(["Anna", "Bruno", "Nobody"]), json_values),
    "invite": st.one_of(st.text(max_size=8), json_values),
    "channel": st.one_of(st.sampled_from(["game", "chat", "system", "x"]), json_values),
    "token": st.one_of(st.text(max_size=20), json_values),
    "id": st.one_of(st.integers(), st.text(max_size=10), json_values),
    "private": st.one_of(st.booleans(), json_values),
    "seats": st.one_of(st.integers(-1, 9), json_values),
}
# never leave the table or start/kick: the fuzzed state should stay a running game
SAFE_TYPES = [
    *sorted(set(CLIENT_SCHEMAS) - {"table.leave", "table.kick", "table.hand_host", "hello"}),
    "nope",
    "ping.",
]

message_like = st.builds(
    lambda v, type_name, fields: {"v": v, "type": type_name, **fields},
    st.sampled_from([1, 1, 1, 1, 2, "1", None, True]),
    st.sampled_from(SAFE_TYPES),
    st.dictionaries(st.sampled_from(sorted(field_values)), st.just(None), max_size=5).flatmap(
        lambda keys: st.fixed_dictionaries({k: field_values[k] for k in keys})
    ),
)
frames = st.one_of(
    message_like.map(lambda m: ("json", m)),
    json_values.map(lambda m: ("json", m)),
    st.text(max_size=60).map(lambda t: ("raw", t)),
    st.binary(max_size=60).map(lambda b: ("bytes", b)),
)


def _encode(kind: str, payload: Any, table: Any) -> str | bytes:
    if kind == "raw" or kind == "bytes":
        return payload  # type: ignore[no-any-return]
    if isinstance(payload, dict) and payload.get("table") == TABLE_PLACEHOLDER:
        payload = {**payload, "table": table}
    return json.dumps(payload)


class InProcessSalon:
    """A real salon in process: Anna and Bruno playing 421, Anna's socket fuzzed."""

    def __init__(self, client: TestClient, stack: contextlib.ExitStack) -> None:
        self.client = client
        self.ids = itertools.count(1)
        self.anna_token = client.post("/api/guest", json={"name": "Anna"}).json()["token"]
        bruno_token = client.post("/api/guest", json={"name": "Bruno"}).json()["token"]
        self.anna = stack.enter_context(client.websocket_connect("/ws"))
        self.bruno = stack.enter_context(client.websocket_connect("/ws"))
        self._hello(self.anna, self.anna_token)
        self._hello(self.bruno, bruno_token)
        created = self.request(self.anna, "table.create", game="421", seats=2)
        self.table = created["table"]["id"]
        self.request(self.bruno, "table.join", table=self.table)
        self.request(self.anna, "table.start", table=self.table)

    @staticmethod
    def _hello(ws: Any, token: str) -> None:
        ws.send_text(json.dumps({"v": 1, "type": "hello", "token": token}))
        for _ in range(100):
            if ws.receive_json()["type"] == "welcome":
                return
        raise AssertionError("no welcome")

    def request(self, ws: Any, type_name: str, **fields: Any) -> dict[str, Any]:
        request_id = f"r{next(self.ids)}"
        ws.send_text(json.dumps({"v": 1, "type": type_name, "id": request_id, **fields}))
        for _ in range(10_000):
            message = ws.receive_json()
            if message.get("id") == request_id and message["type"] in {"ok", "error"}:
                assert message["type"] == "ok", message
                return message  # type: ignore[no-any-return]
        raise AssertionError(f"no reply to {type_name}")

    def until_pong(self, ws: Any) -> list[dict[str, Any]]:
        """Everything the socket received up to the pong of a fresh ping."""
        marker = f"p{next(self.ids)}"
        ws.send_text(json.dumps({"v": 1, "type": "ping", "id": marker}))
        seen = []
        for _ in range(10_000):
            message = ws.receive_json()
            if message["type"] == "pong" and message.get("id") == marker:
                return seen
            seen.append(message)
        raise AssertionError("no pong")

    def snapshot(self) -> Any:
        """The table's whole history and the lobby, as seen by Bruno (not fuzzed)."""
        reply_id = f"h{next(self.ids)}"
        self.bruno.send_text(
            json.dumps({"v": 1, "type": "history", "id": reply_id, "table": self.table})
        )
        history = None
        for _ in range(10_000):
            message = self.bruno.receive_json()
            if message.get("id") == reply_id:
                assert message["type"] == "history", message
                history = message["items"]
                break
        tables = self.client.get("/api/tables").json()
        return json.dumps([history, tables], sort_keys=True)


@pytest.fixture(scope="module")
def in_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessSalon]:
    data_dir = tmp_path_factory.mktemp("fuzz") / "data"
    # the fuzzing client sends at machine speed, far above any person's message rate
    fast = Limits(message_rate_user="100000/second", message_rate_address="100000/second")
    app = create_app(Settings(data_dir=data_dir, bot_delay=0.0, round_pause=0.0, limits=fast))
    with TestClient(app) as client, contextlib.ExitStack() as sockets:
        yield InProcessSalon(client, sockets)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frame=frames)
def test_fuzzed_messages_never_crash_and_refusals_change_nothing(
    in_process: InProcessSalon, frame: tuple[str, Any]
) -> None:
    before = in_process.snapshot()
    encoded = _encode(frame[0], frame[1], in_process.table)
    if isinstance(encoded, bytes):
        in_process.anna.send_bytes(encoded)
    else:
        in_process.anna.send_text(encoded)
    replies = in_process.until_pong(in_process.anna)
    direct = [m for m in replies if m["type"] in {"ok", "error"}]
    if direct and all(m["type"] == "error" for m in direct):
        assert all(m.get("code") and m.get("message") for m in direct)
        assert in_process.snapshot() == before, f"refused {frame} changed the salon: {direct}"


async def _fuzz_real_process(server: ServerProcess, frames_to_send: list[str | bytes]) -> None:
    anna = await WsClient.guest(server.url, "Anna")
    bruno = await WsClient.guest(server.url, "Bruno")
    try:
        table = (await anna.ok("table.create", game="421", seats=2))["table"]["id"]
        await bruno.ok("table.join", table=table)
        await anna.ok("table.start", table=table)
        for frame in frames_to_send:
            await anna.send_raw(
                frame.replace(json.dumps(TABLE_PLACEHOLDER), json.dumps(table))
                if isinstance(frame, str)
                else frame
            )
        pong = await anna.ping()
        assert pong["type"] == "pong"
        assert anna.schema_violations == []
        assert server.process.poll() is None, server.logs()
    finally:
        await anna.close()
        await bruno.close()


def test_fuzzed_frames_against_the_real_process(shared_server: ServerProcess) -> None:
    examples: list[str | bytes] = []
    strategy = frames.map(lambda f: _encode(f[0], f[1], TABLE_PLACEHOLDER))

    @settings(max_examples=60, deadline=None, database=None)
    @given(strategy)
    def collect(frame: str | bytes) -> None:
        examples.append(frame)

    collect()
    examples += [
        "{",
        "[]",
        "null",
        '{"v":1}',
        "x" * 20000,
        '{"v":1,"type":"game.action","table":1,"action":' + "[" * 3000 + "]" * 3000 + "}",
    ]
    asyncio.run(_fuzz_real_process(shared_server, examples))


def test_data_dir_is_used(tmp_path: Path) -> None:
    settings_ = Settings(data_dir=tmp_path / "d")
    with TestClient(create_app(settings_)):
        pass
    assert (tmp_path / "d" / "zanzibar.sqlite3").exists()
