"""Chat rules: what a line may hold and how often one may speak.

Lines are at most :data:`MAX_LENGTH` characters; a user may send at most
:data:`RATE_COUNT` lines in any :data:`RATE_WINDOW` seconds (table chat and
private messages together). A refused line does not count against the limit.
``/me waves`` is an action line, shown as "* Anna waves". The text itself is
cleaned by :func:`zanzibar.salon.text.clean_free_text` (well-formed Unicode,
no controls, bidi overrides or invisible formatting).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from zanzibar.salon.errors import SalonError
from zanzibar.salon.text import clean_free_text

MAX_LENGTH = 500
RATE_COUNT = 5
RATE_WINDOW = 5.0


def clean_text(raw: Any) -> tuple[str, bool]:
    """The text of a chat line and whether it is a ``/me`` action.

    >>> clean_text("/me waves")
    ('waves', True)
    >>> clean_text(" hello ")
    ('hello', False)
    >>> clean_text("x" * 501)
    Traceback (most recent call last):
    ...
    zanzibar.salon.errors.SalonError: a chat line is at most 500 characters
    """
    if isinstance(raw, str) and len(raw) > MAX_LENGTH:
        raise SalonError("too_long", f"a chat line is at most {MAX_LENGTH} characters")
    text = clean_free_text(raw, "a chat line", MAX_LENGTH, single_line=False)
    me = False
    if text.startswith("/me ") or text == "/me":
        me, text = True, text[3:].strip()
    if not text:
        raise SalonError("invalid", "a chat line cannot be empty")
    return text, me


class RateLimiter:
    """At most ``count`` events per ``window`` seconds per key (a sliding window).

    >>> now = [0.0]
    >>> limiter = RateLimiter(2, 5.0, clock=lambda: now[0])
    >>> limiter.allow(1), limiter.allow(1), limiter.allow(1)
    (True, True, False)
    >>> now[0] = 5.0
    >>> limiter.allow(1)
    True
    """

    def __init__(
        self,
        count: int = RATE_COUNT,
        window: float = RATE_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.count = count
        self.window = window
        self.clock = clock
        self._times: dict[int, deque[float]] = {}
        #: Told of each recorded (True) or taken back (False) event: the salon's other
        #: nodes count it too (``salon/limits.py``'s :func:`share_limiter`).
        self.on_record: Callable[[int, bool], None] | None = None

    def check(self, key: int) -> None:
        """Raise ``rate_limited`` if ``key`` may not send now (records nothing)."""
        times = self._prune(key)
        if len(times) >= self.count:
            raise SalonError(
                "rate_limited",
                f"at most {self.count} messages every {self.window:g} seconds; wait a moment",
            )

    def record(self, key: int) -> None:
        """Count one message of ``key``."""
        self._prune(key).append(self.clock())
        if self.on_record is not None:
            self.on_record(key, True)

    def charge(self, key: int, count: int) -> None:
        """Count ``count`` messages ``key`` sent through the salon's other nodes, as of now."""
        times = self._prune(key)
        now = self.clock()
        for _ in range(min(count, self.count)):
            times.append(now)

    def forget_last(self, key: int) -> None:
        """Take back the last recorded message of ``key`` (it could not be stored)."""
        times = self._times.get(key)
        if times:
            times.pop()
            if self.on_record is not None:
                self.on_record(key, False)

    def allow(self, key: int) -> bool:
        """Check and record in one step; False if over the limit."""
        try:
            self.check(key)
        except SalonError:
            return False
        self.record(key)
        return True

    def _prune(self, key: int) -> deque[float]:
        times = self._times.setdefault(key, deque())
        limit = self.clock() - self.window
        while times and times[0] <= limit:
            times.popleft()
        return times
