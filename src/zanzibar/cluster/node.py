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

The heartbeat runs in a thread of its own, on its own connection: a node that
blocks its event loop for a few seconds (its start on a loaded machine: the
salon's restore, then a full garbage collection) used to miss its beats and
have its sockets reaped by the others just after it joined. A hung loop must
still look dead, so the thread beats only while the loop ticked within
:data:`LOOP_PATIENCE` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time

import redis
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


#: Seconds the event loop may go without a tick before the heartbeat thread stops beating
#: for it: far above a start's stall or a long collection, far below a hung process's life.
LOOP_PATIENCE = 15.0

#: Seconds between two ticks of the event loop for the heartbeat thread.
TICK = 0.5


class NodeNameTaken(Exception):
    """Another live process holds this node name."""


class Node:
    """This process as one node of the salon: heartbeat every third of ``ttl_ms``."""

    def __init__(
        self,
        url: str | Redis,
        name: str,
        ttl_ms: int = NODE_TTL_MS,
        loop_patience: float = LOOP_PATIENCE,
    ) -> None:
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
        #: The heartbeat thread's URL (None: a client was given, beats stay on the loop).
        self._url = url if isinstance(url, str) else None
        self.loop_patience = loop_patience
        self._beater: threading.Thread | None = None
        self._quit = threading.Event()
        #: Monotonic time of the event loop's last tick (read by the heartbeat thread).
        self._loop_at = 0.0

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
        if self._url is None:
            self._task = asyncio.create_task(self._beating(), name=f"node-{self.name}-heartbeat")
            return
        self._loop_at = time.monotonic()
        self._task = asyncio.create_task(self._ticking(), name=f"node-{self.name}-tick")
        self._quit.clear()
        self._beater = threading.Thread(
            target=self._beat_in_thread, args=(self._url,), name=f"node-{self.name}-heartbeat"
        )
        self._beater.daemon = True  # a crash must not wait for it
        self._beater.start()

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

    async def _ticking(self) -> None:
        """Tell the heartbeat thread that the event loop runs."""
        while True:
            self._loop_at = time.monotonic()
            await asyncio.sleep(TICK)

    def _beat_in_thread(self, url: str) -> None:
        """Beat every third of the ttl while the loop ticks, until told to stop."""
        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        beat = client.register_script(_BEAT)
        silent = False
        try:
            while not self._quit.wait(self.ttl_ms / 3000):
                if time.monotonic() - self._loop_at > self.loop_patience:
                    if not silent:
                        log.error("node %s: the event loop is stuck: no more heartbeats", self.name)
                    silent = True
                    continue
                silent = False
                try:
                    result = int(beat(keys=[ALIVE, BOOT], args=[self.name, self.boot, self.ttl_ms]))
                except (redis.ConnectionError, redis.TimeoutError, OSError) as exc:
                    log.warning("node %s: heartbeat failed: %s", self.name, exc)
                    continue
                if self._quit.is_set():
                    return
                if result < 0:  # another process took the name while we could not beat
                    log.error("node %s: another process took this node's name", self.name)
                else:
                    self.last_beat = time.monotonic()
        finally:
            client.close()

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
        """No more beats once this returns (a beat on its way is waited for)."""
        self._quit.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        beater, self._beater = self._beater, None
        if beater is not None:
            await asyncio.to_thread(beater.join, 5.0)

    async def stop(self) -> None:
        """Leave the cluster (if not drained already) and close the connection."""
        if not self.draining:
            await self.drain()
        await self.redis.aclose()
