"""Presence and the lobby of one node among several: the wiring, the upkeep, the leave.

The salon's parts read the node's ``Presence`` and ``Lobby`` ports (docs/cluster.md,
"Presence and the lobby over every node"); what ties them to the other nodes lives
here, apart from the salon's façade:

- :class:`NodePresence`: every node hears every user come and go (``Gateway.went``),
  takes private lines and friends-list changes for its sockets from the other nodes;
- :func:`upkeep`: every few seconds, dead nodes' sockets are reaped (their users go
  offline everywhere: their seats' takeovers start), this node's counts and lobby
  entries are put back if Redis forgot them or a reap took them while it was slow;
- :func:`leave`: a clean stop writes its last lobby changes and takes its sockets off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from zanzibar.cluster.wiring import NodePorts
from zanzibar.salon.fields import log_failure
from zanzibar.salon.friends import LIST_CHANGED, list_changed, tell_nodes
from zanzibar.salon.gateway import PRIVATE_LINE, Gateway
from zanzibar.salon.gateway_host import GatewayHost
from zanzibar.salon.lobby import LobbyFeed

log = logging.getLogger(__name__)

#: Seconds between two rounds of upkeep on a node of several.
UPKEEP_SECONDS = 2.0


class NodePresence:
    """This node's side of presence and the lobby among several nodes (see the module)."""

    def __init__(self, salon: GatewayHost, gateway: Gateway) -> None:
        ports, hub, friends = salon.ports, salon.hub, salon.friends
        self.ports = ports
        self.gateway = gateway
        self.lobby = salon.lobby
        self.task: asyncio.Task[None] | None = None
        ports.presence.watch(gateway.went)  # one path for "a user came or went"
        hub.on(PRIVATE_LINE, gateway.private_line)
        hub.on(LIST_CHANGED, list_changed(friends, gateway.conns_of))
        if ports.shared:
            # other nodes sign people up too (even on one SQLite file, in tests)
            salon.accounts.shared = True
            friends.changed = lambda user_id: salon.spawn(tell_nodes(ports, hub, user_id))
            ports.starts.append(self.start)  # with the ports, first thing at the salon's start

    async def start(self) -> None:
        """Start the upkeep (a node of several only)."""
        self.task = asyncio.ensure_future(upkeep(self.ports, self.gateway, self.lobby))
        self.task.add_done_callback(log_failure)

    async def leave(self) -> None:
        """A clean stop (after the actors stopped): see :func:`leave`."""
        self._cancel()
        await leave(self.ports, self.lobby)

    def abandon(self) -> None:
        """A crash (tests): nothing more is written."""
        self._cancel()
        if self.lobby.writer is not None:
            self.lobby.writer.cancel()

    def _cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


async def upkeep(
    ports: NodePorts, gateway: Gateway, lobby: LobbyFeed, period: float = UPKEEP_SECONDS
) -> None:
    """Reap dead nodes' sockets and heal this node's counts and lobby entries, forever."""
    while True:
        await asyncio.sleep(period)
        try:
            dead = await ports.presence.reap()
            if dead:
                log.warning("nodes %s stopped beating: their sockets are off", dead)
            await gateway.sync_presence()
            lobby.reconcile()
        except Exception as exc:
            log.warning("presence and lobby upkeep failed (retrying): %s", exc)


async def leave(ports: NodePorts, lobby: LobbyFeed) -> None:
    """A clean stop: the last tables closed leave the list; this node's sockets are off."""
    if lobby.writer is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(lobby.writer), 2.0)
    if ports.shared:  # its sockets are closed: nobody is online here any more
        with contextlib.suppress(Exception):
            await ports.presence.sync({})
