"""``zanzibar perft``: counts, --divide, --fen, --variant-file and refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from zanzibar.cli.main import dispatch


def test_perft_prints_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["perft", "chess", "--depth", "3"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == "8902"
    assert "nodes/s" in captured.err


def test_perft_zanzibar_s_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["perft", "zanzibar-s", "--depth", "2"]) == 0
    assert capsys.readouterr().out.strip() == "2809"


def test_divide_lists_every_move_and_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert dispatch(["perft", "chess", "--depth", "2", "--fen", fen, "--divide"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    counts = dict(line.split(": ") for line in lines[:-1] if ": " in line)
    assert len(counts) == 48 and counts["e1g1"] == "43"
    assert lines[-1] == "Nodes searched: 2039"


def test_variant_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mini.toml"
    path.write_text(
        """
name = "mini"
files = 5
ranks = 5
start_fen = "k4/5/5/5/2L1K w - - 0 1"
[[pieces]]
letter = "K"
betza = "K"
royal = true
name = { en = "King", fr = "Roi" }
[[pieces]]
letter = "L"
betza = "KNAD"
name = { en = "Lion", fr = "Lion" }
""",
        encoding="utf-8",
    )
    assert dispatch(["perft", "mini", "--depth", "1", "--variant-file", str(path)]) == 0
    # Lion on c1: 14 squares within two King steps on the board, minus e1 (own King): 13;
    # King on e1: d1, d2, e2.
    assert capsys.readouterr().out.strip() == "16"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["perft", "nosuch", "--depth", "2"], "unknown variant"),
        (["perft", "chess", "--depth", "0"], "--depth must be 1 or more"),
        (["perft", "chess", "--depth", "2", "--fen", "8/8 w"], "FEN"),
        (["perft", "x", "--depth", "1", "--variant-file", "/nonexistent.toml"], "cannot read"),
    ],
)
def test_refusals(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(argv) == 2
    assert message in capsys.readouterr().err


def test_corrupt_variant_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nfiles = 40\nranks = 8\n', encoding="utf-8")
    assert dispatch(["perft", "bad", "--depth", "1", "--variant-file", str(path)]) == 2
    assert "16x16" in capsys.readouterr().err
