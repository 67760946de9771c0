"""One salon process in a cluster: its name, boot nonce, heartbeat, and a clean drain.

Every node started with ``zanzibar serve --redis URL --node NAME`` says it is
alive in the sorted set ``zn:alive`` (score: when its heartbeat expires, on
the Redis clock, so nodes with skewed clocks agree), the same set
:class:`~zanzibar.cluster.redis_presence.RedisPresence` reaps dead nodes from.
``zn:boot`` maps each name to the random nonce of the process that holds it,
so a restarted node (same name, new process) is told from the one before.

Two live processes under one name would mix their sockets and leases, so a
node that finds its name held by another live process waits for that
heartbeat to expire (a node killed with ``kill -9`` and restarted at once
waits out the rest of its predecessor's ttl, a few seconds) and gives up if
the other keeps beating: :class:`NodeNameTaken`.

On SIGTERM ``zanzibar serve`` calls :meth:`Node.drain` first: ``/api/health``
answers 503 at once, so a load balancer stops sending new sockets; the node
leaves ``zn:alive`` so the others see it go without waiting for the ttl; then
the server shuts down after ``--drain`` seconds.

PostgreSQL stays the only truth: nothing here is needed to recover after
Redis loses its keys; the next heartbeat writes them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time

from redis.asyncio import Redis

from zanzibar.cluster.ports import check_node_name
from zanzibar.cluster.redis_common import CONNECTION_ERRORS, connect
from zanzibar.cluster.redis_presence import NODE_TTL_MS

log = logging.getLogger(__name__)

ALIVE = "zn:alive"
BOOT = "zn:boot"

_NOW_MS = "local t = redis.call('TIME'); local now = t[1] * 1000 + math.floor(t[2] / 1000)"

# KEYS: alive, boot; ARGV: name, nonce, ttl ms. Returns 1 if the name is ours (or free), else
# the milliseconds the other holder's heartbeat has left.
_BEAT = (
    _NOW_MS
    + """
local holder = redis.call('HGET', KEYS[2], ARGV[1])
if holder and holder ~= ARGV[2] then
  local expires = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0')
  if expires > now then return -(expires - now) end
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
return 1
"""
)

# KEYS: alive, boot; ARGV: name, nonce. Leave only if the name is still ours.
_LEAVE = """
if redis.call('HGET', KEYS[2], ARGV[1]) == ARGV[2] then
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
"""

_LIVE = (
    _NOW_MS
    + """
return redis.call('ZRANGE', KEYS[1], now + 1, '+inf', 'BYSCORE')
"""
)


class NodeNameTaken(Exception):
    """Another live process holds this node name."""


class Node:
    """This process as one node of the salon: heartbeat every third of ``ttl_ms``."""

    def __init__(self, url: str | Redis, name: str, ttl_ms: int = NODE_TTL_MS) -> None:
        self.name = check_node_name(name)
        #: Tells this process from an earlier or later one under the same name.
        self.boot = secrets.token_hex(8)
        self.redis = connect(url) if isinstance(url, str) else url
        self.ttl_ms = ttl_ms
        self.draining = False
        #: Monotonic time of the last heartbeat Redis took (0: none yet).
        self.last_beat = 0.0
        self._beat = self.redis.register_script(_BEAT)
        self._leave = self.redis.register_script(_LEAVE)
        self._live = self.redis.register_script(_LIVE)
        self._task: asyncio.Task[None] | None = None

    async def start(self, patience: float | None = None) -> None:
        """Take the name (waiting for a dead predecessor's heartbeat to expire), then beat.

        Raises :class:`NodeNameTaken` if another process keeps the name alive
        for ``patience`` seconds (by default one ttl and a second), and Redis's
        own errors if it cannot be reached.
        """
        wait = self.ttl_ms / 1000 + 1.0 if patience is None else patience
        deadline = time.monotonic() + wait
        while True:
            left = await self._beat_once()
            if left is None:
                break
            if time.monotonic() + min(left, 0.25) > deadline:
                raise NodeNameTaken(
                    f"node {self.name} is already running (its heartbeat is fresh);"
                    " give this process another --node name"
                )
            log.warning(
                "node %s: waiting %.1f s for the previous process to expire", self.name, left
            )
            await asyncio.sleep(min(left, 0.25))
        self._task = asyncio.create_task(self._beating(), name=f"node-{self.name}-heartbeat")

    async def _beat_once(self) -> float | None:
        """One heartbeat: None if the name is ours, else the seconds the other holder has left."""
        result = int(await self._beat(keys=[ALIVE, BOOT], args=[self.name, self.boot, self.ttl_ms]))
        if result < 0:
            return -result / 1000
        self.last_beat = time.monotonic()
        return None

    async def _beating(self) -> None:
        while not self.draining:
            await asyncio.sleep(self.ttl_ms / 3000)
            if self.draining:
                return
            try:
                left = await self._beat_once()
            except CONNECTION_ERRORS as exc:
                log.warning("node %s: heartbeat failed: %s", self.name, exc)
                continue
            if left is not None:  # another process took the name while we could not beat
                log.error("node %s: another process took this node's name", self.name)

    @property
    def beating(self) -> bool:
        """Whether Redis took a heartbeat of this node within its ttl."""
        return (
            not self.draining
            and self.last_beat > 0
            and time.monotonic() - self.last_beat < self.ttl_ms / 1000
        )

    async def ping(self, timeout: float = 1.0) -> bool:
        """Whether Redis answers now (for the health check)."""
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), timeout))
        except (TimeoutError, *CONNECTION_ERRORS):
            return False

    async def live_nodes(self) -> list[str]:
        """The names of the nodes whose heartbeat has not expired, sorted."""
        names = await self._live(keys=[ALIVE])
        return sorted(n.decode() if isinstance(n, bytes) else str(n) for n in names)

    async def drain(self) -> None:
        """Stop beating and leave ``zn:alive``: the health check fails from now on."""
        self.draining = True
        await self._stop_beating()
        with contextlib.suppress(*CONNECTION_ERRORS):
            await self._leave(keys=[ALIVE, BOOT], args=[self.name, self.boot])

    async def _stop_beating(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def stop(self) -> None:
        """Leave the cluster (if not drained already) and close the connection."""
        if not self.draining:
            await self.drain()
        await self.redis.aclose()
