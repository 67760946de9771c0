"""A pseudo-locale ``xx`` made from the English files: every word accented and bracketed.

It proves that a language is only files: written next to copies of the shipped
languages, it is picked up by the catalogue like any other, and every sentence
rendered in it must be made of bracketed words, names and numbers; an
unbracketed word would be text that does not come from the catalogue.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from fluent.syntax import ast, parse, serialize, visitor

from zanzibar.l10n.catalogue import ROOT

_ACCENTS = str.maketrans(
    "AEIOUYCNaeiouycnSsZzLlDdGgRrTt",
    "ÅÉÎÖÛŶÇÑåéîöûŷçñŠšŽžĹĺĎďĜĝŔŕŢţ",
)
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*")


def pseudo_word(word: str) -> str:
    """``rolled`` -> ``⟦ŕöĺĺéď⟧``."""
    return "⟦" + word.translate(_ACCENTS) + "⟧"


class _Pseudo(visitor.Transformer):
    def visit_TextElement(self, node: ast.TextElement) -> ast.TextElement:
        node.value = _WORD.sub(lambda m: pseudo_word(m.group(0)), node.value)
        return node


def pseudo_ftl(source: str) -> str:
    """The pseudo-localised form of one English file (ids, variables and selectors kept)."""
    resource = parse(source)
    _Pseudo().visit(resource)
    return serialize(resource)


def make_catalogue_root(where: Path) -> Path:
    """Copies of the shipped languages plus ``xx``, under ``where``."""
    for folder in ROOT.iterdir():
        if folder.is_dir() and any(folder.glob("*.ftl")):
            shutil.copytree(folder, where / folder.name)
    (where / "xx").mkdir()
    for path in (ROOT / "en").glob("*.ftl"):
        (where / "xx" / path.name).write_text(
            pseudo_ftl(path.read_text(encoding="utf-8")), encoding="utf-8"
        )
    return where


_BRACKETED = re.compile(r"⟦[^⟧]*⟧")
#: What may stand outside brackets: numbers, dice, squares (e4, l12), single letters, punctuation.
_ALLOWED = re.compile(r"^[\s\d.,;:!?()«»'\"/+#×=<>%&\-–—…\u00a0\u202f]*$")
#: What the player typed, quoted back ("weather", 'z99'), and option values given as codes.
_QUOTED = re.compile(r"“[^”]*”|'[^']*'|«[^»]*»")
#: Single letters are notation, not words: piece letters (K), "x-x-x".
_LETTER = re.compile(r"\b[A-Za-z]\b")
_SQUARE = re.compile(r"\b[a-l](?:1[0-2]|[1-9])\b")


def unbracketed(text: str, names: tuple[str, ...]) -> str:
    """What is left of a pseudo-locale sentence once bracketed words, names and squares go."""
    rest = _QUOTED.sub(" ", _BRACKETED.sub(" ", text))
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    rest = _SQUARE.sub(" ", rest)
    rest = _LETTER.sub(" ", rest)
    return "" if _ALLOWED.match(rest) else rest.strip()
