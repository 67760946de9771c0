"""Differential tests against Fairy-Stockfish (pyffish): Shako and a 12x10 Zanzibar-S subset.

The custom variant holds every Zanzibar-S piece Fairy-Stockfish can express
(all but the Eagle, the Rhinoceros and the King's jump). Its Princes are not
taken en passant there, so our copy of it says the same; that Zanzibar-S
rule is covered by hand-built positions in test_zanzibar_s.py.
"""

from __future__ import annotations

import pytest
from _chess_fsf import (
    ZS10_TOML,
    fsf_perft,
    load_zs10,
    our_moves,
    random_walk_positions,
)

from zanzibar.games.chess.perft import perft
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant, load_variant_text

pyffish = pytest.importorskip("pyffish")

SHAKO = load_variant("shako")
ZS10 = load_variant_text(ZS10_TOML)


def _variant(name: str):  # type: ignore[no-untyped-def]
    if name == "zs10":
        load_zs10()
        return ZS10
    return SHAKO


@pytest.mark.parametrize("name", ["shako", "zs10"])
def test_start_moves_agree(name: str) -> None:
    variant = _variant(name)
    pos = Position(variant)
    assert our_moves(pos) == sorted(pyffish.legal_moves(name, pos.fen(), []))


@pytest.mark.parametrize("name", ["shako", "zs10"])
@pytest.mark.parametrize("seed", range(8))
def test_random_walks_agree_move_by_move(name: str, seed: int) -> None:
    random_walk_positions(Position(_variant(name)), name, seed, 100)


#: Positions for depth-3 perft: the start (custom variant), check evasions, en passant
#: for either side, promotions of Pawns and Princes, castling through Cannon lines.
#: Kept sparse because Fairy-Stockfish through pyffish counts only ~25,000 leaves/s.
PERFT_POSITIONS = [
    (
        "zs10",
        "cmzvfqklvzmc/ernbwllwbnre/ppppippipppp/12/12/12/12/PPPPIPPIPPPP/ERNBWLLWBNRE/CMZVFQKLVZMC w - - 0 1",
    ),
    ("zs10", "4k7/1p2c3i3/2v5l3/12/3P2p5/5C6/1I4f5/3m2Z2e2/1w3L4B1/4K7 w - - 0 1"),
    ("zs10", "4k7/12/12/3pP7/12/5Ip5/12/1C2V5w1/12/4K7 w - d8 0 1"),
    ("zs10", "2r1k3c3/4p7/12/12/5P6/12/12/12/4Q1v5/C3K5R1 b - f5 0 1"),
    ("shako", "c3k4c/r3p4r/10/10/10/10/10/10/3E1P4/R3K3R1 w Qk - 0 1"),
    ("shako", "4k5/1P3p4/10/3pP5/10/10/2c7/10/5p2p1/C3K4C w - d8 0 1"),
    ("shako", "r3k1e2r/1n8/10/10/3Cc5/10/10/10/1E8/1R3K2R1 w KQkq - 0 1"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "fen"), PERFT_POSITIONS)
def test_perft_depth_3_agrees(name: str, fen: str) -> None:
    variant = _variant(name)
    assert perft(Position(variant, fen), 3) == fsf_perft(name, fen, 3)


def test_known_start_counts() -> None:
    """Our numbers, as checked against Fairy-Stockfish when this test was written."""
    assert [perft(Position(SHAKO), d) for d in (1, 2, 3)] == [58, 3364, 185938]
    assert [perft(Position(ZS10), d) for d in (1, 2, 3)] == [58, 3364, 213985]
