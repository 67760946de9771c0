"""Table leases on Redis: ``SET NX PX`` to take, Lua compare-and-delete to give back.

A lease is the key ``zl:{t}`` holding ``{node}:{epoch}`` with a time to live.
The epoch comes from ``zl:{t}:e``, raised at every grant (and above the
caller's ``floor``: after Redis forgot it, the claimer passes the epoch stored
in PostgreSQL). Renewing and releasing compare the whole value, so a node only
ever touches the very lease it was granted: not one another node took after
its own lapsed, nor one it took again since. All of a node's leases are
renewed by one script call.

Every grant and release is announced on the channel ``zl`` by the same
script call (``g {t} {node}:{epoch}`` / ``r {t} {node}:{epoch}``): the nodes
following a table run elsewhere hear of its new owner at once
(:meth:`RedisLeases.watch`) instead of asking for its lease every half
second. A lease that lapses is not announced (Redis expires keys silently);
its next grant is. One channel for every table: grants are rare (a table's
creation, a failover), and every node hears each one at the price of one
pub/sub message, with no subscription to keep per table.

This is a lease, not a lock: a node paused longer than the ttl (a long GC, a
SIGSTOP) may still believe it owns a table another node has taken. The
database's epoch fence is what makes that harmless (see docs/cluster.md).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from redis.asyncio import Redis

from zanzibar.cluster.local import tell_granted, tell_released
from zanzibar.cluster.ports import Lease, LeaseWatcher
from zanzibar.cluster.redis_common import Subscriber, connect

log = logging.getLogger(__name__)

#: Milliseconds a lease lasts unless renewed (renew every third of it).
TTL_MS = 5000
#: Tables asked about per ``MGET`` in :meth:`RedisLeases.vacant` and ``owners``.
VACANT_CHUNK = 500
#: Where grants and releases are announced.
CHANNEL = "zl"

_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local epoch = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if epoch <= floor then
  epoch = floor + 1
  redis.call('SET', KEYS[2], epoch)
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2])
redis.call('PUBLISH', KEYS[3], 'g ' .. ARGV[4] .. ' ' .. ARGV[1] .. ':' .. epoch)
return epoch
"""

_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', KEYS[2], 'r ' .. ARGV[2] .. ' ' .. ARGV[1])
  return 1
end
return 0
"""


def _key(table: int) -> str:
    return f"zl:{table}"


def _value(lease: Lease) -> str:
    return f"{lease.node}:{lease.epoch}"


def parse(table: int, raw: bytes | str | None) -> Lease | None:
    """The lease stored as ``node:epoch`` (node names may hold colons: the epoch is last)."""
    if raw is None:
        return None
    text = raw.decode() if isinstance(raw, bytes) else raw
    node, _, epoch = text.rpartition(":")
    return Lease(table, node, int(epoch))


class RedisLeases:
    """The leases of one node."""

    def __init__(self, url: str | Redis, node: str, ttl_ms: int = TTL_MS) -> None:
        if not node or any(c.isspace() for c in node):
            raise ValueError("a node name is non-empty and has no spaces")
        self.redis = connect(url) if isinstance(url, str) else url
        self.node = node
        self.ttl_ms = ttl_ms
        self._held: dict[int, Lease] = {}
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._watchers: list[LeaseWatcher] = []
        self._subscriber: Subscriber | None = None
        self._heard = False

    async def acquire(self, table: int, floor: int = 0) -> Lease | None:
        epoch = int(
            await self._acquire(
                keys=[_key(table), f"{_key(table)}:e", CHANNEL],
                args=[self.node, self.ttl_ms, floor, table],
            )
        )
        if epoch == 0:
            return None
        lease = self._held[table] = Lease(table, self.node, epoch)
        return lease

    async def owner(self, table: int) -> Lease | None:
        return parse(table, await self.redis.get(_key(table)))

    async def owners(self, tables: Sequence[int]) -> dict[int, Lease]:
        out: dict[int, Lease] = {}
        for start in range(0, len(tables), VACANT_CHUNK):
            chunk = tables[start : start + VACANT_CHUNK]
            for table, raw in zip(
                chunk, await self.redis.mget([_key(t) for t in chunk]), strict=True
            ):
                lease = parse(table, raw)
                if lease is not None:
                    out[table] = lease
        return out

    async def watch(self, watcher: LeaseWatcher) -> None:
        self._watchers.append(watcher)
        if self._subscriber is None:
            self._subscriber = Subscriber(self.redis, self._on_message, self._reconnected)
            await self._subscriber.start(CHANNEL)

    async def _reconnected(self) -> None:
        """The pub/sub connection was (re)made: after the first, grants may have been missed."""
        if not self._heard:
            self._heard = True
            return
        for watcher in list(self._watchers):
            try:
                await watcher.missed()
            except Exception:
                log.exception("a lease watcher failed after a reconnection")

    async def _on_message(self, name: str, data: bytes) -> None:
        if name != CHANNEL:
            return
        try:
            kind, table, value = data.decode().split(" ", 2)
            lease = parse(int(table), value)
        except ValueError:
            log.warning("a malformed lease announcement was dropped: %r", data[:80])
            return
        if lease is None:
            return
        if kind == "g":
            await tell_granted(self._watchers, lease)
        elif kind == "r":
            await tell_released(self._watchers, lease)

    async def renew(self) -> set[int]:
        leases = list(self._held.values())
        if not leases:
            return set()
        lost_at = await self._renew(
            keys=[_key(lease.table) for lease in leases],
            args=[self.ttl_ms, *(_value(lease) for lease in leases)],
        )
        lost = {leases[int(i) - 1].table for i in lost_at}
        for table in lost:
            del self._held[table]
        return lost

    async def vacant(self, tables: Sequence[int]) -> dict[int, bool]:
        out: dict[int, bool] = {}
        for start in range(0, len(tables), VACANT_CHUNK):
            chunk = tables[start : start + VACANT_CHUNK]
            keys = [k for t in chunk for k in (_key(t), f"{_key(t)}:e")]
            values = await self.redis.mget(keys)
            for index, table in enumerate(chunk):
                if values[2 * index] is None:
                    out[table] = values[2 * index + 1] is not None
        return out

    async def release(self, table: int) -> bool:
        lease = self._held.pop(table, None)
        if lease is None:
            return False
        return bool(await self._release(keys=[_key(table), CHANNEL], args=[_value(lease), table]))

    async def expire(self, lease: Lease) -> bool:
        if lease.node == self.node:
            self._held.pop(lease.table, None)
        done = await self._release(
            keys=[_key(lease.table), CHANNEL], args=[_value(lease), lease.table]
        )
        return bool(done)

    def held(self) -> dict[int, Lease]:
        return dict(self._held)

    async def close(self) -> None:
        if self._subscriber is not None:
            await self._subscriber.close()
            self._subscriber = None
        self._watchers.clear()
        await self.redis.aclose()
