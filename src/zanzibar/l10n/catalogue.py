"""The message catalogue: every ``.ftl`` file of every language, parsed once.

A language is a folder beside this module (``en/``, ``fr/``) holding Fluent
files; adding a language means adding a folder, no code. Files are split by
concern (``salon.ftl``, ``errors.ftl``, ``web.ftl``, one per game) and every id
starts with its file's prefix, so two files never define the same id (Fluent
itself would silently keep the first one; :meth:`Catalogue.problems` reports it).
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle
from fluent.syntax import FluentParser, ast

#: Where the shipped languages live.
ROOT = Path(__file__).resolve().parent

#: The language everything falls back to, and the reference for ids and variables.
SOURCE_LANGUAGE = "en"

_VOWELS = frozenset("aeiouyh")


def vowel(value: Any, *_: Any, **__: Any) -> str:
    """Fluent function ``VOWEL($name)``: ``yes`` when a word takes French elision.

    "d'Anna", "d'Éric", "d'Hugo" but "de Bruno": the first letter, accents
    removed, is a vowel or a mute-h candidate.

    >>> vowel("Éric"), vowel("Bruno"), vowel("")
    ('yes', 'no', 'no')
    """
    text = str(getattr(value, "value", value) or "").strip()
    if not text:
        return "no"
    base = unicodedata.normalize("NFD", text[0])[0].lower()
    return "yes" if base in _VOWELS else "no"


FUNCTIONS: dict[str, Any] = {"VOWEL": vowel}


@dataclass
class Language:
    """One language: its parsed files and the bundle that formats them."""

    code: str
    files: dict[str, ast.Resource] = field(default_factory=dict)
    bundle: FluentBundle | None = None

    def messages(self) -> Iterator[tuple[str, ast.Message]]:
        """(file name, message) for every message of every file, in file order."""
        for name, resource in self.files.items():
            for entry in resource.body:
                if isinstance(entry, ast.Message):
                    yield name, entry


class Catalogue:
    """All languages found under ``root``, each parsed into one Fluent bundle."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = Path(root)
        self.languages: dict[str, Language] = {}
        #: Sentences already said, by (language, strictness, message, listener): see Voice.say.
        self.said: dict[Any, str] = {}
        digest = hashlib.sha256()
        parser = FluentParser(with_spans=False)
        for folder in sorted(p for p in self.root.iterdir() if p.is_dir()):
            paths = sorted(folder.glob("*.ftl"))
            if not paths:
                continue
            lang = Language(folder.name)
            bundle = FluentBundle([folder.name], functions=FUNCTIONS, use_isolating=False)
            for path in paths:
                text = path.read_text(encoding="utf-8")
                digest.update(f"{folder.name}/{path.name}\0".encode())
                digest.update(text.encode())
                resource = parser.parse(text)
                lang.files[path.stem] = resource
                bundle.add_resource(resource)
            lang.bundle = bundle
            self.languages[folder.name] = lang
        if SOURCE_LANGUAGE not in self.languages:
            raise RuntimeError(f"no {SOURCE_LANGUAGE!r} messages under {self.root}")
        #: Changes whenever any file changes: the web export's ETag.
        self.etag = digest.hexdigest()[:20]

    @property
    def codes(self) -> tuple[str, ...]:
        """The language codes, sorted."""
        return tuple(self.languages)

    def bundle(self, lang: str) -> FluentBundle:
        """The bundle of ``lang`` (KeyError if the language does not exist)."""
        bundle = self.languages[lang].bundle
        assert bundle is not None
        return bundle

    def ids(self, lang: str) -> set[str]:
        """Every message id of ``lang``."""
        return {m.id.name for _, m in self.languages[lang].messages()}

    def problems(self) -> list[str]:
        """Syntax errors and duplicate ids, one readable line each (empty when sound)."""
        out: list[str] = []
        for code, lang in self.languages.items():
            seen: dict[str, str] = {}
            for name, resource in lang.files.items():
                for entry in resource.body:
                    if isinstance(entry, ast.Junk):
                        first = entry.content.strip().splitlines()[0] if entry.content else ""
                        out.append(f"{code}/{name}.ftl: syntax error near {first!r}")
                    elif isinstance(entry, ast.Message | ast.Term):
                        key = ("-" if isinstance(entry, ast.Term) else "") + entry.id.name
                        if key in seen:
                            out.append(f"{code}: {key} defined in {seen[key]}.ftl and {name}.ftl")
                        seen[key] = name
        return out


@functools.cache
def default_catalogue() -> Catalogue:
    """The shipped catalogue, loaded on first use."""
    return Catalogue(ROOT)


def languages() -> tuple[str, ...]:
    """The languages the product speaks."""
    return default_catalogue().codes
