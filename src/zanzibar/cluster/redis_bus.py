"""The table bus on Redis: a capped stream per table for catch-up, pub/sub for delivery.

``publish`` runs one Lua script: ``XADD zt:{t}:log {version}-1`` (Redis itself
refuses an id not above the stream's last, so a version can never be
published twice, even by two nodes), then ``PUBLISH zt:{t}``; the table's last
version is its stream's last id (trimming keeps the newest entries; a Redis
that forgot the stream forgot it whole). All or nothing per envelope. The envelopes a node
publishes while the previous call is on its way go together in the next one
(one script call and round trip for all of them, in order; each refused or
taken on its own): after a group commit, the tables whose changes it stored
publish at the same instant, and one round trip per table was a tenth of a
node's work under load. The stream keeps the last :data:`KEPT` envelopes;
older catch-ups fall back to the database (:meth:`since` returns None). Keys
expire a day after the table's last change.

Redis may forget everything (it runs without persistence): then :meth:`since`
has no stream ``zt:{t}:log`` and answers None for anyone who had something, and
followers learn of the loss at once: each time the pub/sub connection comes
back, every followed table is caught up from its log
(:meth:`~zanzibar.cluster.delivery.Deliveries.catch_up`), and what the log
cannot give is reported as a gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import orjson
from redis.asyncio import Redis

from zanzibar.cluster.delivery import Deliveries
from zanzibar.cluster.ports import Envelope, Follower, StaleVersion
from zanzibar.cluster.redis_common import Subscriber, connect

#: Envelopes kept per table (trimmed exactly: one entry per XADD once full, cheap).
KEPT = 1000
#: Seconds a table's stream outlives its last change.
TTL = 86_400

# KEYS: per envelope its log and channel; ARGV: kept, ttl, then per envelope its version
# and encoding. Returns per envelope 1 (published) or 0 (not above the last).
_PUBLISH = """
local kept, ttl = ARGV[1], ARGV[2]
local out = {}
for i = 1, #KEYS / 2 do
  local log, chan = KEYS[2 * i - 1], KEYS[2 * i]
  local version, data = ARGV[2 * i + 1], ARGV[2 * i + 2]
  local added = redis.pcall('XADD', log, 'MAXLEN', kept, version .. '-1', 'e', data)
  if type(added) == 'table' and added.err then
    if not string.find(added.err, 'equal or smaller') then return redis.error_reply(added.err) end
    out[i] = 0
  else
    redis.call('EXPIRE', log, ttl)
    redis.call('PUBLISH', chan, data)
    out[i] = 1
  end
end
return out
"""

#: Envelopes sent in one script call at most (the rest wait for the next).
BATCH = 200


def channel(table: int) -> str:
    return f"zt:{table}"


def encode(envelope: Envelope) -> bytes:
    """The envelope as compact JSON, by orjson (``json`` for what orjson refuses: a lone
    surrogate in an old chat line, an integer beyond 64 bits); either reads back the same."""
    body = {"t": envelope.table, "e": envelope.epoch, "v": envelope.version, "d": envelope.data}
    try:
        return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(body, separators=(",", ":")).encode()


def decode(raw: bytes | str) -> Envelope:
    try:
        data: dict[str, Any] = orjson.loads(raw)
    except orjson.JSONDecodeError:  # what only ``json`` wrote (a lone surrogate)
        data = json.loads(raw)
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
        #: The subscriber's start, shared by the follows that come while it is under way.
        self._start: asyncio.Future[None] | None = None
        #: Envelopes waiting for the call on its way to return, with their callers' futures.
        self._waiting: list[tuple[Envelope, asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def _ensure_started(self) -> None:
        """Start the subscriber at the first follow. Follows at the same time wait for that
        start (one that went on before it could follow a table no reader listens to yet,
        and for good if the start failed), and a failed start is tried again by the next."""
        if self._start is None:
            self._start = asyncio.ensure_future(self._subscriber.start())
        start = self._start
        try:
            await asyncio.shield(start)
        except Exception:
            if self._start is start:
                self._start = None
            raise

    async def publish(self, envelope: Envelope) -> None:
        if envelope.version < 1:
            raise ValueError("versions start at 1")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((envelope, done))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send(), name="redis-bus-publish")
        await done

    async def _send(self) -> None:
        """Send what waits, one call at a time, until nothing does (order kept)."""
        while self._waiting:
            batch, self._waiting = self._waiting[:BATCH], self._waiting[BATCH:]
            keys: list[str] = []
            args: list[Any] = [self.kept, TTL]
            for envelope, _done in batch:
                t = envelope.table
                keys += [f"zt:{t}:log", channel(t)]
                args += [envelope.version, encode(envelope)]
            try:
                results = await self._publish(keys=keys, args=args)
            except asyncio.CancelledError:  # the bus closes: its callers wait no more
                for _envelope, done in batch:
                    done.cancel()
                raise
            except Exception as exc:  # every caller of the batch hears it
                for _envelope, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            for (envelope, done), result in zip(batch, results, strict=True):
                if done.done():
                    continue
                if int(result):
                    done.set_result(None)
                else:
                    done.set_exception(
                        StaleVersion(
                            f"table {envelope.table}: version {envelope.version} is not new"
                        )
                    )

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
        log = f"zt:{table}:log"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.xrevrange(log, count=1)
            pipe.xrange(log, min=f"{after + 1}-0")
            newest, entries = await pipe.execute()
        if not newest:
            # nothing published, or Redis forgot: only a newcomer may take that as "nothing"
            return [] if after == 0 else None
        newest_id = newest[0][0]
        last = int(
            (newest_id.decode() if isinstance(newest_id, bytes) else newest_id).split("-")[0]
        )
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
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
        for _envelope, done in self._waiting:
            done.cancel()
        self._waiting = []
        await self._subscriber.close()
        await self.redis.aclose()
