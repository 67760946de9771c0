"""Golden transcripts: whole seeded games played through the terminal frame from a script.

Each ``tests/golden/NAME.in`` starts with the command it plays
(``# zanzibar play 421 --seed 7 ...``), then one input a line: ``key NAME``
(a key press), ``tick`` / ``tick *`` (one bot step, or bots until the human's
turn, on a manual clock), or a typed line. The whole output (inputs shown as
``> ...``) must equal ``NAME.out``, reviewed by a person.
``ZANZIBAR_UPDATE_GOLDEN=1`` rewrites the ``.out`` files (then read the diff).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from zanzibar.cli.play import play

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CASES = sorted(GOLDEN.glob("*.in"))


def transcript(path: Path) -> tuple[int, str]:
    """Play the script; the exit status and the full output."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    argv = shlex.split(first.lstrip("#").strip())
    assert argv[:2] == ["zanzibar", "play"], first
    lines: list[str] = []
    status = play([*argv[2:], "--script", str(path)], output=lines.append)
    return status, "\n".join(lines) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_transcript(path: Path) -> None:
    status, text = transcript(path)
    expected = path.with_suffix(".out")
    if os.environ.get("ZANZIBAR_UPDATE_GOLDEN"):
        expected.write_text(text, encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8")
    assert status == 0
    last = text.rstrip("\n").splitlines()[-1]
    assert last in {"The game is over.", "La partie est terminée."}  # a whole game


def test_every_game_and_language_has_a_transcript() -> None:
    names = {p.stem.rsplit("-seed", 1)[0] for p in CASES}
    assert names >= {
        f"{game}-{lang}" for game in ("421", "zilch", "chess") for lang in ("en", "fr")
    }


#: English words that must not reach a French player (homographs such as
#: "pot", "points", "score(s)", "total", "table" are left out).
_ENGLISH = re.compile(
    r"\b(the|you|your|and|roll|rolled|rolls|turn|dice|die|tokens|bank|banks|wins|takes|"
    r"press|key|keys|help|quit|choose|chosen|move|moves|white|black|empty|rank|file)\b",
    re.IGNORECASE,
)
_GRAMMAR = re.compile(r"\b[01] (jetons|lancers|dés|secondes|joueurs|manches|coups)\b|\(s\)")


@pytest.mark.parametrize("path", [p for p in CASES if "-fr-" in p.name], ids=lambda p: p.stem)
def test_french_transcripts_read_as_french(path: Path) -> None:
    """No English word, no "0 jetons", no "(s)", no placeable left, no internal tag."""
    said = [
        line
        for line in path.with_suffix(".out").read_text(encoding="utf-8").splitlines()
        if not line.startswith("> ")  # the script's own inputs
    ]
    for line in said:
        words = re.sub(r"\b[a-p]\d{1,2}\b|\b[A-Z][a-p]?\d{0,2}x?[a-p]\d{1,2}\b", "", line)
        assert not _ENGLISH.search(words), line
        assert not _GRAMMAR.search(line), line
        assert "{" not in line and "cli-" not in line and "seed" not in line.lower(), line


def _pseudo_module() -> Any:
    """tests/l10n/pseudo.py (the pseudo-locale maker), loaded by path: tests/ is no package."""
    where = Path(__file__).resolve().parents[1] / "l10n" / "pseudo.py"
    spec = importlib.util.spec_from_file_location("zanzibar_tests_pseudo", where)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Notation a pseudo-locale line may hold outside brackets: key names (F1, Ctrl+F1), a typed
#: command's syntax ("[1 2 3]"), moves in coordinates (a3a4, e11e12q), move numbers ("1.").
_NOTATION = re.compile(r"\bF\d{1,2}\b|\+|\[[\d ]*\]|\b[a-l]\d{1,2}[a-l]\d{1,2}[a-z]?\b")


@pytest.fixture(scope="module")
def pseudo_catalogue(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    from zanzibar.l10n.catalogue import Catalogue

    pseudo = _pseudo_module()
    return pseudo, Catalogue(pseudo.make_catalogue_root(tmp_path_factory.mktemp("l10n")))


@pytest.mark.parametrize("path", [p for p in CASES if "-en-" in p.name], ids=lambda p: p.stem)
def test_golden_games_in_the_pseudo_locale_say_only_catalogue_words(
    path: Path, pseudo_catalogue: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The English scripts replayed in ``xx``: every word said must come from the catalogue.

    In the pseudo-locale every catalogue word is bracketed; what is left outside brackets
    (names, numbers, squares and notation aside) is a string hard-coded in the client.
    """
    import zanzibar.cli.play as play_module
    from zanzibar.l10n import catalogue

    pseudo, cat = pseudo_catalogue
    monkeypatch.setattr(catalogue, "default_catalogue", lambda: cat)
    monkeypatch.setattr(play_module, "LANGUAGES", (*play_module.LANGUAGES, "xx"))
    first = path.read_text(encoding="utf-8").splitlines()[0]
    argv = ["xx" if a == "en" else a for a in shlex.split(first.lstrip("#").strip())]
    lines: list[str] = []
    status = play_module.play([*argv[2:], "--script", str(path)], output=lines.append)
    assert status == 0
    said = [line for line in lines if line.strip() and not line.startswith("> ")]
    assert len(said) > 20
    leaks = [
        line
        for line in said
        if pseudo.unbracketed(_NOTATION.sub(" ", line), ("Vous", "You", "Anna", "Bruno"))
    ]
    assert leaks == []
