"""Bot levels: legal moves everywhere, mates found, the fast position machinery exact.

Random positions come from seeded random games of every shipped variant, so
they hold every piece kind (riders, hoppers, lame and bent movers, the King's
jump, promotions, en passant).
"""

from __future__ import annotations

import random

import pytest

from zanzibar.games.chess.bots import ChessBot
from zanzibar.games.chess.evaluation import evaluator_for
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.search import fixed_depth_alphabeta
from zanzibar.games.chess.variant import Variant, load_variant, shipped_variants

LEVELS = ("easy", "casual", "medium", "hard")


def random_positions(variant: Variant, count: int, seed: int, plies: int = 60) -> list[str]:
    """FENs met along seeded random games (a new game when one ends)."""
    rng = random.Random(seed)
    fens: list[str] = []
    pos = Position(variant)
    while len(fens) < count:
        moves = pos.legal_moves()
        if not moves or len(pos.move_stack) >= plies:
            pos = Position(variant)
            continue
        pos.push(rng.choice(sorted(moves)))
        if rng.random() < 0.3:
            fens.append(pos.fen())
    return fens


@pytest.mark.parametrize("name", shipped_variants())
def test_every_level_plays_legal_moves_in_random_positions(name: str) -> None:
    variant = load_variant(name)
    for index, fen in enumerate(random_positions(variant, 12, seed=len(name))):
        pos = Position(variant, fen)
        legal = pos.legal_moves()
        if not legal:
            continue
        level = LEVELS[index % len(LEVELS)]
        move = ChessBot(variant, level, index, node_limit=200).choose_move(pos)
        assert move in legal, (level, fen)
        assert pos.fen() == fen  # the bot leaves the position as it was


@pytest.mark.parametrize("name", shipped_variants())
def test_fast_machinery_agrees_with_the_plain_one(name: str) -> None:
    """Checks seen through changed lines, generated captures, the incremental
    piece-square sum, the tracked riders, the exchange evaluation and the riders'
    mobility, against full recomputation."""
    variant = load_variant(name)
    evaluator = evaluator_for(variant)
    value = evaluator.value_by_code
    rng = random.Random(7)
    flags = evaluator.rider_flags
    pos = Position(variant)
    pos.attach_table(evaluator.packed)
    pos.track(flags)
    checks = 0
    for _ in range(400):
        moves = pos.legal_moves()
        if not moves:
            pos = Position(variant)
            pos.attach_table(evaluator.packed)
            pos.track(flags)
            continue
        # the riders kept apart move by move, through every push and pop so far
        assert pos.tracked == {s: c for s, c in enumerate(pos.board) if flags[c]}, pos.fen()
        king = pos.kings[pos.turn]
        full_check = king >= 0 and pos.is_attacked(king, -pos.turn)
        assert pos.is_check() == full_check, pos.fen()
        checks += full_check
        fresh = Position(variant, pos.fen())
        fresh.attach_table(evaluator.packed)
        assert pos.psq == fresh.psq and pos.occ == fresh.occ
        assert pos.side_occ == fresh.side_occ
        if not full_check:
            legal_tactical = {m for m in moves if pos.is_capture(m) or (m >> 16) & 0xFF}
            generated = set()
            for m in pos.captures():
                pos.push(m)
                if not pos.left_king_exposed():
                    generated.add(m)
                pos.pop()
            assert generated == legal_tactical, pos.fen()
            # asked for the sign only, the exchange stops early but says the same
            for m in pos.captures():
                assert (pos.see(m, value, True) < 0) == (pos.see(m, value) < 0), pos.fen()
        # the riders' mobility looked up by occupancy equals the walk along their lines
        walked = sum(
            evaluator._rider_count(code, square, pos.occ)
            for colour in (1, -1)
            for square, code in pos.piece_squares(colour).items()
            if evaluator.rays and evaluator.rays[code][square]
        )
        assert evaluator._mobility(pos) == walked / 10, pos.fen()
        for m in moves:
            if not pos.is_capture(m) or (m >> 16) & 0xFF:
                continue
            victim = value[pos.captured_code(m)]
            pos.push(m)
            # nobody can take back, not even through the square the capturer left
            quiet_landing = not pos.is_attacked((m >> 8) & 0xFF, pos.turn)
            pos.pop()
            if quiet_landing:
                assert pos.see(m, value) == victim
        pos.push(rng.choice(sorted(moves)))
    assert checks > 0


