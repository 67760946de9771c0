"""Accounts: guests and registered users, argon2 password hashes, session tokens.

A session token is a random string given once to the client; only its SHA-256
is stored, and a token identifies its user on every connection (a user may
hold many). A session expires once unused for ``session_idle`` seconds (each
use slides it) or ``session_max`` seconds after sign-in; signing out revokes
it, and changing the password revokes every other session of the account.

Password hashing is deliberately slow and memory-hungry (argon2id, 64 MiB), so
it runs in a small pool of worker threads of its own with a bounded queue:
a flood of sign-ins costs at most ``hash_workers`` hashes at once and is
otherwise refused as busy. A name that does not exist (or has no password)
is checked against a dummy hash, so the time taken does not tell whether a
name exists. Sign-in attempts are rate-limited per name and per address.

Names are unique by their confusable *skeleton* (Unicode TR39, computed by the
``disarm`` library, after NFKC and case folding): "Anna", "ANNA", "Ａｎｎａ"
(full width) and "Аnna" (a Cyrillic A) are one name. The names the salon
speaks with ("System", bots such as "Bot 2 (random)") are reserved. Every
skeleton of a name is stored in ``user_names`` (its primary key) in the same
transaction as the user, so the database itself refuses a look-alike.

Several salon processes on one database (PostgreSQL) each keep this book in
memory, so what another process created or changed is read from the database
(``shared``): a name, token or user id missing here is looked up before it is
called unknown; a sign-in, password change and ``hello`` read the stored row
(another process may have changed the password or revoked the session); a
new name is checked against ``user_names`` and, if another process took it in
the meantime, the insert fails on the key and a guest gets the next number.
A socket already open on one process is not told at once of a revocation made
on another: it notices at its next ``hello``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from disarm import skeleton_key
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from zanzibar.engine.i18n import LANGUAGES
from zanzibar.l10n.msg import Msg
from zanzibar.salon import models as m
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import Gate, Limits, LocalGate, rates
from zanzibar.salon.persistence import Store
from zanzibar.salon.text import clean_free_text

log = logging.getLogger(__name__)
T = TypeVar("T")

NAME_MAX = 32
PASSWORD_MIN = 6
PASSWORD_MAX = 256

_hasher = PasswordHasher()

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
#: Names a guest tries ("Anna", "Anna 2", ...) before giving up: only a flood gets that far.
GUEST_TRIES = 200


class NameTaken(Exception):
    """The database refused a new user's name: another process took it (or a look-alike)."""


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


