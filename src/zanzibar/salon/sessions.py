"""Session tokens: issued at sign-in, looked up at every ``hello``, slid, revoked.

A session token is a random string given once to the client; only its SHA-256
is stored, and a token identifies its user on every connection (a user may
hold many). A session expires once unused for ``session_idle`` seconds (each
use slides it) or ``session_max`` seconds after sign-in; signing out revokes
it, and changing the password revokes every other session of the account.

With several salon processes on one database (``shared``) a token is read from
the database at every look-up, since another process may have revoked it. A
socket already open on one process is not told at once of a revocation made on
another: it notices at its next ``hello``.

This module knows tokens and user ids only; :mod:`zanzibar.salon.accounts`
says whose they are.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from zanzibar.salon import models as m
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import Limits
from zanzibar.salon.persistence import Op, Store

log = logging.getLogger(__name__)


def new_token() -> str:
    """A fresh, unguessable session token."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SessionInfo:
    """A known session: whose, since when, last used when (and last stored when)."""

    user_id: int
    created: float
    last_used: float
    stored_last_used: float


def _log_write_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("storing a session's last use failed: %s", task.exception())


class SessionBook:
    """The live sessions this process has seen, by token hash, over the salon's store."""

    def __init__(
        self, store: Store, limits: Limits, clock: Callable[[], float], shared: bool
    ) -> None:
        self.store = store
        self.limits = limits
        self.clock = clock
        self.shared = shared
        #: token hash -> session
        self.live: dict[str, SessionInfo] = {}

    def expired(self, info: SessionInfo, now: float) -> bool:
        """Unused for too long, or signed in too long ago."""
        return (
            now - info.last_used > self.limits.session_idle
            or now - info.created > self.limits.session_max
        )

    async def find(self, token: Any) -> tuple[str, SessionInfo] | None:
        """The session of a token (its hash and info) unless unknown, expired or revoked.

        Does not slide it (:meth:`slide`): the caller checks its user first.
        """
        if not isinstance(token, str) or not token or len(token) > 256:
            return None
        digest = token_hash(token)
        info = self.live.get(digest)
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
                self.live.pop(digest, None)
                return None
            row = rows[0]
            last = float(row.last_used if row.last_used is not None else row.created)
            if info is None or last > info.last_used:
                kept = info.last_used if info is not None else last
                info = SessionInfo(int(row.user_id), float(row.created), max(last, kept), last)
            self.live[digest] = info
        if self.expired(info, self.clock()):
            self.live.pop(digest, None)
            return None
        return digest, info

    def forget(self, digest: str) -> None:
        """Drop a session from memory (its user is gone)."""
        self.live.pop(digest, None)

    async def slide(self, digest: str, info: SessionInfo) -> None:
        """A use: the expiry slides; stored at most every ``session_idle / 30`` seconds,
        so that a busy player does not cost a write per message."""
        now = self.clock()
        info.last_used = now
        if now - info.stored_last_used > self.limits.session_idle / 30:
            info.stored_last_used = now
            await self.store.write([self._last_used(digest, now)])

    def touch(self, digest: str) -> bool:
        """A message on a socket signed in with this session: False if it expired or was revoked.

        Slides the expiry in memory; the stored last use is brought up to date in
        the background (at most every ``session_idle / 30`` seconds).
        """
        info = self.live.get(digest)
        now = self.clock()
        if info is None or self.expired(info, now):
            self.live.pop(digest, None)
            return False
        info.last_used = now
        if now - info.stored_last_used > self.limits.session_idle / 30:
            info.stored_last_used = now
            task = asyncio.ensure_future(self.store.write([self._last_used(digest, now)]))
            task.add_done_callback(_log_write_failure)
        return True

    @staticmethod
    def _last_used(digest: str, now: float) -> Op:
        return (update(m.sessions).where(m.sessions.c.token_hash == digest), {"last_used": now})

    def new(self, user_id: int) -> tuple[str, Op, SessionInfo]:
        """A new token for ``user_id``, the op storing it and its info (:meth:`remember`
        it once stored)."""
        token = new_token()
        now = self.clock()
        row = {
            "token_hash": token_hash(token),
            "user_id": user_id,
            "created": now,
            "last_used": now,
        }
        return token, (insert(m.sessions), row), SessionInfo(user_id, now, now, now)

    def remember(self, token: str, info: SessionInfo) -> None:
        """A session stored: known from now on without a read."""
        self.live[token_hash(token)] = info

    async def open(self, user_id: int) -> str:
        """Store a new session of ``user_id``; its token."""
        token, op, info = self.new(user_id)
        try:
            await self.store.write([op])
        except Exception:
            raise SalonError("internal", "the session could not be stored") from None
        self.remember(token, info)
        return token

    async def revoke(self, digest: str) -> None:
        """Sign out: the session is revoked for good."""
        where = m.sessions.c.token_hash == digest
        await self.store.write([(update(m.sessions).where(where), {"revoked": self.clock()})])
        self.live.pop(digest, None)

    def revoke_others_op(self, user_id: int, keep: str, now: float) -> Op:
        """The op revoking every session of ``user_id`` but ``keep`` (a password changed)."""
        return (
            update(m.sessions).where(
                (m.sessions.c.user_id == user_id)
                & (m.sessions.c.token_hash != keep)
                & m.sessions.c.revoked.is_(None)
            ),
            {"revoked": now},
        )

    def forget_others(self, user_id: int, keep: str) -> None:
        """After :meth:`revoke_others_op` is stored: drop those sessions from memory."""
        for other in [d for d, s in self.live.items() if s.user_id == user_id]:
            if other != keep:
                del self.live[other]
