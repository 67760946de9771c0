"""A simple legitimate bot: one ply deep, prefers mates, then the richest capture.

It looks at each legal move once, plays a mate in one if it has one, otherwise
the capture of the most valuable piece (cheapest capturer first), otherwise a
promotion, otherwise a random quiet move that does not leave the moved piece en
prise to a cheaper piece when it can avoid it. It was the first "easy" level;
that level is now a search with a small budget (:mod:`bots`), and this one-ply
player stays as a fast legal opponent for the rules' tests.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from zanzibar.games.chess.moves import from_square, promotion, to_square
from zanzibar.games.chess.position import Position

if TYPE_CHECKING:
    from zanzibar.games.chess.rules import ChessAction, ChessRules, ChessState


def _value(pos: Position, code: int) -> int:
    return pos.variant.pieces[abs(code) - 1].value if code else 0


def choose_easy_move(pos: Position, rng: random.Random) -> int:
    """The easy bot's move in ``pos`` (which must have a legal move); ``pos`` is restored."""
    moves = pos.legal_moves()
    scored: list[tuple[int, int]] = []
    for move in moves:
        victim = _value(pos, pos.captured_code(move))
        mover = _value(pos, pos.board[from_square(move)])
        score = 10 * victim - mover // 10 if victim else 0
        promo = promotion(move)
        if promo:
            score += pos.variant.pieces[promo - 1].value
        pos.push(move)
        try:
            if not pos.legal_moves():
                score += 1_000_000 if pos.is_check() else -500
            elif pos.is_attacked(to_square(move), pos.turn) and mover > victim:
                score -= mover
        finally:
            pos.pop()
        scored.append((score, move))
    best = max(score for score, _ in scored)
    return rng.choice([move for score, move in scored if score == best])


class EasyBot:
    """A one-ply, capture-preferring, seeded player (the rules' tests use it)."""

    def __init__(self, rules: ChessRules, seed: int = 0) -> None:
        self.rules = rules
        self.rng = random.Random(seed)

    def choose(self, state: ChessState) -> ChessAction:
        """One legal action for the seat to act."""
        actions = self.rules.legal_actions(state)
        setups = [a for a in actions if a.kind == "setup"]
        if setups:
            return self.rng.choice(setups)
        pos = self.rules.position(state)
        move = choose_easy_move(pos, self.rng)
        return self.rules.move_action(pos, move)
