"""Accounts: guests and registered users, argon2 password hashes, session tokens.

A session token is a random string given once to the client; only its SHA-256
is stored, and a token identifies its user on every connection (a user may
hold many). Password hashing is deliberately slow, so it runs in a worker
thread and never stalls the tables.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from zanzibar.engine.i18n import LANGUAGES
from zanzibar.salon.errors import SalonError

NAME_MAX = 32
PASSWORD_MIN = 6
PASSWORD_MAX = 256

_hasher = PasswordHasher()


@dataclass
class User:
    """A person in the salon."""

    id: int
    name: str
    lang: str
    guest: bool

    def to_json(self) -> dict[str, Any]:
        """The protocol's ``user`` object."""
        return {"id": self.id, "name": self.name, "lang": self.lang, "guest": self.guest}


@dataclass(frozen=True)
class Session:
    """What signing in returns: the token to present in ``hello``, and the user."""

    token: str
    user: User

    def to_json(self) -> dict[str, Any]:
        """The HTTP sign-in reply."""
        return {"token": self.token, "user": self.user.to_json()}


def clean_name(raw: Any) -> str:
    """A display name, trimmed; refuse empty, over-long or control characters.

    >>> clean_name("  Anna ")
    'Anna'
    >>> clean_name("")
    Traceback (most recent call last):
    ...
    zanzibar.salon.errors.SalonError: a name needs 1 to 32 characters
    """
    if not isinstance(raw, str):
        raise SalonError("invalid", "a name must be text")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not 1 <= len(name) <= NAME_MAX:
        raise SalonError("invalid", f"a name needs 1 to {NAME_MAX} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise SalonError("invalid", "a name may not hold control characters")
    return name


def name_key(name: str) -> str:
    """The form of a name used for uniqueness: "Anna" and "anna" are one name.

    >>> name_key("Chloé") == name_key("CHLOÉ")
    True
    """
    return name.casefold()


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


def new_token() -> str:
    """A fresh, unguessable session token."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


async def hash_password(password: str) -> str:
    """An argon2id hash, computed off the event loop."""
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(stored: str, password: str) -> bool:
    """True if ``password`` matches the stored hash (off the event loop)."""

    def verify() -> bool:
        try:
            return bool(_hasher.verify(stored, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return await asyncio.to_thread(verify)
