"""Internal cross-checks for what no outside engine can check (Eagle, Rhinoceros, King's jump).

* The reverse attack tables (``is_attacked``) against the forward move tables:
  a square is attacked by a side exactly when, with an enemy piece standing
  there, one of that side's pseudo-legal moves captures on it.
* The legality shortcuts (pins, hopper screens, suspects) against brute
  force: every pseudo-legal move is tried on the board.
* Make/unmake restores the FEN and the Zobrist key, which equals a fresh one.
Positions come from seeded random games of Zanzibar-S, Metamachy and Shako.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from zanzibar.games.chess.moves import CASTLE, KING_JUMP
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import Variant, load_variant


def pseudo_moves(pos: Position, colour: int) -> list[int]:
    out: list[int] = []
    pos._generate(colour, out, out, set())
    return out


def brute_attacked(pos: Position, square: int, by: int) -> bool:
    board = pos.board
    saved, saved_turn = board[square], pos.turn
    if saved * by > 0:
        return _attacks_own_square(pos, square, by)
    # an enemy (of ``by``) piece on the square: any non-royal type will do
    dummy = -by * next(i + 1 for i, p in enumerate(pos.variant.pieces) if not p.royal)
    board[square] = dummy
    pieces = pos.pieces[-by]
    had = square in pieces
    pieces[square] = dummy
    # the occupancy masks follow the board (the generator reads them)
    masks = (pos.occ, pos.side_occ[1], pos.side_occ[-1])
    bit = 1 << square
    pos.occ |= bit
    pos.side_occ[-by] |= bit
    pos.side_occ[by] &= ~bit
    try:
        return any((m >> 8) & 0xFF == square for m in pseudo_moves(pos, by))
    finally:
        board[square] = saved
        if had:
            pieces[square] = saved
        else:
            del pieces[square]
        pos.occ, pos.side_occ[1], pos.side_occ[-1] = masks
        pos.turn = saved_turn


def _attacks_own_square(pos: Position, square: int, by: int) -> bool:
    """A square holding a piece of ``by``: swap it for an enemy piece temporarily."""
    board = pos.board
    own = board[square]
    if own == pos.t.royal[by]:
        return pos.is_attacked(square, by)  # not needed: Kings are checked from the other side
    del pos.pieces[by][square]
    board[square] = 0
    try:
        return brute_attacked(pos, square, by)
    finally:
        board[square] = own
        pos.pieces[by][square] = own


def check_position(pos: Position) -> None:
    us = pos.turn
    for square in range(len(pos.board)):
        for by in (1, -1):
            if pos.board[square] == pos.t.royal[by]:
                continue
            assert pos.is_attacked(square, by) == brute_attacked(pos, square, by), (
                pos.fen(),
                pos.square_name(square),
                by,
            )
    legal = set(pos.legal_moves())
    specials = {m for m in legal if (m >> 24) & (CASTLE | KING_JUMP)}
    brute = set()
    king = pos.king_square(us)
    for move in pseudo_moves(pos, us):
        pos.push(move)
        target = pos.king_square(us)
        if not pos.is_attacked(target, -us):
            brute.add(move)
        pos.pop()
    if pos.ep >= 0:
        brute |= {m for m in legal if (m >> 24) & 1}  # en passant: checked by _is_safe only
    assert legal - specials == brute, (pos.fen(), king)


@pytest.mark.parametrize("name", ["zanzibar-s", "metamachy", "shako"])
@pytest.mark.parametrize("seed", range(3))
def test_random_games_are_consistent(name: str, seed: int) -> None:
    variant = load_variant(name)
    pos = Position(variant)
    rng = random.Random(seed)
    for ply in range(70):
        if ply % 7 == 0:
            check_position(pos)
        moves = pos.legal_moves()
        if not moves:
            break
        fen, key = pos.fen(), pos.hash
        for move in moves[:12]:
            pos.push(move)
            pos.pop()
            assert (pos.fen(), pos.hash) == (fen, key)
        # prefer captures so positions open up and long-range pieces meet
        captures = [m for m in moves if pos.is_capture(m)]
        pos.push(rng.choice(captures if captures and rng.random() < 0.6 else moves))
        assert pos.hash == Position(variant, pos.fen()).hash or pos.ep >= 0


@pytest.mark.parametrize("name", ["chess", "zanzibar-s", "metamachy", "shako"])
def test_gives_check_equals_push_and_is_check(name: str) -> None:
    """The search's check test without a push agrees with pushing and asking, for every
    legal move along random games (captures preferred, so lines open); so does the quick
    test by :meth:`Position.check_lines` for the plain moves it clears."""
    checks = passed = 0
    for pos, moves in _random_games(load_variant(name), seed=7):
        fen = pos.fen()
        lines = pos.check_lines()
        for move in moves:
            expected = _checks_after(pos, move)
            assert pos.gives_check(move) == expected, (fen, move)
            checks += expected
            if not move >> 16 and not (lines >> (move & 0xFF) & 1 or lines >> (move >> 8) & 1):
                # the search passes such a plain move as non-checking without asking
                assert not expected, (fen, move)
                passed += 1
        assert pos.fen() == fen
    assert checks > 0  # the games did meet checking moves
    assert passed > 0  # and moves that the King's lines of attack alone clear


def _random_games(variant: Variant, seed: int) -> Iterator[tuple[Position, list[int]]]:
    """Three random games of at most 60 plies (captures preferred, so lines open): each
    position with its legal moves, before the walk plays one of them."""
    rng = random.Random(seed)
    for _game in range(3):
        pos = Position(variant)
        for _ply in range(60):
            moves = pos.legal_moves()
            if not moves:
                break
            yield pos, moves
            captures = [m for m in moves if pos.is_capture(m)]
            pos.push(rng.choice(captures if captures and rng.random() < 0.6 else moves))


def _checks_after(pos: Position, move: int) -> bool:
    pos.push(move)
    try:
        return pos.is_check()
    finally:
        pos.pop()


@pytest.mark.parametrize("name", ["chess", "zanzibar-s", "metamachy", "shako"])
def test_left_king_exposed_equals_legality(name: str) -> None:
    """Out of check, every pseudo-legal move pushed is reported exposed exactly when it is
    not legal (the quick pass over moves that leave no line towards their King and make no
    hopper screen included), and the check test after it agrees with a full attack test."""
    exposed = 0
    for pos, moves in _random_games(load_variant(name), seed=11):
        if pos.is_check():
            continue
        legal = set(moves)
        for move in pseudo_moves(pos, pos.turn):
            pos.push(move)
            try:
                assert pos.left_king_exposed() == (move not in legal), (pos.fen(), move)
                exposed += move not in legal
                king = pos.king_square(pos.turn)
                assert pos.is_check() == pos.is_attacked(king, -pos.turn), pos.fen()
            finally:
                pos.pop()
    assert exposed > 0  # the games did meet moves that expose their King


#: Orthodox positions with quiet promotions, en passant, castling and a pinned piece.
_QUIET_FENS = [
    "r3k2r/1P4P1/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
    "4k3/8/8/8/1b6/8/3N4/4K2R w K - 0 1",
    "r3k3/8/8/8/8/8/pp6/4K3 b q - 0 1",
]


@pytest.mark.parametrize("name", ["chess", "zanzibar-s", "metamachy", "shako"])
def test_quiet_moves_are_the_legal_moves_that_take_nothing(name: str) -> None:
    """The search's quiet stage generates its moves alone: exactly the legal moves that
    land on an empty square, promote nothing and take nothing en passant, in the order
    they come among all the legal moves (the search's ordering keeps ties in it)."""
    variant = load_variant(name)
    walked = (pos for pos, _moves in _random_games(variant, seed=13))
    fens = _QUIET_FENS if name == "chess" else []
    kinds = {"promotion": 0, "en passant": 0, "castling or jump": 0, "check": 0}
    # (lazily: the walk moves one position on, checked at each step)
    for pos in itertools.chain(walked, (Position(variant, fen) for fen in fens)):
        legal = pos.legal_moves()
        board = pos.board
        expected = [
            m
            for m in legal
            if not board[(m >> 8) & 0xFF] and not (m >> 16) & 0xFF and not (m >> 24) & 1
        ]
        assert pos.quiet_moves() == expected, pos.fen()
        kinds["promotion"] += any(m >> 16 & 0xFF for m in legal)
        kinds["en passant"] += any(m >> 24 & 1 for m in legal)
        kinds["castling or jump"] += any(m >> 24 & (CASTLE | KING_JUMP) for m in legal)
        kinds["check"] += pos.is_check()
    # the positions did hold the moves left out, and the moves of a check
    assert kinds["castling or jump"] and kinds["check"], kinds
    if name == "chess":
        assert kinds["promotion"] and kinds["en passant"], kinds


@pytest.mark.parametrize("name", ["chess", "zanzibar-s", "metamachy", "shako"])
def test_attacks_through_each_square_make_up_the_attacks(name: str) -> None:
    """The check tests read a target's attack lines through one square at a time (a lone
    ray and bent riders' lines in place, the rest by a scan): a target is attacked exactly
    when its lines through some square hold an attack, and never otherwise."""
    rng = random.Random(17)
    lone_rays = attacked = 0
    for pos, _moves in _random_games(load_variant(name), seed=19):
        size = len(pos.board)
        for target in (*pos.kings[1:], *rng.sample(range(size), 6)):
            for by in (1, -1):
                through = [pos._attacked_at(target, by, s) for s in range(size)]
                assert any(through) == pos.is_attacked(target, by), (pos.fen(), target, by)
                attacked += any(through)
                lone_rays += sum(
                    1
                    for entry in pos._touch[by][target].values()
                    if entry is not None and entry[0] is not None
                )
    assert attacked > 0 and lone_rays > 0


@pytest.mark.parametrize("name", ["chess", "zanzibar-s", "metamachy", "shako"])
def test_square_flags_match_their_masks(name: str) -> None:
    """The check tests read a square's bit of the King's lines, of the squares that uncover or
    screen an attack and of a piece's reach as flags by square: each flag table holds exactly
    its mask's bits (squares beyond the board included: none)."""
    pos = Position(load_variant(name))
    size = len(pos.board)

    def as_mask(flags: tuple[int, ...] | bytes) -> int:
        assert len(flags) == size and set(flags) <= {0, 1}
        return int("".join(map(str, reversed(flags))), 2)

    for colour in (1, -1):
        for target in range(size):
            assert as_mask(pos._line_flags[colour][target]) == pos._lines[colour][target]
            leave, screens = pos._uncover[colour][target]
            leave_flags, screen_flags = pos._uncover_flags[colour][target]
            assert (as_mask(leave_flags), as_mask(screen_flags)) == (leave, screens)
    for code, row in enumerate(pos._reach):
        for square, mask in enumerate(row):
            assert as_mask(pos._reach_flags[code][square]) == mask, (code, square)
    # and push's bits by square
    assert pos._bits == [1 << square for square in range(size)]
