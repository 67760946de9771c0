"""One node-to-node link, many kinds of message.

The :class:`~zanzibar.cluster.ports.Link` hands every message for this node
to one handler. The salon's parts each need their own (commands forwarded
to a table's owner, their replies, frames for sockets held here, private
lines for a user connected here), so each registers the kinds it handles
here, and a message says its kind in ``k``. A message of a kind nobody
registered (a newer node during a rolling upgrade, say) is logged and
dropped: nodes trust each other's content, not each other's version.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from zanzibar.cluster.ports import Link

log = logging.getLogger(__name__)

#: Handles one kind of message: ``await handler(sender_node, message)``.
KindHandler = Callable[[str, Mapping[str, Any]], Awaitable[None]]


class LinkHub:
    """Dispatches the link's messages by their ``k`` field."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self._handlers: dict[str, KindHandler] = {}
        link.serve(self._dispatch)

    @property
    def node(self) -> str:
        """This node's name."""
        return self.link.node

    def on(self, kind: str, handler: KindHandler) -> None:
        """Hand messages of ``kind`` to ``handler`` (one handler per kind)."""
        if kind in self._handlers:
            raise ValueError(f"a handler for {kind!r} node messages is already registered")
        self._handlers[kind] = handler

    async def send(self, node: str, kind: str, body: Mapping[str, Any]) -> bool:
        """Send ``body`` as a message of ``kind`` to ``node``; False if it was not listening."""
        return await self.link.send(node, {**body, "k": kind})

    async def _dispatch(self, sender: str, message: Mapping[str, Any]) -> None:
        kind = message.get("k")
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            log.warning("a node message of unknown kind %r from %s was dropped", kind, sender)
            return
        try:
            await handler(sender, message)
        except Exception:
            log.exception("handling a %r node message from %s failed", kind, sender)
