"""Moves as small integers, for speed.

A move is one ``int``: ``from | to << 8 | promotion << 16 | flags << 24``.
Squares are indices ``rank * files + file`` (0-based, a1 = 0), so a board of
up to 16 x 16 fits in eight bits. ``promotion`` is the promoted piece's type
index plus one (0 = no promotion). ``flags`` mark the special moves whose
side effects ``Position.push`` must know: en passant, double step (sets the
en-passant square), castling and the King's jump.

>>> m = encode(12, 28, flags=DOUBLE)
>>> from_square(m), to_square(m), promotion(m), bool(flags(m) & DOUBLE)
(12, 28, 0, True)
"""

from __future__ import annotations

EN_PASSANT = 1
DOUBLE = 2
CASTLE = 4
KING_JUMP = 8

NULL_MOVE = 0


def encode(frm: int, to: int, promo: int = 0, flags: int = 0) -> int:
    """Pack a move; ``promo`` is a piece type index + 1, or 0."""
    return frm | to << 8 | promo << 16 | flags << 24


def from_square(move: int) -> int:
    """The square the moving piece leaves."""
    return move & 0xFF


def to_square(move: int) -> int:
    """The square the moving piece lands on (for castling: the King's)."""
    return (move >> 8) & 0xFF


def promotion(move: int) -> int:
    """Promoted piece type index + 1, or 0."""
    return (move >> 16) & 0xFF


def flags(move: int) -> int:
    """The special-move flags (EN_PASSANT, DOUBLE, CASTLE, KING_JUMP)."""
    return move >> 24
