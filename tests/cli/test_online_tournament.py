"""Swiss tournaments from the terminal client: list them, register and play the
rounds at the tables the salon gives, hear the standings (``zanzibar play --server``)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _online import online_args, serve

from zanzibar.cli.online import play_online
from zanzibar.engine.errors import ZanzibarError
from zanzibar.games import get_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from _server import ServerProcess
from _wsclient import WsClient


def _args(server: str, **extra: Any) -> argparse.Namespace:
    return online_args(server, **extra)


@pytest.fixture(scope="module")
def salon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "swiss")


async def _open(url: str, name: str) -> int:
    host = await WsClient.guest(url, "Organiser")
    try:
        reply = await host.ok(
            "tournament.create",
            game="zilch",
            options={"target": 1000, "entry": 300, "minimum": 0},
            rounds=1,
            max_players=2,
            name=name,
        )
        tid: int = reply["tournament"]["id"]
        await host.ok("tournament.add_bot", tournament=tid)
        return tid
    finally:
        await host.close()


def _run(salon: ServerProcess, **extra: Any) -> tuple[int, list[str]]:
    printed: list[str] = []
    args = _args(salon.url, **extra)
    lines = ["roll", "all", "bank"] * 2000
    status = play_online(get_rules("zilch"), args, lines=lines, output=printed.append)
    return status, printed


def test_register_play_and_hear_the_standings(salon: ServerProcess) -> None:
    tid = asyncio.run(_open(salon.url, "Terminal Swiss"))
    status, printed = _run(salon, tournament=tid)
    assert status == 0, printed[-10:]
    assert printed[0] == (
        "You are registered for Terminal Swiss; your table will be given at each round."
    )
    assert any(line.startswith("Terminal Swiss, round 1: your table is number") for line in printed)
    standings = [line for line in printed if "Standings after round 1 of 1:" in line]
    assert standings and "Tess" in standings[0] and "Buchholz" in standings[0]
    assert any(line.startswith("The tournament Terminal Swiss is over.") for line in printed)

    status, listed = _run(salon, tournaments=True)
    assert status == 0
    assert (
        f"Tournament {tid}: Terminal Swiss, Zilch 5000, 2 of 2 players, round 1 of 1, finished."
        in listed
    )
    status, said = _run(salon, standings=tid)
    assert status == 0 and said[0].startswith("Standings after round 1 of 1: 1. ")


def test_french_listing_and_a_wrong_game(salon: ServerProcess) -> None:
    tid = asyncio.run(_open(salon.url, "Suisse du soir"))
    status, listed = _run(salon, tournaments=True, lang="fr")
    assert status == 0
    assert (
        f"Tournoi {tid}\u00a0: Suisse du soir, Zilch 5000, 1 sur 2 joueurs, ronde 0 sur 1,"
        f" inscriptions ouvertes\u00a0: zanzibar play JEU --server URL --tournament {tid}."
    ) in listed
    with pytest.raises(ZanzibarError):
        play_online(
            get_rules("421"), _args(salon.url, name="Ugo", tournament=tid), lines=[], output=print
        )
