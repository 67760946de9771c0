"""Cost of the evaluation's King-place term, on the same positions, with and without it.

``bench_search.py --instructions`` compares whole searches, whose trees differ once an
evaluation term changes what the search prefers; this script keeps the positions fixed:
it records every position the search evaluates from the orthodox start and from an
Italian opening (``--nodes`` each), then evaluates them all once with a fresh evaluator,
with the term or with it replaced by a zero. Each variant runs in its own interpreter
under cachegrind (instructions only, a fixed hash seed), and a third run that records the
positions without evaluating them is subtracted, so the figures are the instructions of
the evaluations alone, exact whatever the machine's load. The positions are loaded from
their FEN, so each evaluation also sums the piece-square table from scratch (a search's
positions carry that sum): the share printed is a lower bound of the term's share in a
search's evaluation.

Usage: ``.venv/bin/python bench/bench_king_place.py [--nodes 3000]``
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from zanzibar.games.chess import evaluation
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.search import Searcher, SearchLimits
from zanzibar.games.chess.variant import load_variant

STARTS = (None, "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3")


def recorded_positions(nodes: int) -> list[Position]:
    """Every position the search evaluates from :data:`STARTS` at ``nodes`` a search."""
    variant = load_variant("chess")
    fens: list[str] = []
    plain = evaluation.Evaluator.evaluate

    def recording(self: evaluation.Evaluator, pos: Position) -> int:
        fens.append(pos.fen())
        return plain(self, pos)

    evaluation.Evaluator.evaluate = recording  # type: ignore[method-assign]
    try:
        for fen in STARTS:
            start = Position(variant, fen) if fen else Position(variant)
            Searcher(variant).search(start, SearchLimits(node_limit=nodes))
    finally:
        evaluation.Evaluator.evaluate = plain  # type: ignore[method-assign]
    return [Position(variant, fen) for fen in fens]


def evaluate_all(positions: list[Position], mode: str) -> None:
    """Evaluate ``positions`` with a fresh evaluator (empty caches): ``with`` the term,
    ``without`` it (a zero instead), or ``none`` (no evaluation: the baseline)."""
    if mode == "none":
        return
    ev = evaluation.build_evaluator(positions[0].variant)
    if mode == "without":

        def zero(pos: Position, white_pawns: int, black_pawns: int) -> int:
            return 0

        ev._king_places = zero  # type: ignore[method-assign]
    for pos in positions:
        ev.evaluate(pos)


#: cachegrind counting instructions only (no cache simulation: faster, the same count).
CACHEGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")


def count(mode: str, nodes: int) -> int:
    """Instructions of a worker run in ``mode`` under cachegrind."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(root / "src"))
    command = [*CACHEGRIND, sys.executable, __file__, "--worker", mode, "--nodes", str(nodes)]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    match = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if match is None:
        raise RuntimeError("no instruction count in cachegrind's output:\n" + out.stderr)
    return int(match.group(1).replace(",", ""))


def main() -> None:
    """Count the three runs, print the evaluations' instructions and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--worker", choices=("with", "without", "none"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        positions = recorded_positions(args.nodes)
        evaluate_all(positions, args.worker)
        print(len(positions))
        return
    base = count("none", args.nodes)
    without = count("without", args.nodes) - base
    with_term = count("with", args.nodes) - base
    evaluated = len(recorded_positions(args.nodes))
    print(
        f"{evaluated} positions: instructions per evaluation without the term "
        f"{without / evaluated:,.0f}, with it {with_term / evaluated:,.0f}, "
        f"ratio {with_term / without:.3f}"
    )


if __name__ == "__main__":
    main()
