"""Help and rules texts: both languages, every rule with its source, following the options."""

from __future__ import annotations

import pytest

from zanzibar.games.dice421.help import help_text, rules_text
from zanzibar.games.dice421.options import OPTIONS

SOURCES = ("[seed", "[graine", "[French Wikipedia", "[Wikipédia", "[regional", "[variante")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("preset", ["salon", "bar"])
def test_every_rule_cites_its_source(lang: str, preset: str) -> None:
    text = rules_text(lang, OPTIONS.resolve(preset))
    lines = text.splitlines()
    assert preset in lines[0]
    for line in lines[1:]:
        assert line.startswith("- ")
        assert any(source in line for source in SOURCES), line


def test_rules_follow_the_options() -> None:
    salon, bar = (
        rules_text("en", OPTIONS.resolve("salon")),
        rules_text("en", OPTIONS.resolve("bar")),
    )
    assert "later player's is stronger" in salon and "rampo" not in salon
    assert "rampo" in bar and "first to lose 2 rounds" in bar and "Dry charge" in bar
    assert "no winners yet" in bar and "no winners yet" not in salon
    custom = rules_text("fr", OPTIONS.resolve("salon", {"fiche_order": "fiche_first"}))
    assert custom.startswith("Règles personnalisées") and "611 > 666" in custom


def test_help_lists_the_seed_keys_in_both_languages() -> None:
    for key in ("1-6", "Shift+1-6", "Space", "D:", "S:", "T:", "F1", "Ctrl+F1", "roll", "stop"):
        assert key in help_text("en"), key
    for key in ("1-6", "Maj+1-6", "Espace", "D :", "S :", "T :", "F1", "Ctrl+F1"):
        assert key in help_text("fr"), key


def test_every_option_has_both_languages_and_a_source() -> None:
    for spec in OPTIONS.specs:
        assert spec.description["en"] and spec.description["fr"]
        assert "seed" in spec.source
        for choice in spec.choices:
            assert set(spec.choice_labels[choice]) == {"en", "fr"}
