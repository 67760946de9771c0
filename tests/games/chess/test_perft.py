"""Orthodox chess perft against published values, and a differential walk against python-chess."""

from __future__ import annotations

import random

import chess
import pytest

from zanzibar.games.chess.notation import format_coordinate
from zanzibar.games.chess.perft import divide, perft
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant

CHESS = load_variant("chess")

# Published values (chessprogramming.org "Perft Results").
START = (20, 400, 8902, 197281)
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_start_position(depth: int) -> None:
    assert perft(Position(CHESS), depth) == START[depth - 1]


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        (KIWIPETE, (48, 2039, 97862)),
        (POSITION_3, (14, 191, 2812, 43238)),
        (POSITION_4, (6, 264, 9467)),
        (POSITION_4_MIRRORED, (6, 264, 9467)),
        (POSITION_5, (44, 1486, 62379)),
        (POSITION_6, (46, 2079, 89890)),
    ],
)
def test_published_positions(fen: str, expected: tuple[int, ...]) -> None:
    pos = Position(CHESS, fen)
    for depth, count in enumerate(expected, 1):
        assert perft(pos, depth) == count, (fen, depth)
    assert pos.fen().split()[:2] == fen.split()[:2]  # make/unmake restored everything


def test_divide_sums_to_perft() -> None:
    pos = Position(CHESS, KIWIPETE)
    split = divide(pos, 2)
    assert len(split) == 48 and sum(count for _, count in split) == 2039


def test_unmake_restores_fen_and_hash() -> None:
    pos = Position(CHESS, KIWIPETE)
    fen, key = pos.fen(), pos.hash
    for move in pos.legal_moves():
        pos.push(move)
        pos.pop()
        assert (pos.fen(), pos.hash) == (fen, key)


def test_random_games_match_python_chess() -> None:
    rng = random.Random(7)
    for _ in range(60):
        board = chess.Board()
        pos = Position(CHESS)
        for _ in range(rng.randint(10, 120)):
            ours = sorted(format_coordinate(pos, m) for m in pos.legal_moves())
            theirs = sorted(m.uci() for m in board.legal_moves)
            assert ours == theirs, board.fen()
            assert pos.is_check() == board.is_check()
            if not theirs:
                break
            text = rng.choice(theirs)
            board.push_uci(text)
            pos.push(pos.parse_uci(text))
            # incremental hash equals a hash rebuilt from the FEN
            assert pos.hash == Position(CHESS, pos.fen()).hash
