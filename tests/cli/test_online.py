"""Online terminal play against a real ``zanzibar serve``: the same client, another driver.

A scripted player plays whole games of 421 and Zilch against a server bot
through :func:`zanzibar.cli.online.play_online`; every event sentence it
printed must be the one the engine renders when replaying the saved game.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _online import online_args, serve

from zanzibar.cli.main import dispatch
from zanzibar.cli.online import OnlineDriver, SalonClient, http_url, play_online, refusal, ws_url
from zanzibar.engine.errors import IllegalActionError, NotYourTurnError
from zanzibar.engine.match import Match, MatchRecord
from zanzibar.games import game_names, get_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from _server import ServerProcess, start_server


@pytest.fixture(scope="module")
def salon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "online")


def _args(server: str, **extra: Any) -> argparse.Namespace:
    return online_args(server, **extra)


def _replayed_sentences(server: str, game_id: int, seat: int, lang: str) -> list[str]:
    game = httpx.get(server + f"api/games/{game_id}", timeout=10).json()
    record = MatchRecord.from_json(game["record"])
    rules = get_rules(record.game)
    match = Match.from_record(rules, record)
    names = game["seats"]
    return [rules.render_event(event, lang, seat, names) for _, event in match.events]


def _play(
    salon: ServerProcess, game: str, script: list[str], name: str, lang: str = "en"
) -> tuple[int, list[str]]:
    printed: list[str] = []
    status = play_online(
        get_rules(game), _args(salon.url, name=name, lang=lang), lines=script, output=printed.append
    )
    return status, printed


def _last_game_id(salon: ServerProcess, name: str) -> int:
    """The id of the player's latest game (games are numbered from 1 on this server)."""
    found = None
    with httpx.Client(base_url=salon.url, timeout=10) as http:
        for game_id in range(1, 200):
            response = http.get(f"api/games/{game_id}")
            if response.status_code == 404:
                break
            if name in response.json()["seats"]:
                found = game_id
    assert found is not None, f"no game of {name}"
    return found


@pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")
def test_a_whole_421_game_online(salon: ServerProcess) -> None:
    status, printed = _play(salon, "421", ["roll", "stop"] * 1500, "Tess")
    assert status == 0, printed[-10:]
    assert printed[-1] == "The game is over."
    assert printed[0].startswith("Table ")
    game_id = _last_game_id(salon, "Tess")
    sentences = _replayed_sentences(salon.url, game_id, 0, "en")
    assert sentences
    # every event sentence was printed, in order (other lines may come between them)
    position = 0
    for line in printed:
        if position < len(sentences) and line == sentences[position]:
            position += 1
    assert position == len(sentences), (
        f"missing from the output: {sentences[position : position + 3]}"
    )


@pytest.mark.skipif("zilch" not in game_names(), reason="zilch is not installed yet")
def test_a_whole_zilch_game_online_in_french(salon: ServerProcess) -> None:
    status, printed = _play(salon, "zilch", ["roll", "all", "bank"] * 2000, "Zoé", "fr")
    assert status == 0, printed[-10:]
    # the same frame as offline: "your turn" is said again after the bot's turns
    assert sum(line.startswith("à vous\u00a0: lancez les six dés") for line in printed) >= 2
    game_id = _last_game_id(salon, "Zoé")
    sentences = _replayed_sentences(salon.url, game_id, 0, "fr")
    position = 0
    for line in printed:
        if position < len(sentences) and line == sentences[position]:
            position += 1
    assert position == len(sentences)


@pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")
def test_quitting_leaves_the_table(salon: ServerProcess) -> None:
    status, printed = _play(salon, "421", ["help", "quit"], "Quentin")
    assert status == 1
    assert any("roll" in line.lower() for line in printed)  # the help lists the game's keys
    assert printed[-1] == "You left the table."


@pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")
def test_driver_refusals_become_engine_errors(salon: ServerProcess) -> None:
    client = SalonClient.sign_in(salon.url, "Rita")
    try:
        assert client.protocol == 2  # a step's messages come in one frame
        table = client.request("table.create", game="421", seats=2)["table"]["id"]
        client.request("table.add_bot", table=table, level="random")
        client.request("table.start", table=table)
        rules = get_rules("421")
        driver = OnlineDriver(client, table, rules, 0, ["Rita", "Bot"])
        driver.wait_for_start()

        async def until_my_turn() -> None:
            while not (driver.to_act() == 0 or driver.is_over()):
                await driver.step()

        asyncio.run(until_my_turn())
        assert driver.to_act() == 0 and not driver.is_over()
        with pytest.raises(IllegalActionError):
            client.request(
                "game.action", table=table, action={"type": "teleport"}, seq=driver.log_length
            )
        # a bot's seat: the server says it is not our turn
        state = driver.state
        assert state is not None
        events = driver.submit(rules.legal_actions(state)[0])
        assert events
    finally:
        client.close()


