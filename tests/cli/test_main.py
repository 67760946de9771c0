"""The ``zanzibar`` dispatcher: help, unknown commands and error reporting."""

from __future__ import annotations

import subprocess
import sys

import pytest

from zanzibar.cli.main import dispatch, main


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("serve", "play", "sim", "solve", "perft", "rules", "replay"):
        assert f"  {command} " in out


def test_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["dance"]) == 2
    assert "unknown command 'dance'" in capsys.readouterr().err


def test_game_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["play"]) == 2
    assert "name a game first" in capsys.readouterr().err


def test_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["sim", "poker"]) == 2
    err = capsys.readouterr().err
    assert "there is no game 'poker' here; the games are 421, zilch" in err
    assert err.count("\n") == 1  # one line, with its hint


def test_zanzibar_errors_become_messages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "poker"]) == 2
    assert "zanzibar: unknown game 'poker'" in capsys.readouterr().err


def test_console_script_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "zanzibar.cli.main", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.startswith("usage: zanzibar")
