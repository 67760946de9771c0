"""One test per terminal defect of issue 12 ("One voice for every game").

Each one failed on the main branch before the terminal frame: they drive the
real ``zanzibar`` command (through a pipe, a script or a pseudo-terminal) and
check what a player hears.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from zanzibar.cli.frame.drivers import LocalDriver
from zanzibar.cli.frame.loop import Frame, Input
from zanzibar.cli.games.dice421 import Dice421Plugin
from zanzibar.cli.main import dispatch
from zanzibar.engine.match import Match
from zanzibar.games import get_rules

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "src"))


def zanzibar(
    args: list[str], stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the real command with ``stdin`` piped in."""
    return subprocess.run(
        [sys.executable, "-m", "zanzibar.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
        check=False,
    )


def scripted(tmp_path: Path, args: list[str], inputs: list[str]) -> list[str]:
    """``zanzibar play ARGS --script`` with these inputs; the output lines."""
    script = tmp_path / "inputs.txt"
    script.write_text("\n".join(inputs) + "\n", encoding="utf-8")
    result = zanzibar(["play", *args, "--script", str(script)])
    assert result.stderr == "", result.stderr
    return result.stdout.splitlines()


# -- Zilch ------------------------------------------------------------------------------


def test_zilch_says_your_turn_after_the_bots() -> None:
    result = zanzibar(["play", "zilch", "--seed", "11", "--bots", "2"], "roll\nall\nbank\n" * 3)
    lines = result.stdout.splitlines()
    turns = [i for i, line in enumerate(lines) if line.startswith("your turn: roll the six dice")]
    assert len(turns) >= 2  # at the start, and again once both bots have played
    assert lines[turns[1] - 1].startswith(("Bruno ", "zilch! Bruno"))  # right after the last bot


def test_zilch_reads_the_choice_back_in_typed_order() -> None:
    result = zanzibar(["play", "zilch", "--seed", "11"], "roll\n6\n2\n5\nselection\nquit\n")
    assert "Chosen: 5 5 5 (dice 6 2 5), worth 500." in result.stdout.splitlines()


@pytest.mark.parametrize("game", ["421", "zilch", "zanzibar-s"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_f1_help_is_short_and_filled(tmp_path: Path, game: str, lang: str) -> None:
    """F1: at most six short lines, no unfilled "N", the keyboard layout named."""
    nodes = ["--nodes", "50"] if game == "zanzibar-s" else []
    lines = scripted(tmp_path, [game, "--seed", "1", "--lang", lang, *nodes], ["key f1"])
    help_lines = lines[lines.index("> key f1") + 1 : -1]
    assert 1 <= len(help_lines) <= 6, help_lines
    assert all(len(line) <= 80 for line in help_lines), help_lines
    assert not any(" N " in f" {line} " or "{" in line for line in help_lines)
    assert help_lines[-1].startswith(("Keyboard: QWERTY", "Clavier\u00a0: QWERTY"))


# -- S and T at once, even while bots play ---------------------------------------------------


class SlowBot:
    """A bot that thinks for a while (in a worker thread) before its first legal action."""

    def __init__(self, rules: Any, seconds: float) -> None:
        self.rules, self.seconds = rules, seconds

    def choose(self, state: Any) -> Any:
        time.sleep(self.seconds)
        return self.rules.legal_actions(state)[0]


class TimedKeys:
    """Keys pressed at given times after the start, then the end of input."""

    def __init__(self, presses: list[tuple[float, str]]) -> None:
        self.presses = list(presses)
        self.start = 0.0

    async def next(self) -> Input | None:
        self.start = self.start or time.monotonic()
        if not self.presses:
            await asyncio.sleep(3600)
            return None
        at, key = self.presses.pop(0)
        await asyncio.sleep(max(0.0, self.start + at - time.monotonic()))
        return Input("key", key)


def test_s_and_t_answer_at_once_while_a_bot_thinks() -> None:
    rules = get_rules("421")
    match: Match[Any, Any] = Match(rules, 2, seed=3)
    driver = LocalDriver(match, {1: SlowBot(rules, 0.6)}, 0, ["Zoé", "Anna"])
    heard: list[tuple[float, str]] = []
    frame = Frame(
        driver, Dice421Plugin(), output=lambda line: heard.append((time.monotonic(), line))
    )
    # roll, keep (the bot's turn starts; it thinks 0.6 s a step), then S and T 0.3 s later
    keys = TimedKeys([(0.0, "r"), (0.05, "k"), (0.3, "s"), (0.35, "t"), (0.9, "q"), (0.95, "y")])
    asyncio.run(frame.run(keys))
    lines = [line for _, line in heard]
    scores = next(i for i, line in enumerate(lines) if line.endswith("pot 21."))
    anna_rolled = next(i for i, line in enumerate(lines) if line.startswith("Anna rolled"))
    turn = next(i for i, line in enumerate(lines) if line.startswith("Anna's turn: roll 1"))
    assert scores < anna_rolled and turn < anna_rolled, lines  # before the bot's step came back
    assert heard[scores][0] - keys.start < 0.5  # pressed at 0.3 s: answered at once
    assert lines[-1] == "You left the game."


def test_s_between_two_bot_steps_reads_the_state_printed_so_far(tmp_path: Path) -> None:
    lines = scripted(
        tmp_path,
        ["421", "--seed", "7", "--bots", "2", "--level", "expert"],
        ["key r", "key k", "tick", "key t", "tick", "key t"],
    )
    first, second = lines.index("> key t"), len(lines) - 1 - lines[::-1].index("> key t")
    assert lines[first - 1] == "Bruno's turn: up to 1 roll."  # what the first tick printed
    assert lines[first + 1] == "Bruno's turn: roll 1 of up to 1."
    assert lines[second - 1].startswith("Turn 2, charge")  # what the second tick printed
    assert lines[second + 1] == "Bruno's turn: roll 1 of up to 3."


# -- keys --------------------------------------------------------------------------------


def test_unknown_keys_say_so(tmp_path: Path) -> None:
    for game in ("421", "zilch", "zanzibar-s"):
        lines = scripted(
            tmp_path,
            [game, "--seed", "1", "--nodes", "50"]
            if game == "zanzibar-s"
            else [game, "--seed", "1"],
            ["key f5", "quit"],
        )
        assert "Key F5 does nothing here; F1 for help." in lines, game
    lines = scripted(tmp_path, ["421", "--seed", "1", "--lang", "fr"], ["key x", "quitter"])
    assert "La touche X ne fait rien ici\u202f; F1 pour l'aide." in lines


def _pty(args: list[str]) -> tuple[int, subprocess.Popen[bytes]]:
    import pty

    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "zanzibar.cli.main", "play", *args, "--delay", "0"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=ENV,
        close_fds=True,
    )
    os.close(slave)
    return master, process


def _read_until(fd: int, wanted: str, seen: list[str], timeout: float = 20.0) -> None:
    import select

    deadline = time.monotonic() + timeout
    while wanted not in "".join(seen):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{wanted!r} not seen in {''.join(seen)[-1500:]!r}")
        if select.select([fd], [], [], left)[0]:
            try:
                seen.append(os.read(fd, 4096).decode("utf-8", errors="replace"))
            except OSError:
                break


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_zilch_knows_azerty_and_function_keys_in_a_terminal() -> None:
    """Zilch (not only 421): AZERTY detected and said once, F1 of rxvt, F5 unknown."""
    master, process = _pty(["zilch", "--seed", "11"])
    seen: list[str] = []
    try:
        _read_until(master, "your turn: roll the six dice", seen)
        os.write(master, b"\x1b[11~")  # F1 as rxvt and VT220 send it
        _read_until(master, "Keyboard: QWERTY", seen)
        os.write(master, b"r")
        _read_until(master, "you rolled", seen)
        os.write(master, "é".encode())  # the key of 2 on AZERTY, unshifted
        _read_until(master, "AZERTY keyboard detected", seen)
        _read_until(master, "(die 2)", seen)
        os.write(master, b"\x1b[15~")  # F5
        _read_until(master, "Key F5 does nothing here; F1 for help.", seen)
        os.write(master, b"q")
        _read_until(master, "Press Y to quit", seen)
        os.write(master, b"y")
        _read_until(master, "You left the game.", seen)
        assert process.wait(timeout=20) == 1
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    assert "".join(seen).count("AZERTY keyboard detected") == 1


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_chess_f1_and_ctrl_f1_in_a_terminal_are_keys_not_moves() -> None:
    master, process = _pty(["chess", "--nodes", "50", "--lang", "fr"])
    seen: list[str] = []
    try:
        _read_until(master, "À vous de jouer", seen)
        os.write(master, b"\x1bOP")  # F1 (xterm)
        _read_until(master, "Tapez un coup", seen)
        os.write(master, b"\x1b[1;5P")  # Ctrl+F1 (xterm)
        _read_until(master, "Échecs", seen)
        os.write(master, b"e4\r")
        _read_until(master, "Pion blanc de e2 à e4", seen)
        os.write(master, b"q")
        _read_until(master, "Appuyez sur O", seen)
        os.write(master, b"o")
        _read_until(master, "Vous avez quitté la partie.", seen)
        assert process.wait(timeout=20) == 1
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    assert "légal" not in "".join(seen) and "legal" not in "".join(seen)


# -- chess ---------------------------------------------------------------------------------


def test_chess_escape_codes_in_a_line_are_not_moves() -> None:
    result = zanzibar(["play", "chess", "--nodes", "50"], "\x1bOP\n\x1b[1;5P\nquit\n")
    assert "not a legal move" not in result.stdout
    assert any(line.startswith("Moves: ") for line in result.stdout.splitlines())


def test_a_bare_pawn_move_to_the_last_rank_is_a_move() -> None:
    moves = ["b4", "a5", "bxa5", "Ra6", "e3", "Rb6", "a6", "Rb5", "a7", "Rb6", "a8"]
    result = zanzibar(["play", "chess", "--bots", "0"], "\n".join([*moves, "quit"]) + "\n")
    lines = result.stdout.splitlines()
    assert any(line.startswith("White Pawn from a7 to a8") for line in lines), lines[-4:]
    assert "a8: empty." not in lines


def test_help_never_offers_castling_where_there_is_none() -> None:
    result = zanzibar(["play", "zanzibar-s", "--default-setup", "--nodes", "50"], "help\nquit\n")
    assert "Type a move" in result.stdout
    assert "O-O" not in result.stdout
    chess = zanzibar(["play", "chess", "--nodes", "50"], "help\nquit\n")
    assert "O-O" in chess.stdout  # standard chess castles


def test_french_piece_letters() -> None:
    result = zanzibar(
        ["play", "chess", "--bots", "0", "--lang", "fr"], "e4\ne5\nDh5\nCc6\nquitter\n"
    )
    lines = result.stdout.splitlines()
    assert any(line.startswith("Dame blanche de d1 à h5") for line in lines), lines
    assert any(line.startswith("Cavalier noir de b8 à c6") for line in lines), lines


# -- typed commands in both languages ----------------------------------------------------------


def test_typed_commands_in_both_languages() -> None:
    english = zanzibar(["play", "421", "--seed", "1"], "lancer\nquitter\n")
    assert "You rolled" in english.stdout and english.stdout.rstrip().endswith("You left the game.")
    french = zanzibar(["play", "zilch", "--seed", "1", "--lang", "fr"], "roll\nquit\n")
    assert "vous avez lancé" in french.stdout
    assert "Vous avez quitté la partie." in french.stdout


def test_rules_are_short_sentences_without_source_tags(tmp_path: Path) -> None:
    for game in ("421", "zilch"):
        lines = scripted(
            tmp_path, [game, "--seed", "1", "--lang", "fr"], ["key ctrl+f1", "quitter"]
        )
        rules = lines[lines.index("> key ctrl+f1") + 1 : lines.index("> quitter")]
        assert len(rules) > 5
        assert max(len(line) for line in rules) <= 110
        assert not any("graine" in line or "seed" in line for line in rules), game


# -- the command line ------------------------------------------------------------------------


def test_play_an_unknown_game_names_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["play", "422"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "no game '422'" in err and "421, zilch, zanzibar-s" in err and "--help" in err


def test_a_bad_option_is_one_line_with_a_hint() -> None:
    result = zanzibar(["play", "421", "--bots", "many"])
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "--bots" in result.stderr and "--help" in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        [],
        ["play"],
        ["play", "421"],
        ["play", "zilch"],
        ["play", "zanzibar-s"],
        ["sim"],
        ["sim", "421"],
        ["sim", "zilch"],
        ["solve", "421"],
        ["solve", "zilch"],
        ["rules"],
        ["replay"],
        ["serve"],
        ["perft"],
    ],
)
def test_every_help_exits_0(command: list[str]) -> None:
    result = zanzibar([*command, "--help"])
    assert result.returncode == 0, result.stderr
    if command[:1] == ["play"]:
        for option in ("--server", "--seed", "--bots", "--level", "--lang", "--layout", "--delay"):
            assert option in result.stdout, option


def test_the_same_progress_flags_and_no_carriage_returns_into_pipes() -> None:
    for game in ("421", "zilch"):
        result = zanzibar(["sim", game, "--games", "20", "--players", "2"])
        assert result.returncode == 0, result.stderr
        assert "\r" not in result.stderr
        for flag in ("--quiet", "--no-progress"):
            assert zanzibar(["sim", game, "--games", "5", "--players", "2", flag]).returncode == 0


def test_a_replay_error_never_prints_the_database_url(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/secret-place.db"
    result = zanzibar(["replay", "5", "--db", url])
    assert result.returncode != 0
    assert "secret-place" not in result.stderr + result.stdout
    assert result.stderr.count("\n") == 1, result.stderr


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (
            ["play", "zilch", "--bots", "9", "--lang", "fr"],
            "zanzibar play zilch\u00a0: il faut entre 1 et 7 robots pour zilch"
            " (voir «\u00a0zanzibar play zilch --help\u00a0»)\n",
        ),
        (
            ["replay", "12345", "--data-dir", "/nonexistent-zanzibar", "--lang", "fr"],
            "zanzibar\u00a0: pas de base du salon en /nonexistent-zanzibar/zanzibar.sqlite3"
            " (voir «\u00a0zanzibar replay --help\u00a0»)\n",
        ),
        (
            ["replay", "12345", "--data-dir", "/nonexistent-zanzibar"],
            "zanzibar: no salon database at /nonexistent-zanzibar/zanzibar.sqlite3"
            " (see 'zanzibar replay --help')\n",
        ),
    ],
)
def test_command_line_errors_speak_the_language_asked(command: list[str], expected: str) -> None:
    """The command line's own refusals and their frame follow --lang (English before)."""
    result = zanzibar(command)
    assert result.returncode == 2
    assert result.stderr == expected


def test_ids_in_refusals_are_not_grouped_like_quantities() -> None:
    from zanzibar.engine.errors import ZanzibarError

    assert ZanzibarError("there is no game 12345 in this database").text("fr") == (
        "il n'y a pas de partie 12345 dans cette base"
    )
    assert ZanzibarError("no game 12345").text("en") == "no game 12345"