def test_static_exchange_on_a_defended_pawn() -> None:
    variant = load_variant("chess")
    value = evaluator_for(variant).value_by_code
    # Rook takes a pawn defended by a pawn: wins 100, loses 500.
    pos = Position(variant, "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1")
    assert pos.see(pos.parse_uci("d1d5"), value) == 100 - 500
    assert pos.see(pos.parse_uci("d1d5"), value, sign_only=True) < 0
    # Two rooks against one defender: the second rook backs the first (an x-ray).
    pos = Position(variant, "4k3/8/4p3/3p4/8/8/3R4/3RK3 w - - 0 1")
    assert pos.see(pos.parse_uci("d2d5"), value) == 100 - 500 + 100
    pos = Position(variant, "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1")
    assert pos.see(pos.parse_uci("d2d5"), value) == 100
    assert pos.see(pos.parse_uci("d2d5"), value, sign_only=True) == 100


# -- mates each level must find ------------------------------------------------------

#: (variant, FEN, moves to mate). Zanzibar-S ones use a Lion, Eagle, Rhinoceros,
#: Cannon and Buffalo (found by an exhaustive search, which the test repeats).
MATES = [
    ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
    ("chess", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1),
    ("zanzibar-s", "12/12/12/12/12/12/12/9L2/9K2/1C10/12/11k w - - 0 1", 1),
    ("zanzibar-s", "12/12/12/7G4/12/12/12/12/12/12/k1K9/7U4 w - - 0 1", 1),
    ("zanzibar-s", "11k/6U5/11K/12/12/12/12/12/12/12/10G1/12 w - - 0 1", 1),
    ("chess", "k7/8/2K5/8/8/8/8/7R w - - 0 1", 2),
    ("chess", "r5k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1", 2),
    ("zanzibar-s", "5FL3k1/12/12/12/12/12/12/12/4p7/2K9/12/12 w - - 0 1", 2),
    ("zanzibar-s", "k11/12/10p1/12/12/4L7/12/8F3/12/12/12/5K6 w - - 0 1", 2),
    # smothered: the Knight alone
    ("chess", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", 1),
    # Crocodile (rides and hops diagonally) with a Cannon; Giraffe with a Crocodile
    ("zanzibar-s", "12/12/12/5p6/12/12/12/3V8/12/K11/12/k10C w - - 0 1", 1),
    ("zanzibar-s", "11k/12/K11/12/12/12/6Z5/12/3V8/12/12/12 w - - 0 1", 1),
    # the Eagle (bent rider) with the Machine (Wazir-Dabbaba leaper)
    ("zanzibar-s", "6G5/12/12/12/12/2W9/12/12/12/2K9/12/1k10 w - - 0 1", 2),
    ("zanzibar-s", "12/6G5/12/12/9W2/12/12/12/K11/12/12/k11 w - - 0 1", 2),
]


def mates_within(pos: Position, n: int) -> bool:
    """Exhaustive: does the side to move force mate within ``n`` moves?"""
    for move in pos.legal_moves():
        pos.push(move)
        try:
            if every_reply_mated(pos, n):
                return True
        finally:
            pos.pop()
    return False


def every_reply_mated(pos: Position, n: int) -> bool:
    replies = pos.legal_moves()
    if not replies:
        return pos.is_check()
    if n == 1:
        return False
    for reply in replies:
        pos.push(reply)
        try:
            if not mates_within(pos, n - 1):
                return False
        finally:
            pos.pop()
    return True


@pytest.mark.parametrize(("name", "fen", "n"), MATES)
def test_the_puzzles_are_mates_in_exactly_n(name: str, fen: str, n: int) -> None:
    pos = Position(load_variant(name), fen)
    assert mates_within(pos, n)
    assert n == 1 or not mates_within(pos, n - 1)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("name", "fen", "n"), MATES)
def test_each_level_finds_the_mate(level: str, name: str, fen: str, n: int) -> None:
    """Mates in one for every level; mates in two from ``casual`` up (three plies)."""
    if n == 2 and level == "easy":
        pytest.skip("two plies see a mate in one only")
    variant = load_variant(name)
    pos = Position(variant, fen)
    move = ChessBot(variant, level, 3, node_limit=20_000).choose_move(pos)
    pos.push(move)
    assert every_reply_mated(pos, n), (level, fen)


# -- easy plays a real game ------------------------------------------------------------


def two_ply_move(pos: Position) -> int:
    """A plain 2-ply alpha-beta (no quiescence): the opponent ``easy`` must not lose to."""
    evaluator = evaluator_for(pos.variant)
    best, best_score = 0, -(10**9)
    for move in sorted(pos.legal_moves()):
        pos.push(move)
        score, _nodes = fixed_depth_alphabeta(pos, 1, evaluator)
        pos.pop()
        if -score > best_score:
            best, best_score = move, -score
    return best


