"""Per-account limits on Redis, shared by every node.

:class:`RedisCounts` keeps the salon's own limiters (the message token buckets,
the chat window) salon-wide without a round trip per event;
:class:`RedisAddressTables` counts the tables opened per address,
:class:`RedisAddressSockets` the sockets held per address;
:func:`shared_limits` builds them with the table-creation gate.

:class:`RedisRateLimits`: one sliding window per key (the ``RateLimits`` port).

A window is a sorted set ``zr:{name}:{key}`` of event times (the Redis clock,
in microseconds, so nodes with skewed clocks agree). :meth:`check` drops the
times that left the window and compares the count; :meth:`record` adds one.
The two steps stay apart, as in ``salon/chat.py``: a refused line must not
count. Two nodes checking the same key at the same instant may both pass
once: the limit is a courtesy against floods, not a budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping

from redis.asyncio import Redis

from zanzibar.cluster.redis_common import CONNECTION_ERRORS, connect
from zanzibar.l10n.msg import Msg
from zanzibar.salon.chat import RATE_COUNT, RATE_WINDOW
from zanzibar.salon.errors import SalonError

log = logging.getLogger(__name__)

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


# KEYS: the tallies (hash node -> events) to sync: the first ARGV[4] of them always, the
# others ("held": keys this node alone followed at its last read of them) only if they are
# in this node's dirty set (another node joined them or counted events of them since).
# ARGV[1]: this node, ARGV[2]: ttl in ms, ARGV[3]: '1' on a full sync, ARGV[4]: how many
# keys are synced whatever, ARGV[4 + i]: this node's events of KEYS[i] since it sent them.
# A tally's fields are its followers: a node is one from its first sync of the key
# (``HINCRBY`` by its events, ``HSETNX`` to 0 without). A node's events, and its joining a
# tally, mark the key dirty for its other followers (zc:d:{node}, a set); the keys dirty
# for this node are read first. The ttls are renewed when a node sends the key with no
# events, when its field was new (a new tally, or Redis forgot it), and on a full sync
# (every idle period, far within the ttl): not at every event. Returns, per key of KEYS,
# the events every other node counted (cumulative: the caller keeps the difference), -1
# when no other node follows it, -2 for a held key left alone (nothing sent or read);
# then pairs (dirty key not in KEYS, its others' events or -1).
_SYNC = """
local node, ttl, full, always = ARGV[1], ARGV[2], ARGV[3] == '1', tonumber(ARGV[4])
local function others(key, mark)
  local sum, any = 0, false
  local values = redis.call('HGETALL', key)
  for j = 1, #values, 2 do
    local other = values[j]
    if other ~= node then
      any = true
      sum = sum + tonumber(values[j + 1])
      if mark then
        redis.call('SADD', 'zc:d:' .. other, key)
        redis.call('PEXPIRE', 'zc:d:' .. other, ttl)
      end
    end
  end
  if any then return sum end
  return -1
end
local mine = 'zc:d:' .. node
local dirty = redis.call('SMEMBERS', mine)
if #dirty > 0 then redis.call('DEL', mine) end
local is_dirty = {}
for _, key in ipairs(dirty) do is_dirty[key] = true end
local out, asked = {}, {}
for i, key in ipairs(KEYS) do
  asked[key] = true
  if i <= always or is_dirty[key] then
    local n = tonumber(ARGV[i + 4])
    local new
    if n == 0 then
      new = redis.call('HSETNX', key, node, 0) == 1
    else
      new = redis.call('HINCRBY', key, node, n) == n
    end
    if new or full or n == 0 then
      redis.call('PEXPIRE', key, ttl)
    end
    out[i] = others(key, n ~= 0 or new)
  else
    out[i] = -2
  end