def test_refusal_mapping() -> None:
    assert isinstance(refusal({"code": "not_your_turn", "message": "m"}), NotYourTurnError)
    assert refusal({"code": "bad_option", "message": "m", "option": "x"}).details == {"option": "x"}
    assert http_url("http://127.0.0.1:1/") == "http://127.0.0.1:1/"
    assert ws_url("https://example.org/") == "wss://example.org/ws"


def test_play_with_server_is_routed_to_online_play(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        dispatch(["play", "421", "--server", "http://127.0.0.1:9", "--help"])
    assert "--table" in capsys.readouterr().out


def test_unreachable_server_is_a_clear_error() -> None:
    from zanzibar.engine.errors import ZanzibarError

    with pytest.raises(ZanzibarError, match="cannot reach"):
        play_online(get_rules("421"), _args("http://127.0.0.1:9/"), lines=[])


@pytest.mark.skipif("zanzibar-s" not in game_names(), reason="zanzibar-s is not installed yet")
def test_zanzibar_s_online_with_the_chess_client(salon: ServerProcess) -> None:
    printed: list[str] = []
    args = _args(salon.url, name="Carla", level="easy")
    status = play_online(
        get_rules("zanzibar-s"), args, lines=["status", "resign"], output=printed.append
    )
    assert status == 0, printed
    assert printed[-1] == "The game is over."
    game_id = _last_game_id(salon, "Carla")
    sentences = _replayed_sentences(salon.url, game_id, 0, "en")
    assert "You (White) resign." in sentences
    position = 0
    for line in printed:
        if position < len(sentences) and line == sentences[position]:
            position += 1
    assert position == len(sentences)


@pytest.mark.slow
@pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")
def test_the_terminal_client_survives_a_server_crash(tmp_path: Path) -> None:
    """SIGKILL the server mid-game and restart it: the client reconnects and finishes."""
    import threading
    import time

    servers = [start_server(tmp_path / "data", bot_delay=0.05, takeover_delay=5.0)]
    printed: list[str] = []
    crashed = threading.Event()
    at_crash: list[int] = []

    def crash_mid_game() -> None:
        deadline = time.monotonic() + 60
        while len(printed) < 12 and time.monotonic() < deadline:
            time.sleep(0.01)
        if any(line == "The game is over." for line in printed):
            return
        servers[0].kill()
        at_crash.append(len(printed))
        crashed.set()
        time.sleep(0.5)
        servers.append(servers[0].restart())

    killer = threading.Thread(target=crash_mid_game)
    killer.start()
    try:
        args = _args(servers[0].url, name="Kim", level="random")
        status = play_online(
            get_rules("421"), args, lines=["roll", "stop"] * 1500, output=printed.append
        )
        killer.join(timeout=90)
        assert crashed.is_set(), "the game ended before the crash"
        assert status == 0, printed[-10:]
        # the game went on after the crash, through the reconnected socket
        assert len(printed) > at_crash[0] + 5, printed[at_crash[0] - 3 :]
        assert printed[-1] == "The game is over."
        game_id = _last_game_id(servers[-1], "Kim")
        sentences = _replayed_sentences(servers[-1].url, game_id, 0, "en")
        position = 0
        for line in printed:
            if position < len(sentences) and line == sentences[position]:
                position += 1
        assert position == len(sentences), f"missing: {sentences[position : position + 3]}"
    finally:
        killer.join(timeout=90)
        for server in servers:
            server.stop()


@pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")
def test_the_command_line_plays_online_with_typed_commands(salon: ServerProcess) -> None:
    """``zanzibar play 421 --server URL``, commands piped in as offline play reads them."""
    import subprocess

    result = subprocess.run(
        [
            *(sys.executable, "-m", "zanzibar.cli.main", "play", "421", "--server", salon.url),
            *("--name", "Piper", "--level", "random", "--lang", "fr"),
        ],
        input="roll\nstop\n" * 1500,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[0].startswith("La table ")
    assert lines[-1] == "La partie est terminée."


@pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")
def test_a_private_table_is_joined_with_its_invitation(salon: ServerProcess) -> None:
    from zanzibar.cli.online import ServerError, create_table, join_table

    host = SalonClient.sign_in(salon.url, "Hosta")
    guest = SalonClient.sign_in(salon.url, "Gast")
    try:
        info = create_table(host, get_rules("421"), _args(salon.url, bots=0, seats=2, private=True))
        assert info["private"] and info["invite"]
        with pytest.raises(ServerError):
            join_table(guest, info["id"])
        table, seat = join_table(guest, info["id"], info["invite"])
        assert seat == 1
        assert table["seats"][1]["name"] == "Gast"
    finally:
        host.close()
        guest.close()
