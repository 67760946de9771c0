"""Variant files: the shipped ones load, broken ones are refused with a clear message."""

from __future__ import annotations

import pytest

from zanzibar.engine.errors import CorruptDataError
from zanzibar.games.chess.variant import (
    load_variant,
    load_variant_file,
    load_variant_text,
    shipped_variants,
)

MINI = """
name = "mini"
files = 6
ranks = 6
start_fen = "k5/6/6/6/6/K5 w - - 0 1"
[[pieces]]
letter = "K"
betza = "K"
royal = true
name = { en = "King", fr = "Roi" }
"""


def test_shipped_variants() -> None:
    assert set(shipped_variants()) >= {"chess", "shako", "metamachy", "zanzibar-s"}
    zs = load_variant("zanzibar-s")
    assert (zs.files, zs.ranks, len(zs.pieces)) == (12, 12, 17)
    assert zs.king_jump and zs.setup.kind == "mirror-choice" and zs.stalemate == "draw"
    assert zs.piece_by_letter("P").promotion is not None
    assert zs.piece_by_letter("P").promotion.choices == ("Q", "G", "L", "U", "F")  # type: ignore[union-attr]
    assert zs.piece_by_letter("I").en_passant_capturable
    assert zs.move_rule_resets == ("P", "I")
    names = {p.name["fr"] for p in zs.pieces}
    assert {"Aigle", "Rhinocéros", "Buffle", "Girafe", "Crocodile", "Machine"} <= names


def test_minimal_variant_loads() -> None:
    v = load_variant_text(MINI)
    assert v.name == "mini" and v.royal_index == 0 and v.move_rule_resets == ()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("files = 6", "files = 17"), "16x16"),
        (("ranks = 6", "ranks = 1"), "16x16"),
        (('betza = "K"', 'betza = "Kq"'), "Betza"),
        (("royal = true", "royal = false"), "royal"),
        (('letter = "K"', 'letter = "k"'), "uppercase"),
        (('name = { en = "King", fr = "Roi" }', 'name = { en = "King" }'), "French"),
        (('start_fen = "k5/6/6/6/6/K5 w - - 0 1"', 'start_fen = "k5/6/6 w"'), "ranks"),
        (("", '[rules]\nstalemate = "maybe"'), "stalemate"),
        (("", '[rules]\nmove_rule_resets = ["Z"]'), "unknown piece"),
        (("", '[setup]\nkind = "lottery"'), "unknown kind"),
        (("[[pieces]]", '[[pieces]]\npromotion = { choices = ["X"] }'), "promotes to unknown"),
        (("[[pieces]]", "[[pieces]]\ninitial_ranks = [9]"), "initial_ranks"),
        (('betza = "K"', 'betza = "KifmnD"'), "no initial_ranks"),
        (("files = 6", "files = 'six'"), "whole number"),
    ],
)
def test_broken_variants_are_refused(change: tuple[str, str], message: str) -> None:
    text = MINI + change[1] if not change[0] else MINI.replace(*change, 1)
    with pytest.raises(CorruptDataError, match=message):
        load_variant_text(text)


def test_not_toml_and_missing_files() -> None:
    with pytest.raises(CorruptDataError, match="not valid TOML"):
        load_variant_text("name = ")
    with pytest.raises(CorruptDataError, match="cannot read"):
        load_variant_file("/nonexistent/variant.toml")
    with pytest.raises(CorruptDataError, match="unknown variant"):
        load_variant("nosuch")
