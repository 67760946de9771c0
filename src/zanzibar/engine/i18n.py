"""Message catalogues: one sentence template per key and language.

Games keep their sentences in plain dicts (``{"en": {...}, "fr": {...}}``) and
format them here, falling back to English for a missing translation so a
missing sentence never becomes silence.
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
    if len(items) == 1:
        return items[0]
    word = "et" if lang == "fr" else "and"
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def seat_name(names: Sequence[str], seat: int) -> str:
    """A seat's display name, or a numbered fallback."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"#{seat + 1}"
