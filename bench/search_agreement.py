"""Move quality at a fixed node budget: this tree's search against another commit's, judged
by Stockfish, on positions of real games.

A strength match (``bench/strength.py --versus``) is the real test of a change that alters
the search's tree, but it needs hours of CPU; on a shared machine whose games must run in a
low-weight session it may not finish at all. This bench asks a cheaper, narrower question:
on the same positions, at the same node budget, does the changed search choose moves as good
as the reference's? Each engine (this tree, and ``--reference`` extracted from git at run
time) searches every position with a fresh searcher to ``--nodes``, in its own interpreter;
then Stockfish (``/usr/games/stockfish``) scores every move either engine chose, searching
the position after it to ``--depth`` plies, and its own best move the same way. A move's
loss is the best move's score less its own (centipawns, from the mover's view, capped at
``CAP`` so that one missed mate does not swamp the mean). It prints how many moves the two
engines agree on, each engine's mean loss, and the positions where they differ.

Positions: every ``--step``-th position of ``bench/data/texel_chess.txt.gz`` (quiet
positions of orthodox self-play games), up to ``--count``.

Usage: ``.venv/bin/python bench/search_agreement.py --reference 3134400 [--nodes 4000]
[--count 60] [--step 197] [--depth 12]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import discard, extract

ROOT = Path(__file__).resolve().parent.parent
STOCKFISH = "/usr/games/stockfish"
#: Centipawn losses are capped here (a mate counts as this much).
CAP = 1_000


def positions(count: int, step: int) -> list[str]:
    """FENs: every ``step``-th line of the texel sample, ``count`` of them."""
    with gzip.open(ROOT / "bench" / "data" / "texel_chess.txt.gz", "rt") as handle:
        lines = [line.split(";")[0] for line in handle if line.strip()]
    return lines[::step][:count]


def worker(nodes: int, fens: list[str]) -> None:
    """Search each FEN with the engine first on ``sys.path``; print the moves (UCI) as JSON."""
    from zanzibar.games.chess.notation import format_coordinate
    from zanzibar.games.chess.position import Position
    from zanzibar.games.chess.search import Searcher, SearchLimits
    from zanzibar.games.chess.variant import load_variant

    variant = load_variant("chess")
    moves = []
    for fen in fens:
        pos = Position(variant, fen)
        result = Searcher(variant).search(pos, SearchLimits(node_limit=nodes))
        moves.append(format_coordinate(pos, result.move) if result.move else "")
    print(json.dumps(moves))


def engine_moves(src: Path, nodes: int, fens: list[str]) -> list[str]:
    """The moves of the engine in ``src`` (a worker in its own interpreter)."""
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    out = subprocess.run(
        [sys.executable, __file__, "--worker", "--nodes", str(nodes)],
        input=json.dumps(fens),
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=src.parent,
    )
    moves: list[str] = json.loads(out.stdout)
    return moves


def losses(fens: list[str], chosen: list[list[str]], depth: int) -> list[dict[str, int]]:
    """Per position, each chosen move's loss against Stockfish's best, by its judgement."""
    import chess
    import chess.engine

    judged: list[dict[str, int]] = []
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=600)
    try:
        for index, fen in enumerate(fens):
            board = chess.Board(fen)
            limit = chess.engine.Limit(depth=depth)
            best = engine.analyse(board, limit)["score"].relative.score(mate_score=CAP * 10)
            row: dict[str, int] = {}
            for uci in {moves[index] for moves in chosen if moves[index]}:
                info = engine.analyse(board, limit, root_moves=[chess.Move.from_uci(uci)])
                score = info["score"].relative.score(mate_score=CAP * 10)
                assert best is not None and score is not None
                row[uci] = min(max(best - score, 0), CAP)
            judged.append(row)
    finally:
        engine.quit()
    return judged


def main() -> None:
    """Both engines' moves, Stockfish's judgement, and the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default="3134400", help="the commit to compare with")
    parser.add_argument("--nodes", type=int, default=4000)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--step", type=int, default=197)
    parser.add_argument("--depth", type=int, default=12, help="Stockfish's depth per move")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.nodes, json.loads(sys.stdin.read()))
        return
    fens = positions(args.count, args.step)
    reference = extract(args.reference)
    if reference is None:
        raise SystemExit(f"git could not extract commit {args.reference}")
    try:
        ref = engine_moves(reference, args.nodes, fens)
    finally:
        discard(reference)
    new = engine_moves(ROOT / "src", args.nodes, fens)
    judged = losses(fens, [ref, new], args.depth)
    same = sum(a == b for a, b in zip(ref, new, strict=True))
    ref_loss = [row.get(m, CAP) for row, m in zip(judged, ref, strict=True)]
    new_loss = [row.get(m, CAP) for row, m in zip(judged, new, strict=True)]
    count = len(fens)
    print(f"{count} positions, {args.nodes} nodes a move, Stockfish depth {args.depth}")
    for fen, a, b, la, lb in zip(fens, ref, new, ref_loss, new_loss, strict=True):
        if a != b:
            print(f"  {fen}: {args.reference} {a} (loss {la}), new {b} (loss {lb})")
    print(
        f"same move in {same} of {count}; mean loss {args.reference} "
        f"{sum(ref_loss) / count:.1f} cp, new {sum(new_loss) / count:.1f} cp; "
        f"where they differ: {sum(la > lb for la, lb in zip(ref_loss, new_loss, strict=True))}"
        f" better for new, {sum(la < lb for la, lb in zip(ref_loss, new_loss, strict=True))}"
        f" better for {args.reference}"
    )


if __name__ == "__main__":
    main()
