"""Sign-in and sign-up rate limits shared by every node, on Redis.

The salon's :class:`~zanzibar.salon.limits.RateGate` counts attempts per name
and per address over several moving windows at once ("5/minute;20/hour;100/day")
with the ``limits`` library, in memory. With N nodes in memory, a guesser
spreading attempts over the nodes would get N times the budget, so a node
started with ``--redis`` keeps those windows in Redis through the same
library's asynchronous Redis storage (its moving window is one Lua script per
check, atomic in Redis). Not the single-window
:class:`~zanzibar.cluster.ports.RateLimits` port: these rules have several
windows and text keys, and the library already does exactly this.

As in memory, :meth:`RedisGate.take` tests every window, then counts in each
only if all had room, so a refused attempt counts nowhere. Two nodes testing
the same key at the same instant may both pass once: these limits slow down
guessing and floods, they are not a budget to the unit. When Redis cannot be
reached the attempt is refused as ``rate_limited`` (try again in a moment)
rather than let through unlimited: the sign-in limits guard passwords.
"""

from __future__ import annotations

import logging
import time

from limits import RateLimitItem
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter

from zanzibar.cluster.redis_common import CONNECTION_ERRORS, connect
from zanzibar.l10n.msg import Msg
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import rate_limited

log = logging.getLogger(__name__)

#: Prefix of every key this gate writes (``limits`` adds its own after it).
KEY_PREFIX = "zg"


class RedisGate:
    """Moving windows per key, kept in Redis and so shared by every node."""

    def __init__(self, url: str) -> None:
        self.redis = connect(url)
        storage = RedisStorage(
            "async+" + url,
            implementation="redispy",
            key_prefix=KEY_PREFIX,
            connection_pool=self.redis.connection_pool,  # type: ignore[arg-type]  # passed through to redis-py
        )
        self._limiter = MovingWindowRateLimiter(storage)

    async def _retry_after(self, rule: list[RateLimitItem], key: str) -> float:
        wait = 0.0
        for item in rule:
            if not await self._limiter.test(item, key):
                stats = await self._limiter.get_window_stats(item, key)
                wait = max(wait, stats.reset_time - time.time())
        return max(wait, 0.0)

    async def take(self, checks: list[tuple[list[RateLimitItem], str]], what: str) -> None:
        try:
            for rule, key in checks:
                for item in rule:
                    if not await self._limiter.test(item, key):
                        raise rate_limited(what, item, await self._retry_after(rule, key))
            for rule, key in checks:
                for item in rule:
                    await self._limiter.hit(item, key)
        except CONNECTION_ERRORS as exc:
            log.warning("rate limits unavailable (Redis): %s", exc)
            raise SalonError(
                "rate_limited",
                Msg("error-limits-unavailable"),
                retry_after=2,
            ) from None

    async def clear(self, rule: list[RateLimitItem], key: str) -> None:
        try:
            for item in rule:
                await self._limiter.clear(item, key)
        except CONNECTION_ERRORS as exc:  # a success that cannot be forgotten costs nothing
            log.warning("rate limits unavailable (Redis): %s", exc)

    async def close(self) -> None:
        await self.redis.aclose()
