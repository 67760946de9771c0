"""A third language is only files: the pseudo-locale ``xx`` says every sentence of every game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from zanzibar.l10n import Msg, Voice, catalogue
from zanzibar.l10n.catalogue import Catalogue

from .corpus import NAMES, sentences
from .pseudo import make_catalogue_root, pseudo_word, unbracketed


@pytest.fixture(scope="module")
def pseudo_catalogue(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    return Catalogue(make_catalogue_root(tmp_path_factory.mktemp("l10n")))


@pytest.fixture
def with_xx(pseudo_catalogue: Catalogue, monkeypatch: pytest.MonkeyPatch) -> Iterator[Catalogue]:
    monkeypatch.setattr(catalogue, "default_catalogue", lambda: pseudo_catalogue)
    yield pseudo_catalogue


def test_the_new_folder_is_a_language(with_xx: Catalogue) -> None:
    assert "xx" in with_xx.codes
    assert with_xx.problems() == []
    assert with_xx.ids("xx") == with_xx.ids("en")
    said = Voice("xx").say(Msg("dice421-tokens", n=2))
    assert said == f"2 {pseudo_word('tokens')}"


def test_every_sentence_of_every_game_is_in_the_pseudo_locale(with_xx: Catalogue) -> None:
    """Rendered in xx, nothing may be left outside brackets but names and numbers."""
    leaks = []
    count = 0
    for where, text in sentences("xx"):
        count += 1
        rest = unbracketed(text, NAMES)
        if rest or "{" in text or not text.strip():
            leaks.append((where, text))
    assert count > 1000
    assert leaks[:20] == []


def test_unbracketed_finds_hard_coded_words() -> None:
    assert unbracketed("⟦Ŷöû⟧ 4 2 1, e4.", NAMES) == ""
    assert unbracketed("Anna ⟦ŕöĺĺéď⟧ 5", NAMES) == ""
    assert unbracketed("⟦Ŷöû⟧ rolled 5", NAMES) == "rolled 5"


def test_missing_language_key_fails_in_strict_mode(with_xx: Catalogue, tmp_path: Path) -> None:
    root = make_catalogue_root(tmp_path)
    path = root / "xx" / "zilch.ftl"
    path.write_text(
        "\n".join(
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if not line.startswith("zilch-bank")
        ),
        encoding="utf-8",
    )
    broken = Catalogue(root)
    assert "zilch-bank" not in broken.ids("xx")
    with pytest.raises(Exception, match="zilch-bank"):
        Voice("xx", broken, strict=True).say(Msg("zilch-bank", points=1, total=2))
