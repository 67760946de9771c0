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
from _wsclient import Message, WsClient, sign_in_guest

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


async def _plain_or_deflate(server: ServerProcess, name: str, deflate: bool) -> WsClient:
    """A guest whose socket negotiates permessage-deflate, or no extension at all."""
    session = await sign_in_guest(server.url, name)
    ws_url = server.url.replace("http://", "ws://", 1).rstrip("/") + "/ws"
    client = await WsClient.open(ws_url, name, compression="deflate" if deflate else None)
    client.token = session["token"]
    welcome = await client.hello(session["token"])
    assert welcome["type"] == "welcome", welcome
    return client


@needs_game("421")
def test_sockets_with_and_without_compression_read_the_same_shared_messages(
    shared_server: ServerProcess,
) -> None:
    """A message put to a whole audience is framed once for the sockets with no extension
    (guards.SharedText) and by each compressing socket for itself: every socket reads
    every event once, in order, with the same words as the others of its audience."""

    async def scenario() -> None:
        players = [
            await _plain_or_deflate(shared_server, name, deflate=(n == 1))
            for n, name in enumerate(["Anna", "Bruno", "Chloé"])
        ]
        watchers = [
            await _plain_or_deflate(shared_server, name, deflate=(n == 0))
            for n, name in enumerate(["Sam", "Tess"])
        ]
        clients = [*players, *watchers]
        try:
            table = (await players[0].ok("table.create", game="421", seats=3))["table"]["id"]
            for player in players[1:]:
                await player.ok("table.join", table=table)
            for watcher in watchers:
                await watcher.ok("table.watch", table=table)
            await players[0].ok("table.start", table=table)
            for client in clients:
                await wait_for_view(client, table)
            await play_until_over(table, players, seed=6)
            for client in clients:
                await client.wait_for(
                    lambda m: (
                        m["type"] == "game.view"
                        and m.get("table") == table
                        and m["view"].get("over")
                    )
                )
            reference = event_stream(players[0], table)
            assert len(reference) > 5
            for client in clients:
                assert_seen_in_order_once(client, table)
                assert event_stream(client, table) == reference, client.name
                assert client.schema_violations == []
            # the spectators are one audience: the same sentence for every event
            texts = [[m["text"] for m in w.game_events(table)] for w in watchers]
            assert texts[0] == texts[1] and all(texts[0])
            # a player not named by a roll reads what the spectators read
            third = {m["seq"]: m["text"] for m in players[2].game_events(table)}
            spectator = {m["seq"]: m["text"] for m in watchers[1].game_events(table)}
            others_rolls = [
                m["seq"]
                for m in watchers[0].game_events(table)
                if m["event"]["kind"] == "roll" and m["event"]["seat"] in (0, 1)
            ]
            assert others_rolls and all(third[s] == spectator[s] for s in others_rolls)
        finally:
            for client in clients:
                await client.close()

    asyncio.run(scenario())
