"""Accounts: the book of guests and registered users, signing up and signing in.

The rules of names are in :mod:`zanzibar.salon.names`, the tokens in
:mod:`zanzibar.salon.sessions`, the password hashes in :mod:`zanzibar.salon.passwords`;
this module holds the users and ties the three together. Sign-in attempts are
rate-limited per name and per address.

Every skeleton of a name is stored in ``user_names`` (its primary key) in the
same transaction as the user, so the database itself refuses a look-alike.

Several salon processes on one database (PostgreSQL) each keep this book in
memory, so what another process created or changed is read from the database
(``shared``): a name, token or user id missing here is looked up before it is
called unknown; a sign-in, password change and ``hello`` read the stored row
(another process may have changed the password or revoked the session); a
new name is checked against ``user_names`` and, if another process took it in
the meantime, the insert fails on the key and a guest gets the next number.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from zanzibar.l10n.msg import Msg
from zanzibar.salon import models as m
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import Gate, Limits, LocalGate, rates
from zanzibar.salon.names import (
    NAME_MAX,
    check_password,
    clean_lang,
    clean_name,
    is_reserved,
    name_key,
    name_skeletons,
)
from zanzibar.salon.passwords import HashPool
from zanzibar.salon.persistence import Store
from zanzibar.salon.sessions import SessionBook, SessionInfo

log = logging.getLogger(__name__)

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
        self.sessions = SessionBook(store, self.limits, lambda: self.clock(), self.shared)
        self.hashes = HashPool(self.limits)
        #: Sign-in and sign-up rates: in memory, or shared by every node (``cluster.redis_gate``).
        self.gate: Gate = LocalGate()
        self._login_name = rates(self.limits.login_rate_name)
        self._login_address = rates(self.limits.login_rate_address)
        self._signup_address = rates(self.limits.signup_rate_address)

    async def load(self) -> None:
        """Read every user from storage; prepare the dummy hash."""
        for row in await self.store.read(select(m.users)):
            user = User(row.id, row.name, row.lang, bool(row.guest))
            self._remember(user, row.password_hash)
        self.hashes.warm()

    def close(self) -> None:
        """Stop the hashing threads (the salon is stopping)."""
        self.hashes.close()

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
        hashed = await self.hashes.hash(password)
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
        against = stored if stored is not None else await self.hashes.dummy()
        matches = await self.hashes.verify(against, password)
        if user is None or stored is None or not matches:
            log.info("failed sign-in for %r from %s", key, address or "?")
            raise wrong
        await self.gate.clear(self._login_name, f"name:{key}")
        return Session(await self.sessions.open(user.id), user)

    # -- sessions --------------------------------------------------------------------

    async def session(self, token: Any) -> tuple[str, SessionInfo] | None:
        """The live session of a token (its hash and info), or None if unknown, expired,
        revoked or its user is gone. A use slides the expiry."""
        found = await self.sessions.find(token)
        if found is None:
            return None
        digest, info = found
        if await self.user(info.user_id) is None:
            self.sessions.forget(digest)
            return None
        await self.sessions.slide(digest, info)
        return found

    def touch(self, digest: str) -> bool:
        """A message on a socket signed in with this session: False if it expired or was
        revoked (see :meth:`SessionBook.touch`)."""
        return self.sessions.touch(digest)

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
        await self.sessions.revoke(digest)
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
        if not await self.hashes.verify(stored, old):
            raise SalonError("unauthenticated", "the current password is wrong")
        hashed = await self.hashes.hash(new_password)
        await self.store.write(
            [
                (update(m.users).where(m.users.c.id == user.id), {"password_hash": hashed}),
                self.sessions.revoke_others_op(user.id, digest, self.clock()),
            ]
        )
        self.password_hashes[user.id] = hashed
        self.sessions.forget_others(user.id, digest)
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
        token, session_op, info = self.sessions.new(user.id)
        row = {
            "id": user.id,
            "name": name,
            "name_key": key,
            "password_hash": password_hash,
            "lang": lang,
            "guest": user.guest,
            "created": info.created,
        }
        names = [{"skeleton": skeleton, "user_id": user.id} for skeleton in sorted(skeletons)]
        try:
            await self.store.write(
                [(insert(m.users), row), (insert(m.user_names), names), session_op]
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
        self.sessions.remember(token, info)
        return Session(token, user)
