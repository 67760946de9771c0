"""Renewing a node's leases while it lives.

A lease (:class:`zanzibar.cluster.ports.Leases`) lasts a limited time unless
renewed, and the port renews every lease of the node in one call. So one task
per node renews them all, a few times per lease lifetime. A lost lease is no
longer in ``Leases.held()``, which is how the tournaments' runner notices it
stopped being the runner; a table's actor is fenced by the database whatever
happens, and a loss is logged here.

Started only for a salon given shared leases: the in-process leases of a single
salon never lapse, so a single process runs no such task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from zanzibar.cluster.ports import Leases

log = logging.getLogger(__name__)

#: Seconds between renewals when the leases do not say how long they last.
DEFAULT_EVERY = 1.0


def renewal_period(leases: Leases) -> float:
    """A third of the leases' lifetime (``ttl_ms``, if the implementation has one).

    >>> class Quick:
    ...     ttl_ms = 300
    >>> renewal_period(Quick()), renewal_period(object())
    (0.1, 1.0)
    """
    ttl_ms = getattr(leases, "ttl_ms", None)
    if isinstance(ttl_ms, int | float) and ttl_ms > 0:
        return float(ttl_ms) / 3000
    return DEFAULT_EVERY


class LeaseKeeper:
    """Renews every lease the node holds every ``every`` seconds."""

    def __init__(self, leases: Leases, every: float | None = None) -> None:
        self.leases = leases
        self.every = renewal_period(leases) if every is None else every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Renew from now on."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="lease-keeper")

    async def stop(self) -> None:
        """Stop renewing (the leases then lapse unless released)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def renew(self) -> set[int]:
        """Renew once; the ids of the leases lost."""
        lost = await self.leases.renew()
        if lost:
            log.warning("leases lost by node %s: %s", self.leases.node, sorted(lost))
        return lost

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing the leases of node %s failed", self.leases.node)
