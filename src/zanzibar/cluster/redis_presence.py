"""Who is online across nodes, on Redis: socket counts per node and in total.

``zp:n:{node}`` maps user → sockets on that node, ``zp:all`` user → sockets
anywhere, ``zp:u:{user}`` node → that user's sockets (to find the nodes that
hold a user's sockets: a private line goes there); Lua keeps the three in step and publishes ``{user}:1`` / ``{user}:0`` on
``zp`` when a user's total goes from 0 to 1 or back. Every node mirrors the
online set (``HKEYS zp:all`` once, then the messages), so :meth:`online` costs
no round trip. Nodes say they are alive in the sorted set ``zn:alive``
(score: the Redis clock, in ms, when their heartbeat expires); :meth:`reap`
subtracts an expired node's sockets from the totals, so the players of a
killed node go offline everywhere within one heartbeat ttl.

After a Redis restart the counts are gone: each node puts its sockets back
with :meth:`sync` (the salon knows them, and syncs every few seconds), which
also heals a node reaped while it was only slow. A process starting under a
node name forgets what an earlier process of that name left counted
(:meth:`start`; ``zanzibar serve`` makes sure the earlier one is dead first).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from redis.asyncio import Redis

from zanzibar.cluster.redis_common import Subscriber, connect

log = logging.getLogger(__name__)

#: Milliseconds a node counts as alive after its last heartbeat.
NODE_TTL_MS = 6000
CHANNEL = "zp"
#: Seconds a node waits after a lost connection before reloading the online set: more than
#: the salon's sync period (2 s), so that every node has put its sockets back after a restart.
RECONNECT_GRACE = 3.0

_NOW_MS = "local t = redis.call('TIME'); local now = t[1] * 1000 + math.floor(t[2] / 1000)"

# KEYS: node's hash, zp:all, channel, the user's hash; ARGV: user, node
_ATTACH = """
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HINCRBY', KEYS[4], ARGV[2], 1)
local total = redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
if total == 1 then redis.call('PUBLISH', KEYS[3], ARGV[1] .. ':1') end
return total
"""

_DETACH = """
local mine = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if mine <= 0 then return -1 end
if mine == 1 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[4], ARGV[2])
else
  redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
  redis.call('HINCRBY', KEYS[4], ARGV[2], -1)
end
local total = redis.call('HINCRBY', KEYS[2], ARGV[1], -1)
if total <= 0 then
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('PUBLISH', KEYS[3], ARGV[1] .. ':0')
  return 0
end
return total
"""

_HEARTBEAT = (
    _NOW_MS
    + """
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return now
"""
)

_REAP = (
    _NOW_MS
    + """
local dead = redis.call('ZRANGE', KEYS[1], '-inf', now, 'BYSCORE')
for _, node in ipairs(dead) do
  local counts = redis.call('HGETALL', 'zp:n:' .. node)
  for i = 1, #counts, 2 do
    local user = counts[i]
    redis.call('HDEL', 'zp:u:' .. user, node)
    local total = redis.call('HINCRBY', KEYS[2], user, -tonumber(counts[i + 1]))
    if total <= 0 then
      redis.call('HDEL', KEYS[2], user)
      redis.call('PUBLISH', KEYS[3], user .. ':0')
    end
  end
  redis.call('DEL', 'zp:n:' .. node)
  redis.call('ZREM', KEYS[1], node)
end
return dead
"""
)


# KEYS: node's hash, zp:all, channel; ARGV: node, then user, count pairs (the truth).
# Sets the node's counts to the truth, correcting totals by the difference.
_SYNC = """
local node = ARGV[1]
local want = {}
for i = 2, #ARGV, 2 do want[ARGV[i]] = tonumber(ARGV[i + 1]) end
local have = {}
local stored = redis.call('HGETALL', KEYS[1])
for i = 1, #stored, 2 do have[stored[i]] = tonumber(stored[i + 1]) end
local users = {}
for user, _ in pairs(want) do users[user] = true end
for user, _ in pairs(have) do users[user] = true end
local changed = 0
for user, _ in pairs(users) do
  local delta = (want[user] or 0) - (have[user] or 0)
  if delta ~= 0 then
    changed = changed + 1
    if (want[user] or 0) > 0 then
      redis.call('HSET', KEYS[1], user, want[user])
      redis.call('HSET', 'zp:u:' .. user, node, want[user])
    else
      redis.call('HDEL', KEYS[1], user)
      redis.call('HDEL', 'zp:u:' .. user, node)
    end
    local before = tonumber(redis.call('HGET', KEYS[2], user) or '0')
    local total = before + delta
    if total > 0 then
      redis.call('HSET', KEYS[2], user, total)
      if before <= 0 then redis.call('PUBLISH', KEYS[3], user .. ':1') end
    else
      redis.call('HDEL', KEYS[2], user)
      if before > 0 then redis.call('PUBLISH', KEYS[3], user .. ':0') end
    end
  end
