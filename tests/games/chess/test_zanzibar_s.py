"""Zanzibar-S special rules on hand-built positions (research/zanzibar-s.md).

Boards are built square by square so every position is easy to read.
"""

from __future__ import annotations

import pytest

from zanzibar.games.chess.fen import FenData, format_fen, parse_square
from zanzibar.games.chess.moves import EN_PASSANT, KING_JUMP, flags
from zanzibar.games.chess.notation import format_coordinate
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.setup import arrangement_index, arrangements, layout, setup_fen
from zanzibar.games.chess.tables import tables_for
from zanzibar.games.chess.variant import load_variant
from zanzibar.games.chess.zanzibar_s import RULES

ZS = load_variant("zanzibar-s")


def build(pieces: dict[str, str], turn: str = "w", rights: str = "-", variant=ZS) -> Position:  # type: ignore[no-untyped-def]
    """A position from {"f2": "K", "l12": "k", ...}."""
    board = [0] * (variant.files * variant.ranks)
    for square, letter in pieces.items():
        t = variant.type_index(letter) + 1
        board[parse_square(variant, square)] = t if letter.isupper() else -t
    data = FenData(board, 1 if turn == "w" else -1, 0, -1, 0, 1)
    fen = format_fen(variant, data).split()
    fen[2] = rights
    return Position(variant, " ".join(fen))


def moves_from(pos: Position, square: str) -> set[str]:
    """Destinations (with promotion letter) of the legal moves from ``square``."""
    return {
        format_coordinate(pos, m)[len(square) :]
        for m in pos.legal_moves()
        if format_coordinate(pos, m).startswith(square)
        and format_coordinate(pos, m)[len(square)].isalpha()
    }


KINGS = {"a3": "K", "l12": "k"}


# -- Eagle and Rhinoceros ----------------------------------------------------------


def test_eagle_open_board() -> None:
    pos = build({"f6": "G", **KINGS})
    got = moves_from(pos, "f6")
    expected = (
        {"g7", "h7", "i7", "j7", "k7", "l7", "g8", "g9", "g10", "g11", "g12"}
        | {"e7", "d7", "c7", "b7", "a7", "e8", "e9", "e10", "e11", "e12"}
        | {"g5", "h5", "i5", "j5", "k5", "l5", "g4", "g3", "g2", "g1"}
        | {"e5", "d5", "c5", "b5", "a5", "e4", "e3", "e2", "e1"}
    )
    assert got == expected
    assert len(got) == 40
    # outward only: never back towards its own file or rank, never straight
    assert not got & {"f7", "f8", "g6", "e6", "f5"}


def test_eagle_blocked_first_step_and_capture_on_first_square() -> None:
    own = build({"f6": "G", "g7": "P", **KINGS})
    assert not moves_from(own, "f6") & {"g7", "h7", "g8", "l7", "g12"}
    enemy = build({"f6": "G", "g7": "p", **KINGS})
    got = moves_from(enemy, "f6")
    assert "g7" in got  # captures on the first square
    assert not got & {"h7", "g8"}  # and goes no further


def test_eagle_stops_at_first_obstacle_of_the_slide() -> None:
    pos = build({"f6": "G", "i7": "p", "g9": "P", **KINGS})
    got = moves_from(pos, "f6")
    assert {"g7", "h7", "i7", "g8"} <= got
    assert not got & {"j7", "g9", "g10"}


def test_eagle_gives_check_along_its_bent_path() -> None:
    pos = build({"f6": "G", "a1": "K", "g10": "k"}, turn="b")
    assert pos.is_check()
    blocked = build({"f6": "G", "a1": "K", "g10": "k", "g8": "p"}, turn="b")
    assert not blocked.is_check()
    # the first step lands on g7: an occupied corner stops the slide, so no check
    corner = build({"f6": "G", "a1": "K", "g10": "k", "g7": "P"}, turn="b")
    assert not corner.is_check()
    assert not corner.is_attacked(parse_square(ZS, "g10"), 1)
    assert corner.is_attacked(parse_square(ZS, "e7"), 1)


def test_rhinoceros_check_needs_an_empty_corner() -> None:
    pos = build({"f6": "U", "a1": "K", "i9": "k"}, turn="b")  # f7, g8, h9: no; g6, h7, i8: no
    assert not pos.is_check()
    pos = build({"f6": "U", "a1": "K", "i10": "k"}, turn="b")  # f7 then g8, h9, i10
    assert pos.is_check()
    blocked = build({"f6": "U", "a1": "K", "i10": "k", "f7": "p"}, turn="b")
    assert not blocked.is_check()


