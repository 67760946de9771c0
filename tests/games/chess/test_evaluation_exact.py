"""The fast evaluation equals a plain one computed from scratch, on every variant.

The evaluator keeps its piece-square sum move by move, caches pawn structures
and whole scores, masks the pawns off the King's attack zone and looks the
riders' counts up by occupancy. :func:`plain_evaluation` below recomputes every
term from its definition (walking the board, the King's surroundings and the
riders' lines square by square) and must give the same centipawns on
positions met along random games played and taken back through ``push`` and
``pop`` as a search does.
"""

from __future__ import annotations

import random

import pytest

from zanzibar.games.chess import evaluation
from zanzibar.games.chess.evaluation import FILE_RIDER, Evaluator, build_evaluator
from zanzibar.games.chess.fen import FenData, format_fen
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant, shipped_variants


def _chebyshev(files: int, a: int, b: int) -> int:
    return max(abs(a % files - b % files), abs(a // files - b // files))


def _pawn_terms(ev: Evaluator, pos: Position) -> tuple[int, int]:
    """Doubled, isolated and passed pawns, White positive, square by square."""
    w = ev.weights
    files = ev.variant.files
    mg = eg = 0
    pawns = {
        colour: [s for s, c in enumerate(pos.board) if c and c in ev.pawn_codes and c * colour > 0]
        for colour in (1, -1)
    }
    for colour in (1, -1):
        per_file = [0] * files
        for s in pawns[colour]:
            per_file[s % files] += 1
        for f, n in enumerate(per_file):
            if n > 1:
                mg -= colour * round(w["DOUBLED_MG"] * (n - 1))
                eg -= colour * round(w["DOUBLED_EG"] * (n - 1))
            left = per_file[f - 1] if f > 0 else 0
            right = per_file[f + 1] if f + 1 < files else 0
            if n and not left and not right:
                mg -= colour * round(w["ISOLATED_MG"] * n)
                eg -= colour * round(w["ISOLATED_EG"] * n)
        for s in pawns[colour]:
            code = pos.board[s]
            if not any(ev.ahead[code][s] >> q & 1 for q in pawns[-colour]):
                mg += ev.passed[code][s][0]
                eg += ev.passed[code][s][1]
    return mg, eg


def _king_safety(ev: Evaluator, pos: Position, colour: int) -> int:
    """Shelter, shield and attackers of ``colour``'s King, from its own view."""
    w = ev.weights
    files = ev.variant.files
    board = pos.board
    king = next((s for s, c in enumerate(board) if c == colour * ev.royal_code), -1)
    if king < 0:
        return 0
    own = [s for s, c in enumerate(board) if c * colour > 0]
    friends = sum(1 for s in own if s != king and _chebyshev(files, s, king) == 1)
    front = [
        sum(
            1
            for s in own
            if board[s] in ev.pawn_codes
            and s // files == king // files + colour * step
            and abs(s % files - king % files) <= 1
        )
        for step in (1, 2)
    ]
    score = w["SHELTER_BONUS"] * min(friends, 4) + w["SHIELD_BONUS"] * (front[0] + front[1] / 2)
    units = count = 0
    for s, c in enumerate(board):
        if c * colour >= 0 or c in ev.pawn_codes or c == -colour * ev.royal_code:
            continue
        if 0 < _chebyshev(files, s, king) <= 2:
            units += ev.value_by_code[c]
            count += 1
    if count:
        score -= w["KING_ATTACK"] * units * min(count, 4) / 400
    return round(score)


def _king_place(ev: Evaluator, pos: Position, colour: int) -> int:
    """Castling, files and storm of ``colour``'s King, from its own view, from the variant's
    castling rules (King and Rook files, rights bits kingside first), square by square."""
    w = ev.weights
    variant = ev.variant
    files, ranks = variant.files, variant.ranks
    board = pos.board
    king = pos.kings[colour]
    if king < 0:
        return 0

    def is_pawn(s: int, side: int) -> bool:
        return board[s] in ev.pawn_codes and board[s] * side > 0

    def shield(square: int) -> float:
        f0, r0 = square % files, square // files
        count = 0.0
        for step, share in ((1, 1.0), (2, 0.5)):
            r = r0 + colour * step
            for f in (f0 - 1, f0, f0 + 1):
                if 0 <= f < files and 0 <= r < ranks and is_pawn(r * files + f, colour):
                    count += share
        return count

    score = 0.0
    if any(variant.castling) and not variant.king_jump:
        home = Position(variant).kings[colour]
        rank = home // files
        shift = 0 if colour > 0 else 2
        wings = [
            (rank * files + spec.king_file, spec.king_file)
            for wing, spec in enumerate(variant.castling)
            if spec is not None and pos.rights >> (shift + wing) & 1
        ]
        if king == home and wings:
            best = max(shield(target) for target, _file in wings)
            score += w["SHIELD_BONUS"] * max(best - shield(king), 0)
            score += w["CASTLING_RIGHT_MG"] * len(wings)
        else:
            castled = False
            for spec in variant.castling:
                if spec is None or king // files != rank:
                    continue
                toward_h = spec.king_file > home % files
                f = king % files
                castled |= f >= spec.king_file if toward_h else f <= spec.king_file
            if not castled:
                score -= w["UNCASTLED_MG"]
    f0, r0 = king % files, king // files
    for f in (f0 - 1, f0, f0 + 1):
        if 0 <= f < files and not any(is_pawn(r * files + f, colour) for r in range(ranks)):
            score -= w["KING_OPEN_FILE_MG"]
    for s in range(files * ranks):
        ahead = (s // files - r0) * colour
        if is_pawn(s, -colour) and abs(s % files - f0) <= 1 and 1 <= ahead <= ranks // 2:
            score -= w["KING_STORM_MG"] * (2 if ahead <= 2 else 1)
    return round(score)


def _rider_mobility(ev: Evaluator, pos: Position) -> float:
    """Each rider's attacked squares, walked along its lines, minus its expectation."""
    if not ev.rays:
        return 0.0
    total = 0
    for s, code in enumerate(pos.board):
        if not code or not ev.rays[code][s]:
            continue
        count = 0
        for gate, mask, rising, _full in ev.rays[code][s]:
            if gate & pos.occ:
                continue
            squares = [q for q in range(len(pos.board)) if mask >> q & 1]
            for q in squares if rising else reversed(squares):
                count += 1
                if pos.board[q]:
                    break
        raw = (10 * count if code > 0 else -10 * count) - ev.expected[code]
        # a dearer rider's squares count less: (cheapest rider / its value) ** the power
        cheapest = min(ev.value_by_code[c] for c, row in enumerate(ev.rays) if any(row))
        share = (cheapest / ev.value_by_code[code]) ** evaluation.LIVE_MOBILITY_SCALING
        total += round(raw * share)
    return total / 10


def _rider_terms(ev: Evaluator, pos: Position) -> tuple[int, int]:
    """Rooks on (half-)open files and Bishop pairs, White positive, square by square."""
    w = ev.weights
    files = ev.variant.files
    board = pos.board
    mg = eg = 0
    squares_of: dict[int, set[int]] = {}
    for s, code in enumerate(board):
        if not code or not ev.piece_kind[code]:
            continue
        colour = 1 if code > 0 else -1
        if ev.piece_kind[code] == FILE_RIDER:
            on_file = [board[q] for q in range(s % files, len(board), files)]
            own = any(c in ev.pawn_codes and c * colour > 0 for c in on_file)
            enemy = any(c in ev.pawn_codes and c * colour < 0 for c in on_file)
            if not own:
                kind = "HALF_OPEN_FILE" if enemy else "OPEN_FILE"
                mg += colour * round(w[f"{kind}_MG"])
                eg += colour * round(w[f"{kind}_EG"])
        else:
            squares_of.setdefault(code, set()).add((s % files + s // files) % 2)
    for code, seen in squares_of.items():
        if len(seen) == 2:
            colour = 1 if code > 0 else -1
            mg += colour * round(w["PAIR_MG"])
            eg += colour * round(w["PAIR_EG"])
    return mg, eg


def _pawn_threats(ev: Evaluator, pos: Position) -> tuple[int, int]:
    """Pieces (not pawns, not Kings) on a square an enemy pawn captures on, White positive,
    from the pawns' capturing steps in the variant's Betza moves."""
    w = ev.weights
    files, ranks = ev.variant.files, ev.variant.ranks
    board = pos.board
    hit: set[int] = set()
    for s, code in enumerate(board):
        if code not in ev.pawn_codes:
            continue
        colour = 1 if code > 0 else -1
        for atom in ev.variant.pieces[abs(code) - 1].atoms:
            one_step = atom.kind == "leap" or (atom.kind == "ride" and atom.max_range == 1)
            if not atom.capture or atom.initial or not one_step:
                continue
            for dx, dy in atom.vectors:
                f, r = s % files + dx, s // files + colour * dy
                if 0 <= f < files and 0 <= r < ranks:
                    target = board[r * files + f]
                    if (
                        target * colour < 0
                        and target not in ev.pawn_codes
                        and abs(target) != ev.royal_code
                    ):
                        hit.add(r * files + f)
    balance = sum(1 if board[q] > 0 else -1 for q in hit)
    return -balance * round(w["THREAT_BY_PAWN_MG"]), -balance * round(w["THREAT_BY_PAWN_EG"])


def _sorties(ev: Evaluator, pos: Position) -> int:
    """Early sorties, White positive, from the definition: per side, SORTIE_MG per heavy
    piece (at least SORTIE_HEAVY times the cheapest officer) beyond the side's start ranks,
    times the share of its minor pieces (below SORTIE_MINOR times it) on their own start
    squares (read from the start position)."""
    variant = ev.variant
    files, ranks = variant.files, variant.ranks
    officers = {
        t + 1: ev.values[p.letter]
        for t, p in enumerate(variant.pieces)
        if not p.royal and p.promotion is None
    }
    cheapest = min(officers.values(), default=0)
    heavy = {c for c, v in officers.items() if v >= evaluation.SORTIE_HEAVY * cheapest}
    minor = {c for c, v in officers.items() if v < evaluation.SORTIE_MINOR * cheapest}
    if not heavy or not minor:
        return 0
    start = Position(variant).board
    total = 0.0
    for colour in (1, -1):

        def rank(s: int, colour: int = colour) -> int:
            return s // files if colour > 0 else ranks - 1 - s // files

        depth = max(rank(s) for s, c in enumerate(start) if c * colour > 0)
        homes = [s for s, c in enumerate(start) if c * colour > 0 and c * colour in minor]
        at_home = sum(1 for s in homes if pos.board[s] == start[s])
        out = sum(
            1
            for s, c in enumerate(pos.board)
            if c * colour > 0 and c * colour in heavy and rank(s) > depth
        )
        total -= colour * ev.weights["SORTIE_MG"] * out * at_home / len(homes)
    return round(total)


def plain_evaluation(ev: Evaluator, pos: Position) -> int:
    """The evaluation from its definition, for the side to move (no cache, no increment)."""
    w = ev.weights
    mg = sum(ev.mg[c][s] for s, c in enumerate(pos.board) if c)
    eg = sum(ev.eg[c][s] for s, c in enumerate(pos.board) if c)
    phase = min(sum(ev.phase_weight[c] for c in pos.board if c), ev.max_phase)
    pawn_mg, pawn_eg = _pawn_terms(ev, pos)
    mg += pawn_mg + _king_safety(ev, pos, 1) - _king_safety(ev, pos, -1)
    mg += _king_place(ev, pos, 1) - _king_place(ev, pos, -1)
    mg += _sorties(ev, pos)
    eg += pawn_eg
    mob = _rider_mobility(ev, pos)
    mg += round(w["LIVE_MOBILITY_MG"] * mob)
    eg += round(w["LIVE_MOBILITY_EG"] * mob)
    terms_mg, terms_eg = _rider_terms(ev, pos)
    mg += terms_mg
    eg += terms_eg
    threat_mg, threat_eg = _pawn_threats(ev, pos)
    mg += threat_mg
    eg += threat_eg
    max_phase = ev.max_phase
    count = {colour: sum(1 for c in pos.board if c * colour > 0) for colour in (1, -1)}
    for colour in (1, -1):
        if count[-colour] == 1 and count[colour] > 1:
            eg += colour * ev._mop_up(pos, colour)
        elif colour * eg > w["WINNING_LEAD"] and 2 * phase <= max_phase:
            eg += colour * ev._mop_up(pos, colour) // 2
    if eg and w["SIMPLIFY_SHARE"]:
        eg += round(w["SIMPLIFY_SHARE"] * eg * (max_phase - phase) / max_phase)
    blend = mg * phase + eg * (max_phase - phase)
    score = blend // max_phase if blend >= 0 else -(-blend // max_phase)
    return score if pos.turn > 0 else -score


@pytest.mark.parametrize("name", shipped_variants())
def test_fast_evaluation_equals_the_plain_one(name: str) -> None:
    variant = load_variant(name)
    ev = build_evaluator(variant)  # fresh caches
    unattached = build_evaluator(variant)
    rng = random.Random(f"exact:{name}")
    pos = Position(variant)
    pos.attach_table(ev.packed)
    pos.track(ev.rider_flags)
    compared = 0
    while compared < 300:
        moves = pos.legal_moves()
        if not moves or len(pos.move_stack) >= 90:
            pos = Position(variant)
            pos.attach_table(ev.packed)
            pos.track(ev.rider_flags)
            continue
        # as a search does: try a capture and take it back before going on
        captures = [m for m in moves if pos.is_capture(m)]
        if captures:
            pos.push(rng.choice(sorted(captures)))
            assert ev.evaluate(pos) == plain_evaluation(ev, pos), pos.fen()
            pos.pop()
        pos.push(rng.choice(sorted(moves)))
        fast = ev.evaluate(pos)
        assert fast == plain_evaluation(ev, pos), pos.fen()
        # the same value from a position loaded afresh (no incremental sums at all)
        unattached._cache.clear()
        assert unattached.evaluate(Position(variant, pos.fen())) == fast
        compared += 1
    assert compared == 300


@pytest.mark.parametrize("name", shipped_variants())
def test_fast_evaluation_in_sparse_endings(name: str) -> None:
    """Endings (few pieces, mop-up and trading terms at work), from random games with
    most pieces removed."""
    variant = load_variant(name)
    ev = build_evaluator(variant)
    rng = random.Random(f"sparse:{name}")
    checked = 0
    for _ in range(60):
        start = Position(variant)
        board = list(start.board)
        royal = ev.royal_code
        for s, c in enumerate(board):
            if c and abs(c) != royal and rng.random() < 0.85:
                board[s] = 0
        pos = Position(variant, format_fen(variant, FenData(board, 1, 0, -1, 0, 1)))
        if pos.is_attacked(pos.kings[-1], 1):
            continue  # White could take the King: not a position of a game
        pos.attach_table(ev.packed)
        pos.track(ev.rider_flags)
        for _ in range(12):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(sorted(moves)))
            assert ev.evaluate(pos) == plain_evaluation(ev, pos), pos.fen()
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    "fen",
    [
        # five Black pieces within two steps of the White King (the count is capped at four)
        "4k3/8/8/8/8/2nbrn2/8/3qK3 w - - 0 1",
        # four White pieces around the Black King, pawns in the zones (never attackers)
        "3rkr2/2NpBp2/3QN3/8/8/4q3/3PNP2/3RKR2 b - - 0 1",
    ],
)
def test_fast_evaluation_with_crowded_kings(fen: str) -> None:
    variant = load_variant("chess")
    ev = build_evaluator(variant)
    pos = Position(variant, fen)
    pos.attach_table(ev.packed)
    pos.track(ev.rider_flags)
    assert ev.evaluate(pos) == plain_evaluation(ev, pos)
    # the position does crowd a King with at least four attackers
    counts = []
    for colour in (1, -1):
        king = pos.kings[colour]
        counts.append(
            sum(
                1
                for s, c in enumerate(pos.board)
                if c * colour < 0
                and c not in ev.pawn_codes
                and c != -colour * ev.royal_code
                and max(abs(s % 8 - king % 8), abs(s // 8 - king // 8)) <= 2
            )
        )
    assert max(counts) >= 4
