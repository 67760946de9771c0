"""The example exchange of docs/protocol.md is true: replayed against a real server.

Each ``C:`` line is sent as written (with a real session token); the server's
messages must come in the order and with the types of the ``S:`` lines, and
their ``id``, ``code`` and ``kind`` where the example shows them.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from _server import ServerProcess
from _wsclient import WsClient, sign_in_guest

from zanzibar.games import game_names
from zanzibar.server.schemas import SERVER_SCHEMAS, check_incoming

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def example_lines() -> list[tuple[str, str]]:
    """(``C`` or ``S``, text) of the example exchange, in order."""
    text = PROTOCOL_DOC.read_text()
    section = text.split("## Example exchange", 1)[1]
    block = section.split("```", 2)[1]
    return [(line[0], line[3:]) for line in block.splitlines() if line[:3] in {"C: ", "S: "}]


def _shown(text: str, key: str) -> Any:
    """The value of a top-level scalar field as the example shows it (or None)."""
    found = re.search(
        rf'^\{{"v": 1, "type": "[a-z_.]+"(?:, "[a-z_]+": [^,{{]+)*?, "{key}": ([^,}}]+)', text
    )
    return json.loads(found.group(1)) if found else None


def test_the_example_is_well_formed() -> None:
    lines = example_lines()
    assert [kind for kind, _ in lines].count("C") >= 5
    for kind, text in lines:
        if kind == "C":
            check_incoming(text)  # complete, valid client messages
        else:
            type_name = re.match(r'\{"v": 1, "type": "([a-z_.]+)"', text)
            assert type_name and type_name.group(1) in SERVER_SCHEMAS, text


async def _replay(server: ServerProcess, protocol: int = 1) -> None:
    session = await sign_in_guest(server.url, "Anna")
    client = await WsClient.open(server.ws_url, "Anna", protocol)
    try:
        lines = example_lines()
        expected = [text for kind, text in lines if kind == "S"]
        for kind, text in lines:
            if kind == "C":
                message = json.loads(text)
                if message["type"] == "hello":
                    message["token"] = session["token"]
                await client.send_raw(json.dumps(message))
                await asyncio.sleep(0.05)
        await client.wait_for(lambda m: m["type"] == "pong")
        received = client.received
        assert [m["type"] for m in received] == [
            re.match(r'\{"v": 1, "type": "([a-z_.]+)"', t).group(1)  # type: ignore[union-attr]
            for t in expected
        ]
        for shown, real in zip(expected, received, strict=True):
            for key in ("id", "code", "kind", "seq", "log_length"):
                value = _shown(shown, key)
                if value is not None:
                    assert real.get(key) == value, f"{key}: example {shown[:80]} vs {real}"
        assert client.schema_violations == []
        if protocol == 2:  # what answers one C: line is one frame (as docs/protocol.md says)
            sent = [kind for kind, _ in lines].count("C")
            assert client.protocol == 2 and len(client.frames) == sent, client.frames
            assert [m["type"] for m in client.frames[2]] == ["system", "ok", "table"]
    finally:
        await client.close()


@pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")
def test_the_example_exchange_happens_as_written(tmp_path: Path) -> None:
    from _server import start_server

    # a slow bot: its turn never comes during the exchange
    server = start_server(tmp_path / "data", bot_delay=5.0)
    try:
        asyncio.run(_replay(server))
    finally:
        server.stop()


@pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")
def test_the_example_exchange_in_version_2_comes_one_frame_per_request(tmp_path: Path) -> None:
    from _server import start_server

    server = start_server(tmp_path / "data", bot_delay=5.0)
    try:
        asyncio.run(_replay(server, protocol=2))
    finally:
        server.stop()