def new_token() -> str:
    """A fresh, unguessable session token."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _verify_hash(stored: str, password: str) -> bool:
    try:
        return bool(_hasher.verify(stored, password))
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


async def hash_password(password: str) -> str:
    """An argon2id hash, computed off the event loop."""
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(stored: str, password: str) -> bool:
    """True if ``password`` matches the stored hash (off the event loop)."""
    return await asyncio.to_thread(_verify_hash, stored, password)


def _log_write_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("storing a session's last use failed: %s", task.exception())


@dataclass
class SessionInfo:
    """A known session: whose, since when, last used when (and last stored when)."""

    user_id: int
    created: float
    last_used: float
    stored_last_used: float


class AccountBook:
    """Every user of the salon, kept in memory and stored through the salon's store.

    Names are unique by skeleton; a guest asking for a taken name gets a
    number after it. Users are loaded at start (they are few and small),
    session tokens are looked up in storage the first time they are shown.
    ``shared``: other processes write the same database (by default: any
    database but SQLite), so what is not in memory, or may have changed, is
    read from it (see the module's docstring).
    """

    def __init__(
        self,
        store: Store,
        next_id: Callable[[], Awaitable[int]],
        limits: Limits | None = None,
        clock: Callable[[], float] = time.time,
        shared: bool | None = None,
    ) -> None:
        self.store = store
        self.next_id = next_id
        self.shared = store.engine.dialect.name != "sqlite" if shared is None else shared
        self.limits = limits or Limits()
        self.clock = clock
        self.users: dict[int, User] = {}
        #: name_key -> user id
        self.user_keys: dict[str, int] = {}
        #: name skeleton -> user id (uniqueness)
        self.user_skeletons: dict[str, int] = {}
        self.password_hashes: dict[int, str | None] = {}
        #: token hash -> session
        self.sessions: dict[str, SessionInfo] = {}
        #: Sign-in and sign-up rates: in memory, or shared by every node (``cluster.redis_gate``).
        self.gate: Gate = LocalGate()
        self._login_name = rates(self.limits.login_rate_name)
        self._login_address = rates(self.limits.login_rate_address)
        self._signup_address = rates(self.limits.signup_rate_address)
        self._pool = ThreadPoolExecutor(
            max_workers=max(1, self.limits.hash_workers), thread_name_prefix="argon2"
        )
        self._hashing = 0
        #: The hash an unknown name is checked against (so its refusal takes as long).
        self._dummy: asyncio.Future[str] | None = None

    async def load(self) -> None:
        """Read every user from storage; prepare the dummy hash."""
        for row in await self.store.read(select(m.users)):
            user = User(row.id, row.name, row.lang, bool(row.guest))
            self._remember(user, row.password_hash)
        # made in the background: a start does not wait for one slow hash
        self._dummy = asyncio.get_running_loop().run_in_executor(
            self._pool, _hasher.hash, secrets.token_urlsafe(18)
        )

    def close(self) -> None:
        """Stop the hashing threads (the salon is stopping)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _remember(self, user: User, password_hash: str | None) -> None:
        self.users[user.id] = user
        self.user_keys.setdefault(name_key(user.name), user.id)
        for skeleton in name_skeletons(user.name):
            self.user_skeletons.setdefault(skeleton, user.id)
        self.password_hashes[user.id] = password_hash

    def known(self, name: str) -> User | None:
        """The user called ``name`` as this process knows it (no I/O)."""
        user_id = self.user_keys.get(name_key(" ".join(str(name).split())))
        return self.users.get(user_id) if user_id is not None else None

    async def find(self, name: str, fresh: bool = False) -> User | None:
        """The user called ``name`` (any case or width, spaces normalised), if any.

        On a shared database a name unknown here is looked up there (another
        process may have created it); ``fresh`` reads the row even if known
        (to see a password changed elsewhere).
        """
        user = self.known(name)
        if self.shared and (user is None or fresh):
            key = name_key(" ".join(str(name).split()))
            if len(key) <= NAME_MAX * 4:
                user = await self._fetch(m.users.c.name_key == key) or user
        return user

    async def user(self, user_id: int) -> User | None:
        """The user with this id; on a shared database read from it if unknown here."""
        user = self.users.get(user_id)
        if user is None and self.shared:
            user = await self._fetch(m.users.c.id == user_id)
        return user

    async def _fetch(self, where: Any) -> User | None:
        """Read one user row and remember it (with its current password hash)."""
        rows = await self.store.read(select(m.users).where(where))
        if not rows:
            return None
        row = rows[0]
        user = self.users.get(row.id) or User(row.id, row.name, row.lang, bool(row.guest))
        self._remember(user, row.password_hash)
        return user

    def taken(self, name: str) -> bool:
        """True if ``name`` or a look-alike of it belongs to someone this process knows."""
        return any(form in self.user_skeletons for form in name_skeletons(name))

    async def claimed(self, name: str) -> bool:
        """True if ``name`` or a look-alike belongs to someone, asking the database if shared.

        The holders found there are remembered, so the next look is free.
        """
        if self.taken(name):
            return True
        if not self.shared:
            return False
        forms = sorted(name_skeletons(name))
        rows = await self.store.read(
            select(m.user_names.c.user_id).where(m.user_names.c.skeleton.in_(forms))
        )
        for row in rows:
            await self._fetch(m.users.c.id == row.user_id)
        return bool(rows)

    # -- hashing ---------------------------------------------------------------------

    async def _in_pool(self, work: Callable[..., T], *args: Any) -> T:
        """Run one hash in the bounded pool, or refuse at once if too many wait."""
        if self._hashing >= self.limits.hash_workers + self.limits.hash_queue:
            log.warning(
                "sign-in refused: %d password hashes already running or waiting", self._hashing
            )
            raise SalonError(
                "rate_limited",
                "the salon is busy signing people in; try again in a few seconds",
                retry_after=2,
            )
        self._hashing += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)
        finally:
            self._hashing -= 1

    async def _dummy_hash(self) -> str:
        if self._dummy is None:  # load() was not called (tests of the book alone)
            self._dummy = asyncio.ensure_future(self._in_pool(_hasher.hash, "not a password"))
        return await self._dummy

    def _address_checks(self, rule: Any, address: str | None) -> list[Any]:
        if self.limits.exempt(address):
            return []
        return [(rule, f"address:{address}")]

    # -- signing in ------------------------------------------------------------------

    async def guest(self, name: str, lang: str = "en", address: str | None = None) -> Session:
        """Sign in as a guest; a name already taken gets a number ("Anna 2")."""
        base = clean_name(name)
        lang = clean_lang(lang)
        await self.gate.take(self._address_checks(self._signup_address, address), "new accounts")
        number = 1
        for _ in range(GUEST_TRIES):
            suffix = f" {number}" if number > 1 else ""
            chosen = base[: NAME_MAX - len(suffix)] + suffix
            number += 1
            if is_reserved(chosen) or await self.claimed(chosen):
                continue
            try:
                return await self._create(chosen, lang, None)
            except NameTaken:
                continue  # another process took it just now: the next number
        raise SalonError("conflict", Msg("error-name-exhausted", base=base))

    async def register(
        self, name: str, password: str, lang: str = "en", address: str | None = None
    ) -> Session:
        """Create an account with a password (argon2id); ``conflict`` if the name is taken."""
        clean = clean_name(name)
        lang = clean_lang(lang)
        check_password(password)
        taken = SalonError("conflict", f"the name {clean} is taken")
        if await self.claimed(clean):
            raise taken
        await self.gate.take(self._address_checks(self._signup_address, address), "new accounts")
        hashed = await self._in_pool(_hasher.hash, password)
        if self.taken(clean):  # taken while hashing
            raise taken
        try:
            return await self._create(clean, lang, hashed)
        except NameTaken:
            raise taken from None

    async def login(self, name: str, password: str, address: str | None = None) -> Session:
        """Sign in with a password; ``unauthenticated`` if the name or password is wrong.

        Every attempt counts against the name and the address (``rate_limited``
        beyond); an unknown name costs the same time as a wrong password.
        """
        wrong = SalonError("unauthenticated", "wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise wrong
        key = name_key(" ".join(name.split()))[: NAME_MAX * 4]
        checks = [(self._login_name, f"name:{key}")]
        checks += self._address_checks(self._login_address, address)
        try:
            await self.gate.take(checks, "sign-in attempts")
        except SalonError:
            log.warning("sign-in rate limit: name %r from %s", key, address or "?")
            raise
        user = await self.find(name, fresh=True)
        stored = self.password_hashes.get(user.id) if user is not None else None
        against = stored if stored is not None else await self._dummy_hash()
        matches = await self._in_pool(_verify_hash, against, password)
        if user is None or stored is None or not matches:
            log.info("failed sign-in for %r from %s", key, address or "?")
            raise wrong
        await self.gate.clear(self._login_name, f"name:{key}")
        return await self._new_session(user)

    # -- sessions --------------------------------------------------------------------

    def _expired(self, info: SessionInfo, now: float) -> bool:
        return (
            now - info.last_used > self.limits.session_idle
            or now - info.created > self.limits.session_max
        )

    async def session(self, token: Any) -> tuple[str, SessionInfo] | None:
        """The live session of a token (its hash and info), or None if unknown, expired or revoked.

        A use slides the expiry; it is stored at most every ``session_idle / 30``
        seconds so that a busy player does not cost a write per message.
        """
        if not isinstance(token, str) or not token or len(token) > 256:
            return None
        digest = token_hash(token)
        now = self.clock()
        info = self.sessions.get(digest)
        if info is None or self.shared:  # shared: another process may have revoked it
            rows = await self.store.read(
                select(
                    m.sessions.c.user_id,
                    m.sessions.c.created,
                    m.sessions.c.last_used,
                    m.sessions.c.revoked,
                ).where(m.sessions.c.token_hash == digest)
            )
            if not rows or rows[0].revoked is not None:
                self.sessions.pop(digest, None)
                return None
            row = rows[0]
            last = float(row.last_used if row.last_used is not None else row.created)
            if info is None or last > info.last_used:
                kept = info.last_used if info is not None else last
                info = SessionInfo(int(row.user_id), float(row.created), max(last, kept), last)
            self.sessions[digest] = info
        if self._expired(info, now) or await self.user(info.user_id) is None:
            self.sessions.pop(digest, None)
            return None
        info.last_used = now
        if now - info.stored_last_used > self.limits.session_idle / 30:
            info.stored_last_used = now
            await self.store.write(
                [
                    (
                        update(m.sessions).where(m.sessions.c.token_hash == digest),
                        {"last_used": now},
                    )
                ]
            )
        return digest, info

    def touch(self, digest: str) -> bool:
        """A message on a socket signed in with this session: False if it expired or was revoked.

        Slides the expiry in memory; the stored last use is brought up to date in
        the background (at most every ``session_idle / 30`` seconds).
        """
        info = self.sessions.get(digest)
        now = self.clock()
        if info is None or self._expired(info, now):
            self.sessions.pop(digest, None)
            return False
        info.last_used = now
        if now - info.stored_last_used > self.limits.session_idle / 30:
            info.stored_last_used = now
            task = asyncio.ensure_future(
                self.store.write(
                    [
                        (
                            update(m.sessions).where(m.sessions.c.token_hash == digest),
                            {"last_used": now},
                        )
                    ]
                )
            )
            task.add_done_callback(_log_write_failure)
        return True

    async def resume(self, token: Any) -> User | None:
        """The user of a live session token (unknown, expired and revoked tokens give None)."""
        found = await self.session(token)
        return self.users.get(found[1].user_id) if found is not None else None

    async def revoke(self, token: Any) -> tuple[User, str]:
        """Sign out: the token is revoked for good; ``unauthenticated`` if it was not live."""
        found = await self.session(token)
        if found is None:
            raise SalonError("unauthenticated", "unknown or expired session token")
        digest, info = found
        await self.store.write(
            [
                (
                    update(m.sessions).where(m.sessions.c.token_hash == digest),
                    {"revoked": self.clock()},
                )
            ]
        )
        self.sessions.pop(digest, None)
        return self.users[info.user_id], digest

    async def change_password(
        self, token: Any, old: Any, new: Any, address: str | None = None
    ) -> tuple[User, str]:
        """A new password; every other session of the account is revoked.

        Returns the user and the hash of the session kept (the one asking).
        """
        found = await self.session(token)
        if found is None:
            raise SalonError("unauthenticated", "unknown or expired session token")
        digest, info = found
        user = self.users[info.user_id]
        if self.shared:  # the password may have changed on another process
            await self._fetch(m.users.c.id == user.id)
        stored = self.password_hashes.get(user.id)
        if stored is None:
            raise SalonError("forbidden", "a guest has no password; register an account instead")
        new_password = check_password(new)
        if not isinstance(old, str):
            raise SalonError("unauthenticated", "the current password is wrong")
        key = name_key(user.name)
        checks = [(self._login_name, f"name:{key}")]
        checks += self._address_checks(self._login_address, address)
        await self.gate.take(checks, "sign-in attempts")
        if not await self._in_pool(_verify_hash, stored, old):
            raise SalonError("unauthenticated", "the current password is wrong")
        hashed = await self._in_pool(_hasher.hash, new_password)
        now = self.clock()
        await self.store.write(
            [
                (update(m.users).where(m.users.c.id == user.id), {"password_hash": hashed}),
                (
                    update(m.sessions).where(
                        (m.sessions.c.user_id == user.id)
                        & (m.sessions.c.token_hash != digest)
                        & m.sessions.c.revoked.is_(None)
                    ),
                    {"revoked": now},
                ),
            ]
        )
        self.password_hashes[user.id] = hashed
        for other in [d for d, s in self.sessions.items() if s.user_id == user.id]:
            if other != digest:
                del self.sessions[other]
        return user, digest

    async def _create(self, name: str, lang: str, password_hash: str | None) -> Session:
        """Store a new user, its name's skeletons and a first session.

        Raises :class:`NameTaken` if the database already holds the name or a
        look-alike (another process created it since this one looked).
        """
        try:
            user = User(await self.next_id(), name, lang, password_hash is None)
        except Exception:
            log.exception("no id for a new user")
            raise SalonError("internal", "the account could not be stored") from None
        key = name_key(name)
        skeletons = name_skeletons(name)
        self.user_keys[key] = user.id  # reserve the name before waiting
        for skeleton in skeletons:
            self.user_skeletons[skeleton] = user.id
        token = new_token()
        now = self.clock()
        row = {
            "id": user.id,
            "name": name,
            "name_key": key,
            "password_hash": password_hash,
            "lang": lang,
            "guest": user.guest,
            "created": now,
        }
        session = {
            "token_hash": token_hash(token),
            "user_id": user.id,
            "created": now,
            "last_used": now,
        }
        names = [{"skeleton": skeleton, "user_id": user.id} for skeleton in sorted(skeletons)]
        try:
            await self.store.write(
                [
                    (insert(m.users), row),
                    (insert(m.user_names), names),
                    (insert(m.sessions), session),
                ]
            )
        except Exception as exc:
            if self.user_keys.get(key) == user.id:
                del self.user_keys[key]
            for skeleton in skeletons:
                if self.user_skeletons.get(skeleton) == user.id:
                    del self.user_skeletons[skeleton]
            if isinstance(exc, IntegrityError):
                raise NameTaken(name) from None
            raise SalonError("internal", "the account could not be stored") from None
        self.users[user.id] = user
        self.password_hashes[user.id] = password_hash
        self.sessions[token_hash(token)] = SessionInfo(user.id, now, now, now)
        return Session(token, user)

    async def _new_session(self, user: User) -> Session:
        token = new_token()
        now = self.clock()
        session = {
            "token_hash": token_hash(token),
            "user_id": user.id,
            "created": now,
            "last_used": now,
        }
        try:
            await self.store.write([(insert(m.sessions), session)])
        except Exception:
            raise SalonError("internal", "the session could not be stored") from None
        self.sessions[token_hash(token)] = SessionInfo(user.id, now, now, now)
        return Session(token, user)
