"""Help and rules texts: both languages, short sentences without source tags, following the options."""

from __future__ import annotations

import pytest

from zanzibar.games.dice421.help import help_text, rules_text
from zanzibar.games.dice421.options import OPTIONS

TAGS = ("seed", "graine", "[", "]", "Wikipedia", "Wikipédia", "research")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("preset", ["salon", "bar"])
def test_rules_are_short_sentences_without_sources(lang: str, preset: str) -> None:
    """Players hear the rules, one short sentence a line; the sources stay in the docs."""
    text = rules_text(lang, OPTIONS.resolve(preset))
    lines = text.splitlines()
    assert preset in lines[0]
    assert len(lines) > 20
    for line in lines:
        assert len(line) <= 160, line
        assert line[-1] in ".:!", line
        assert not any(tag in line for tag in TAGS), line


def test_rules_follow_the_options() -> None:
    salon, bar = (
        rules_text("en", OPTIONS.resolve("salon")),
        rules_text("en", OPTIONS.resolve("bar")),
    )
    assert "later player's is stronger" in salon and "rampo" not in salon
    assert "rampo" in bar and "first to lose 2 rounds" in bar and "Dry charge" in bar
    assert "play the décharge too" in bar and "play the décharge too" not in salon
    custom = rules_text("fr", OPTIONS.resolve("salon", {"fiche_order": "fiche_first"}))
    assert custom.startswith("Règles personnalisées") and "611, 666" in custom


def test_help_lists_the_seed_keys_in_both_languages() -> None:
    for key in (
        "1 to 6",
        "Shift+1 to 6",
        "Space",
        "D:",
        "S:",
        "T:",
        "F1",
        "Ctrl+F1",
        "roll",
        "stop",
    ):
        assert key in help_text("en"), key
    for key in (
        "1 à 6",
        "Maj+1 à 6",
        "Espace",
        "D\u00a0:",
        "S\u00a0:",
        "T\u00a0:",
        "F1",
        "Ctrl+F1",
    ):
        assert key in help_text("fr"), key


def test_every_option_has_both_languages_and_a_source() -> None:
    for spec in OPTIONS.specs:
        assert spec.description["en"] and spec.description["fr"]
        assert "seed" in spec.source
        for choice in spec.choices:
            assert set(spec.choice_labels[choice]) == {"en", "fr"}
