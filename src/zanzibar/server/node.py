"""The server's side of a salon node: ``GET /api/health``, the Redis parts, the drain.

Without ``--redis`` a node is just this process: the health check asks the
database, and nothing imports Redis. With ``--redis URL`` (PostgreSQL
required: several nodes share one database), this module builds the node's
:class:`~zanzibar.cluster.node.Node` (name, boot nonce, heartbeat) and the
shared sign-in rate limits (:mod:`zanzibar.cluster.redis_gate`), starts them
before the salon and stops them after it.

``GET /api/health`` is what a load balancer polls: 200 with the node's name
when the database and (if configured) Redis answer and the node is not
draining, else 503 with the same body saying which part fails. It never
says more than ``ok``/``unreachable``/``timeout`` about a part (the address is
public).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse

from zanzibar.server.settings import Settings

log = logging.getLogger(__name__)

#: Seconds each part of the health check may take before it counts as failing.
CHECK_TIMEOUT = 2.0


@dataclass
class NodeParts:
    """What one server process adds around its salon: its name, and the Redis parts if any."""

    name: str
    #: The cluster node (``zanzibar.cluster.node.Node``) when ``--redis`` was given.
    node: Any = None
    #: The shared rate-limit gate, closed at stop.
    gate: Any = None
    drain_seconds: float = 0.0
    started: bool = field(default=False)

    @property
    def draining(self) -> bool:
        return bool(self.node is not None and self.node.draining)

    async def start(self) -> None:
        """Join the cluster before the salon starts (Redis must answer; the name must be free)."""
        if self.node is not None:
            await self.node.start()
            log.warning("node %s (boot %s) joined the cluster", self.node.name, self.node.boot)
        self.started = True

    async def stop(self) -> None:
        if self.node is not None:
            await self.node.stop()
        if self.gate is not None:
            await self.gate.close()

    async def drain(self) -> None:
        """Fail the health check and leave the cluster, then wait ``drain_seconds``.

        The load balancer notices at its next check and sends new sockets elsewhere;
        open sockets keep working until the server shuts down.
        """
        if self.node is not None and not self.node.draining:
            log.warning("node %s draining for %.1f s", self.name, self.drain_seconds)
            await self.node.drain()
            await asyncio.sleep(self.drain_seconds)


def node_parts(settings: Settings, salon: Any) -> NodeParts:
    """The node around ``salon``: Redis parts only when ``settings.redis_url`` is set."""
    if not settings.redis_url:
        return NodeParts(settings.node_name)
    # imported here: a salon without --redis never imports redis-py
    from zanzibar.cluster.node import Node
    from zanzibar.cluster.redis_gate import RedisGate

    gate = RedisGate(settings.redis_url)
    accounts = getattr(salon, "accounts", None)
    if accounts is not None:
        accounts.gate = gate  # sign-in and sign-up rates counted over every node
    node = Node(settings.redis_url, settings.node_name)
    return NodeParts(settings.node_name, node, gate, settings.drain_seconds)


async def _check_db(salon: Any) -> str:
    store = getattr(salon, "store", None)
    if store is None:
        return "n/a"
    try:
        await asyncio.wait_for(store.read(text("SELECT 1")), CHECK_TIMEOUT)
    except TimeoutError:
        return "timeout"
    except Exception as exc:
        log.warning("health: the database does not answer: %s", exc)
        return "unreachable"
    return "ok"


async def _check_redis(parts: NodeParts) -> str:
    if parts.node is None:
        return "off"
    if not await parts.node.ping(CHECK_TIMEOUT):
        return "unreachable"
    if not parts.node.beating:
        return "no heartbeat"
    return "ok"


async def health(request: Request) -> JSONResponse:
    """``GET /api/health``: 200 if this node can serve, else 503 saying which part fails."""
    parts: NodeParts = request.app.state.node
    db, redis = await asyncio.gather(_check_db(request.app.state.salon), _check_redis(parts))
    if parts.draining:
        status = "draining"
    elif db in ("ok", "n/a") and redis in ("ok", "off"):
        status = "ok"
    else:
        status = "failing"
    body = {"status": status, "node": parts.name, "db": db, "redis": redis}
    if parts.node is not None:
        body["boot"] = parts.node.boot
    return JSONResponse(
        body, status_code=200 if status == "ok" else 503, headers={"Cache-Control": "no-store"}
    )
