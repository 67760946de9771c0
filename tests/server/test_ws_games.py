"""Complete games over a real server: human clients, server bots and a spectator.

Every seat and the spectator must receive every game event once, in order,
and the events must be exactly those the engine replays from the saved log
(``GET /api/games/{id}``).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from _games import (
    assert_seen_in_order_once,
    event_stream,
    fetch_game,
    latest_view,
    play_until_over,
    replayed_events,
    wait_for_view,
)
from _server import ServerProcess
from _wsclient import Message, WsClient

from zanzibar.games import game_names


def needs_game(name: str) -> Any:
    return pytest.mark.skipif(name not in game_names(), reason=f"game {name} is not installed yet")


async def _game_with_humans_bots_and_spectator(
    server: ServerProcess,
    game: str,
    *,
    humans: int,
    bots: int,
    seed: int,
    choose: Any = None,
    options: dict[str, Any] | None = None,
    bot_level: str | None = None,
) -> None:
    names = ["Anna", "Bruno", "Chloé", "Dmitri"][:humans]
    players = [
        await WsClient.guest(server.url, name, "fr" if n % 2 else "en")
        for n, name in enumerate(names)
    ]
    spectator = await WsClient.guest(server.url, "Sam")
    try:
        create: dict[str, Any] = {"game": game, "seats": humans + bots}
        if options:
            create["options"] = options
        created = await players[0].ok("table.create", **create)
        table = created["table"]["id"]
        assert created["table"]["you"]["seat"] == 0
        for player in players[1:]:
            joined = await player.ok("table.join", table=table)
            assert isinstance(joined["seat"], int)
        for _ in range(bots):
            level = {"level": bot_level} if bot_level else {}
            await players[0].ok("table.add_bot", table=table, **level)
        await spectator.ok("table.watch", table=table)
        await players[0].ok("table.start", table=table)
        for client in (*players, spectator):
            await wait_for_view(client, table)
        kwargs = {"choose": choose} if choose else {}
        await play_until_over(table, players, seed=seed, **kwargs)
        # the spectator and every seat see the end too
        for client in (*players, spectator):
            await client.wait_for(
                lambda m: (
                    m["type"] == "game.view" and m.get("table") == table and m["view"].get("over")
                )
            )
        reference = event_stream(players[0], table)
        assert reference, "no game events at all"
        for client in (*players, spectator):
            assert_seen_in_order_once(client, table)
            stream = event_stream(client, table)
            assert [e for _, e in stream] == [e for _, e in reference], (
                f"{client.name} saw other events"
            )
            assert [s for s, _ in stream] == [s for s, _ in reference]
            assert client.schema_violations == []
        # the French player hears French, the English one English, for the same event
        if humans > 1:
            en = players[0].game_events(table)[0]["text"]
            fr = players[1].game_events(table)[0]["text"]
            assert en and fr
        # what was saved replays to exactly the events everyone saw
        view = latest_view(players[0], table)
        assert view is not None
        table_message = await _table_state(players[0], table)
        game_id = table_message["game_id"]
        assert isinstance(game_id, int)
        saved = await fetch_game(server.url, game_id)
        assert saved["game"] == game
        assert replayed_events(saved) == [e for _, e in reference]
        assert saved["outcome"] is not None
        assert saved["finished"]
    finally:
        for client in (*players, spectator):
            await client.close()


async def _table_state(client: WsClient, table: Any) -> Message:
    for message in reversed(client.received):
        if message["type"] == "table" and message["table"]["id"] == table:
            found: Message = message["table"]
            return found
    raise AssertionError("no table message received")


@needs_game("421")
def test_421_two_humans_a_bot_and_a_spectator(shared_server: ServerProcess) -> None:
    asyncio.run(
        _game_with_humans_bots_and_spectator(shared_server, "421", humans=2, bots=1, seed=1)
    )


@needs_game("421")
def test_421_three_humans(shared_server: ServerProcess) -> None:
    asyncio.run(
        _game_with_humans_bots_and_spectator(shared_server, "421", humans=3, bots=0, seed=2)
    )


@needs_game("zilch")
def test_zilch_human_against_a_bot_with_a_spectator(shared_server: ServerProcess) -> None:
    asyncio.run(
        _game_with_humans_bots_and_spectator(shared_server, "zilch", humans=2, bots=1, seed=3)
    )


class ResignAfter:
    """Play ``moves`` random legal moves, then resign (a short but complete chess game)."""

    def __init__(self, moves: int) -> None:
        self.left = moves

    def __call__(self, view: Message, rng: random.Random) -> Any:
        legal = view["view"]["legal"]
        resign = [a for a in legal if isinstance(a, dict) and a.get("type") == "resign"]
        moves = [
            a for a in legal if not (isinstance(a, dict) and a.get("type") in {"resign", "draw"})
        ]
        if self.left <= 0 or not moves:
            assert resign, f"no resignation offered among {legal[:5]}"
            return resign[0]
        self.left -= 1
        return rng.choice(moves)


@needs_game("zanzibar-s")
def test_zanzibar_s_human_against_a_bot_until_resignation(shared_server: ServerProcess) -> None:
    asyncio.run(
        _game_with_humans_bots_and_spectator(
            shared_server,
            "zanzibar-s",
            humans=1,
            bots=1,
            seed=4,
            choose=ResignAfter(4),
            bot_level="easy",
        )
    )


@needs_game("zanzibar-s")
def test_zanzibar_s_two_humans(shared_server: ServerProcess) -> None:
    asyncio.run(
        _game_with_humans_bots_and_spectator(
            shared_server, "zanzibar-s", humans=2, bots=0, seed=5, choose=ResignAfter(6)
        )
    )
