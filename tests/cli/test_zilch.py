"""``zanzibar play|sim|solve zilch``: solver and simulation output, and a game played through a pipe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from zanzibar.cli.frame.drivers import LocalDriver
from zanzibar.cli.frame.loop import Frame
from zanzibar.cli.games.zilch import ZilchPlugin
from zanzibar.cli.main import dispatch, main
from zanzibar.cli.play import run_frame
from zanzibar.engine.match import Match
from zanzibar.games.zilch.bots import make_bot
from zanzibar.games.zilch.rules import RULES


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZANZIBAR_CACHE_DIR", str(tmp_path / "cache"))


def test_solve_turn_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["solve", "zilch", "--turn", "--dice", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["zilch"]["6"] == {"ways": 1440, "of": 46656, "probability": 1440 / 46656}
    assert out["zilch"]["1"]["ways"] == 4
    # The exact expected score of a turn from six dice (seed 004, no threshold): 470.19.
    assert out["expected_score"]["no threshold"]["expected"] == pytest.approx(470.1855, abs=1e-4)
    entered = out["expected_score"]["entered"]
    assert entered["threshold"] == 350 and entered["expected"] < 470.1855


def test_solve_turn_text_with_three_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["solve", "zilch", "--turn", "--preset", "farkle10000"]) == 0
    assert "6 dice: 1080/46656 = 0.0231" in capsys.readouterr().out


def test_solve_two_players_and_cache(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cache = tmp_path / "solution.npz"
    args = ["solve", "zilch", "--players", "2", "--target", "1000", "--json", "--cache", str(cache)]
    assert dispatch(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert not first["loaded_from_cache"] and cache.exists()
    assert 0.5 < first["first_player_win"] < 0.65
    assert first["residual"] < 1e-10 and first["iterations"] > 0
    assert dispatch(args) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["loaded_from_cache"] and second["first_player_win"] == first["first_player_win"]


def test_solve_refuses_other_player_counts_and_the_penalty(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "zilch", "--players", "3"]) == 2
    assert "two players" in capsys.readouterr().err
    assert main(["solve", "zilch", "--preset", "zilch_online"]) == 2
    assert "penalty" in capsys.readouterr().err


def test_sim_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "sim",
        "zilch",
        "--games",
        "30",
        "--players",
        "3",
        "--bots",
        "expected,simple",
        "--seed",
        "4",
        "--json",
    ]
    assert dispatch(args) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["bots"] == ["expected", "simple", "expected"]
    assert sum(out["wins"]) == 30 and out["mean_turns"] > 3
    assert captured.err == ""  # progress only on a terminal: no carriage returns into a pipe
    assert dispatch(args) == 0
    assert json.loads(capsys.readouterr().out)["wins"] == out["wins"]  # seeded


def test_sim_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "zilch", "--players", "12"]) == 2
    assert main(["sim", "zilch", "--bots", "wizard"]) == 2
    assert "unknown bot level" in capsys.readouterr().err


class _Client:
    def __init__(self, frame: Frame) -> None:
        self.frame = frame

    def run(self, lines: list[str]) -> int:
        return run_frame(self.frame, lines=lines)


def client(lines_out: list[str], seed: int = 4, lang: str = "en") -> _Client:
    options = RULES.options.resolve()
    match = Match(RULES, 2, options, seed=seed)
    driver = LocalDriver(match, {1: make_bot("simple", options)}, 0, ["You", "Bot 1"])
    return _Client(Frame(driver, ZilchPlugin(), lang=lang, output=lines_out.append))


def test_typed_commands() -> None:
    out: list[str] = []
    game = client(out)
    assert (
        game.run(["roll", "sel", "all", "sel", "-3", "sel", "1 2", "bank", "d", "s", "t", "i"]) == 1
    )
    text = "\n".join(out)
    assert "you rolled 2 3 1 6 4 4" in text
    assert "No die chosen." in text
    assert "Chosen: 1 (die 3), worth 100." in text
    assert "Chosen: 2 3 (dice 1 2); they do not all score." in text
    assert "only scoring dice may be set aside" in text
    assert "Last roll: 2 3 1 6 4 4." in text
    assert "You: 0 points (not entered yet), Bot 1: 0 points (not entered yet)" in text
    assert "you have 0 points this turn and must choose among 2 3 1 6 4 4" in text
    assert "first to 5,000 starts the last round; your turn" in text


def test_typed_commands_in_french() -> None:
    out: list[str] = []
    game = client(out, lang="fr")
    game.run(["roll", "all", "sel"])
    assert "vous avez lancé 2 3 1 6 4 4" in out
    assert "Choisi\u00a0: 1 (dé 3), vaut 100." in out


def test_a_whole_game_through_a_pipe() -> None:
    """End to end: the real command, typed commands on standard input, to the end of the game."""
    script = "all\nbank\nroll\n" * 400
    env = dict(os.environ)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "zanzibar.cli.main",
            "play",
            "zilch",
            "--seed",
            "12",
            "--bots",
            "1",
            "--level",
            "simple",
        ],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Zilch 5000: You and Anna.")
    assert lines[2] == "your turn: roll the six dice; banking needs 500 points in the turn"
    assert "your turn" in lines
    assert any(line.startswith("you rolled ") for line in lines)
    assert any(" wins with " in line or line.startswith("you win with ") for line in lines)
    assert lines[-1] == "The game is over."
