"""The search: mates in 1 and 2 (orthodox and fairy pieces), quiescence, table soundness.

Every mate position is checked by an independent brute-force solver below
(plain move lists, no evaluation), so a test cannot pass on a wrong position.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from zanzibar.games.chess.evaluation import evaluator_for
from zanzibar.games.chess.notation import format_san
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.search import (
    _LMR,
    HISTORY_MAX,
    MATE,
    Searcher,
    SearchLimits,
    fixed_depth_alphabeta,
    is_mate_score,
    mate_in,
)
from zanzibar.games.chess.variant import load_variant


def _is_mated(pos: Position) -> bool:
    return pos.is_check() and not pos.legal_moves()


def _forces_mate(pos: Position, moves: int) -> bool:
    """Brute force: can the side to move mate within ``moves`` of its moves?"""
    for move in pos.legal_moves():
        pos.push(move)
        try:
            if _is_mated(pos):
                return True
            if moves > 1 and _every_reply_loses(pos, moves - 1):
                return True
        finally:
            pos.pop()
    return False


def _every_reply_loses(pos: Position, moves: int) -> bool:
    replies = pos.legal_moves()
    if not replies:
        return False  # stalemate
    for reply in replies:
        pos.push(reply)
        try:
            if not _forces_mate(pos, moves):
                return False
        finally:
            pos.pop()
    return True


MATES_IN_ONE = [
    # orthodox back-rank mate
    ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#"),
    # Zanzibar-S: the Lion leaps to a10 (it cannot be blocked)
    ("zanzibar-s", "pknp8/12/12/12/2L9/12/12/12/6K5/12/12/12 w - - 0 1", "La10#"),
    # Zanzibar-S: the Eagle (one diagonal step, then along the rank) covers a12 and b11
    ("zanzibar-s", "k11/5R6/12/4p1G5/12/12/12/12/12/10K1/12/12 w - - 0 1", "Gh11#"),
    # Zanzibar-S: the Cannon mates along the a-file over its own Pawn
    ("zanzibar-s", "kr10/1p10/12/12/12/12/P11/12/12/12/12/2C8K w - - 0 1", "Ca1#"),
    # Zanzibar-S: the Rhinoceros (one orthogonal step, then diagonally outwards)
    ("zanzibar-s", "1pk9/1U10/12/B11/12/12/12/12/8K3/12/12/12 w - - 0 1", "Ud12#"),
]

MATES_IN_TWO = [
    # orthodox: the rook ladder (Ra7, then Rb8#)
    ("chess", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1"),
    # Zanzibar-S: a quiet Eagle move, then mate with Eagle and Rook
    ("zanzibar-s", "2k1p7/12/12/6R5/12/12/12/6G5/12/11K/12/12 w - - 0 1"),
    # Zanzibar-S: Lion check, then Lion and Bishop mate
    ("zanzibar-s", "12/k11/12/3b8/12/L11/12/4B7/12/12/6K5/12 w - - 0 1"),
]


@pytest.mark.parametrize(("variant", "fen", "san"), MATES_IN_ONE)
def test_finds_mate_in_one(variant: str, fen: str, san: str) -> None:
    pos = Position(load_variant(variant), fen)
    assert _forces_mate(pos, 1)
    result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=4, node_limit=50_000))
    assert result.score == MATE - 1
    assert mate_in(result.score) == 1
    pos.push(result.move)
    assert _is_mated(pos)
    pos.pop()
    assert format_san(pos, result.move) == san


@pytest.mark.parametrize(("variant", "fen"), MATES_IN_TWO)
def test_finds_mate_in_two(variant: str, fen: str) -> None:
    pos = Position(load_variant(variant), fen)
    assert not _forces_mate(pos, 1)
    assert _forces_mate(pos, 2)
    result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=6, node_limit=200_000))
    assert result.score == MATE - 3
    assert mate_in(result.score) == 2
    pos.push(result.move)
    assert _every_reply_loses(pos, 1), "the chosen move must force mate next move"
    pos.pop()


def test_being_mated_scores_negative_with_distance() -> None:
    # Black's only move is Kg8, then Rb8 mates.
    pos = Position(load_variant("chess"), "7k/R7/1R6/8/8/8/8/6K1 b - - 0 1")
    assert _every_reply_loses(pos, 1)
    result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=4, node_limit=50_000))
    assert is_mate_score(result.score)
    assert mate_in(result.score) == -1
    assert result.score == -MATE + 2


def test_no_legal_move_gives_no_move() -> None:
    mated = Position(load_variant("chess"), "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
    result = Searcher(mated.variant).search(mated, SearchLimits(max_depth=3))
    assert (result.move, result.score) == (0, -MATE)
    stalemate = Position(load_variant("chess"), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    result = Searcher(stalemate.variant).search(stalemate, SearchLimits(max_depth=3))
    assert (result.move, result.score) == (0, 0)


def test_avoids_stalemating_when_winning() -> None:
    # Qf7 and Qc4 stalemate; Qf8 mates.
    pos = Position(load_variant("chess"), "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=5, node_limit=100_000))
    pos.push(result.move)
    assert pos.legal_moves() or pos.is_check(), "the chosen move stalemates"
    pos.pop()
    assert is_mate_score(result.score) and result.score > 0


def test_quiescence_refuses_a_defended_pawn() -> None:
    # At depth 1, Qxd5 wins a Pawn on the surface; cxd5 takes the Queen back.
    pos = Position(load_variant("chess"), "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1")
    result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=1))
    assert format_san(pos, result.move) != "Qxd5"
    # the plain 1-ply reference, without quiescence, is fooled: it scores Qxd5 above that
    bait = pos.parse_uci("d1d5")
    pos.push(bait)
    shallow, _nodes = fixed_depth_alphabeta(pos, 0)
    pos.pop()
    assert -shallow > result.score
    # and the search knows what Qxd5 really costs
    pos.push(bait)
    after = Searcher(pos.variant).search(pos, SearchLimits(max_depth=1))
    pos.pop()
    assert -after.score < 0, "after Qxd5 cxd5 White has given its Queen for a Pawn"


def test_quiescence_takes_a_hanging_piece() -> None:
    pos = Position(load_variant("chess"), "4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1")
    result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=1))
    assert format_san(pos, result.move) == "Qxd5"


def test_quiescence_sees_a_fairy_recapture() -> None:
    # Zanzibar-S: Rxe9 grabs a Pawn guarded by a Cannon behind its screen (e12 over e11).
    pos = Position(
        load_variant("zanzibar-s"), "3kc7/4w7/12/4p7/12/12/12/12/12/12/12/4RK6 w - - 0 1"
    )
    bait = pos.parse_uci("e1e9")
    result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=1))
    assert result.move != bait


TABLE_CASES = [
    ("chess", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", 3),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ("zanzibar-s", None, 2),
    ("zanzibar-s", "2k1p7/12/12/6R5/12/12/12/6G5/12/11K/12/12 w - - 0 1", 3),
]


@pytest.mark.parametrize(("variant", "fen", "depth"), TABLE_CASES)
def test_table_does_not_change_the_score(variant: str, fen: str | None, depth: int) -> None:
    """With and without the table, a fixed-depth search finds the same score.

    Pruning that changes the tree shape (null move, reductions) and check
    extensions (a position reached at two depths gets the deeper result from
    the table, a deliberate gain) are off, so both searches see the same tree.
    """
    pos = Position(load_variant(variant), fen)
    scores = []
    for use_tt in (True, False):
        searcher = Searcher(
            pos.variant, use_tt=use_tt, null_move=False, reductions=False, extensions=False
        )
        scores.append(searcher.search(pos, SearchLimits(max_depth=depth)).score)
    assert scores[0] == scores[1]


def test_search_leaves_the_position_unchanged() -> None:
    pos = Position(load_variant("zanzibar-s"))
    pos.push(pos.parse_uci("f3f5"))
    before = (pos.fen(), pos.hash, list(pos.history), pos.move_stack)
    Searcher(pos.variant).search(pos, SearchLimits(max_depth=3, node_limit=3_000))
    assert (pos.fen(), pos.hash, list(pos.history), pos.move_stack) == before


def test_node_budget_is_kept_and_reproducible() -> None:
    variant = load_variant("chess")
    first = Searcher(variant).search(Position(variant), SearchLimits(node_limit=2_000))
    second = Searcher(variant).search(Position(variant), SearchLimits(node_limit=2_000))
    assert first.nodes <= 2_000
    assert (first.move, first.score, first.depth) == (second.move, second.score, second.depth)
    assert first.move in Position(variant).legal_moves()
    assert first.depth >= 2


def test_principal_variation_is_legal() -> None:
    pos = Position(load_variant("chess"), "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")
    result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=4))
    assert result.pv and result.pv[0] == result.move
    for move in result.pv:
        assert move in pos.legal_moves()
        pos.push(move)
    assert _is_mated(pos)


def test_repetition_counts_as_a_draw_in_the_tree() -> None:
    # White, a Rook down, can only hope for a draw: perpetual check with the Queen.
    pos = Position(load_variant("chess"), "6k1/5p1p/6p1/8/8/8/r4PPP/3Q2K1 w - - 0 1")
    for uci in ("d1d8", "g8g7", "d8d4", "g7g8"):
        pos.push(pos.parse_uci(uci))
    pos.push(pos.parse_uci("d4d8"))  # this position already occurred once
    searcher = Searcher(pos.variant)
    # Black to move: Kg7 walks into the repetition (0); that is the first half of the rule working
    assert pos.repetitions() == 2
    assert searcher._search(2, -1, 1, 1, True) == 0


def test_no_repetition_across_a_null_move() -> None:
    # Black passes (a null move); then White's King walks a triangle while Black's Knight
    # goes out and back: the position before the pass recurs, Black to move, but only
    # through the pass, which no game can repeat.
    start = "4k3/8/8/8/8/8/8/4K1n1 b - - 7 40"
    pos = Position(load_variant("chess"), start)
    pos.push_null()
    assert pos.halfmove == 0
    for uci in ("e1d2", "g1f3", "d2d1", "f3g1", "d1e1"):
        pos.push(pos.parse_uci(uci))
    assert pos.fen().split()[:4] == start.split()[:4]
    assert pos.repetitions() == 1
    for _ in range(6):
        pos.pop()
    assert pos.halfmove == 7 and pos.fen() == start
    # a repetition after the pass still counts: the Knight out and back twice
    pos.push_null()
    for uci in ("e1d2", "g1h3", "d2e1", "h3g1"):
        pos.push(pos.parse_uci(uci))
    assert pos.repetitions() == 2


def _random_positions(variant_name: str, count: int, seed: int) -> list[Position]:
    """Positions reached by random games (not in check, with a legal move)."""
    rng = random.Random(seed)
    variant = load_variant(variant_name)
    found: list[Position] = []
    while len(found) < count:
        pos = Position(variant)
        for _ in range(rng.randrange(4, 60)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves() and not pos.is_check():
            found.append(pos)
    return found


@pytest.mark.parametrize("variant_name", ["chess", "zanzibar-s", "shako", "metamachy"])
def test_staged_moves_are_the_legal_moves_once_each(variant_name: str) -> None:
    """The staged generator yields every legal move exactly once (after its legality test),
    whatever the killers, and captures before quiet moves."""
    rng = random.Random(7)
    searcher = Searcher(load_variant(variant_name))
    for pos in _random_positions(variant_name, 25, 11):
        legal = pos.legal_moves()
        quiet = [m for m in legal if not m >> 16 and not pos.board[(m >> 8) & 0xFF]]
        # killers: two quiet moves of this position, or moves of another one
        searcher.killers[3] = rng.sample(quiet, 2) if len(quiet) > 1 else [0, 0]
        searcher.killers[3][1] ^= rng.choice((0, 0x0101))  # sometimes a foreign move
        # a counter move: a quiet move of this position (maybe a killer) or a foreign one
        counter = rng.choice(quiet) ^ rng.choice((0, 0x0202)) if quiet else 0
        before = pos.fen()
        yielded = []
        value = searcher.evaluator.value_by_code
        for move, unsure, swing in searcher._staged(pos, 0, 3, counter):
            # a negative swing marks a capture losing material, by the exchange it loses
            assert swing == 0 or (swing < 0 and swing == pos.see(move, value))
            if unsure:
                pos.push(move)
                exposed = pos.left_king_exposed()
                pos.pop()
                if exposed:
                    continue
            yielded.append(move)
        assert pos.fen() == before
        assert sorted(yielded) == sorted(legal)
        early = [*searcher.killers[3], counter]
        first_quiet = next(
            (i for i, m in enumerate(yielded) if m in quiet and m not in early),
            len(yielded),
        )
        assert all(
            pos.board[(m >> 8) & 0xFF] or (m >> 16) & 0xFF or m in early
            for m in yielded[:first_quiet]
        )


def test_pseudo_legal_quiet_checks_the_piece_and_its_path() -> None:
    pos = Position(load_variant("chess"))
    assert pos.is_pseudo_legal_quiet(pos.parse_uci("g1f3"))
    rook_jump = (
        pos.parse_uci("g1f3") & ~0xFFFF | pos.parse_square("a1") | pos.parse_square("a4") << 8
    )
    assert not pos.is_pseudo_legal_quiet(rook_jump)  # the a2 Pawn blocks the Rook
    black_move = (
        pos.parse_uci("g1f3") & ~0xFFFF | pos.parse_square("g8") | pos.parse_square("f6") << 8
    )
    assert not pos.is_pseudo_legal_quiet(black_move)  # not the side to move's piece
    assert not pos.is_pseudo_legal_quiet(pos.parse_uci("e2e4"))  # a flagged double step


def test_static_exchange_sees_a_recapture_through_the_square_left() -> None:
    """The Rook on d1 takes back on d5 once the Queen has left d3 (an x-ray)."""
    variant = load_variant("chess")
    value = evaluator_for(variant).value_by_code
    pos = Position(variant, "4k3/8/8/3n4/8/3Q4/7K/3r4 w - - 0 1")
    assert not pos.is_attacked(pos.parse_square("d5"), -1)  # not before the capture
    assert pos.see(pos.parse_uci("d3d5"), value) == 320 - 900


def test_order_puts_losing_captures_after_the_killers() -> None:
    """Rook takes a free Knight first; the killer comes before the Queen's capture of a
    defended pawn (a losing exchange); quiet moves come last."""
    variant = load_variant("chess")
    pos = Position(variant, "4k3/8/2p5/3p4/6n1/3Q4/8/4K1R1 w - - 0 1")
    searcher = Searcher(variant)
    killer = pos.parse_uci("e1d1")
    searcher.killers[2] = [killer, 0]
    ordered = searcher._order(pos, pos.legal_moves(), 0, 2)
    assert ordered[:3] == [pos.parse_uci("g1g4"), killer, pos.parse_uci("d3d5")]
    assert sorted(ordered) == sorted(pos.legal_moves())
    assert all(not pos.is_capture(m) for m in ordered[3:])


def test_counter_move_comes_right_after_the_killers() -> None:
    """The quiet move that refuted the opponent's last move is tried before the other
    quiet moves (and before losing captures), once."""
    variant = load_variant("chess")
    pos = Position(variant, "4k3/8/2p5/3p4/6n1/3Q4/8/4K1R1 w - - 0 1")
    searcher = Searcher(variant)
    killer, counter = pos.parse_uci("e1d1"), pos.parse_uci("g1h1")
    searcher.killers[2] = [killer, 0]
    staged = [move for move, _, _ in searcher._staged(pos, 0, 2, counter)]
    assert staged[:4] == [pos.parse_uci("g1g4"), killer, counter, pos.parse_uci("d3d5")]
    assert staged.count(counter) == 1


def test_a_cut_off_sets_the_counter_move_and_history_with_gravity() -> None:
    """The refuting quiet move becomes the killer and the counter of the move before; it
    gains history, the quiet moves tried before it lose as much, and repeated rewards
    stay within HISTORY_MAX (each bonus shrinks as the score nears the bound)."""
    variant = load_variant("chess")
    pos = Position(variant)
    pos.push(pos.parse_uci("e2e4"))
    previous = pos.parse_uci("e7e5")
    pos.push(previous)
    searcher = Searcher(variant)
    good, bad = pos.parse_uci("g1f3"), pos.parse_uci("b1a3")
    searcher._played[2] = previous
    searcher._reward(good, 4, 3, pos.board, [bad, good])
    assert searcher.killers[3][0] == good
    assert searcher.counters[previous] == good  # Black's move: no colour bit
    white = 1 << 31
    assert searcher.history[good | white] == 16
    assert searcher.history[bad | white] == -16
    for _ in range(2_000):
        searcher._reward(good, 20, 3, pos.board, [bad])
    assert HISTORY_MAX // 2 < searcher.history[good | white] <= HISTORY_MAX
    assert -HISTORY_MAX <= searcher.history[bad | white] < -HISTORY_MAX // 2
    quiet = [bad, pos.parse_uci("a2a3"), good]
    assert searcher._order_quiet(quiet, 1) == [good, pos.parse_uci("a2a3"), bad]


def test_late_move_reductions_grow_with_depth_and_move_number() -> None:
    assert _LMR[1][40] == 0 and _LMR[2][1] == 0  # the first move, or a ply from the horizon
    assert _LMR[3][3] >= 1
    for depth in range(1, 63):
        for number in range(1, 63):
            assert _LMR[depth][number] <= _LMR[depth + 1][number]
            assert _LMR[depth][number] <= _LMR[depth][number + 1]


def test_a_full_table_drops_its_older_half(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past TT_CAPACITY the entries stored first go, the newest stay, and the search
    still finds its move."""
    import zanzibar.games.chess.search as search_module

    variant = load_variant("chess")
    searcher = Searcher(variant)
    monkeypatch.setattr(search_module, "TT_CAPACITY", 100)
    searcher.tt = {key: (1, 0, 0, 0, 0) for key in range(1, 202)}
    pos = Position(variant, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    result = searcher.search(pos, SearchLimits(max_depth=1))
    assert result.move == pos.parse_uci("a1a8")
    assert 1 not in searcher.tt and 100 not in searcher.tt
    assert all(key in searcher.tt for key in range(101, 202))


#: Positions whose best move at a fixed depth does not hang on evaluation weights
#: (a fork of King and Rook, mates): a speed change to move generation, make/unmake
#: or the evaluation's bookkeeping must leave the search's choice there unchanged.
PINNED_AT_DEPTH = [
    ("chess", "r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1", "Nc7+"),
    ("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1", "Qxf7#"),
    ("chess", "6k1/5ppp/8/8/8/8/q4PPP/1R4K1 w - - 0 1", "Rb8#"),
    ("zanzibar-s", "r3k7/12/12/3N8/12/12/12/12/12/12/12/4K7 w - - 0 1", "Nc11+"),
    ("zanzibar-s", "r3k7/12/12/3L8/12/12/12/12/12/12/12/4K7 w - - 0 1", "Ld10#"),
]


@pytest.mark.parametrize(("variant", "fen", "san"), PINNED_AT_DEPTH)
@pytest.mark.parametrize("depth", [3, 4, 5])
def test_best_move_at_fixed_depth_is_pinned(variant: str, fen: str, san: str, depth: int) -> None:
    pos = Position(load_variant(variant), fen)
    result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=depth))
    assert format_san(pos, result.move) == san
    assert result.depth == depth or is_mate_score(result.score)
    if san.endswith("#"):
        assert result.score == MATE - 1
    else:
        assert 250 < result.score < 700  # a Rook won for a Knight's fork, not more


