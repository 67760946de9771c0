"""The lobby on Redis: every open table's summary in the hash ``zs:lobby``.

The owner of a table writes its language-free summary (``HSET``, or ``HDEL``
when the table closes) and publishes the table id on ``zs``; every node
mirrors the hash so that listing the lobby costs no round trip. After a Redis
restart the hash is empty until the owners put their tables again (their
actors do so when they claim, and on :meth:`refresh` of a reconnect).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from redis.asyncio import Redis

from zanzibar.cluster.redis_common import Subscriber, connect

log = logging.getLogger(__name__)

KEY = "zs:lobby"
CHANNEL = "zs"

_PUT = """
if ARGV[2] == '' then
  if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
redis.call('PUBLISH', KEYS[2], ARGV[1] .. ' ' .. ARGV[2])
return 1
"""


class RedisLobby:
    """One node's writer and mirror of the salon's table list."""

    def __init__(self, url: str | Redis) -> None:
        self.redis = connect(url) if isinstance(url, str) else url
        self._summaries: dict[int, Mapping[str, Any]] = {}
        self._watchers: list[Callable[[int], Awaitable[None]]] = []
        self._put = self.redis.register_script(_PUT)
        self._subscriber = Subscriber(self.redis, self._on_message, on_reconnect=self.refresh)
        self._started = False

    async def start(self) -> None:
        if not self._started:
            self._started = True
            await self._subscriber.start(CHANNEL)  # loads the summaries first

    async def put(self, table: int, summary: Mapping[str, Any] | None) -> None:
        raw = "" if summary is None else json.dumps(summary, separators=(",", ":"))
        if await self._put(keys=[KEY, CHANNEL], args=[table, raw]):
            await self._set(table, None if summary is None else dict(summary))

    async def refresh(self) -> None:
        stored = {int(t): json.loads(raw) for t, raw in (await self.redis.hgetall(KEY)).items()}
        for table in set(self._summaries) - set(stored):
            await self._set(table, None)
        for table, summary in stored.items():
            await self._set(table, summary)

    def summaries(self) -> dict[int, Mapping[str, Any]]:
        return dict(self._summaries)

    def watch(self, callback: Callable[[int], Awaitable[None]]) -> None:
        self._watchers.append(callback)

    async def _on_message(self, name: str, data: bytes) -> None:
        if name != CHANNEL:
            return
        table, _, raw = data.decode().partition(" ")
        await self._set(int(table), json.loads(raw) if raw else None)

    async def _set(self, table: int, summary: Mapping[str, Any] | None) -> None:
        if self._summaries.get(table) == summary:
            return
        if summary is None:
            self._summaries.pop(table, None)
        else:
            self._summaries[table] = summary
        for watcher in list(self._watchers):
            try:
                await watcher(table)
            except Exception:
                log.exception("a lobby watcher failed")

    async def close(self) -> None:
        await self._subscriber.close()
        await self.redis.aclose()
