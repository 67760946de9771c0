"""Coordinates, algebraic notation (written and parsed) and EN/FR sentences."""

from __future__ import annotations

import pytest

from zanzibar.engine.errors import IllegalActionError
from zanzibar.games.chess.notation import (
    format_coordinate,
    format_san,
    move_details,
    parse_move,
    sentence,
)
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import load_variant

CHESS = load_variant("chess")
ZS = load_variant("zanzibar-s")


def test_coordinates_with_two_digit_ranks_and_promotion() -> None:
    pos = Position(ZS, "6k5/4P7/12/12/12/12/12/12/12/12/12/K11 w - - 0 1")
    texts = {format_coordinate(pos, m) for m in pos.legal_moves()}
    assert {"e11e12q", "e11e12g", "e11e12l", "e11e12u", "e11e12f"} <= texts
    assert parse_move(pos, "e11e12g") == parse_move(pos, "e11-e12G")


@pytest.mark.parametrize(
    ("text", "coordinate"),
    [
        ("Nf3", "g1f3"),
        ("e4", "e2e4"),
        ("Pe4", "e2e4"),
        ("Ng1-f3", "g1f3"),
        ("g1f3", "g1f3"),
        ("Nf3+", "g1f3"),
    ],
)
def test_parse_algebraic_and_coordinates(text: str, coordinate: str) -> None:
    pos = Position(CHESS)
    assert format_coordinate(pos, parse_move(pos, text)) == coordinate


def test_san_captures_disambiguation_castling_check_and_mate() -> None:
    pos = Position(CHESS, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    sans = {format_san(pos, m) for m in pos.legal_moves()}
    assert {"O-O", "O-O-O", "Rxa8+", "Rxh8+", "Rb1", "Rg1"} <= sans
    assert format_coordinate(pos, parse_move(pos, "O-O")) == "e1g1"
    assert format_coordinate(pos, parse_move(pos, "0-0-0")) == "e1c1"
    two_knights = Position(CHESS, "4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1")
    assert format_san(two_knights, parse_move(two_knights, "g1e2")) == "Nge2"
    with pytest.raises(IllegalActionError, match="ambiguous"):
        parse_move(two_knights, "Ne2")
    mate = Position(CHESS, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert format_san(mate, parse_move(mate, "Ra8")) == "Ra8#"


def test_pawn_captures_and_en_passant_in_san() -> None:
    pos = Position(CHESS, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    move = parse_move(pos, "exd6")
    assert format_san(pos, move) == "exd6"
    assert move_details(pos, move)["special"] == "en_passant"


@pytest.mark.parametrize("text", ["", "Nf6", "e5", "Ke3", "zz", "e2e5", "O-O"])
def test_illegal_or_garbage_moves_are_refused(text: str) -> None:
    with pytest.raises(IllegalActionError):
        parse_move(Position(CHESS), text)


def test_sentences_in_both_languages() -> None:
    pos = Position(ZS, "6k5/12/12/12/12/12/12/12/4m7/12/12/2Z3K5 w - - 0 1")
    details = move_details(pos, parse_move(pos, "c1e4"))
    assert sentence(ZS, details, "en") == "White Giraffe from c1 to e4, takes the Camel."
    assert sentence(ZS, details, "fr") == "Girafe blanche de c1 à e4, prend le Chameau."


def test_french_articles_and_agreement() -> None:
    pos = Position(ZS, "6k5/12/12/12/12/12/12/12/12/12/12/R5K5 w - - 0 1")
    details = move_details(pos, parse_move(pos, "Ra2"))
    assert sentence(ZS, details, "fr") == "Tour blanche de a1 à a2."
    take = Position(ZS, "6k5/12/12/12/12/12/12/11K/12/12/g11/R11 w - - 0 1")
    details = move_details(take, parse_move(take, "Rxa2"))
    assert sentence(ZS, details, "fr") == "Tour blanche de a1 à a2, prend l'Aigle."
    assert sentence(ZS, details, "en") == "White Rook from a1 to a2, takes the Eagle."


def test_special_move_sentences() -> None:
    jump = Position(ZS, "6k5/12/12/12/12/12/12/12/12/12/12/6K5 w K - 0 1")
    details = move_details(jump, parse_move(jump, "g1e3"))
    assert details["special"] == "king_jump"
    assert sentence(ZS, details, "en") == "White King jumps from g1 to e3."
    assert sentence(ZS, details, "fr") == "Roi blanc saute de g1 à e3."
    castle = Position(CHESS, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    details = move_details(castle, parse_move(castle, "O-O"))
    assert sentence(CHESS, details, "en") == "White castles kingside: King from e1 to g1."
    assert sentence(CHESS, details, "fr") == "Les Blancs roquent côté roi\u00a0: Roi de e1 à g1."
    promo = Position(ZS, "6k5/4P7/12/12/12/12/12/12/12/12/12/K11 w - - 0 1")
    details = move_details(promo, parse_move(promo, "e12=Q"))
    assert sentence(ZS, details, "en") == "White Pawn from e11 to e12, promotes to Queen. Check."
    assert sentence(ZS, details, "fr") == "Pion blanc de e11 à e12, promu en Dame. Échec."
    quiet = move_details(promo, parse_move(promo, "e12=G"))
    assert sentence(ZS, quiet, "en") == "White Pawn from e11 to e12, promotes to Eagle."
    mate = Position(CHESS, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    details = move_details(mate, parse_move(mate, "Ra8"))
    assert sentence(CHESS, details, "fr").endswith("Échec et mat.")