def test_search_is_reproducible_on_a_busy_position() -> None:
    """Two fresh searchers see the same tree (same move, score, nodes and table size) on
    a crowded Zanzibar-S middlegame: no state leaks between searches through the shared
    move, capture or mobility tables that speed work keeps per variant."""
    variant = load_variant("zanzibar-s")
    fen = (
        "cmz3kuv1mc/1rnbw1gw1r1e/p1pi2zipbp1/9pn1/1p1p1pp4p/e2f8/7Q4/4IPL5/2E1Z1I2E2/"
        "PPPPN1P1PPPP/1R4WWBNR1/CM1V2KUV1MC b Kk - 1 26"
    )
    runs = []
    for _ in range(2):
        searcher = Searcher(variant)
        result = searcher.search(Position(variant, fen), SearchLimits(node_limit=3_000))
        runs.append((result.move, result.score, result.nodes, result.pv, len(searcher.tt)))
    assert runs[0] == runs[1]
    assert runs[0][2] == 3_000


def test_bench_replays_the_recorded_scores_on_the_same_tree(tmp_path: Path) -> None:
    """bench_search.py --machinery times the search with its static scores read back from
    a record: the replayed search must visit the same tree (same depth and node count,
    no score missing from the record), or its figure would time another search."""
    root = Path(__file__).resolve().parents[3]
    book = tmp_path / "book.json"
    env = dict(os.environ, PYTHONPATH=str(root / "src"), PYTHONHASHSEED="0")

    def worker(mode: str) -> list[list[float]]:
        script = str(root / "bench" / "bench_search.py")
        args = ["--nodes", "800", "--only", "3", "--mode", mode, "--book", str(book)]
        out = subprocess.run(
            [sys.executable, script, "--worker", *args],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        rows: list[list[float]] = json.loads(out.stdout)
        return rows

    recorded = worker("record")
    assert json.loads(book.read_text())[0]  # scores were recorded
    replayed = worker("replay")
    assert replayed[0][:2] == recorded[0][:2] and recorded[0][1] == 800
    assert replayed[0][3] == 0  # every static score came from the record
