"""``zanzibar ratings rebuild`` on a salon database: the live numbers, back from the games."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import delete, select, update

sys.path.insert(0, str(Path(__file__).parents[1] / "salon"))
sys.path.insert(0, str(Path(__file__).parents[1] / "server"))

from _online import online_args, serve
from _salonkit import Client, make_salon, play_with_bot_brain
from _server import ServerProcess

from zanzibar.cli.main import main
from zanzibar.cli.online import play_online
from zanzibar.games import get_rules
from zanzibar.salon import models as m
from zanzibar.salon.persistence import Store


async def _numbers(url: str) -> tuple[list[Any], list[Any]]:
    store = Store(url)
    try:
        async with store.engine.connect() as conn:
            ratings = (await conn.execute(select(m.ratings).order_by(m.ratings.c.user_id))).all()
            history = (
                await conn.execute(
                    select(m.rating_history).order_by(
                        m.rating_history.c.game_id, m.rating_history.c.user_id
                    )
                )
            ).all()
        return [tuple(r) for r in ratings], [tuple(r) for r in history]
    finally:
        await store.engine.dispose()


async def _play_games(url: str) -> None:
    salon = make_salon(url)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in(
            "en", (await salon.register("Anna", "correct horse battery")).token
        )
        bruno = await Client(salon, "Bruno").sign_in(
            "en", (await salon.register("Bruno", "correct horse battery")).token
        )
        for host, other in ((anna, bruno), (bruno, anna), (anna, bruno)):
            created = await host.ok("table.create", game="zilch", preset="zilch5000", seats=3)
            table_id = created["table"]["id"]
            await other.ok("table.join", table=table_id)
            await host.ok("table.add_bot", table=table_id, level="expected")
            await host.ok("table.start", table=table_id)
            await play_with_bot_brain(salon, table_id, {0: host, 1: other})
            await salon.settle()
            await salon.standing.process()
    finally:
        await salon.stop()


async def _spoil(url: str) -> None:
    store = Store(url)
    await store.start()
    try:
        await store.write([(update(m.ratings), {"mu": 99.0, "rating": 4242})])
        await store.write([(delete(m.rating_history), None)])
    finally:
        await store.stop()


def test_rebuild_restores_the_live_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'zanzibar.sqlite3'}"
    asyncio.run(_play_games(url))
    live = asyncio.run(_numbers(url))
    assert len(live[0]) == 2 and len(live[1]) == 6
    asyncio.run(_spoil(url))
    assert asyncio.run(_numbers(url)) != live
    assert main(["ratings", "rebuild", "--data-dir", str(tmp_path), "--lang", "fr"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Cotes recalculées à partir de 3 parties classées\u00a0: 2 cotes, 6 entrées d'historique"
        " (0 partie nouvellement classée)."
    )
    assert asyncio.run(_numbers(url)) == live


def test_rebuild_without_a_database_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ratings", "rebuild", "--data-dir", str(tmp_path / "none")]) != 0
    assert "no salon database" in capsys.readouterr().err


# -- online: the L key and the rating/leaderboard commands ------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "standing")


def _online_args(server: str, **extra: Any) -> argparse.Namespace:
    return online_args(
        server, **{"name": "Rita", "password": "correct horse battery", "level": "simple", **extra}
    )


def test_the_terminal_reads_ones_rating_and_rank(server: ServerProcess) -> None:
    rules = get_rules("zilch")
    first: list[str] = []
    script = ["l", "rating", *(["roll", "all", "bank"] * 2000)]
    status = play_online(
        rules, _online_args(server.url, register=True), lines=script, output=first.append
    )
    assert status == 0, first[-5:]
    none = (
        "You have no Zilch 5000 rating yet: play a rated game (an account, no guest at the table)."
    )
    assert first.count(none) == 2  # the key and the typed word, before any rated game
    # the salon rates a game right after storing its result, beside the game's end
    deadline = time.monotonic() + 15
    while True:
        board = httpx.get(f"{server.url}api/leaderboard/zilch", timeout=10).json()
        if board["players"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    (rita,) = board["players"]
    assert rita["name"] == "Rita" and rita["games"] == 1
    # the next game: L says the rating the last one gave, in French too
    second: list[str] = []
    script = ["l", "classement", "profil", "profil Personne", "quit", "o"]
    play_online(rules, _online_args(server.url, lang="fr"), lines=script, output=second.append)
    said = (
        f"Votre cote en Zilch 5000 est de {rita['rating']}, provisoire\u00a0:"
        " rang 1 sur 1, après une partie."
    )
    assert second.count(said) == 2, second
    top = second.index("Classement de Zilch 5000, un joueur classé\u00a0:")
    assert second[top + 1] == f"1. Rita, {rita['rating']} (provisoire), une partie."
    assert second[top + 2] == said
    profile = httpx.get(
        f"{server.url}api/profile/Rita",
        headers={"Authorization": f"Bearer {_token(server, 'Rita')}"},
        timeout=10,
    ).json()
    (game,) = profile["games"]
    start = second.index("Profil de Rita.")
    change = f"+{rita['rating'] - 1000}" if rita["rating"] > 1000 else str(rita["rating"] - 1000)
    won = "gagnée" if game["result"] == "won" else "perdue"
    assert second[start + 1 : start + 4] == [
        f"Zilch 5000\u00a0: {rita['rating']}, provisoire, rang 1, une partie, dernier écart {change}.",
        f"Partie {game['id']} (zilch)\u00a0: {won}, cote {change}."
        f" Revoir\u00a0: zanzibar replay {game['id']}",
        f"zilch\u00a0: 1 jouée, {int(won == 'gagnée')} gagnée, {int(won == 'perdue')} perdue.",
    ]
    assert "aucun profil de «\u00a0Personne\u00a0»" in second


def _token(server: ServerProcess, name: str) -> str:
    response = httpx.post(
        f"{server.url}api/login",
        json={"name": name, "password": "correct horse battery"},
        timeout=10,
    )
    token: str = response.json()["token"]
    return token


def test_a_game_outside_the_rated_families_says_so(server: ServerProcess) -> None:
    printed: list[str] = []
    args = _online_args(server.url, name="Una", register=True, preset="farkle10000")
    play_online(get_rules("zilch"), args, lines=["l", "quit", "y"], output=printed.append)
    assert "This table's game counts for no rating: its rules match no rated family." in printed
