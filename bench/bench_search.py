"""Search speed: depth reached in a time budget, beside references measured in the same run.

For each position (Zanzibar-S and orthodox chess start positions, plus a
middlegame of each) the bot's search runs for ``--seconds`` (default 1) and prints the
depth it completed, its nodes and nodes per second. Beside it, in the same
run and the same budget:

* a plain alpha-beta (no table, no ordering, no quiescence, no pruning),
  iteratively deepened: the depth *it* completes and its node rate, to show
  what the search's machinery buys;
* raw perft over the same position for the same time: the price of the
  move generation alone (nodes counted as positions whose moves were generated,
  the same unit as a search node).

Usage: ``.venv/bin/python bench/bench_search.py [--seconds 1] [--repeat 1]``
"""

from __future__ import annotations

import argparse
import time

from zanzibar.games.chess.evaluation import evaluator_for
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.search import Searcher, SearchLimits, fixed_depth_alphabeta
from zanzibar.games.chess.variant import load_variant

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

#: A crowded Zanzibar-S middlegame from a bot game (Black to move, many captures about).
ZANZIBAR_MIDDLEGAME = (
    "cmz3kuv1mc/1rnbw1gw1r1e/p1pi2zipbp1/9pn1/1p1p1pp4p/e2f8/7Q4/4IPL5/2E1Z1I2E2/"
    "PPPPN1P1PPPP/1R4WWBNR1/CM1V2KUV1MC b Kk - 1 26"
)

POSITIONS = [
    ("zanzibar-s", None, "Zanzibar-S start"),
    ("zanzibar-s", ZANZIBAR_MIDDLEGAME, "Zanzibar-S crowded middlegame"),
    ("chess", None, "chess start"),
    ("chess", KIWIPETE, "chess Kiwipete"),
]


def bot_search(pos: Position, seconds: float) -> tuple[int, int, float]:
    """Depth completed, nodes and seconds of the bot's search in ``seconds``."""
    result = Searcher(pos.variant).search(pos, SearchLimits(time_limit=seconds))
    return result.depth, result.nodes, result.seconds


def plain_search(pos: Position, seconds: float) -> tuple[int, int, float]:
    """Plain alpha-beta deepened one ply at a time until the budget is spent.

    A depth counts only if it finished within the budget (the last one
    started may overrun it; its time is not counted towards the rate).
    """
    evaluator = evaluator_for(pos.variant)
    start = time.perf_counter()
    depth_done = 0
    nodes_done = 0
    spent = 0.0
    depth = 1
    while True:
        _score, nodes = fixed_depth_alphabeta(pos, depth, evaluator)
        elapsed = time.perf_counter() - start
        if elapsed > seconds:
            if not depth_done:  # nothing finished in time: report the overrun honestly
                return 0, nodes, elapsed
            break
        depth_done, nodes_done, spent = depth, nodes_done + nodes, elapsed
        depth += 1
    return depth_done, nodes_done, spent


def perft_rate(pos: Position, seconds: float) -> tuple[int, float]:
    """Positions expanded (moves generated) by a perft walk, stopped after ``seconds``."""
    count = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()

    def walk(depth: int) -> bool:
        nonlocal count
        count += 1
        moves = pos.legal_moves()
        if depth == 0:
            return True
        for move in moves:
            pos.push(move)
            alive = walk(depth - 1)
            pos.pop()
            if not alive or time.perf_counter() > deadline:
                return False
        return True

    walk(4)
    return count, time.perf_counter() - start


def main() -> None:
    """Print one block per position."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=1, help="keep the best of N runs")
    args = parser.parse_args()
    print(f"budget {args.seconds:g} s per search; node = one position visited")
    header = f"{'':34} {'depth':>5} {'nodes':>9} {'nodes/s':>9}"
    for variant_name, fen, label in POSITIONS:
        pos = Position(load_variant(variant_name), fen)
        print(f"\n{label}  ({len(pos.legal_moves())} legal moves)")
        print(header)
        best = max((bot_search(pos, args.seconds) for _ in range(args.repeat)), key=_rate)
        plain = max((plain_search(pos, args.seconds) for _ in range(args.repeat)), key=_rate)
        count, spent = perft_rate(pos, args.seconds)
        _row("bot search (PVS, TT, quiescence)", best)
        _row("reference: plain alpha-beta", plain)
        print(f"{'reference: perft, moves generated':34} {'':>5} {count:>9} {count / spent:>9.0f}")


def _rate(run: tuple[int, int, float]) -> float:
    depth, nodes, seconds = run
    return depth * 1e9 + (nodes / seconds if seconds else 0.0)


def _row(label: str, run: tuple[int, int, float]) -> None:
    depth, nodes, seconds = run
    rate = nodes / seconds if seconds else 0.0
    print(f"{label:34} {depth:>5} {nodes:>9} {rate:>9.0f}")


if __name__ == "__main__":
    main()