end
for _, key in ipairs(dirty) do
  if not asked[key] then
    out[#out + 1] = key
    out[#out + 1] = others(key, false)
  end
end
return out
"""

#: Keys per sync script call.
SYNC_CHUNK = 500


class RedisCounts:
    """Events counted on each node, summed over the salon every :attr:`period` seconds.

    Every node adds its new events of each key to the hash ``zc:{name}:{key}``
    (one field per node, cumulative) and reads the other fields' sum back in
    the same script call: one round trip per period whatever the traffic.
    What the others counted since the last sync is charged to this node's
    limiter. So each node's limiter sees every event of the key, late by at
    most a period: a flood spread over N nodes gets at most N periods' worth
    through before every node refuses it.

    A key is followed while it had events here in the last :attr:`follow`
    seconds (a user with no socket here sends nothing here). What a sync reads
    follows the events, not the users online (reading every followed key every
    period was ~87 Redis commands per player action at 300 players): the keys
    noted here since the last sync, and those another node counted events of
    since: each node is a field of the tally of the keys it follows (its
    events, 0 if none yet), and a node's events of a key mark it in the "dirty" set
    of every other follower (``zc:d:{node}``), read and emptied by that
    follower's next sync. A key sent joins its followers again (after a Redis
    restart a node is a follower again at its next event of the key), and
    every :attr:`idle_period` a sync sends every key followed.

    A key no other node followed at its last read (an account whose sockets
    all sit on this node: nearly every one) is *held*: its events stay here,
    costing no Redis command, until the next full sync, or until a sync finds
    it dirty (another node joined its tally, which marks it for its followers,
    or counted events of it): that same script call then sends them. Only the
    key's name travels meanwhile. The node that joined is charged them at its
    next sync (events of the account in the last :attr:`idle_period` at most,
    made before it joined: stricter than the baseline below, never looser).
    Two nodes that both hold a key (a tally Redis forgot, joined by both before
    either wrote its field) find each other at the next full sync.

    A key's first event here syncs at once, to set the baseline of the others'
    tally: what they counted before it is not charged here (a tally is not a
    window: it cannot tell an old event from a recent one), so an account gets
    at most one budget more per node it *starts* using within a window. When
    Redis cannot be reached each node's own limits still hold (fail open:
    messages are the salon's use, not an attack surface like sign-in); a Redis
    restart starts the tallies afresh.
    """

    def __init__(
        self,
        url: str | Redis,
        node: str,
        period: float = 0.25,
        follow: float = 120.0,
        idle_period: float = 10.0,
    ) -> None:
        self.redis = connect(url) if isinstance(url, str) else url
        self.node = node
        self.period = period
        self.follow = follow
        self.idle_period = idle_period
        self._sync = self.redis.register_script(_SYNC)
        self._charges: dict[str, Callable[[str, int], None]] = {}
        self._pending: dict[tuple[str, str], int] = {}
        self._others: dict[tuple[str, str], int] = {}
        self._active: dict[tuple[str, str], float] = {}
        #: Keys no other node followed at their last read: their events wait here.
        self._alone: set[tuple[str, str]] = set()
        self._full_at = 0.0
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._failing = False

    def register(self, name: str, charge: Callable[[str, int], None]) -> None:
        self._charges[name] = charge

    def note(self, name: str, key: str, count: int = 1) -> None:
        pair = (name, key)
        if pair not in self._active:
            self._wake.set()  # sync now: the baseline, before the other nodes' next events
        self._pending[pair] = self._pending.get(pair, 0) + count
        self._active[pair] = time.monotonic()

    async def sync(self) -> None:
        """Send this node's new events, charge the other nodes' (one script call per 500 keys).

        A key no other node followed at its last read is *held*: its events stay here
        (nobody else needs them) and go with the next full sync, or at once in the sync
        that finds it dirty (another node joined it or counted events of it).
        """
        now = time.monotonic()
        for pair in [p for p, at in self._active.items() if now - at > self.follow]:
            del self._active[pair]
            self._others.pop(pair, None)
            self._alone.discard(pair)
        if not self._active:
            return
        full = now - self._full_at >= self.idle_period
        if full:
            pairs, held = list(self._active), []
        else:  # noted here since the last sync (a new key, an event); dirty keys come back
            noted = [pair for pair in self._pending if pair in self._active]
            pairs = [pair for pair in noted if pair not in self._alone]
            held = [pair for pair in noted if pair in self._alone]
        pending = {pair: self._pending.pop(pair, 0) for pair in pairs + held}
        read: dict[tuple[str, str], int] = {}
        try:
            # (keys, whether they are sent whatever): one call at least, for the dirty set
            calls = [(pairs[i : i + SYNC_CHUNK], True) for i in range(0, len(pairs), SYNC_CHUNK)]
            calls += [(held[i : i + SYNC_CHUNK], False) for i in range(0, len(held), SYNC_CHUNK)]
            for chunk, always in calls or [([], True)]:
                args: list[str | int] = [
                    self.node,
                    int(self.follow * 1000),
                    int(full),
                    len(chunk) if always else 0,
                ]
                got = await self._sync(
                    keys=[f"zc:{name}:{key}" for name, key in chunk],
                    args=args + [pending[p] for p in chunk],
                )
                for pair, value in zip(chunk, (int(n) for n in got), strict=False):
                    if value == -2:  # held: nothing sent, nobody else follows it
                        continue
                    pending[pair] = 0  # stored: never sent twice
                    read[pair] = value
                dirty = got[len(chunk) :]
                for at in range(0, len(dirty) - 1, 2):
                    found = _pair_of(dirty[at])
                    if found is not None and found in self._active:
                        read[found] = int(dirty[at + 1])
        finally:
            for pair, count in pending.items():
                if count:
                    self._pending[pair] = self._pending.get(pair, 0) + count
        if full:
            self._full_at = now
        for pair, others in read.items():
            if others < 0:  # nobody else follows it: held from now on
                self._alone.add(pair)
                others = 0
            else:
                self._alone.discard(pair)
            before = self._others.get(pair)
            self._others[pair] = others
            if before is None or others <= before:  # first sync, or Redis forgot
                continue
            charge = self._charges.get(pair[0])
            if charge is not None:
                charge(pair[1], others - before)

    async def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="redis-counts")

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.period)
            self._wake.clear()
            try:
                await self.sync()
            except Exception as exc:
                if not self._failing:
                    log.warning("sharing rate counts failed (%s): limits hold per node", exc)
                self._failing = True
                continue
            self._failing = False

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.redis.aclose()


def _pair_of(tally: bytes | str) -> tuple[str, str] | None:
    """(name, key) of a tally's Redis key ``zc:{name}:{key}`` (a key may hold colons)."""
    text = tally.decode() if isinstance(tally, bytes) else tally
    parts = text.split(":", 2)
    return (parts[1], parts[2]) if len(parts) == 3 and parts[0] == "zc" else None


class RedisAddressTables:
    """The tables opened from each address: a set ``za:{address}`` of table ids.

    Closed tables are dropped when counted (the salon asks the database which
    are still open), so a table closed on another node, or left by a dead one,
    stops counting without anyone having to remember its address. Redis
    forgetting the sets lets addresses open tables afresh, as a restarted
    one-process salon does.
    """

    def __init__(self, url: str | Redis) -> None:
        self.redis = connect(url) if isinstance(url, str) else url

    async def add(self, address: str, table: int) -> None:
        try:
            await self.redis.sadd(f"za:{address}", table)
        except CONNECTION_ERRORS as exc:  # the table exists: it is just not counted
            log.warning("table %s of %s not counted (Redis): %s", table, address, exc)

    async def tables(self, address: str) -> set[int]:
        try:
            return {int(t) for t in await self.redis.smembers(f"za:{address}")}
        except CONNECTION_ERRORS as exc:  # closed, as the other creation limits
            log.warning("tables per address unavailable (Redis): %s", exc)
            raise SalonError(
                "rate_limited", Msg("error-limits-unavailable"), retry_after=2
            ) from None

    async def forget(self, address: str, tables: set[int]) -> None:
        if tables:
            with contextlib.suppress(*CONNECTION_ERRORS):  # pruned again next time
                await self.redis.srem(f"za:{address}", *tables)

    async def close(self) -> None:
        await self.redis.aclose()


# KEYS[1]: zn:alive (node -> when its heartbeat expires, ms on the Redis clock);
# ARGV: this node, address, this node's sockets from it with the new one, the most allowed.
_TAKE_SOCKET = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local total = tonumber(ARGV[3])
for _, node in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')) do
  if node ~= ARGV[1] then
    total = total + tonumber(redis.call('HGET', 'zq:n:' .. node, ARGV[2]) or '0')
  end
end
if total > tonumber(ARGV[4]) then return -total end
redis.call('HINCRBY', 'zq:n:' .. ARGV[1], ARGV[2], 1)
return total
"""

_RELEASE_SOCKET = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
"""


class RedisAddressSockets:
    """The sockets each node holds per address: a hash ``zq:n:{node}`` (address -> sockets).

    A new socket is counted against the sum over the live nodes (those in
    ``zn:alive`` whose heartbeat has not expired, read in the same script), so
    a killed node's sockets stop counting when its heartbeat does, with no
    reaping; the node's own share is the count it passes (exact, from memory).
    Taking and releasing change the node's entry by one each, so two calls
    arriving at Redis out of order still add up; the salon's upkeep rewrites the
    whole hash every few seconds (:meth:`sync`), which heals a Redis that
    forgot it or a call lost on the way. While Redis cannot be reached each
    node's own limit still holds (open: refusing every socket of an address
    would shut the salon, not a flood).
    """

    def __init__(self, url: str | Redis, node: str) -> None:
        self.redis = connect(url) if isinstance(url, str) else url
        self.node = node
        self._key = f"zq:n:{node}"
        self._take = self.redis.register_script(_TAKE_SOCKET)
        self._release = self.redis.register_script(_RELEASE_SOCKET)

    async def start(self) -> None:
        """Forget what an earlier process of this node's name left counted."""
        with contextlib.suppress(*CONNECTION_ERRORS):
            await self.redis.delete(self._key)

    async def take(self, address: str, mine: int, most: int) -> bool:
        try:
            total = int(await self._take(keys=["zn:alive"], args=[self.node, address, mine, most]))
        except CONNECTION_ERRORS as exc:
            log.warning("sockets per address counted on this node only (Redis): %s", exc)
            return mine <= most
        return total >= 0

    async def release(self, address: str) -> None:
        try:
            await self._release(keys=[self._key], args=[address])
        except CONNECTION_ERRORS as exc:  # the next sync takes it off
            log.warning("a closed socket of %s was not counted off (Redis): %s", address, exc)

    async def sync(self, counts: Mapping[str, int]) -> None:
        kept = {address: n for address, n in counts.items() if n > 0}
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._key)
            if kept:
                pipe.hset(self._key, mapping=kept)  # type: ignore[arg-type]
            await pipe.execute()

    async def close(self) -> None:
        await self.redis.aclose()
