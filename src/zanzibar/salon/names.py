"""What a person types to get an account: a name, a language, a password.

Kept apart from the account book (:mod:`zanzibar.salon.accounts`) because these
checks are pure and used well beyond it: the friends list finds people by the
same skeletons, the ratings find an account by the same key, a migration fills
``user_names`` with them, and the gateway checks a language.

Names are unique by their confusable *skeleton* (Unicode TR39, computed by the
``disarm`` library, after NFKC and case folding): "Anna", "ANNA", "Ａｎｎａ"
(full width) and "Аnna" (a Cyrillic A) are one name. The names the salon
speaks with ("System", bots such as "Bot 2 (random)") are reserved.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from disarm import skeleton_key

from zanzibar.engine.i18n import LANGUAGES
from zanzibar.salon.errors import SalonError
from zanzibar.salon.text import clean_free_text

NAME_MAX = 32
PASSWORD_MIN = 6
PASSWORD_MAX = 256

#: Names the salon itself speaks with, or that would pass for it, in English
#: and French (compared by skeleton, so "SYSTEM" and "Ѕуѕtеm" are refused too).
RESERVED_NAMES: tuple[str, ...] = (
    "System",
    "Système",
    "Systeme",
    "Salon",
    "Zanzibar",
    "Admin",
    "Administrator",
    "Administrateur",
    "Moderator",
    "Modérateur",
    "Moderateur",
    "Server",
    "Serveur",
    "Host",
    "Hôte",
    "Nobody",
    "Personne",
    "Bot",
    "Robot",
)
#: A skeleton starting with the word "bot" or "robot" ("Bot 2 (random)", "Robot 3").
_BOT_LIKE = re.compile(r"^(?:ro)?bot(?![a-z])")


def clean_name(raw: Any) -> str:
    """A display name, trimmed; refuse empty, over-long, invisible or reserved names.

    >>> clean_name("  Anna ")
    'Anna'
    >>> clean_name("")
    Traceback (most recent call last):
    ...
    zanzibar.salon.errors.SalonError: a name needs 1 to 32 characters
    >>> clean_name("Bot 2 (random)")
    Traceback (most recent call last):
    ...
    zanzibar.salon.errors.SalonError: the name Bot 2 (random) is reserved for the salon; choose another
    """
    if isinstance(raw, str) and not raw.strip():
        raise SalonError("invalid", f"a name needs 1 to {NAME_MAX} characters")
    if isinstance(raw, str) and len(" ".join(raw.split())) > NAME_MAX:
        raise SalonError("invalid", f"a name needs 1 to {NAME_MAX} characters")
    name = clean_free_text(raw, "a name", NAME_MAX, strip=False)
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise SalonError("invalid", "a name needs at least one letter or digit")
    if is_reserved(name):
        raise SalonError("invalid", f"the name {name} is reserved for the salon; choose another")
    return name


def name_key(name: str) -> str:
    """The form of a name used to find it: NFKC, then case-folded.

    "Anna", "anna" and full-width "Ａｎｎａ" are found under one key.

    >>> name_key("Chloé") == name_key("CHLOÉ"), name_key("Ａｎｎａ")
    (True, 'anna')
    """
    return unicodedata.normalize("NFKC", name).casefold()


def name_skeleton(name: str) -> str:
    """The confusable skeleton of a name (TR39, with digits: "0" is "O", "1" is "l").

    Two names with one skeleton look alike, so only one of them may exist.

    >>> name_skeleton("Anna") == name_skeleton("\u0410nna") == name_skeleton("ANNA")
    True
    >>> name_skeleton("Anna") == name_skeleton("Anne")
    False
    """
    folded = unicodedata.normalize("NFKC", name)
    return skeleton_key(folded, digit_policy="tr39") or name_key(name)


def name_skeletons(name: str) -> frozenset[str]:
    """The skeletons of a name as written, in lower case and in upper case.

    TR39 maps a capital I to l but leaves a small i alone, so "Iris" and "iris"
    have different skeletons; comparing the three forms catches such pairs.

    >>> bool(name_skeletons("Iris") & name_skeletons("iris"))
    True
    """
    folded = unicodedata.normalize("NFKC", name)
    return frozenset(name_skeleton(form) for form in (folded, folded.lower(), folded.upper()))


_RESERVED_SKELETONS = frozenset().union(*(name_skeletons(n) for n in RESERVED_NAMES))


def is_reserved(name: str) -> bool:
    """True for the salon's own names and look-alikes of them.

    >>> is_reserved("SYSTEM"), is_reserved("Robot 3 (facile)"), is_reserved("Botticelli")
    (True, True, False)
    """
    forms = name_skeletons(name)
    return bool(forms & _RESERVED_SKELETONS) or any(_BOT_LIKE.match(form) for form in forms)


def clean_lang(raw: Any, default: str = "en") -> str:
    """A supported language code, or ``invalid``."""
    if raw is None:
        return default
    if not isinstance(raw, str) or raw not in LANGUAGES:
        raise SalonError("invalid", f"language must be one of {', '.join(LANGUAGES)}")
    return raw


def check_password(raw: Any) -> str:
    """A password of acceptable length."""
    if not isinstance(raw, str) or not PASSWORD_MIN <= len(raw) <= PASSWORD_MAX:
        raise SalonError("invalid", f"a password needs {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return raw
