"""Node-to-node messages on Redis: ``PUBLISH zn:{node}``, one channel per node.

``PUBLISH`` returns how many subscribers got the message, which is exactly
"was that node listening": 0 means the node is dead or cut off, and the
router can claim its table or look for the new owner at once. Pub/sub keeps
no message for a node that is away; the router's ids and resends cover that
(docs/cluster.md).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from redis.asyncio import Redis

from zanzibar.cluster.redis_common import Subscriber, connect

log = logging.getLogger(__name__)

Handler = Callable[[str, Mapping[str, Any]], Awaitable[None]]


def channel(node: str) -> str:
    return f"zn:{node}"


class RedisLink:
    """One node's end of the node-to-node channel."""

    def __init__(self, url: str | Redis, node: str) -> None:
        if not node or any(c.isspace() for c in node):
            raise ValueError("a node name is non-empty and has no spaces")
        self.redis = connect(url) if isinstance(url, str) else url
        self.node = node
        self._handler: Handler | None = None
        self._subscriber = Subscriber(self.redis, self._on_message)

    def serve(self, handler: Handler) -> None:
        self._handler = handler

    async def start(self) -> None:
        await self._subscriber.start(channel(self.node))

    async def send(self, node: str, message: Mapping[str, Any]) -> bool:
        raw = json.dumps({"from": self.node, "m": message}, separators=(",", ":"))
        return int(await self.redis.publish(channel(node), raw)) > 0

    async def _on_message(self, name: str, data: bytes) -> None:
        if self._handler is None or name != channel(self.node):
            return
        try:
            parsed = json.loads(data)
            sender, message = str(parsed["from"]), parsed["m"]
        except (ValueError, KeyError, TypeError):
            log.warning("a malformed node message on %s was dropped", name)
            return
        await self._handler(sender, message)

    async def close(self) -> None:
        await self._subscriber.close()
        await self.redis.aclose()
