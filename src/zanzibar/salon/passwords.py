"""Password hashing in a bounded pool of threads of its own.

Password hashing is deliberately slow and memory-hungry (argon2id, 64 MiB), so
it runs in a small pool of worker threads with a bounded queue: a flood of
sign-ins costs at most ``hash_workers`` hashes at once and is otherwise refused
as busy, and the event loop never waits on a hash. A name that does not exist
(or has no password) is checked against a dummy hash (:meth:`HashPool.dummy`),
so the time a refusal takes does not tell whether a name exists.

Apart from :mod:`zanzibar.salon.accounts` so that the account book reads as
the rules of accounts, and this as the one place that spends CPU on them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import Limits

log = logging.getLogger(__name__)
T = TypeVar("T")


class HashPool:
    """At most ``limits.hash_workers`` hashes at once, ``limits.hash_queue`` more waiting.

    ``hasher`` is argon2id with the library's defaults; a bench may swap in a
    cheap one (it is read at every hash).
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.hasher = PasswordHasher()
        self._pool = ThreadPoolExecutor(
            max_workers=max(1, limits.hash_workers), thread_name_prefix="argon2"
        )
        self._running = 0
        #: The hash an unknown name is checked against (so its refusal takes as long).
        self._dummy: asyncio.Future[str] | None = None

    def warm(self) -> None:
        """Start computing the dummy hash in the background (a start does not wait for it)."""
        self._dummy = asyncio.get_running_loop().run_in_executor(
            self._pool, self._hash, secrets.token_urlsafe(18)
        )

    def close(self) -> None:
        """Stop the hashing threads (the salon is stopping)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def hash(self, password: str) -> str:
        """An argon2id hash of ``password``; ``rate_limited`` if too many wait."""
        return await self._in_pool(self._hash, password)

    async def verify(self, stored: str, password: str) -> bool:
        """True if ``password`` matches ``stored``; ``rate_limited`` if too many wait."""
        return await self._in_pool(self._verify, stored, password)

    async def dummy(self) -> str:
        """A hash of no one's password, to check an unknown name against."""
        if self._dummy is None:  # warm() was not called (tests of the book alone)
            self._dummy = asyncio.ensure_future(self.hash("not a password"))
        return await self._dummy

    def _hash(self, password: str) -> str:
        return str(self.hasher.hash(password))

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(stored, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    async def _in_pool(self, work: Callable[..., T], *args: Any) -> T:
        """Run one hash in the bounded pool, or refuse at once if too many wait."""
        if self._running >= self.limits.hash_workers + self.limits.hash_queue:
            log.warning(
                "sign-in refused: %d password hashes already running or waiting", self._running
            )
            raise SalonError(
                "rate_limited",
                "the salon is busy signing people in; try again in a few seconds",
                retry_after=2,
            )
        self._running += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)
        finally:
            self._running -= 1
