"""Perft: count the leaves of the legal move tree, to check and time move generation."""

from __future__ import annotations

from zanzibar.games.chess.position import Position


def perft(pos: Position, depth: int) -> int:
    """Number of legal move sequences of length ``depth`` (bulk-counted at the last ply).

    >>> from zanzibar.games.chess.variant import load_variant
    >>> perft(Position(load_variant("chess")), 2)
    400
    """
    if depth <= 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    push = pos.push
    pop = pos.pop
    for move in moves:
        push(move)
        total += perft(pos, depth - 1)
        pop()
    return total


def divide(pos: Position, depth: int) -> list[tuple[int, int]]:
    """Perft split by first move: ``[(move, count), ...]``."""
    out = []
    for move in pos.legal_moves():
        pos.push(move)
        out.append((move, perft(pos, depth - 1)))
        pos.pop()
    return out