def test_start_position_perft() -> None:
    """Our own numbers (none are published), cross-checked by test_consistency.py."""
    from zanzibar.games.chess.perft import perft

    assert [perft(Position(ZS), d) for d in (1, 2, 3)] == [53, 2809, 163758]


def test_rhinoceros_open_board() -> None:
    pos = build({"f6": "U", **KINGS})
    got = moves_from(pos, "f6")
    expected = (
        {"f7", "g8", "h9", "i10", "j11", "k12", "e8", "d9", "c10", "b11", "a12"}
        | {"g6", "h7", "i8", "j9", "k10", "l11", "h5", "i4", "j3", "k2", "l1"}
        | {"e6", "d7", "c8", "b9", "a10", "d5", "c4", "b3", "a2"}
        | {"f5", "g4", "h3", "i2", "j1", "e4", "d3", "c2", "b1"}
    )
    assert got == expected
    assert not got & {"g7", "f8", "h6"}


def test_rhinoceros_blocked_and_capturing() -> None:
    pos = build({"f6": "U", "f7": "P", "g6": "n", "i8": "b", **KINGS})
    got = moves_from(pos, "f6")
    assert not got & {"f7", "g8", "e8"}  # own piece on the first square blocks
    assert "g6" in got and not got & {"h7", "h5"}  # capture on first square ends the move
    pos2 = build({"f6": "U", "i8": "b", **KINGS})
    got2 = moves_from(pos2, "f6")
    assert "i8" in got2 and "j9" not in got2


# -- the King's jump ---------------------------------------------------------------

JUMPS_FROM_F2 = {"d1", "d2", "d3", "d4", "e4", "f4", "g4", "h4", "h3", "h2", "h1"}
STEPS_FROM_F2 = {"e1", "f1", "g1", "e2", "g2", "e3", "f3", "g3"}


def king_targets(pos: Position) -> tuple[set[str], set[str]]:
    jumps, steps = set(), set()
    for m in pos.legal_moves():
        text = format_coordinate(pos, m)
        if text.startswith("f2"):
            (jumps if flags(m) & KING_JUMP else steps).add(text[2:])
    return jumps, steps


def test_king_jump_targets_from_f2() -> None:
    jumps, steps = king_targets(build({"f2": "K", "l12": "k"}, rights="K"))
    assert jumps == JUMPS_FROM_F2
    assert steps == STEPS_FROM_F2


def test_no_jump_without_the_right() -> None:
    jumps, _ = king_targets(build({"f2": "K", "l12": "k"}, rights="-"))
    assert jumps == set()


def test_no_jump_out_of_check() -> None:
    jumps, steps = king_targets(build({"f2": "K", "l12": "k", "a2": "r"}, rights="K"))
    assert jumps == set()
    assert steps == {"e1", "f1", "g1", "e3", "f3", "g3"}


def test_jump_target_must_be_empty_and_is_never_a_capture() -> None:
    pos = build({"f2": "K", "l12": "k", "h4": "P", "d4": "p"}, rights="K")
    jumps, _ = king_targets(pos)
    assert "h4" not in jumps and "d4" not in jumps


def test_jump_over_an_occupied_square_is_allowed() -> None:
    jumps, _ = king_targets(build({"f2": "K", "l12": "k", "f3": "P", "g3": "n"}, rights="K"))
    assert {"f4", "h4"} <= jumps


def test_jumped_over_square_must_not_be_attacked() -> None:
    # A black Camel on h6 attacks g3 (and i3), nothing else near the King.
    pos = build({"f2": "K", "l12": "k", "h6": "m"}, rights="K")
    jumps, _ = king_targets(pos)
    assert "h4" not in jumps  # diagonal jump over g3
    assert {"f4", "d4", "h2"} <= jumps
    # knight-wise jumps over g3: the other in-between square is safe, so allowed
    # (Cazaux's reading and the Game Courier preset's; a JavaScript library refuses them)
    assert {"g4", "h3"} <= jumps


def test_knight_jump_needs_one_safe_in_between_square() -> None:
    # Camels on h6 (attacks g3) and h5 (attacks g2): f2-h3 passes g2 or g3, both attacked.
    both = build({"f2": "K", "l12": "k", "h6": "m", "h5": "m"}, rights="K")
    jumps, _ = king_targets(both)
    assert "h3" not in jumps
    only_g2 = build({"f2": "K", "l12": "k", "h5": "m"}, rights="K")
    assert "h3" in king_targets(only_g2)[0]


def test_jump_target_must_not_be_attacked() -> None:
    jumps, _ = king_targets(build({"f2": "K", "l12": "k", "h12": "r"}, rights="K"))
    assert not jumps & {"h4", "h3", "h2", "h1"}
    assert "f4" in jumps


