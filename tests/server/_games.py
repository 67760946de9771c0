"""Helpers that play whole games over real sockets (used by several test modules)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx
from _wsclient import Message, WsClient

from zanzibar.engine.match import Match, MatchRecord
from zanzibar.games import get_rules

ActionChooser = Callable[[Message, random.Random], Any]


def latest_view(client: WsClient, table: Any) -> Message | None:
    """The last ``game.view`` of a table this client received."""
    for message in reversed(client.received):
        if message["type"] == "game.view" and message.get("table") == table:
            return message
    return None


def random_legal(view_message: Message, rng: random.Random) -> Any:
    """A random legal action of the view (the server lists them in ``legal``)."""
    return rng.choice(view_message["view"]["legal"])


async def wait_for_view(client: WsClient, table: Any, timeout: float = 15.0) -> Message:
    """The first game view of a table (waits for the game to start)."""
    return await client.wait_for(
        lambda m: m["type"] == "game.view" and m.get("table") == table, timeout
    )


async def play_until_over(
    table: Any,
    humans: Sequence[WsClient],
    *,
    seed: int = 0,
    choose: ActionChooser = random_legal,
    max_actions: int = 2000,
    timeout: float = 120.0,
    until: Callable[[], bool] | None = None,
) -> int:
    """Let the humans play random legal actions (bots play on the server) until the end
    (or until ``until()`` is true).

    Returns the number of actions the humans made; every action must be accepted.
    """
    rng = random.Random(seed)
    acted_at: dict[int, int] = {}
    actions = 0
    deadline = time.monotonic() + timeout
    while actions < max_actions:
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"game at table {table} not over after {timeout}s ({actions} actions)"
            )
        if until is not None and until():
            return actions
        progressed = False
        for index, client in enumerate(humans):
            view = latest_view(client, table)
            if view is None:
                continue
            if view["view"].get("over"):
                return actions
            my_seat = _my_seat(client, table)
            log_length = view["log_length"]
            if view["view"].get("to_act") != my_seat or not view["view"].get("legal"):
                continue
            if acted_at.get(index) == log_length:
                continue
            acted_at[index] = log_length
            reply = await client.request(
                "game.action", table=table, action=choose(view, rng), seq=log_length
            )
            assert reply["type"] == "ok", f"{client.name}'s legal action was refused: {reply}"
            actions += 1
            progressed = True
        if not progressed:
            await _any_news(humans)
    raise AssertionError(f"more than {max_actions} human actions at table {table}")


def _my_seat(client: WsClient, table: Any) -> int | None:
    for message in reversed(client.received):
        if message["type"] == "table" and message["table"]["id"] == table:
            seat: int | None = message["table"]["you"]["seat"]
            return seat
        if (
            message["type"] == "ok"
            and isinstance(message.get("table"), dict)
            and message["table"]["id"] == table
        ):
            you = message["table"].get("you") or {}
            if "seat" in message and isinstance(message["seat"], int):
                return int(message["seat"])
            seat = you.get("seat")
            return seat
    return None


async def _any_news(clients: Sequence[WsClient], timeout: float = 0.5) -> None:
    counts = [len(c.received) for c in clients]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(len(c.received) != n for c, n in zip(clients, counts, strict=True)):
            return
        await asyncio.sleep(0.005)


def event_stream(client: WsClient, table: Any) -> list[tuple[int, dict[str, Any]]]:
    """(seq, event) of every game event this client saw for the table."""
    return [(m["seq"], m["event"]) for m in client.game_events(table)]


def assert_seen_in_order_once(client: WsClient, table: Any) -> None:
    """Every item of the table reached this client once, in increasing seq, without gaps."""
    seqs: list[int] = []
    for message in client.received:
        items = message["items"] if message["type"] == "history" else [message]
        for item in items:
            if item.get("table") == table and item.get("channel") in {"game", "chat", "system"}:
                seqs.append(item["seq"])
    assert seqs == sorted(seqs), f"{client.name} got items out of order: {seqs}"
    assert len(seqs) == len(set(seqs)), f"{client.name} got an item twice: {seqs}"
    if seqs:
        assert seqs == list(range(seqs[0], seqs[-1] + 1)), f"{client.name} missed items: {seqs}"


async def fetch_game(server_url: str, game_id: int) -> Message:
    """``GET /api/games/{id}``."""
    async with httpx.AsyncClient(base_url=server_url, timeout=10) as http:
        response = await http.get(f"/api/games/{game_id}")
        assert response.status_code == 200, response.text
        data: Message = response.json()
        return data


def replayed_events(game: Message) -> list[dict[str, Any]]:
    """The events of a saved game, replayed by the engine from its log."""
    record = MatchRecord.from_json(game["record"])
    match = Match.from_record(get_rules(record.game), record)
    return [event.to_json() for _, event in match.events]
