"""``zanzibar play|sim|solve 421`` end to end: through a pipe, and in-process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from zanzibar.cli.dice421 import parse_throw
from zanzibar.cli.main import main
from zanzibar.engine.errors import IllegalActionError

ROOT = Path(__file__).resolve().parents[2]


def _zanzibar(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "zanzibar.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_play_through_a_pipe_to_the_end() -> None:
    commands = ["help", "scores", "turn", "status", "rules", "roll", "select 2", "selection"]
    commands += ["roll", "dice", "stop"] + ["roll"] * 3000
    result = _zanzibar(
        ["play", "421", "--bots", "2", "--seed", "5", "--name", "Zoé"], "\n".join(commands) + "\n"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "421 / Zanzibar: Zoé, Anna and Bruno. Press F1 for help."
    assert lines[1] == "Game number 5: the same number replays the same game."
    assert lines[2] == "Your turn: roll 1 of up to 3."
    assert any(line.startswith("Keys: 1 to 6 choose a die to reroll") for line in lines)
    assert "rules: the rules in force" in lines
    assert "dice: repeat the last roll" in lines
    assert "You: 0 tokens; Anna: 0 tokens; Bruno: 0 tokens; pot 21." in lines
    assert "Rules “salon”." in lines
    assert any(line.startswith("You rolled ") for line in lines)
    assert any(line.startswith("Anna rolled ") for line in lines)
    assert "Reroll 5; keep 6 3." in lines
    losers = [line for line in lines if "lost the game" in line]
    assert len(losers) == 1
    assert lines[-1] == "The game is over."


def test_play_in_french_with_bar_rules_and_an_option() -> None:
    result = _zanzibar(
        ["play", "421", "--preset", "bar", "--option", "tokens=5", "--bots", "1", "--seed", "2",
         "--lang", "fr"],
        "scores\n" + "roll\n" * 3000,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "421 / Zanzibar\u00a0: Vous et Anna. F1 pour l'aide." in out
    assert "Vous avez lancé" in out and "Anna a lancé" in out
    assert "perdu la partie" in out
    assert "La partie est terminée." in out


def test_play_reports_bad_options_naming_them() -> None:
    result = _zanzibar(["play", "421", "--option", "ties=coin"], "")
    assert result.returncode == 2
    assert "option 'ties'" in result.stderr


def test_play_input_ending_early_and_quit(capsys: pytest.CaptureFixture[str]) -> None:
    result = _zanzibar(["play", "421", "--seed", "1"], "roll\n")
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "Input ended before the game did."
    result = _zanzibar(["play", "421", "--seed", "1"], "quit\nroll\n")
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "You left the game."


def test_illegal_commands_are_explained_and_change_nothing() -> None:
    result = _zanzibar(
        ["play", "421", "--seed", "1"], "stop\nroll 4\nselect 9\nfly\nroll 1\nroll 1\nquit\n"
    )
    lines = result.stdout.splitlines()
    assert "Roll at least once before stopping." in lines
    assert "Unknown command “fly”. Type help for the list." in lines
    assert "Roll first: there are no dice to choose yet." in lines
    assert "There is no die 4: the dice go from 1 to 3." in lines
    assert any("You rolled" in line and "(roll 1 of 3)" in line for line in lines)
    assert any("(roll 2 of 3)" in line for line in lines)


def test_solve_known_values(capsys: pytest.CaptureFixture[str]) -> None:
    for rolls, percent in ((1, 2.78), (2, 11.54), (3, 22.81)):
        assert main(["solve", "421", "--beat", "4-2-1", "--rolls", str(rolls), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["percent"] == percent
        assert data["beat"] == [4, 2, 1]
        assert data["first_decision"] == {"action": "roll", "dice": "all"}
    assert main(["solve", "421", "--beat", "421", "--rolls", "3"]) == 0
    out = capsys.readouterr().out
    assert "probability 22.81 %" in out
    assert "  6 4 1: reroll 6" in out


def test_parse_throw() -> None:
    assert parse_throw("2-2-1") == (2, 2, 1)
    assert parse_throw("1,2,2") == (2, 2, 1)
    for bad in ("7-1-1", "42", "4-2-1-1", "abc"):
        with pytest.raises(IllegalActionError):
            parse_throw(bad)


def test_sim_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "421", "--games", "30", "--players", "3", "--seed", "4", "--json"]
    assert main([*argv, "--bots", "expert,simple,random"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["games"] == 30 and data["players"] == 3
    assert sum(data["losses"]) == 30
    assert sum(data["loss_rate"]) == pytest.approx(1)
    assert data["mean_turns"] > 1 and data["mean_rolls"] > data["mean_turns"]
    assert data["bots"] == ["expert", "simple", "random"]
    assert captured.err == ""  # progress only on a terminal, never into a pipe
    assert main([*argv, "--bots", "expert,simple,random", "--no-progress"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["losses"] == data["losses"]  # same seed, same games


def test_sim_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "421", "--games", "5", "--players", "2", "--preset", "bar"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (expert): lost" in out and "mean turns per game" in out
    with pytest.raises(SystemExit):
        main(["sim", "421", "--players", "11"])
    with pytest.raises(SystemExit):
        main(["sim", "421", "--bots", "expert,simple", "--players", "3"])


def _read_until(fd: int, wanted: str, buffer: list[str], timeout: float = 20.0) -> str:
    import select
    import time

    deadline = time.monotonic() + timeout
    while wanted not in "".join(buffer):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{wanted!r} not seen in {''.join(buffer)[-2000:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                buffer.append(os.read(fd, 4096).decode("utf-8", errors="replace"))
            except OSError:
                break
    return "".join(buffer)


@contextmanager
def _play_in_a_terminal(*args: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """Run ``zanzibar play 421 --seed 1 --delay 0 ARGS`` on a pseudo-terminal.

    Yields the terminal's master side and the process; kills the process if
    it is still running afterwards and closes the terminal.
    """
    import pty

    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    command = [sys.executable, "-m", "zanzibar.cli.main", "play", "421", "--seed", "1"]
    process = subprocess.Popen(
        [*command, "--delay", "0", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    try:
        yield master, process
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_single_keys_in_a_real_terminal() -> None:
    """Drive the key-by-key mode through a pseudo-terminal: the seed's keys act at once."""
    out: list[str] = []
    with _play_in_a_terminal() as (master, process):
        _read_until(master, "Your turn: roll 1 of up to 3.", out)
        os.write(master, b"\x1bOP")  # F1
        _read_until(master, "Ctrl+F1 or Shift+F1 the rules", out)
        os.write(master, b"r")  # roll
        _read_until(master, "You rolled", out)
        os.write(master, b"1")  # select die 1
        _read_until(master, "Reroll ", out)
        os.write(master, b" ")  # say the selection
        os.write(master, b"!")  # Shift+1: unselect
        _read_until(master, "No die chosen", out)
        os.write(master, b"d")  # repeat the last roll
        os.write(master, b"s")  # scores
        _read_until(master, "pot 21.", out)
        os.write(master, b"t")  # whose turn
        _read_until(master, "Your turn: roll 2 of up to 3.", out)
        os.write(master, b"\x1b[1;5P")  # Ctrl+F1: the rules
        _read_until(master, "Rules “salon”.", out)
        os.write(master, b"k")  # keep the throw
        _read_until(master, "You stop at", out)
        os.write(master, b"q")
        _read_until(master, "Press Y to quit", out)
        os.write(master, b"y")
        _read_until(master, "You left the game.", out)
        assert process.wait(timeout=20) == 1
    text = "".join(out)
    assert text.count("You rolled") >= 2  # the roll, then D repeated it


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_azerty_digit_row_in_a_real_terminal() -> None:
    """On AZERTY the unshifted digit keys type & é " ' ( -: they select, the digits unselect."""
    out: list[str] = []
    with _play_in_a_terminal("--layout", "azerty", "--lang", "fr") as (master, process):
        _read_until(master, "lancer 1 sur 3 au plus.", out)
        os.write(master, b"r")
        _read_until(master, "Vous avez lancé", out)
        os.write(master, "é".encode())  # the key of 2, unshifted: select die 2
        _read_until(master, "Relancer 2", out)
        os.write(master, b"2")  # Shift+2 on AZERTY: unselect die 2
        _read_until(master, "Aucun dé choisi", out)
        os.write(master, b"q")
        _read_until(master, "Appuyez sur O pour quitter", out)
        os.write(master, b"o")
        _read_until(master, "Vous avez quitté la partie.", out)
        assert process.wait(timeout=20) == 1
