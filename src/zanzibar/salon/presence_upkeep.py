"""Presence and the lobby of one node among several: the wiring, the upkeep, the leave.

The salon's parts read the node's ``Presence`` and ``Lobby`` ports (docs/cluster.md,
"Presence and the lobby over every node"); what ties them to the other nodes lives
here, apart from the salon's façade:

- :class:`NodePresence`: every node hears every user come and go (``Gateway.went``),
  takes private lines, friends-list changes and frames for a few users (the
  tournaments' pairings and standings, :meth:`NodePresence.tell`) for its sockets
  from the other nodes;
- :func:`upkeep`: every few seconds, dead nodes' sockets are reaped (their users go
  offline everywhere: their seats' takeovers start), this node's counts and lobby
  entries are put back if Redis forgot them or a reap took them while it was slow;
- :func:`leave`: a clean stop writes its last lobby changes and takes its sockets off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection, Mapping
from typing import Any

from zanzibar.cluster.wiring import NodePorts
from zanzibar.l10n.catalogue import languages
from zanzibar.salon.fields import log_failure
from zanzibar.salon.friends import LIST_CHANGED, list_changed, tell_nodes
from zanzibar.salon.gateway import PRIVATE_LINE, Gateway
from zanzibar.salon.gateway_host import GatewayHost
from zanzibar.salon.lobby import LobbyFeed

log = logging.getLogger(__name__)

#: Seconds between two rounds of upkeep on a node of several.
UPKEEP_SECONDS = 2.0
#: The node message handing one frame (one version per language) to some users' sockets.
USERS_FRAME = "users.frame"


class NodePresence:
    """This node's side of presence and the lobby among several nodes (see the module)."""

    def __init__(self, salon: GatewayHost, gateway: Gateway) -> None:
        ports, hub, friends = salon.ports, salon.hub, salon.friends
        self.ports = ports
        self.hub = hub
        self.gateway = gateway
        self.lobby = salon.lobby
        self.spawn = salon.spawn
        self.task: asyncio.Task[None] | None = None
        #: Frames told to other nodes leave in the order they were told.
        self._telling = asyncio.Lock()
        ports.presence.watch(gateway.went)  # one path for "a user came or went"
        hub.on(PRIVATE_LINE, gateway.private_line)
        hub.on(LIST_CHANGED, list_changed(friends, gateway.conns_of))
        hub.on(USERS_FRAME, self._frame_here)
        if ports.shared:
            # other nodes sign people up too (even on one SQLite file, in tests)
            salon.accounts.shared = True
            friends.changed = lambda user_id: salon.spawn(tell_nodes(ports, hub, user_id))
            ports.starts.append(self.start)  # with the ports, first thing at the salon's start

    def tell(self, users: Collection[int], build: Callable[[str], dict[str, Any]]) -> None:
        """A frame for ``users`` (built per language) to their sockets on the other nodes.

        Each node holding sockets of some of them gets it once, with every
        language's version (it knows each socket's language, the sender does
        not). A lone node has no other node: nothing is built. Frames told one
        after the other reach a node in that order.
        """
        if not self.ports.shared or not users:
            return
        frames = {lang: build(lang) for lang in languages()}
        self.spawn(self._tell(sorted(set(users)), frames))

    async def _tell(self, users: list[int], frames: dict[str, dict[str, Any]]) -> None:
        async with self._telling:
            nodes: dict[str, list[int]] = {}
            for user_id in users:
                try:
                    where = await self.ports.presence.where(user_id)
                except Exception as exc:
                    log.warning("presence: the nodes of user %s are unknown: %s", user_id, exc)
                    continue
                for node in where:
                    if node != self.hub.node:
                        nodes.setdefault(node, []).append(user_id)
            for node, to in sorted(nodes.items()):
                await self.hub.send(node, USERS_FRAME, {"to": to, "m": frames})

    async def _frame_here(self, _sender: str, body: Mapping[str, Any]) -> None:
        """Another node hands over a frame for users whose sockets are here."""
        to, frames = body.get("to"), body.get("m")
        if not isinstance(to, list) or not isinstance(frames, dict) or not frames:
            log.warning("a malformed %s node message was dropped", USERS_FRAME)
            return
        fallback = frames.get("en") or next(iter(frames.values()))
        for user_id in to:
            if not isinstance(user_id, int):
                continue
            for conn in list(self.gateway.conns_of(user_id)):
                frame = frames.get(conn.lang, fallback)
                if isinstance(frame, dict):
                    conn.put(dict(frame))

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
        if ports.limits is not None and ports.limits.address_sockets is not None:
            with contextlib.suppress(Exception):
                await ports.limits.address_sockets.sync({})
