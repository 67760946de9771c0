"""Free text at the salon's edge: chat lines, private messages, names.

Every piece of text a person types and others will read (or hear through a
screen reader) passes through :func:`clean_free_text` before anything is
stored or sent. It refuses text that is not well-formed Unicode (a lone
surrogate such as JSON ``"\\ud800"`` cannot even be encoded to UTF-8, and once
stored it would poison every later send), and it removes characters that are
invisible or that change how the surrounding text is shown or spoken:

- C0 and C1 control characters (a tab or a line break becomes a space);
- bidirectional overrides, embeddings and isolates (U+202A-U+202E,
  U+2066-U+2069), which can make "gnp" read as "png" or hide a name's end;
- zero-width characters and other invisible formatting (Unicode category
  ``Cf``: U+200B, U+200D, U+2060, U+FEFF, ...), and unassigned, private-use
  or surrogate code points (categories ``Cn``, ``Co``, ``Cs``).

Stripping (rather than refusing) keeps a line pasted from elsewhere usable;
a text that holds nothing visible once cleaned is refused. The rules are the
same for every kind of free text so that no path lets something through that
another path stops.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from zanzibar.salon.errors import SalonError

#: Bidirectional formatting characters (embeddings, overrides, isolates).
BIDI_CONTROLS: frozenset[str] = frozenset(
    chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C]
)
#: Whitespace controls turned into a plain space rather than removed.
_SPACES = frozenset("\t\n\r\x0b\x0c\x85\u2028\u2029")


def is_well_formed(text: str) -> bool:
    """True if ``text`` encodes to UTF-8 (no lone surrogate).

    >>> is_well_formed("café"), is_well_formed("\\ud800")
    (True, False)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _visible(ch: str) -> str:
    """``ch`` as kept: itself, a space, or nothing."""
    if ch in _SPACES:
        return " "
    if ch in BIDI_CONTROLS:
        return ""
    category = unicodedata.category(ch)
    if category[0] == "C":  # Cc control, Cf format, Cn unassigned, Co private, Cs surrogate
        return ""
    return ch


def strip_invisible(text: str) -> str:
    """``text`` without controls, bidi overrides and invisible formatting.

    >>> strip_invisible("a\\u202eb\\u200bc\\x07d\\te")
    'abcd e'
    """
    return "".join(_visible(ch) for ch in text)


def clean_free_text(
    raw: Any, what: str, max_length: int, *, single_line: bool = True, strip: bool = True
) -> str:
    """Validated free text: well-formed, without invisible characters, trimmed.

    ``what`` names the text in refusals ("a chat line", "a name"). Runs of
    spaces are folded into one when ``single_line`` (names). With ``strip``
    invisible characters are removed; without it (names, chosen once and
    shown everywhere) a text holding any is refused.

    >>> clean_free_text("  Hello\\u202e  world ", "a chat line", 500)
    'Hello world'
    >>> clean_free_text("\\ud800", "a chat line", 500)
    Traceback (most recent call last):
    ...
    zanzibar.salon.errors.SalonError: a chat line must be valid Unicode text (a lone surrogate was sent)
    >>> clean_free_text("\\u200b\\u200d", "a name", 32)
    Traceback (most recent call last):
    ...
    zanzibar.salon.errors.SalonError: a name cannot be empty or only invisible characters
    """
    if not isinstance(raw, str):
        raise SalonError("invalid", f"{what} must be text")
    if len(raw) > max_length * 4:  # cheap bound before any work on a huge string
        raise SalonError("too_long", f"{what} is at most {max_length} characters")
    if not is_well_formed(raw):
        raise SalonError(
            "invalid", f"{what} must be valid Unicode text (a lone surrogate was sent)"
        )
    if not strip:
        folded = " ".join(raw.split())
        if strip_invisible(folded) != folded:
            raise SalonError(
                "invalid", f"{what} may not hold control, bidi or invisible formatting characters"
            )
    text = unicodedata.normalize("NFC", strip_invisible(raw))
    text = " ".join(text.split()) if single_line else text.strip()
    if not text:
        raise SalonError("invalid", f"{what} cannot be empty or only invisible characters")
    if len(text) > max_length:
        raise SalonError("too_long", f"{what} is at most {max_length} characters")
    return text
