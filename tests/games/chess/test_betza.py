"""Betza parsing: every atom kind of the supported subset, and refusals."""

from __future__ import annotations

import pytest

from zanzibar.engine.errors import CorruptDataError
from zanzibar.games.chess.betza import lame_path, parse


def vectors(text: str) -> set[tuple[int, int]]:
    return {v for atom in parse(text) for v in atom.vectors}


def test_leapers_have_eight_or_four_directions() -> None:
    assert len(vectors("N")) == 8
    assert len(vectors("W")) == 4
    assert vectors("C") == {(1, 3), (3, 1), (-1, 3), (-3, 1), (1, -3), (3, -1), (-1, -3), (-3, -1)}
    assert len(vectors("Z")) == 8 and len(vectors("G")) == 4 and len(vectors("H")) == 4


def test_compounds_and_riders() -> None:
    assert [a.kind for a in parse("Q")] == ["ride", "ride"]
    assert [a.kind for a in parse("K")] == ["leap", "leap"]
    assert parse("WW")[0].kind == "ride" and parse("WW")[0].max_range == 0
    assert parse("NN")[0].kind == "ride"
    assert parse("R4")[0].max_range == 4
    assert len(vectors("KNAD")) == 24  # the Lion's 24 squares


def test_direction_modifiers() -> None:
    assert vectors("fmW") == {(0, 1)}
    assert vectors("fF") == {(1, 1), (-1, 1)}
    assert vectors("flF") == {(-1, 1)}
    assert vectors("ffN") == {(1, 2), (-1, 2)}
    assert vectors("fsN") == {(2, 1), (-2, 1)}
    assert vectors("sW") == {(1, 0), (-1, 0)}
    assert vectors("vW") == {(0, 1), (0, -1)}
    assert vectors("hrN") == {(1, 2), (2, -1), (-1, -2), (-2, 1)}
    assert vectors("hlN") | vectors("hrN") == vectors("N")


def test_move_capture_and_special_modifiers() -> None:
    pawn = parse("fmWfceFfmnnD")
    step, capture, double = pawn
    assert (step.move, step.capture) == (True, False)
    assert (capture.move, capture.capture, capture.en_passant) == (False, True, True)
    assert double.kind == "lame" and double.vectors == ((0, 2),) and not double.capture
    cannon = parse("mRcpR")
    assert [(a.kind, a.move, a.capture) for a in cannon] == [
        ("ride", True, False),
        ("hop", False, True),
    ]
    assert parse("ifmnD")[0].initial


def test_bent_riders() -> None:
    eagle = parse("FyafsF")[0]
    assert eagle.kind == "bent"
    legs = dict(zip(eagle.vectors, eagle.legs, strict=True))
    assert set(legs[(1, 1)]) == {(1, 0), (0, 1)}
    assert set(legs[(-1, -1)]) == {(-1, 0), (0, -1)}
    rhino = parse("WyafsW")[0]
    legs = dict(zip(rhino.vectors, rhino.legs, strict=True))
    assert set(legs[(0, 1)]) == {(1, 1), (-1, 1)}
    assert set(legs[(1, 0)]) == {(1, 1), (1, -1)}


def test_lame_paths() -> None:
    assert lame_path((0, 2)) == ((0, 1),)
    assert lame_path((0, -3)) == ((0, -1), (0, -2))
    assert lame_path((-2, 1)) == ((-1, 0),)


@pytest.mark.parametrize("text", ["", "X", "Nq", "pN", "nZ", "fyafsW", "FyafsW", "KK", "fzW"])
def test_refusals(text: str) -> None:
    with pytest.raises(CorruptDataError):
        parse(text)
