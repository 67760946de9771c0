"""SIGKILL mid-game, restart on the same data directory: the game carries on.

Everything the server acknowledged before the kill (actions, chat lines) is
still there after the restart, in the same order with the same numbers, and
the players reconnect with their session tokens and finish the game.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from _games import fetch_game, latest_view, play_until_over, replayed_events, wait_for_view
from _server import ServerProcess, start_server
from _wsclient import Message, WsClient

from zanzibar.games import game_names

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")


def _items(messages: list[Message], table: Any) -> list[Message]:
    out = []
    for message in messages:
        for item in message["items"] if message["type"] == "history" else [message]:
            if item.get("table") == table and item.get("channel") in {"game", "chat", "system"}:
                out.append(item)
    return out


def _comparable(item: Message) -> tuple[Any, ...]:
    """What must survive a restart unchanged (texts may be re-rendered)."""
    if item["channel"] == "game":
        return (item["seq"], "game", item["event"])
    if item["channel"] == "chat":
        return (item["seq"], "chat", item["from"], item["text"])
    return (item["seq"], "system", item["kind"])


async def _before_kill(server: ServerProcess) -> dict[str, Any]:
    anna = await WsClient.guest(server.url, "Anna")
    bruno = await WsClient.guest(server.url, "Bruno")
    table = (await anna.ok("table.create", game="421", seats=2))["table"]["id"]
    await bruno.ok("table.join", table=table)
    await anna.ok("table.start", table=table)
    await wait_for_view(anna, table)
    await wait_for_view(bruno, table)
    await play_until_over(
        table, [anna, bruno], seed=11, until=lambda: len(anna.game_events(table)) >= 8
    )
    await anna.ok("chat.say", table=table, text="before the crash")
    # one more action, acknowledged just before the kill
    view = latest_view(anna, table)
    assert view is not None and not view["view"]["over"]
    mover = anna if view["view"]["to_act"] == 0 else bruno
    mover_view = latest_view(mover, table)
    assert mover_view is not None
    await mover.ok(
        "game.action",
        table=table,
        action=mover_view["view"]["legal"][0],
        seq=mover_view["log_length"],
    )
    acknowledged_log_length = mover_view["log_length"] + 1
    server.kill()  # SIGKILL right after the acknowledgement
    await asyncio.sleep(0.1)
    state = {
        "table": table,
        "tokens": (anna.token, bruno.token),
        "anna_items": _items(anna.received, table),
        "acknowledged_log_length": acknowledged_log_length,
        "game_events": [m["event"] for m in anna.game_events(table)],
    }
    await anna.close()
    await bruno.close()
    return state


async def _after_restart(server: ServerProcess, before: dict[str, Any]) -> None:
    table = before["table"]
    anna = await WsClient.with_token(server.url, before["tokens"][0], "Anna")
    bruno = await WsClient.with_token(server.url, before["tokens"][1], "Bruno")
    try:
        assert (await anna.ok("table.join", table=table, seat=0, since=0))["seat"] == 0
        assert (await bruno.ok("table.join", table=table, seat=1, since=0))["seat"] == 1
        history = await anna.wait_for(lambda m: m["type"] == "history" and m.get("table") == table)
        restored = [_comparable(i) for i in history["items"]]
        # every item Anna saw before the kill is there, same numbers, same content
        seen = [_comparable(i) for i in before["anna_items"]]
        assert restored[: len(seen)] == seen
        assert ("chat", "before the crash") in [(r[1], r[3]) for r in restored if r[1] == "chat"]
        view = await wait_for_view(anna, table)
        assert view["log_length"] >= before["acknowledged_log_length"]
        # the game goes on to its end
        await wait_for_view(bruno, table)
        await play_until_over(table, [anna, bruno], seed=12)
        final = next(
            m["table"]
            for m in reversed(anna.received)
            if m["type"] == "table" and m["table"]["id"] == table
        )
        saved = await fetch_game(server.url, final["game_id"])
        events = replayed_events(saved)
        assert events[: len(before["game_events"])] == before["game_events"]
        assert anna.schema_violations == [] and bruno.schema_violations == []
    finally:
        await anna.close()
        await bruno.close()


@pytest.mark.slow
def test_sigkill_mid_game_then_restart_continues(tmp_path: Path) -> None:
    # bots wait a little, so that the restored table does not race the reconnecting players
    server = start_server(tmp_path / "data", bot_delay=1.0)
    try:
        before = asyncio.run(_before_kill(server))
        assert server.process.poll() is not None
        server = server.restart()
        asyncio.run(_after_restart(server, before))
    finally:
        server.stop()
