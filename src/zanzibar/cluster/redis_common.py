"""What the Redis ports share: the client and one pub/sub reader per port.

redis-py's asyncio client (with hiredis to parse replies) keeps the pool,
retries and reconnection of commands; we add only the loop that reads pub/sub
messages and hands them to the port, and that survives a lost connection: it
opens a new pub/sub connection, subscribes again to every channel, and calls
the port's ``on_reconnect`` hook to reload what may have been missed. (Left
to itself, redis-py 8.1's pub/sub came back only at its next health check,
~10 s after a Redis restart, in our test: too slow for a failover goal of
seconds.)

Commands are written by hiredis's ``pack_command`` (C), as redis-py's synchronous
client already does: its asyncio client packs in Python, joining a growing buffer
per argument, which cost a node more than all its Redis replies (docs/deploy.md,
"the Redis client's packing").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import AbstractConnection
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

#: Errors after which the client reconnects: Redis restarted or the network dropped.
CONNECTION_ERRORS = (RedisConnectionError, RedisTimeoutError, OSError)

Handler = Callable[[str, bytes], Awaitable[None]]


def _c_packing(base: type[AbstractConnection]) -> type[AbstractConnection]:
    """``base`` (the pool's connection class, chosen by the URL's scheme) writing commands
    with hiredis's packer; ``base`` itself without hiredis.

    The bytes are redis-py's own (``tests/cluster/test_redis_common.py`` compares them).
    hiredis takes the arguments as they are; what it refuses goes through redis-py's
    serializer for hiredis, which turns a ``bytearray`` or ``memoryview`` into bytes first
    (a Python step per argument, which most commands do not need) and refuses anything else
    (None, a bool) with redis-py's ``DataError``.
    """
    try:
        import hiredis
        from redis.connection import HiredisRespSerializer
        from redis.utils import HIREDIS_AVAILABLE
    except ImportError:  # an older or newer redis-py: keep its packer
        return base
    if not HIREDIS_AVAILABLE:
        return base
    pack = hiredis.pack_command
    serializer = HiredisRespSerializer()

    def pack_command(self: AbstractConnection, *args: Any) -> list[bytes]:
        if " " in args[0] if isinstance(args[0], str) else b" " in args[0]:
            return serializer.pack(*args)  # "CONFIG GET": its words go as arguments apart
        try:
            return [pack(args)]
        except TypeError:
            return serializer.pack(*args)

    return type(f"CPacked{base.__name__}", (base,), {"pack_command": pack_command})


def connect(url: str) -> Redis:
    """A client that retries a few times with backoff before giving up on a command.

    The retry policy is the asyncio one (``redis.asyncio.retry``): the asyncio client
    given the synchronous ``redis.retry.Retry`` never retries (its ``do()`` returns a
    coroutine, which fails only once awaited, outside the policy), so after a Redis
    restart every connection idle in the pool failed its next command once, however
    long after (a frame told to another node was lost that way).
    """
    client = Redis.from_url(
        url,
        retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), retries=3),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
        health_check_interval=0,
        socket_connect_timeout=2,
    )
    pool = client.connection_pool
    pool.connection_class = _c_packing(pool.connection_class)
    return client


class Subscriber:
    """One pub/sub connection whose messages go to ``handler(channel, data)``, in order.

    Subscribing, unsubscribing and (re)connecting take turns (:attr:`_turn`): redis-py's
    ``PubSub`` opens its connection in its first command, and a second command sent while
    the first one was connecting opened another connection and replaced the first with
    it, so the channels subscribed on the one nobody reads were never heard (a node's
    first follows of two tables at once: one table's frames never came, with no error).
    """

    def __init__(
        self,
        client: Redis,
        handler: Handler,
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._client = client
        self._handler = handler
        self._on_reconnect = on_reconnect
        self._pubsub: Any = None
        self._task: asyncio.Task[None] | None = None
        self._channels: set[str] = set()
        self._own_pool: ConnectionPool | None = None
        self._turn = asyncio.Lock()
        #: A (un)subscribe failed: the reader connects again (and subscribes to everything).
        self._stale = False

    def _pool(self) -> ConnectionPool:
        """The pub/sub connection's own pool, the client's settings without retries: a
        retried read would reconnect and subscribe again silently, and the port would
        never hear that it may have missed messages (``on_reconnect``)."""
        if self._own_pool is None:
            shared = self._client.connection_pool
            self._own_pool = ConnectionPool(
                connection_class=shared.connection_class,
                **{**shared.connection_kwargs, "retry": Retry(NoBackoff(), 0)},
            )
        return self._own_pool

    async def start(self, *channels: str) -> None:
        """Subscribe to ``channels`` (at least one private channel) and start reading.

        ``on_reconnect`` runs first, in the reader, before any message is handled,
        and ``start`` returns once it has: a port that loads a snapshot there then
        applies every change published since it subscribed, in order, after the
        snapshot (a change applied before it would be overwritten by older data).
        """
        self._channels |= {f"zz:{secrets.token_hex(6)}", *channels}
        await self._connect()
        ready = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._read(ready), name="redis-subscriber")
        await asyncio.shield(ready)

    async def _connect(self) -> None:
        async with self._turn:
            if self._pubsub is not None:
                with contextlib.suppress(*CONNECTION_ERRORS):
                    await self._pubsub.aclose()
            self._stale = False
            self._pubsub = PubSub(self._pool(), ignore_subscribe_messages=True)
            await self._pubsub.subscribe(*self._channels)

    async def subscribe(self, *channels: str) -> None:
        async with self._turn:
            new = set(channels) - self._channels
            if new:
                self._channels |= new
                await self._send("subscribe", new)

    async def unsubscribe(self, *channels: str) -> None:
        async with self._turn:
            gone = set(channels) & self._channels
            if gone:
                self._channels -= gone
                await self._send("unsubscribe", gone)

    async def _send(self, command: str, channels: set[str]) -> None:
        """(Un)subscribe on the reader's connection; if that fails, the reader connects
        again (it subscribes to every channel there). On a connection that just dropped
        redis-py 8.1 fails in ways of its own (a write to the connection it closed, a read
        beside the reader's), not only with connection errors, so any failure counts."""
        if self._pubsub is None:
            return  # the first connection subscribes to every channel
        try:
            await getattr(self._pubsub, command)(*channels)
        except Exception as exc:
            log.warning("Redis pub/sub %s failed (%r); connecting again", command, exc)
            self._stale = True

    async def _read(self, ready: asyncio.Future[None]) -> None:
        try:
            if self._on_reconnect is not None:
                await self._on_reconnect()
        except Exception as exc:
            ready.set_exception(exc)
            return
        ready.set_result(None)
        lost = False
        while True:
            try:
                if lost or self._stale:
                    await self._connect()
                    lost = False
                    if self._on_reconnect is not None:
                        await self._on_reconnect()
                message = await self._pubsub.get_message(timeout=1.0)
            except Exception as exc:  # redis-py's own errors too, on a connection dropping
                if not lost:
                    log.warning("lost the Redis pub/sub connection (%r); retrying", exc)
                lost = True
                await asyncio.sleep(0.1)
                continue
            if message is None or message.get("type") not in ("message", "pmessage"):
                continue
            channel = message["channel"]
            name = channel.decode() if isinstance(channel, bytes) else str(channel)
            try:
                await self._handler(name, message["data"])
            except Exception:
                log.exception("handling a Redis message on %s failed", name)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._pubsub is not None:
            with contextlib.suppress(*CONNECTION_ERRORS):
                await self._pubsub.aclose()
            self._pubsub = None
        if self._own_pool is not None:
            await self._own_pool.disconnect()
            self._own_pool = None