end
return changed
"""


def _text(raw: object) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class RedisPresence:
    """One node's sockets counted in Redis, and its mirror of who is online anywhere."""

    def __init__(self, url: str | Redis, node: str, node_ttl_ms: int = NODE_TTL_MS) -> None:
        self.redis = connect(url) if isinstance(url, str) else url
        self.node = node
        self.node_ttl_ms = node_ttl_ms
        self._online: set[int] = set()
        self._watchers: list[Callable[[int, bool], Awaitable[None]]] = []
        self._attach = self.redis.register_script(_ATTACH)
        self._detach = self.redis.register_script(_DETACH)
        self._heartbeat = self.redis.register_script(_HEARTBEAT)
        self._reap = self.redis.register_script(_REAP)
        self._sync = self.redis.register_script(_SYNC)
        self._subscriber = Subscriber(self.redis, self._on_message, on_reconnect=self._reload)
        self._started = False
        self._loaded = False
        #: This node's sockets per user as it told Redis (put back after a lost connection).
        self._mine: dict[int, int] = {}
        #: Seconds to wait, after a lost connection, before reloading who is online.
        self.reconnect_grace = RECONNECT_GRACE

    def _keys(self, user: int) -> list[str]:
        return [f"zp:n:{self.node}", "zp:all", CHANNEL, f"zp:u:{user}"]

    async def start(self) -> None:
        """Forget what an earlier process of this node left counted, then follow the changes.

        The earlier process is dead (``zanzibar serve`` waits for its heartbeat to
        expire before starting the salon), so its sockets are closed; if no other
        node reaped them yet, they are taken off here. The subscriber then loads
        the online set.
        """
        if not self._started:
            self._started = True
            await self.sync({})
            await self._subscriber.start(CHANNEL)

    async def attach(self, user: int) -> bool:
        self._mine[user] = self._mine.get(user, 0) + 1
        total = int(await self._attach(keys=self._keys(user), args=[user, self.node]))
        # online now whatever the total: the message of an earlier socket on another
        # node may not have come yet, and this node must not count him offline meanwhile
        await self._set(user, True)
        return total == 1

    async def detach(self, user: int) -> bool:
        held = self._mine.get(user, 0)
        if held > 1:
            self._mine[user] = held - 1
        else:
            self._mine.pop(user, None)
        total = int(await self._detach(keys=self._keys(user), args=[user, self.node]))
        if total == 0:
            await self._set(user, False)
        return total == 0

    async def where(self, user: int) -> dict[str, int]:
        stored = await self.redis.hgetall(f"zp:u:{user}")
        return {_text(node): int(count) for node, count in stored.items() if int(count) > 0}

    async def sync(self, counts: Mapping[int, int]) -> None:
        self._mine = {user: count for user, count in counts.items() if count > 0}
        args: list[Any] = [self.node]
        for user, count in counts.items():
            args += [user, count]
        await self._sync(keys=[f"zp:n:{self.node}", "zp:all", CHANNEL], args=args)

    async def refresh(self) -> None:
        users = {int(u) for u in await self.redis.hkeys("zp:all")}
        for user in users - self._online:
            await self._set(user, True)
        for user in self._online - users:
            await self._set(user, False)

    async def _reload(self) -> None:
        """Load the online set: at once at start; after a lost connection, once the grace is over.

        If Redis restarted, its counts are empty until each node puts its sockets back
        (each does so on its own reconnect, and the salon syncs every few seconds):
        reloading at once would call everyone offline for that moment, start every
        seat's takeover and send every spectator away.
        """
        if self._loaded:
            try:  # if Redis restarted, this node's sockets count again at once
                await self.sync(dict(self._mine))
            except Exception as exc:
                log.warning("presence: this node's sockets were not put back: %s", exc)
            await asyncio.sleep(self.reconnect_grace)
        self._loaded = True
        await self.refresh()

    def online(self, user: int) -> bool:
        return user in self._online

    def watch(self, callback: Callable[[int, bool], Awaitable[None]]) -> None:
        self._watchers.append(callback)

    async def heartbeat(self) -> None:
        await self._heartbeat(keys=["zn:alive"], args=[self.node, self.node_ttl_ms])

    async def live_nodes(self) -> list[str]:
        now = await self.redis.time()
        now_ms = int(now[0]) * 1000 + int(now[1]) // 1000
        nodes = await self.redis.zrange("zn:alive", f"({now_ms}", "+inf", byscore=True)
        return sorted(_text(n) for n in nodes)

    async def reap(self) -> list[str]:
        dead = await self._reap(keys=["zn:alive", "zp:all", CHANNEL])
        return sorted(_text(n) for n in dead)

    async def _on_message(self, name: str, data: bytes) -> None:
        if name != CHANNEL:
            return
        with contextlib.suppress(ValueError):
            user, _, flag = data.decode().partition(":")
            await self._set(int(user), flag == "1")

    async def _set(self, user: int, online: bool) -> None:
        if (user in self._online) == online:
            return
        if online:
            self._online.add(user)
        else:
            self._online.discard(user)
        for watcher in list(self._watchers):
            try:
                await watcher(user, online)
            except Exception:
                log.exception("a presence watcher failed")

    async def close(self) -> None:
        await self._subscriber.close()
        await self.redis.aclose()
