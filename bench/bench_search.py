"""Search speed: today's engine (a pristine copy of the reference commit) beside this one.

For each position (Zanzibar-S and orthodox chess start positions, plus
middlegames) the bot's search runs to a budget of ``--nodes`` (default 30,000), once
with the engine of ``REFERENCE_COMMIT`` (the search before the speed work,
extracted with ``git archive`` into a temporary directory at run time) and
once with the working tree's, each in its own fresh interpreter, alternately,
``--repeat`` times; the best run of each is kept (the machine may be shared).
It prints the depth completed, and the nodes per second of each, and the
ratio new / old of the node rates. Time is the process's CPU time, so that
other programs on a shared machine slow neither side.

A node is one position visited by the search (inner or quiescence), counted
the same way by both engines.

Usage: ``.venv/bin/python bench/bench_search.py [--nodes 30000] [--repeat 3]
[--reference COMMIT]``; ``--reference`` compares with another commit instead (for
instance the main branch before a change, to see that change's own gain).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

#: The engine as it was before the speed work (main, 2026-11-25).
REFERENCE_COMMIT = "52f7176d6847a8a397a923d600b56309f2416289"

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

#: A crowded Zanzibar-S middlegame from a bot game (Black to move, many captures about).
ZANZIBAR_MIDDLEGAME = (
    "cmz3kuv1mc/1rnbw1gw1r1e/p1pi2zipbp1/9pn1/1p1p1pp4p/e2f8/7Q4/4IPL5/2E1Z1I2E2/"
    "PPPPN1P1PPPP/1R4WWBNR1/CM1V2KUV1MC b Kk - 1 26"
)

#: An orthodox middlegame (Italian game, both sides castled).
CHESS_MIDDLEGAME = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7"

POSITIONS = [
    ("zanzibar-s", None, "Zanzibar-S start"),
    ("zanzibar-s", ZANZIBAR_MIDDLEGAME, "Zanzibar-S crowded middlegame"),
    ("chess", None, "chess start"),
    ("chess", CHESS_MIDDLEGAME, "chess middlegame (Italian)"),
    ("chess", KIWIPETE, "chess Kiwipete"),
]

ROOT = Path(__file__).resolve().parent.parent


def worker(nodes: int) -> None:
    """Search every position once with the engine first on ``sys.path``; print JSON."""
    import time

    from zanzibar.games.chess.position import Position
    from zanzibar.games.chess.search import Searcher, SearchLimits
    from zanzibar.games.chess.variant import load_variant

    rows = []
    for variant_name, fen, _label in POSITIONS:
        variant = load_variant(variant_name)
        pos = Position(variant, fen)
        start = time.process_time()
        result = Searcher(variant).search(pos, SearchLimits(node_limit=nodes))
        rows.append((result.depth, result.nodes, time.process_time() - start))
    print(json.dumps(rows))


def reference_tree(directory: Path, commit: str = REFERENCE_COMMIT) -> Path:
    """Extract ``commit``'s ``src`` into ``directory``; return that ``src``."""
    archive = directory / "reference.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(directory, filter="data")
    return directory / "src"


def run(src: Path, nodes: int) -> list[tuple[int, int, float]]:
    """One worker run with the engine found in ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(
        [sys.executable, __file__, "--worker", "--nodes", str(nodes)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=src.parent,
    )
    return [tuple(row) for row in json.loads(out.stdout)]  # type: ignore[misc]


def _rate(row: tuple[int, int, float]) -> float:
    return row[1] / row[2] if row[2] else 0.0


def main() -> None:
    """Print one line per position: old and new depth and node rate, and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=30_000)
    parser.add_argument("--repeat", type=int, default=3, help="keep the best of N runs each")
    parser.add_argument(
        "--reference", default=REFERENCE_COMMIT, help="the commit to compare with (old)"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.nodes)
        return
    with tempfile.TemporaryDirectory() as tmp:
        old_src = reference_tree(Path(tmp), args.reference)
        new_src = ROOT / "src"
        best_old: list[tuple[int, int, float]] = []
        best_new: list[tuple[int, int, float]] = []
        for _ in range(args.repeat):
            for best, src in ((best_old, old_src), (best_new, new_src)):
                rows = run(src, args.nodes)
                if not best:
                    best.extend(rows)
                else:
                    for i, row in enumerate(rows):
                        if _rate(row) > _rate(best[i]):
                            best[i] = row
    print(
        f"budget {args.nodes} nodes per search, CPU time, best of {args.repeat}; "
        f"old = {args.reference[:7]}, new = this tree"
    )
    print(f"{'position':31} {'old d':>5} {'old n/s':>8} {'new d':>5} {'new n/s':>8} {'ratio':>6}")
    ratios = []
    for (_v, _f, label), old, new in zip(POSITIONS, best_old, best_new, strict=True):
        ratio = _rate(new) / _rate(old) if _rate(old) else 0.0
        ratios.append(ratio)
        print(
            f"{label:31} {old[0]:>5} {_rate(old):>8.0f} {new[0]:>5} {_rate(new):>8.0f} "
            f"{ratio:>5.2f}x"
        )
    product = 1.0
    for r in ratios:
        product *= r
    print(f"geometric mean of the ratios: {product ** (1 / len(ratios)):.2f}x")


if __name__ == "__main__":
    main()
