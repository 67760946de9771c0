"""The table bus on Redis: a capped stream per table for catch-up, pub/sub for delivery.

``publish`` runs one Lua script: ``XADD zt:{t}:log {version}-1`` (Redis itself
refuses an id not above the stream's last, so a version can never be
published twice, even by two nodes), the table's last version in ``zt:{t}:v``,
then ``PUBLISH zt:{t}``. All or nothing, in one round trip. The stream keeps
the last :data:`KEPT` envelopes; older catch-ups fall back to the database
(:meth:`since` returns None). Keys expire a day after the table's last change.

Redis may forget everything (it runs without persistence): then :meth:`since`
has no ``zt:{t}:v`` and answers None for anyone who had something, and
followers learn of the loss at once: each time the pub/sub connection comes
back, every followed table is caught up from its log
(:meth:`~zanzibar.cluster.delivery.Deliveries.catch_up`), and what the log
cannot give is reported as a gap.
"""

from __future__ import annotations

import json
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ResponseError

from zanzibar.cluster.delivery import Deliveries
from zanzibar.cluster.ports import Envelope, Follower, StaleVersion
from zanzibar.cluster.redis_common import Subscriber, connect

#: Envelopes kept per table (trimmed exactly: one entry per XADD once full, cheap).
KEPT = 1000
#: Seconds a table's stream outlives its last change.
TTL = 86_400

_PUBLISH = """
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[3], ARGV[1] .. '-1', 'e', ARGV[2])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', KEYS[3], ARGV[2])
return 1
"""


def channel(table: int) -> str:
    return f"zt:{table}"


def encode(envelope: Envelope) -> bytes:
    return json.dumps(
        {"t": envelope.table, "e": envelope.epoch, "v": envelope.version, "d": envelope.data},
        separators=(",", ":"),
    ).encode()


def decode(raw: bytes | str) -> Envelope:
    data: dict[str, Any] = json.loads(raw)
    return Envelope(int(data["t"]), int(data["e"]), int(data["v"]), data["d"])


class RedisBus:
    """A node's view of the bus: it publishes and follows over one Redis."""

    def __init__(self, url: str | Redis, kept: int = KEPT) -> None:
        self.redis = connect(url) if isinstance(url, str) else url
        self.kept = kept
        self._publish = self.redis.register_script(_PUBLISH)
        self._deliveries = Deliveries(self.since)
        # after a lost connection, what was published meanwhile is read from the logs
        self._subscriber = Subscriber(self.redis, self._on_message, self._deliveries.catch_up)
        self._started = False

    async def _ensure_started(self) -> None:
        if not self._started:
            self._started = True
            await self._subscriber.start()

    async def publish(self, envelope: Envelope) -> None:
        if envelope.version < 1:
            raise ValueError("versions start at 1")
        t = envelope.table
        try:
            await self._publish(
                keys=[f"zt:{t}:log", f"zt:{t}:v", channel(t)],
                args=[envelope.version, encode(envelope), self.kept, TTL],
            )
        except ResponseError as exc:
            if "equal or smaller" in str(exc):
                raise StaleVersion(f"table {t}: version {envelope.version} is not new") from exc
            raise

    async def follow(self, table: int, follower: Follower, after: int) -> None:
        await self._ensure_started()
        # subscribe first, then read the log: an envelope published in between comes
        # twice (from the log and the channel) and the cursor drops the repeat
        await self._subscriber.subscribe(channel(table))
        await self._deliveries.add(table, follower, after)

    async def unfollow(self, table: int, follower: Follower) -> None:
        if self._deliveries.remove(table, follower):
            await self._subscriber.unsubscribe(channel(table))

    async def since(self, table: int, after: int) -> list[Envelope] | None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.get(f"zt:{table}:v")
            pipe.xrange(f"zt:{table}:log", min=f"{after + 1}-0")
            last_raw, entries = await pipe.execute()
        if last_raw is None:
            # nothing published, or Redis forgot: only a newcomer may take that as "nothing"
            return [] if after == 0 else None
        last = int(last_raw)
        if after >= last:
            return []
        envelopes = [decode(fields[b"e"]) for _id, fields in entries]
        if not envelopes or envelopes[0].version != after + 1:
            return None
        return envelopes

    async def _on_message(self, name: str, data: bytes) -> None:
        if name.startswith("zt:"):
            await self._deliveries.offer(decode(data))

    async def close(self) -> None:
        await self._subscriber.close()
        await self.redis.aclose()