@pytest.mark.parametrize(
    ("jump", "between"),
    [
        ((2, 1), {(1, 0), (1, 1)}),
        ((2, -1), {(1, 0), (1, -1)}),
        ((-2, 1), {(-1, 0), (-1, 1)}),
        ((-2, -1), {(-1, 0), (-1, -1)}),
        ((1, 2), {(0, 1), (1, 1)}),
        ((-1, 2), {(0, 1), (-1, 1)}),
        ((1, -2), {(0, -1), (1, -1)}),
        ((-1, -2), {(0, -1), (-1, -1)}),
        ((2, 2), {(1, 1)}),
        ((0, -2), {(0, -1)}),
    ],
)
def test_in_between_squares_of_every_jump(
    jump: tuple[int, int], between: set[tuple[int, int]]
) -> None:
    t = tables_for(ZS)
    centre = parse_square(ZS, "f6")
    f, r = centre % 12, centre // 12
    target = (r + jump[1]) * 12 + f + jump[0]
    entries = dict(t.jump_targets[centre])
    assert set(entries[target]) == {(r + dy) * 12 + f + dx for dx, dy in between}


def test_a_king_checked_before_may_still_jump() -> None:
    """Cazaux: the jump is forbidden only while in check; an earlier check spends nothing."""
    pos = build({"f2": "K", "l12": "k", "a11": "r", "c1": "R"}, turn="b", rights="K")
    pos.push(pos.parse_uci("a11a2"))  # check along the second rank
    assert pos.is_check()
    assert king_targets(pos)[0] == set()  # no jump out of check
    pos.push(pos.parse_uci("c1c2"))  # blocked, the King has not moved
    pos.push(pos.parse_uci("l12l11"))
    jumps, _ = king_targets(pos)
    assert {"f4", "d4", "h4"} <= jumps


def test_any_king_move_spends_the_jump() -> None:
    pos = build({"f2": "K", "l12": "k"}, rights="Kk")
    pos.push(pos.parse_uci("f2f3"))
    assert pos.fen().split()[2] == "k"
    pos.pop()
    pos.push(pos.parse_uci("f2h4"))
    assert pos.fen().split()[2] == "k"


# -- en passant ----------------------------------------------------------------------


def test_pawn_takes_a_pawn_en_passant_after_a_double_step_from_any_rank() -> None:
    pos = build({"a1": "K", "l12": "k", "e7": "P", "f9": "p"}, turn="b")
    pos.push(pos.parse_uci("f9f7"))
    ep = [m for m in pos.legal_moves() if flags(m) & EN_PASSANT]
    assert [format_coordinate(pos, m) for m in ep] == ["e7f8"]
    pos.push(ep[0])
    assert pos.board[parse_square(ZS, "f7")] == 0
    assert pos.board[parse_square(ZS, "f8")] > 0


def test_pawn_takes_a_prince_en_passant() -> None:
    pos = build({"a1": "K", "l12": "k", "e7": "P", "f9": "i"}, turn="b")
    pos.push(pos.parse_uci("f9f7"))
    assert any(flags(m) & EN_PASSANT for m in pos.legal_moves())


def test_prince_never_takes_en_passant() -> None:
    pos = build({"a1": "K", "l12": "k", "e7": "I", "f9": "p"}, turn="b")
    pos.push(pos.parse_uci("f9f7"))
    assert not any(flags(m) & EN_PASSANT for m in pos.legal_moves())
    pos.push(pos.parse_uci("e7f8"))  # a plain Prince step: the Pawn on f7 stays
    assert pos.board[parse_square(ZS, "f7")] < 0


def test_en_passant_only_on_the_very_next_move() -> None:
    pos = build({"a1": "K", "l12": "k", "e7": "P", "f9": "p"}, turn="b")
    pos.push(pos.parse_uci("f9f7"))
    pos.push(pos.parse_uci("a1a2"))
    pos.push(pos.parse_uci("l12l11"))
    assert not any(flags(m) & EN_PASSANT for m in pos.legal_moves())


# -- promotion -----------------------------------------------------------------------


def test_pawn_and_prince_must_promote_to_the_five_pieces() -> None:
    pos = build({"a1": "K", "l10": "k", "e11": "P", "h11": "I"})
    assert moves_from(pos, "e11") == {f"e12{x}" for x in "qgluf"}
    assert moves_from(pos, "h11") == (
        {f"{sq}{x}" for sq in ("g12", "h12", "i12") for x in "qgluf"}
        | {"g11", "i11", "g10", "h10", "i10"}
    )


