"""Golden transcripts: whole seeded games played through the terminal frame from a script.

Each ``tests/golden/NAME.in`` starts with the command it plays
(``# zanzibar play 421 --seed 7 ...``), then one input a line: ``key NAME``
(a key press), ``tick`` / ``tick *`` (one bot step, or bots until the human's
turn, on a manual clock), or a typed line. The whole output (inputs shown as
``> ...``) must equal ``NAME.out``, reviewed by a person.
``ZANZIBAR_UPDATE_GOLDEN=1`` rewrites the ``.out`` files (then read the diff).
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

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
