"""``zanzibar replay ID``: from a server or straight from the database, in both languages."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zanzibar.cli.main import main
from zanzibar.cli.online import SalonClient
from zanzibar.cli.replay import play_lines, replay_lines
from zanzibar.engine.errors import CorruptDataError
from zanzibar.engine.match import Match
from zanzibar.games import game_names, get_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from _server import ServerProcess, start_server

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")


def _local_game(seed: int = 3) -> dict[str, Any]:
    """A finished all-bot 421 game in the shape of ``GET /api/games/{id}``."""
    rules = get_rules("421")
    match: Match[Any, Any] = Match(rules, 2, None, seed=seed)
    bots = {seat: rules.make_bot("random", match.options, seed=seat) for seat in range(2)}
    match.play_bots(bots)
    assert match.is_over
    return {
        "id": 12,
        "game": "421",
        "options": match.options,
        "seats": ["Anna", "Bruno"],
        "record": match.record().to_json(),
        "outcome": rules.outcome(match.state).to_json(),
        "started": 1.0,
        "finished": 2.0,
    }


def test_replay_lines_render_every_event_as_a_spectator() -> None:
    game = _local_game()
    rules = get_rules("421")
    from zanzibar.engine.match import MatchRecord

    match = Match.from_record(rules, MatchRecord.from_json(game["record"]))
    expected = [rules.render_event(e, "en", None, ["Anna", "Bruno"]) for _, e in match.events]
    lines = list(replay_lines(game, "en"))
    assert lines[0] == "Game 12: " + (rules.title.get("en") or "421") + ", Anna and Bruno."
    assert lines[2 : 2 + len(expected)] == expected
    assert lines[-2].startswith("Won by ")
    assert lines[-1] == "End of the replay."


def test_replay_lines_in_french() -> None:
    lines = list(replay_lines(_local_game(), "fr"))
    assert lines[0].startswith("Partie 12")
    assert " et " in lines[0]
    assert lines[-1] == "Fin de la rediffusion."


def test_a_tampered_log_does_not_replay() -> None:
    game = _local_game()
    for entry in game["record"]["log"]:
        if entry["kind"] == "chance":
            entry["value"] = [7, 7, 7]
            break
    with pytest.raises(CorruptDataError):
        list(replay_lines(game))


def test_play_lines_waits_between_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    pauses: list[float] = []
    monkeypatch.setattr("zanzibar.cli.replay.time.sleep", pauses.append)
    out: list[str] = []
    play_lines(["a", "b", "c"], 0.25, out.append)
    assert out == ["a", "b", "c"]
    assert pauses == [0.25, 0.25]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, int]]:
    """A server with one finished game between a human (scripted) and a bot."""
    server = start_server(tmp_path_factory.mktemp("replay") / "data")
    try:
        client = SalonClient.sign_in(server.url, "Anna")
        try:
            table = client.request("table.create", game="421", seats=2)["table"]["id"]
            client.request("table.add_bot", table=table, level="random")
            client.request("table.start", table=table)
            game_id = None
            for _ in range(20_000):
                message = client.next_pushed(30)
                if message["type"] == "game.view" and message["table"] == table:
                    game_id = message.get("game_id", game_id)
                    view = message["view"]
                    if view["over"]:
                        break
                    if view["to_act"] == 0 and view["legal"]:
                        client.request(
                            "game.action",
                            table=table,
                            action=view["legal"][-1],
                            seq=message["log_length"],
                        )
            assert isinstance(game_id, int)
        finally:
            client.close()
        yield server, game_id
    finally:
        server.stop()


def test_replay_from_the_server(
    finished: tuple[ServerProcess, int], capsys: pytest.CaptureFixture[str]
) -> None:
    server, game_id = finished
    assert main(["replay", str(game_id), "--server", server.url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"Game {game_id}: ")
    assert "Anna" in out[0]
    assert out[-1] == "End of the replay."
    assert len(out) > 5


def test_replay_from_the_database_matches_the_server(
    finished: tuple[ServerProcess, int], capsys: pytest.CaptureFixture[str]
) -> None:
    server, game_id = finished
    assert main(["replay", str(game_id), "--server", server.url, "--lang", "fr"]) == 0
    from_server = capsys.readouterr().out
    assert main(["replay", str(game_id), "--data-dir", str(server.data_dir), "--lang", "fr"]) == 0
    from_db = capsys.readouterr().out
    assert from_db == from_server
    assert from_db.splitlines()[-1] == "Fin de la rediffusion."


def test_replay_of_an_unknown_game(
    finished: tuple[ServerProcess, int], capsys: pytest.CaptureFixture[str]
) -> None:
    server, _ = finished
    assert main(["replay", "9999", "--server", server.url]) == 2
    assert "no game 9999" in capsys.readouterr().err
    assert main(["replay", "9999", "--data-dir", str(server.data_dir)]) == 2
    assert "no game 9999" in capsys.readouterr().err


def test_replay_without_a_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "1", "--data-dir", str(tmp_path / "nothing")]) == 2
    assert "no salon database" in capsys.readouterr().err


def test_the_frame_plays_a_replay_with_the_same_lines_and_answers_keys() -> None:
    """Replays run through the same frame: the same event lines as ``replay_lines``, and S works."""
    import asyncio

    from zanzibar.cli.frame.inputs import Script
    from zanzibar.cli.frame.loop import Frame
    from zanzibar.cli.play import plugin_for
    from zanzibar.cli.replay import replay_driver

    game = _local_game()
    rules, driver = replay_driver(game)
    out: list[str] = []
    frame = Frame(driver, plugin_for(rules), output=out.append)
    script = Script(["tick 3", "key s", "key t", "tick *"], echo=out.append)
    status = asyncio.run(frame.run(script, auto_bots=False))
    assert status == 0
    answers = {out.index("> key s") + 1, out.index("> key t") + 1}
    said = [
        line
        for i, line in enumerate(out)
        if i not in answers and not line.startswith("> ") and line != "The game is over."
    ]
    sentences = list(replay_lines(game, "en"))
    assert said == sentences[2 : 2 + len(said)]  # the same lines as the plain replay
    assert sentences[2 + len(said) :] in (["End of the replay."], [sentences[-2], sentences[-1]])
    assert out[out.index("> key s") + 1].startswith("Anna: ")  # S in the middle of the replay
    assert out[-1] == "The game is over."
