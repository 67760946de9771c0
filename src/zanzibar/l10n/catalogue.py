"""The message catalogue: every ``.ftl`` file of every language, parsed once.

A language is a folder beside this module (``en/``, ``fr/``) holding Fluent
files; adding a language means adding a folder, no code. Files are split by
concern (``salon.ftl``, ``errors.ftl``, ``web.ftl``, one per game) and every id
starts with its file's prefix, so two files never define the same id (Fluent
itself would silently keep the first one; :meth:`Catalogue.problems` reports it).

Parsing the shipped files is most of the time a ``zanzibar`` process takes to
start (0.4 s of 1.2 for a terminal game): the parsed files are kept in the
user's cache (``$ZANZIBAR_CACHE_DIR``, else ``~/.cache/zanzibar``, as the Zilch
solutions are), one pickle named by the hash of every file's name and text, the
Fluent parser's version and Python's, and read back instead while nothing changed.
A cache that cannot be read or written is passed over: the files are parsed. A pickle
runs what it names when read, so the cache must be a folder only its user can write, as
``~/.cache`` is (``$ZANZIBAR_CACHE_DIR`` must never point to a shared one).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import sys
import tempfile
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from fluent.runtime import FluentBundle
from fluent.runtime.types import FluentInt
from fluent.syntax import FluentParser, ast

from zanzibar.cache import cache_dir

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
        #: Sentences with blanks, per message and its other arguments: see Voice._templated.
        self.templates: dict[Any, str | None] = {}
        #: Per (language, message id): its bundle, pattern and plain variables (Voice._plan).
        self.plans: dict[tuple[str, str], Any] = {}
        #: Per (language, strictness, message, listener's seat): how to fill its template
        #: for any names (Voice._said_once).
        self.recipes: dict[Any, Any] = {}
        digest = hashlib.sha256()
        texts: dict[tuple[str, str], str] = {}
        for folder in sorted(p for p in self.root.iterdir() if p.is_dir()):
            for path in sorted(folder.glob("*.ftl")):
                text = path.read_text(encoding="utf-8")
                digest.update(f"{folder.name}/{path.name}\0".encode())
                digest.update(text.encode())
                texts[folder.name, path.stem] = text
        cache = _cache_file(digest.hexdigest()) if self.root == ROOT else None
        parsed = _read_cache(cache, texts)
        if parsed is None:
            parser = FluentParser(with_spans=False)
            parsed = {key: parser.parse(text) for key, text in texts.items()}
            _write_cache(cache, parsed)
        for (code, stem), resource in parsed.items():
            lang = self.languages.get(code)
            if lang is None:
                lang = self.languages[code] = Language(code)
                lang.bundle = FluentBundle([code], functions=FUNCTIONS, use_isolating=False)
            assert lang.bundle is not None
            lang.files[stem] = resource
            lang.bundle.add_resource(resource)
        if SOURCE_LANGUAGE not in self.languages:
            raise RuntimeError(f"no {SOURCE_LANGUAGE!r} messages under {self.root}")
        #: Changes whenever any file changes: the web export's ETag.
        self.etag = digest.hexdigest()[:20]
        self._index: dict[str, dict[str, ast.Message]] = {}
        self._plain: dict[tuple[str, str], frozenset[str]] = {}
        self._numbers: dict[tuple[str, int], str] = {}
        self._locales: dict[str, Locale] = {}

    @property
    def codes(self) -> tuple[str, ...]:
        """The language codes, sorted."""
        return tuple(self.languages)

    def bundle(self, lang: str) -> FluentBundle:
        """The bundle of ``lang`` (KeyError if the language does not exist)."""
        bundle = self.languages[lang].bundle
        assert bundle is not None
        return bundle

    def plain_variables(self, lang: str, msg_id: str) -> frozenset[str]:
        """The variables of a message's value that are only ever printed as they are.

        Not used as a selector, nor given to a function or a term, in a message
        that references no other message: Fluent only writes such a variable's
        value, so a number there can be written beforehand (:meth:`number_text`)
        with exactly the text Fluent would give it. (Fluent formats every number
        through babel each time: most of the cost of a short game sentence.)
        """
        key = (lang, msg_id)
        known = self._plain.get(key)
        if known is None:
            known = self._plain[key] = _plain_variables(self._message(lang, msg_id))
        return known

    def number_text(self, lang: str, value: int) -> str:
        """An integer as Fluent writes ``{ $n }`` in ``lang`` (remembered per value)."""
        key = (lang, value)
        text = self._numbers.get(key)
        if text is None:
            locale = self._locales.get(lang)
            if locale is None:  # the locale Fluent's bundle takes (babel's default if unknown)
                try:
                    locale = Locale.parse(lang.replace("-", "_"))
                except UnknownLocaleError:
                    locale = Locale.default()
                self._locales[lang] = locale
            if len(self._numbers) >= 10_000:
                self._numbers.clear()
            text = self._numbers[key] = FluentInt(value).format(locale)
        return text

    def _message(self, lang: str, msg_id: str) -> ast.Message | None:
        index = self._index.get(lang)
        if index is None:
            index = self._index[lang] = {}
            for _, message in self.languages[lang].messages():
                index.setdefault(message.id.name, message)  # Fluent keeps the first one
        return index.get(msg_id)

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


def _plain_variables(message: ast.Message | None) -> frozenset[str]:
    """See :meth:`Catalogue.plain_variables` (empty when in doubt)."""
    if message is None or message.value is None:
        return frozenset()
    printed: set[str] = set()
    other: set[str] = set()
    pending: list[Any] = [message.value]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Pattern):
            pending.extend(node.elements)
        elif isinstance(node, ast.Placeable):
            inner = node.expression
            if isinstance(inner, ast.VariableReference):
                printed.add(inner.id.name)
            else:
                pending.append(inner)
        elif isinstance(node, ast.SelectExpression):
            pending.append(node.selector)
            pending.extend(variant.value for variant in node.variants)
        elif isinstance(node, ast.VariableReference):  # a selector, a function's argument
            other.add(node.id.name)
        elif isinstance(node, ast.FunctionReference | ast.TermReference):
            if node.arguments is not None:
                pending.extend(node.arguments.positional)
                pending.extend(arg.value for arg in node.arguments.named)
        elif isinstance(node, ast.MessageReference):
            return frozenset()  # it reads the same variables: not followed, so none is plain
        elif not isinstance(node, ast.TextElement | ast.StringLiteral | ast.NumberLiteral):
            return frozenset()  # a node this walk does not know
    return frozenset(printed - other)


def _cache_file(files_hash: str) -> Path | None:
    """Where the shipped files, parsed, are kept while their texts and the parser stay
    (the parser's modules as installed: their sizes and times)."""
    from fluent.syntax import parser

    try:
        installed = [
            (s.st_size, s.st_mtime_ns) for s in map(os.stat, (parser.__file__, ast.__file__))
        ]
    except (OSError, TypeError):
        return None
    key = hashlib.sha256(f"{files_hash} {installed} {sys.version_info[:2]}".encode()).hexdigest()
    return cache_dir() / f"catalogue-{key[:24]}.pickle"


def _read_cache(
    path: Path | None, texts: dict[tuple[str, str], str]
) -> dict[tuple[str, str], ast.Resource] | None:
    """The parsed files kept at ``path`` (None: none there, or not readable)."""
    if path is None:
        return None
    try:
        parsed = pickle.loads(path.read_bytes())
    except Exception:  # missing, truncated, written by another version: parse again
        return None
    if not isinstance(parsed, dict) or list(parsed) != list(texts):
        return None
    if not all(isinstance(r, ast.Resource) for r in parsed.values()):
        return None
    return parsed


def _write_cache(path: Path | None, parsed: dict[tuple[str, str], ast.Resource]) -> None:
    """Keep the parsed files at ``path`` (whole or not at all: written aside, then renamed)."""
    if path is None:
        return
    with contextlib.suppress(OSError, pickle.PicklingError):
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, aside = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
        try:
            with os.fdopen(handle, "wb") as out:
                pickle.dump(parsed, out, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(aside, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(aside)
        _forget_old_caches(path.parent)


#: Parsed catalogues kept at most (a catalogue edited, another checkout or Python: another file).
KEPT_CATALOGUES = 8


def _forget_old_caches(folder: Path) -> None:
    """Remove all but the :data:`KEPT_CATALOGUES` newest parsed catalogues in ``folder``."""
    dated = []
    for kept in folder.glob("catalogue-*.pickle"):
        with contextlib.suppress(OSError):
            dated.append((kept.stat().st_mtime_ns, kept))
    for _, old in sorted(dated, reverse=True)[KEPT_CATALOGUES:]:
        with contextlib.suppress(OSError):
            old.unlink()


@functools.cache
def default_catalogue() -> Catalogue:
    """The shipped catalogue, loaded on first use."""
    return Catalogue(ROOT)


def languages() -> tuple[str, ...]:
    """The languages the product speaks."""
    return default_catalogue().codes
