"""Per-account rate limits on Redis: one sliding window per key, shared by every node.

A window is a sorted set ``zr:{name}:{key}`` of event times (the Redis clock,
in microseconds, so nodes with skewed clocks agree). :meth:`check` drops the
times that left the window and compares the count; :meth:`record` adds one.
The two steps stay apart, as in ``salon/chat.py``: a refused line must not
count. Two nodes checking the same key at the same instant may both pass
once: the limit is a courtesy against floods, not a budget.
"""

from __future__ import annotations

import secrets

from redis.asyncio import Redis

from zanzibar.cluster.redis_common import connect
from zanzibar.salon.chat import RATE_COUNT, RATE_WINDOW
from zanzibar.salon.errors import SalonError

_NOW_US = "local t = redis.call('TIME'); local now = t[1] * 1000000 + t[2]"

_CHECK = (
    _NOW_US
    + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
return redis.call('ZCARD', KEYS[1])
"""
)

_RECORD = (
    _NOW_US
    + """
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[1]) / 1000) + 1000)
return 1
"""
)


class RedisRateLimits:
    """At most ``count`` events per ``window`` seconds per key, counted across nodes."""

    def __init__(
        self,
        url: str | Redis,
        name: str = "chat",
        count: int = RATE_COUNT,
        window: float = RATE_WINDOW,
    ) -> None:
        self.redis = connect(url) if isinstance(url, str) else url
        self.name = name
        self.count = count
        self.window = window
        self._window_us = int(window * 1_000_000)
        self._check = self.redis.register_script(_CHECK)
        self._record = self.redis.register_script(_RECORD)

    def _key(self, key: int) -> str:
        return f"zr:{self.name}:{key}"

    async def check(self, key: int) -> None:
        used = int(await self._check(keys=[self._key(key)], args=[self._window_us]))
        if used >= self.count:
            raise SalonError(
                "rate_limited",
                f"at most {self.count} messages every {self.window:g} seconds; wait a moment",
            )

    async def record(self, key: int) -> None:
        await self._record(keys=[self._key(key)], args=[self._window_us, secrets.token_hex(8)])

    async def close(self) -> None:
        await self.redis.aclose()