def test_double_step_onto_the_last_rank_promotes_and_leaves_no_en_passant() -> None:
    pos = build({"a1": "K", "l10": "k", "e10": "P", "d12": "p"})
    assert moves_from(pos, "e10") == {f"e{r}{x}" for r in (11, 12) for x in "qgluf"} - {
        f"e11{x}" for x in "qgluf"
    } | {"e11"}
    pos.push(pos.parse_uci("e10e12q"))
    assert pos.ep == -1


def test_other_pieces_do_not_promote_by_default() -> None:
    pos = build({"a1": "K", "l10": "k", "d10": "N", "e11": "W"})
    assert "e12" in moves_from(pos, "d10") and "e12" in moves_from(pos, "e11")


def test_seed_text_promotions_are_an_option() -> None:
    seeded = RULES.variant_for(RULES.new_state(2, RULES.options.resolve("seed")))
    pos = build(
        {"a1": "K", "l10": "k", "d10": "N", "e11": "W", "a10": "M", "i10": "E"}, variant=seeded
    )
    assert moves_from(pos, "d10") >= {"c12f", "e12f"} and "e12" not in moves_from(pos, "d10")
    assert moves_from(pos, "e11") >= {"e12l"} and "e12" not in moves_from(pos, "e11")
    assert "b13" not in moves_from(pos, "a10") and "b12" not in moves_from(pos, "a10")
    assert {"k12l", "g12l"} <= moves_from(pos, "i10")


# -- setups --------------------------------------------------------------------------


def test_forty_eight_distinct_mirrored_setups() -> None:
    assert len(arrangements(ZS)) == 48
    fens = {setup_fen(ZS, i) for i in range(48)}
    assert len(fens) == 48
    central = ["e12", "f12", "g12", "h12", "f11", "g11"]
    for i in range(48):
        pos = Position(ZS, setup_fen(ZS, i))
        for name in central:
            black = pos.board[parse_square(ZS, name)]
            white_square = name[0] + str(13 - int(name[1:]))
            assert black < 0 and pos.board[parse_square(ZS, white_square)] == -black
        assert pos.turn == 1 and pos.fen().split()[2] == "Kk"
    kings = {Position(ZS, setup_fen(ZS, i)).king_square(-1) for i in range(48)}
    assert {ZS.files * 11 + 5, ZS.files * 11 + 6, ZS.files * 10 + 5, ZS.files * 10 + 6} == kings


def test_layouts_name_the_setups() -> None:
    index = arrangement_index(ZS, "QKLG FU")
    assert setup_fen(ZS, index) == ZS.start_fen
    assert layout(ZS, index) == "QKLG FU"


@pytest.mark.parametrize("bad", ["KKGL UF", "KQGL", "KQGL UF X", 48, -1, "abc"])
def test_bad_layouts_are_refused(bad: object) -> None:
    from zanzibar.engine.errors import IllegalActionError

    with pytest.raises(IllegalActionError):
        arrangement_index(ZS, bad)  # type: ignore[arg-type]


# -- end of the game -----------------------------------------------------------------


def test_stalemate_is_a_draw() -> None:
    pos = build({"a12": "k", "b10": "Q", "c1": "K"}, turn="b")
    assert not pos.legal_moves() and not pos.is_check()
    result = pos.outcome()
    assert result is not None and (result.winner, result.reason) == (0, "stalemate")


def test_checkmate() -> None:
    pos = build({"a12": "k", "b11": "Q", "c10": "K"}, turn="b")
    result = pos.outcome()
    assert result is not None and (result.winner, result.reason) == (1, "checkmate")


def test_bare_king_is_not_a_loss() -> None:
    pos = build({"a12": "k", "c1": "K", "h5": "Q"}, turn="b")
    assert pos.outcome() is None


def test_threefold_repetition() -> None:
    pos = Position(ZS)
    shuffle = ["c2b4", "c11b9", "b4c2", "b9c11"]
    for text in shuffle:
        pos.push(pos.parse_uci(text))
    assert pos.repetitions() == 2 and pos.outcome() is None
    for text in shuffle:
        pos.push(pos.parse_uci(text))
    assert pos.repetitions() == 3
    result = pos.outcome()
    assert result is not None and result.reason == "repetition"
    assert pos.outcome(repetition_count=0) is None


def test_fifty_move_rule_counts_pawn_and_prince_moves_as_resets() -> None:
    fen = "6k5/12/12/12/12/12/12/12/12/4I7/12/R5K5 w - - 99 80"
    pos = Position(ZS, fen)
    pos.push(pos.parse_uci("a1a2"))
    result = pos.outcome()
    assert result is not None and result.reason == "move_rule"
    assert pos.outcome(move_rule=0) is None
    pos.pop()
    pos.push(pos.parse_uci("e3e5"))  # the Prince's double step resets the clock
    assert pos.halfmove == 0 and pos.outcome() is None
