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
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import insert, select

from zanzibar.engine.i18n import LANGUAGES
from zanzibar.salon import models as m
from zanzibar.salon.errors import SalonError
from zanzibar.salon.persistence import Store

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


class AccountBook:
    """Every user of the salon, kept in memory and stored through the salon's store.

    Names are unique regardless of case; a guest asking for a taken name gets a
    number after it. Users are loaded at start (they are few and small), session
    tokens are looked up in storage the first time they are shown.
    """

    def __init__(self, store: Store, next_id: Callable[[], int]) -> None:
        self.store = store
        self.next_id = next_id
        self.users: dict[int, User] = {}
        #: name_key -> user id
        self.user_keys: dict[str, int] = {}
        self.password_hashes: dict[int, str | None] = {}
        #: token hash -> user id
        self.sessions: dict[str, int] = {}

    async def load(self) -> None:
        """Read every user from storage."""
        for row in await self.store.read(select(m.users)):
            user = User(row.id, row.name, row.lang, bool(row.guest))
            self.users[user.id] = user
            self.user_keys[row.name_key] = user.id
            self.password_hashes[user.id] = row.password_hash

    def find(self, name: str) -> User | None:
        """The user called ``name`` (any case, spaces normalised), if any."""
        user_id = self.user_keys.get(name_key(" ".join(str(name).split())))
        return self.users.get(user_id) if user_id is not None else None

    async def guest(self, name: str, lang: str = "en") -> Session:
        """Sign in as a guest; a name already taken gets a number ("Anna 2")."""
        base = clean_name(name)
        lang = clean_lang(lang)
        chosen = base
        number = 1
        while name_key(chosen) in self.user_keys:
            number += 1
            suffix = f" {number}"
            chosen = base[: NAME_MAX - len(suffix)] + suffix
        return await self._create(chosen, lang, None)

    async def register(self, name: str, password: str, lang: str = "en") -> Session:
        """Create an account with a password (argon2id); ``conflict`` if the name is taken."""
        clean = clean_name(name)
        lang = clean_lang(lang)
        check_password(password)
        if name_key(clean) in self.user_keys:
            raise SalonError("conflict", f"the name {clean} is taken")
        hashed = await hash_password(password)
        if name_key(clean) in self.user_keys:  # taken while hashing
            raise SalonError("conflict", f"the name {clean} is taken")
        return await self._create(clean, lang, hashed)

    async def login(self, name: str, password: str) -> Session:
        """Sign in with a password; ``unauthenticated`` if the name or password is wrong."""
        wrong = SalonError("unauthenticated", "wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise wrong
        user = self.find(name)
        stored = self.password_hashes.get(user.id) if user is not None else None
        if user is None or stored is None:
            raise wrong
        if not await verify_password(stored, password):
            raise wrong
        return await self._new_session(user)

    async def resume(self, token: str) -> User | None:
        """The user of a session token, looking it up in storage if needed."""
        if not isinstance(token, str) or not token:
            return None
        digest = token_hash(token)
        user_id = self.sessions.get(digest)
        if user_id is None:
            rows = await self.store.read(
                select(m.sessions.c.user_id).where(m.sessions.c.token_hash == digest)
            )
            if not rows:
                return None
            user_id = int(rows[0][0])
            self.sessions[digest] = user_id
        return self.users.get(user_id)

    async def _create(self, name: str, lang: str, password_hash: str | None) -> Session:
        user = User(self.next_id(), name, lang, password_hash is None)
        key = name_key(name)
        self.user_keys[key] = user.id  # reserve the name before waiting
        token = new_token()
        now = time.time()
        row = {
            "id": user.id,
            "name": name,
            "name_key": key,
            "password_hash": password_hash,
            "lang": lang,
            "guest": user.guest,
            "created": now,
        }
        session = {"token_hash": token_hash(token), "user_id": user.id, "created": now}
        try:
            await self.store.write([(insert(m.users), row), (insert(m.sessions), session)])
        except Exception:
            self.user_keys.pop(key, None)
            raise SalonError("internal", "the account could not be stored") from None
        self.users[user.id] = user
        self.password_hashes[user.id] = password_hash
        self.sessions[token_hash(token)] = user.id
        return Session(token, user)

    async def _new_session(self, user: User) -> Session:
        token = new_token()
        session = {"token_hash": token_hash(token), "user_id": user.id, "created": time.time()}
        try:
            await self.store.write([(insert(m.sessions), session)])
        except Exception:
            raise SalonError("internal", "the session could not be stored") from None
        self.sessions[token_hash(token)] = user.id
        return Session(token, user)
