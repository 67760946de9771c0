"""Older helpers kept for the terminal client while it moves to :mod:`zanzibar.l10n`.

New code says everything through the Fluent catalogue (``zanzibar.l10n``):
``Voice(lang).say(Msg(...))`` and ``Voice(lang).join(words)``. ``translate``
still formats a plain dict catalogue, falling back to English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "fr")

Catalogue = Mapping[str, Mapping[str, str]]


def check_language(lang: str) -> str:
    """Return ``lang`` if supported, else raise ValueError."""
    if lang not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r} (supported: {', '.join(LANGUAGES)})")
    return lang


def translate(catalogue: Catalogue, lang: str, key: str, **values: Any) -> str:
    """Format the sentence ``key`` of ``catalogue`` in ``lang``.

    >>> cat = {"en": {"hi": "Hello {name}"}, "fr": {"hi": "Bonjour {name}"}}
    >>> translate(cat, "fr", "hi", name="Anna")
    'Bonjour Anna'
    """
    table = catalogue.get(lang) or catalogue["en"]
    template = table.get(key) or catalogue["en"][key]
    return template.format(**values)


def join_words(items: Sequence[str], lang: str) -> str:
    """Join words as a sentence does: "a, b and c" / "a, b et c".

    >>> join_words(["Anna", "Bob", "Chloé"], "fr")
    'Anna, Bob et Chloé'
    """
    items = list(items)
    if not items:
        return ""
    from zanzibar.l10n import Voice

    return Voice(lang).join(items)


def seat_name(names: Sequence[str], seat: int) -> str:
    """A seat's display name, or a numbered fallback."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"#{seat + 1}"
