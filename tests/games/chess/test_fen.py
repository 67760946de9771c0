"""FEN reading and writing, Fairy-Stockfish conventions, and refusals."""

from __future__ import annotations

import pytest

from zanzibar.engine.errors import CorruptDataError
from zanzibar.games.chess.fen import parse_fen, parse_square, square_name
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant

ZS = load_variant("zanzibar-s")
CHESS = load_variant("chess")


def test_round_trip_of_start_positions() -> None:
    for name in ("chess", "shako", "metamachy", "zanzibar-s"):
        variant = load_variant(name)
        assert Position(variant).fen() == variant.start_fen


def test_multi_digit_runs_and_two_digit_ranks() -> None:
    fen = "11k/12/12/12/12/12/12/12/12/12/4P7/K11 w - - 0 1"
    pos = Position(ZS, fen)
    assert pos.fen() == fen
    assert pos.board[parse_square(ZS, "l12")] < 0
    assert square_name(ZS, parse_square(ZS, "e11")) == "e11"
    assert square_name(ZS, 143) == "l12"


def test_king_jump_rights_live_in_the_castling_field() -> None:
    pos = Position(ZS)
    assert pos.fen().split()[2] == "Kk"
    pos.push(pos.parse_uci("f2f4"))  # the Lion moves, not the King: rights stay
    assert pos.fen().split()[2] == "Kk"


def test_en_passant_square_is_written_when_a_capture_is_possible() -> None:
    pos = Position(ZS, "6k5/12/12/12/12/12/12/12/5p6/12/4P7/6K5 w - - 0 1")
    pos.push(pos.parse_uci("e2e4"))
    assert pos.fen().split()[3] == "e3"
    assert Position(ZS, pos.fen()).fen() == pos.fen()


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "8/8/8/8/8/8/8/4K2k",  # one field
        "8/8/8/8/8/8/8/4K2k x - - 0 1",  # bad side
        "8/8/8/8/8/8/4K2k w - - 0 1",  # 7 ranks
        "8/8/8/8/8/8/8/4K3k w - - 0 1",  # 9 files
        "8/8/8/8/8/8/8/4K2j w - - 0 1",  # unknown letter
        "8/8/8/8/8/8/8/4K3 w - - 0 1",  # no black King
        "8/8/8/8/8/8/8/4K2k w X - 0 1",  # bad rights
        "8/8/8/8/8/8/8/4K2k w - e3 0 1",  # en passant with no pawn
        "8/8/8/8/8/8/8/4K2k w - - x 1",  # bad clock
    ],
)
def test_bad_fens_are_refused(fen: str) -> None:
    with pytest.raises(CorruptDataError):
        parse_fen(CHESS, fen)


def test_queen_side_rights_make_no_sense_with_the_king_jump() -> None:
    with pytest.raises(CorruptDataError):
        Position(ZS, ZS.start_fen.replace(" Kk ", " KQkq "))
