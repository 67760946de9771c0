"""bench/bench_endings.py: random won endings against a bare King, played out."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from _bench_module import load_bench
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant


def _endings() -> ModuleType:
    return load_bench("bench_endings")


@pytest.mark.parametrize(("name", "material"), [("chess", "BN"), ("zanzibar-s", "R")])
def test_random_starts_are_legal_with_the_material_asked(name: str, material: str) -> None:
    endings = _endings()
    variant = load_variant(name)
    rng = random.Random(5)
    for _ in range(20):
        pos = Position(variant, endings.random_start(variant, material, rng))
        assert pos.turn == 1 and pos.outcome() is None
        assert not pos.is_attacked(pos.king_square(-1), 1)
        assert len(pos.piece_squares(-1)) == 1
        letters = sorted(variant.pieces[abs(c) - 1].letter for c in pos.piece_squares(1).values())
        assert letters == sorted(["K", *material])


def test_a_rook_ending_is_played_to_mate_and_counted() -> None:
    endings = _endings()
    variant = load_variant("chess")
    game = endings.play_out(variant, "8/8/3k4/8/8/8/8/R3K3 w - - 0 1", "casual", 6_000, 100, 1)
    assert (game["end"], game["winner"]) == ("checkmate", 1)
    assert endings.summary([game, {"end": "move_rule", "winner": 0, "plies": 100}]) == (
        1,
        game["plies"],
        {"checkmate": 1, "move_rule": 1},
    )
