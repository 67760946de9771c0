"""Perft speed: our engine beside python-chess, measured in the same run.

Both sides count the same trees the same way: recursive legal-move perft,
bulk-counting the last ply (python-chess: ``board.legal_moves.count()``, ours:
``len(pos.legal_moves())``). Each timing is the best of ``--repeat`` runs.
Zanzibar-S, Metamachy and Shako have no reference engine in Python; their
nodes per second are printed alone.

Usage: ``python bench/bench_perft.py [--repeat 3] [--quick]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import chess

from zanzibar.games.chess.perft import perft
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def python_chess_perft(board: chess.Board, depth: int) -> int:
    """The usual python-chess perft with bulk counting at the last ply."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def best_of(repeat: int, run: Callable[[], int]) -> tuple[int, float]:
    """Node count and the best wall time of ``repeat`` runs."""
    best = float("inf")
    nodes = 0
    for _ in range(repeat):
        start = time.perf_counter()
        nodes = run()
        best = min(best, time.perf_counter() - start)
    return nodes, best


def main() -> None:
    """Print a table of nodes per second."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one depth less everywhere")
    args = parser.parse_args()
    less = 1 if args.quick else 0
    chess_variant = load_variant("chess")
    print(
        f"{'position':<28}{'depth':>6}{'nodes':>12}{'ours n/s':>14}{'python-chess n/s':>18}{'ratio':>8}"
    )
    for label, fen, depth in (("chess start", None, 5 - less), ("Kiwipete", KIWIPETE, 4 - less)):
        pos = Position(chess_variant, fen)
        board = chess.Board(fen) if fen else chess.Board()
        ours_nodes, ours_time = best_of(args.repeat, lambda p=pos, d=depth: perft(p, d))
        ref_nodes, ref_time = best_of(
            args.repeat, lambda b=board, d=depth: python_chess_perft(b, d)
        )
        assert ours_nodes == ref_nodes, (label, ours_nodes, ref_nodes)
        ours_rate, ref_rate = ours_nodes / ours_time, ref_nodes / ref_time
        print(
            f"{label:<28}{depth:>6}{ours_nodes:>12,}{ours_rate:>14,.0f}{ref_rate:>18,.0f}"
            f"{ours_rate / ref_rate:>8.2f}"
        )
    for name, depth in (("zanzibar-s", 4 - less), ("metamachy", 3), ("shako", 4 - less)):
        pos = Position(load_variant(name))
        nodes, elapsed = best_of(max(1, args.repeat - 2), lambda p=pos, d=depth: perft(p, d))
        print(
            f"{name + ' start':<28}{depth:>6}{nodes:>12,}{nodes / elapsed:>14,.0f}{'-':>18}{'-':>8}"
        )


if __name__ == "__main__":
    main()
