"""bench/search_agreement.py: the engines' moves on game positions, judged by Stockfish."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from _bench_module import load_bench

ROOT = Path(__file__).resolve().parents[3]
BENCH = ROOT / "bench" / "search_agreement.py"


def _bench() -> ModuleType:
    return load_bench("search_agreement")


def test_positions_are_taken_at_the_step_from_the_sample() -> None:
    bench = _bench()
    fens = bench.positions(3, 100)
    assert len(fens) == 3 and len(set(fens)) == 3
    assert all(len(fen.split()) == 6 for fen in fens)  # FENs, the game result left off


def test_the_worker_answers_a_legal_move_per_position() -> None:
    """The worker searches each position and answers in coordinates (a mate in one here:
    at any budget the search finds it)."""
    fens = ["6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]
    out = subprocess.run(
        [sys.executable, str(BENCH), "--worker", "--nodes", "200"],
        input=json.dumps(fens),
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
        capture_output=True,
        text=True,
        check=True,
    )
    moves = json.loads(out.stdout)
    assert moves[0] == "a1a8" and len(moves) == 2 and len(moves[1]) == 4


@pytest.mark.skipif(not Path("/usr/games/stockfish").exists(), reason="needs stockfish")
def test_a_move_that_misses_the_mate_loses_and_the_mate_does_not() -> None:
    bench = _bench()
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    judged = bench.losses([fen], [["a1a8"], ["a1a2"]], 6)
    assert judged[0]["a1a8"] == 0
    assert judged[0]["a1a2"] > 300
