"""Table leases on Redis: ``SET NX PX`` to take, Lua compare-and-delete to give back.

A lease is the key ``zl:{t}`` holding ``{node}:{epoch}`` with a time to live.
The epoch comes from ``zl:{t}:e``, raised at every grant (and above the
caller's ``floor``: after Redis forgot it, the claimer passes the epoch stored
in PostgreSQL). Renewing and releasing compare the whole value, so a node only
ever touches the very lease it was granted: not one another node took after
its own lapsed, nor one it took again since. All of a node's leases are
renewed by one script call.

This is a lease, not a lock: a node paused longer than the ttl (a long GC, a
SIGSTOP) may still believe it owns a table another node has taken. The
database's epoch fence is what makes that harmless (see docs/cluster.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from redis.asyncio import Redis

from zanzibar.cluster.ports import Lease
from zanzibar.cluster.redis_common import connect

#: Milliseconds a lease lasts unless renewed (renew every third of it).
TTL_MS = 5000
#: Tables asked about per ``MGET`` in :meth:`RedisLeases.vacant`.
VACANT_CHUNK = 500

_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local epoch = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if epoch <= floor then
  epoch = floor + 1
  redis.call('SET', KEYS[2], epoch)
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2])
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
  return redis.call('DEL', KEYS[1])
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

    async def acquire(self, table: int, floor: int = 0) -> Lease | None:
        epoch = int(
            await self._acquire(
                keys=[_key(table), f"{_key(table)}:e"], args=[self.node, self.ttl_ms, floor]
            )
        )
        if epoch == 0:
            return None
        lease = self._held[table] = Lease(table, self.node, epoch)
        return lease

    async def owner(self, table: int) -> Lease | None:
        return parse(table, await self.redis.get(_key(table)))

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
        return bool(await self._release(keys=[_key(table)], args=[_value(lease)]))

    def held(self) -> dict[int, Lease]:
        return dict(self._held)

    async def close(self) -> None:
        await self.redis.aclose()
