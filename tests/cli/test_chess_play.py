"""``zanzibar play zanzibar-s|chess ...`` end to end, typed lines in, sentences out."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from zanzibar.cli.games.chess import describe_arrangement, describe_file
from zanzibar.cli.play import play
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], text: str
) -> tuple[int, list[str]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = play(argv)
    # the first line names the game and the players; the tests read what follows
    return code, capsys.readouterr().out.splitlines()[1:]


def test_fools_mate_between_two_players(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "f2 f3\nPe5\ng2g4\nQh4\n"
    code, out = _run(monkeypatch, capsys, ["chess", "--bots", "0"], lines)
    assert code == 0
    assert "White Pawn from f2 to f3." in out
    assert "Black Pawn from e7 to e5." in out
    assert "Black Queen from d8 to h4. Checkmate." in out
    assert any(line.startswith("Checkmate: Black") and "wins" in line for line in out)
    assert out[-1] == "The game is over."


def test_reading_the_board_and_refusing_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "\n".join(
        [
            "rank 2",
            "rank 9",
            "file e",
            "square e2",
            "?e4",  # ? and a square reads the square (a bare e4 would move the Pawn)
            "Ke2",  # illegal
            "e2e5",  # illegal
            "moves",
            "fen",
            "quit",
        ]
    )
    code, out = _run(monkeypatch, capsys, ["chess", "--bots", "0"], lines + "\n")
    assert code == 1
    assert out[0] == "Your move, White."
    assert out[1].startswith("Rank 2: a2 White Pawn, b2 White Pawn")
    assert out[2] == "There is no rank 9: ranks go from 1 to 8."
    assert (
        out[3]
        == "File e: e1 White King, e2 White Pawn, e3 to e6 empty, e7 Black Pawn, e8 Black King."
    )
    assert out[4] == "e2: White Pawn."
    assert out[5] == "e4: empty."
    assert "not a legal move" in out[6] and "not a legal move" in out[7]
    assert out[8].startswith("Legal moves: ") and "Nf3" in out[8]
    assert out[9] == Position(load_variant("chess")).fen()
    assert out[10] == "You left the game."


def test_zanzibar_s_as_black_through_a_pipe(tmp_path: Path) -> None:
    """The real command, stdin a pipe: the setup list, the choice, reading, a move, resigning."""
    lines = "\n".join(["rank 11", "5", "square f12", "rank 11", "a10a9", "history", "resign"])
    command = [sys.executable, "-m", "zanzibar.cli.main", "play", "zanzibar-s"]
    command += ["--color", "black", "--nodes", "200", "--seed", "3"]
    completed = subprocess.run(
        command,
        input=lines + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    out = completed.stdout.splitlines()[2:]  # after the game, the players and the seed
    assert completed.returncode == 0, completed.stderr
    assert out[0] == ("Choose the arrangement of your central pieces: type its number, 0 to 47.")
    assert out[1] == (
        "0: King on f12, Queen on g12, Eagle on f11, Lion on g11,"
        " Rhinoceros on e12 and Buffalo on h12."
    )
    assert len([line for line in out if line[:1].isdigit()]) == 48
    assert any("f11 to g11 empty" in line for line in out if line.startswith("Rank 11"))
    assert any(line.startswith("You (Black) chose arrangement 5") for line in out)
    assert "f12: Black King." in out
    assert any("f11 Black Queen, g11 Black Lion" in line for line in out)
    assert "Black Pawn from a10 to a9." in out
    assert any(line.startswith("Moves so far: 1. ") for line in out)
    assert "You (Black) resign." in out
    assert out[-1] == "The game is over."


def test_watching_two_bots_in_french(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["zanzibar-s", "--bots", "2", "--nodes", "150", "--max-moves", "4", "--lang", "fr"]
    code, out = _run(monkeypatch, capsys, argv, "")
    assert code == 0
    assert out[0].startswith("Bruno (Noirs)")
    moves = [line for line in out if " de " in line and " à " in line]
    assert len(moves) == 4
    assert out[-1] == "Arrêt après 4 coups, comme demandé."


def test_same_seed_same_bot_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["chess", "--bots", "2", "--nodes", "200", "--max-moves", "6", "--seed", "9"]
    first = _run(monkeypatch, capsys, argv, "")
    second = _run(monkeypatch, capsys, argv, "")
    assert first == second


def test_input_ending_first_and_setup_refusals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "f10f9\n99\narrangements\n"
    code, out = _run(monkeypatch, capsys, ["zanzibar-s", "--color", "black"], lines)
    assert code == 1
    assert "First choose the arrangement" in "\n".join(out)
    assert "arrangement must be 0 to 47, not 99" in out
    assert out[-1] == "Input ended before the game did."


def test_default_setup_and_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(
        monkeypatch, capsys, ["zanzibar-s", "--default-setup", "--nodes", "100"], "help\nquit\n"
    )
    assert code == 1
    assert out[0] == "Your move, White."
    text = "\n".join(out)
    assert "rank N: one rank" in text
    assert "setup N: choose an arrangement (or just its number)" in text
    assert "O-O" not in text  # Zanzibar-S has no castling: help never offers it


def test_words_helpers() -> None:
    variant = load_variant("zanzibar-s")
    assert describe_arrangement(variant, 47, "fr") == (
        "47\u00a0: Lion en f12, Aigle en g12, Dame en f11, Roi en g11, Buffle en e12 et Rhinocéros en h12."
    )
    board = Position(load_variant("chess")).board
    assert describe_file(load_variant("chess"), board, "a", "fr") == (
        "Colonne a\u00a0: a1 Tour blanche, a2 Pion blanc, a3 à a6 vides, a7 Pion noir, a8 Tour noire."
    )


def test_variant_file_and_unknown_level(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.resources

    path = importlib.resources.files("zanzibar.games.chess") / "variants" / "shako.toml"
    argv = ["chess", "--variant-file", str(path), "--bots", "0"]
    code, out = _run(monkeypatch, capsys, argv, "rank 1\nquit\n")
    assert code == 1
    assert out[1] == "Rank 1: a1 White Cannon, b1 to i1 empty, j1 White Cannon."
    with pytest.raises(SystemExit):
        play(["chess", "--level", "grandmaster"])
    assert "unknown bot level 'grandmaster'" in capsys.readouterr().err
