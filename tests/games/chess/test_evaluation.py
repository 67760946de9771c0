"""The static evaluation: symmetric, material first, placement and pawn progress second."""

from __future__ import annotations

import random

import pytest

from zanzibar.games.chess.evaluation import (
    average_targets,
    derived_value,
    empty_board_targets,
    evaluate,
    evaluator_for,
)
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant, load_variant_text, shipped_variants

SHIPPED = shipped_variants()


def _mirror_fen(fen: str) -> str:
    """The same position with colours swapped and the board turned (no rights, no en passant)."""
    board, turn, *_ = fen.split()
    ranks = board.split("/")
    flipped = "/".join(rank.swapcase() for rank in reversed(ranks))
    return f"{flipped} {'b' if turn == 'w' else 'w'} - - 0 1"


def _strip_rights(fen: str) -> str:
    board, turn, *_ = fen.split()
    return f"{board} {turn} - - 0 1"


@pytest.mark.parametrize("name", SHIPPED)
def test_start_position_is_level(name: str) -> None:
    assert evaluate(Position(load_variant(name))) == 0


@pytest.mark.parametrize("name", SHIPPED)
def test_colour_symmetry_on_random_positions(name: str) -> None:
    """Swapping colours (and the side to move) leaves the score for the side to move unchanged."""
    variant = load_variant(name)
    rng = random.Random(4)
    for _game in range(3):
        pos = Position(variant)
        for _ply in range(24):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(sorted(moves)))
            plain = Position(variant, _strip_rights(pos.fen()))
            mirrored = Position(variant, _mirror_fen(pos.fen()))
            assert evaluate(plain) == evaluate(mirrored), pos.fen()


@pytest.mark.parametrize("name", SHIPPED)
def test_every_piece_has_a_value(name: str) -> None:
    variant = load_variant(name)
    values = evaluator_for(variant).values
    for piece in variant.pieces:
        if piece.royal:
            assert values[piece.letter] == 0
        else:
            assert values[piece.letter] > 0
            if piece.value:
                assert values[piece.letter] == piece.value


def test_score_is_from_the_side_to_move() -> None:
    variant = load_variant("chess")
    white_up = Position(variant, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    black_to_move = Position(variant, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
    assert 800 < evaluate(white_up) < 1100
    assert evaluate(black_to_move) == -evaluate(white_up)


def test_centralised_knight_beats_cornered_knight() -> None:
    variant = load_variant("chess")
    centre = Position(variant, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1")
    corner = Position(variant, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1")
    assert evaluate(centre) - evaluate(corner) >= 15


def test_lion_in_the_corner_loses_more_than_a_rook() -> None:
    """The empty-board mobility term weighs each piece by its own geometry."""
    variant = load_variant("zanzibar-s")
    ev = evaluator_for(variant)
    lion = variant.type_index("L") + 1
    rook = variant.type_index("R") + 1
    centre, corner = 5 * 12 + 5, 0
    assert ev.mg[lion][centre] - ev.mg[lion][corner] > ev.mg[rook][centre] - ev.mg[rook][corner]


def test_advanced_pawn_is_worth_more_in_the_endgame() -> None:
    variant = load_variant("chess")
    home = Position(variant, "4k3/8/8/8/8/8/P7/4K3 w - - 0 1")
    seventh = Position(variant, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert evaluate(seventh) - evaluate(home) >= 150


def test_zanzibar_prince_gains_by_advancing() -> None:
    variant = load_variant("zanzibar-s")
    home = Position(variant, "5k6/12/12/12/12/12/12/12/12/4I7/12/5K6 w - - 0 1")
    far = Position(variant, "5k6/4I7/12/12/12/12/12/12/12/12/12/5K6 w - - 0 1")
    assert evaluate(far) > evaluate(home)


def test_empty_board_targets() -> None:
    chess = load_variant("chess")
    assert average_targets(chess.piece_by_letter("N"), 8, 8) == pytest.approx(5.25)
    assert average_targets(chess.piece_by_letter("R"), 8, 8) == pytest.approx(14.0)
    assert average_targets(chess.piece_by_letter("Q"), 8, 8) == pytest.approx(22.75)
    zs = load_variant("zanzibar-s")
    lion = zs.piece_by_letter("L")
    assert empty_board_targets(lion.atoms, 12, 12, 5 * 12 + 5) == 24  # all 24 squares within two
    assert empty_board_targets(lion.atoms, 12, 12, 0) == 8
    eagle = zs.piece_by_letter("G")
    # Eagle in a corner: one diagonal step to b2, then outwards along rank 2 and file b
    assert empty_board_targets(eagle.atoms, 12, 12, 0) == 1 + 10 + 10


def test_derived_values_when_the_file_gives_none() -> None:
    """A user's variant without values still gets sensible, ordered material values."""
    import importlib.resources

    text = (
        importlib.resources.files("zanzibar.games.chess") / "variants" / "chess.toml"
    ).read_text(encoding="utf-8")
    bare = "\n".join(line for line in text.splitlines() if not line.startswith("value"))
    variant = load_variant_text(bare.replace('name = "chess"', 'name = "bare-chess"'))
    values = evaluator_for(variant).values
    assert values["N"] == derived_value(variant.piece_by_letter("N"), 8, 8) == 313
    assert values["P"] < values["N"] < values["B"] < values["R"] < values["Q"]
    assert values["Q"] == 891
    assert evaluate(Position(variant)) == 0