@pytest.mark.parametrize("easy_white", [True, False])
def test_easy_does_not_lose_to_a_two_ply_searcher(easy_white: bool) -> None:
    variant = load_variant("chess")
    pos = Position(variant)
    easy = ChessBot(variant, "easy", 5, node_limit=1_000)
    easy_colour = 1 if easy_white else -1
    for _ in range(200):
        if pos.outcome() is not None:
            break
        move = easy.choose_move(pos) if pos.turn == easy_colour else two_ply_move(pos)
        pos.push(move)
    result = pos.outcome()
    assert result is None or result.winner != -easy_colour, pos.fen()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_help_gives_each_level_its_measured_strength(lang: str) -> None:
    from zanzibar.games.chess.help import LADDER, LEVEL_GAMES, LEVEL_STRENGTH, rules_text

    text = rules_text(load_variant("zanzibar-s"), lang, {})
    names = {
        "en": ["easy", "casual", "medium", "hard"],
        "fr": ["facile", "détendu", "moyen", "difficile"],
    }
    games = {"en": "games", "fr": "parties"}[lang]
    for said, (name, (est, low, high)) in zip(names[lang], LEVEL_STRENGTH.items(), strict=True):
        assert f"{said} {est} ({low}–{high}, {LEVEL_GAMES[name]} {games})" in text
        assert low < est < high
    mates = {"en": "in checkmate", "fr": "par un mat"}[lang]
    assert text.count(mates) == len(LADDER)
    # each pair with the interval of the stronger level's share, as the bench prints it
    for _s, _w, points, played, _m, _c, low, high in LADDER:
        assert low <= 100 * points / played <= high
        share = {"en": f"({low}–{high}% of the points", "fr": f"({low} à {high}\xa0% des points"}
        assert share[lang] in text
    checked = {
        "en": "A King checked earlier keeps its jump",
        "fr": "Un Roi déjà mis en échec garde son saut",
    }
    assert checked[lang] in text


# -- a bot that is ahead finishes the game -----------------------------------------------


@pytest.mark.parametrize(
    ("name", "fen", "plies"),
    [
        ("chess", "8/8/3k4/8/8/8/8/3QK3 w - - 0 1", 60),
        # Queen and Eagle (a bent rider) against a bare King on the 12 x 12 board
        ("zanzibar-s", "12/12/12/12/12/5k6/12/12/12/3Q8/4K7/7G4 w - - 0 1", 20),
        # a Rook on the 12 x 12 board (the flight squares taken count enough to cut the King
        # off: with a lighter weight both ran into the move rule)
        ("zanzibar-s", "12/12/12/12/R11/12/12/12/12/7K4/10k1/12 w - - 0 1", 100),
        ("zanzibar-s", "12/12/12/11K/12/12/12/12/12/12/1R9k/12 w - - 0 1", 100),
    ],
)
def test_easy_mates_a_bare_king(name: str, fen: str, plies: int) -> None:
    """The ending terms (edge, own King close, flight squares) guide even two plies to mate."""
    variant = load_variant(name)
    pos = Position(variant, fen)
    bots = {1: ChessBot(variant, "easy", 1, node_limit=1_000)}
    bots[-1] = ChessBot(variant, "easy", 2, node_limit=1_000)
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        pos.push(bots[pos.turn].choose_move(pos))
    result = pos.outcome()
    assert result is not None and (result.winner, result.reason) == (1, "checkmate"), pos.fen()


@pytest.mark.parametrize("name", shipped_variants())
def test_remembered_exchanges_equal_computed_ones(name: str) -> None:
    """``see`` remembers its results by position and move: asked again, after other
    moves were made and taken back, it answers what the board computes afresh, for
    the full value and for the sign-only question alike."""
    variant = load_variant(name)
    value = evaluator_for(variant).value_by_code
    rng = random.Random(11)
    pos = Position(variant)
    asked = 0
    for _ in range(150):
        moves = pos.legal_moves()
        if not moves or pos.is_check():
            pos = Position(variant)
            continue
        for m in pos.captures():
            for sign_only in (False, True):
                first = pos.see(m, value, sign_only)
                assert first == pos._see(m, value, sign_only), pos.fen()
                assert pos.see(m, value, sign_only) == first  # the remembered answer
            assert (pos.see(m, value, True) < 0) == (pos.see(m, value) < 0), pos.fen()
            asked += 1
        # a move and its undo: the answers stay those of this position
        probe = rng.choice(sorted(moves))
        pos.push(probe)
        for m in pos.captures():
            assert pos.see(m, value, True) == pos._see(m, value, True), pos.fen()
        pos.pop()
        pos.push(rng.choice(sorted(moves)))
    assert asked > 20
    # another value list empties the memory instead of answering with the old values
    doubled = [2 * v for v in value]
    changed = 0
    for fen in random_positions(variant, 30, seed=3):
        pos = Position(variant, fen)
        if pos.is_check():
            continue
        for m in pos.captures():
            plain = pos.see(m, value)
            assert pos.see(m, doubled) == pos._see(m, doubled) == 2 * plain, fen
            changed += plain != 0
    assert changed > 0
