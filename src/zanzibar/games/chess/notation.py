"""Moves as text: coordinates, readable algebraic, and sentences.

Placeholder head; completed below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zanzibar.engine.errors import IllegalActionError
from zanzibar.games.chess.fen import square_name
from zanzibar.games.chess.moves import from_square, promotion, to_square

if TYPE_CHECKING:
    from zanzibar.games.chess.position import Position


def format_coordinate(pos: Position, move: int) -> str:
    """``e2e4``, ``e11e12q`` (promotion letter lowercase)."""
    v = pos.variant
    text = square_name(v, from_square(move)) + square_name(v, to_square(move))
    promo = promotion(move)
    if promo:
        text += v.pieces[promo - 1].letter.lower()
    return text


def parse_coordinate(pos: Position, text: str) -> int:
    """The legal move written ``text`` in coordinates; IllegalActionError otherwise."""
    wanted = text.strip().lower()
    for move in pos.legal_moves():
        if format_coordinate(pos, move) == wanted:
            return move
    raise IllegalActionError(f"{text!r} is not a legal move here")
