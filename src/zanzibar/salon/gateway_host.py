"""What the gateway needs of the salon around it: a typed protocol, not the Salon class.

The gateway (:mod:`zanzibar.salon.gateway`) reads sessions, checks rates,
dispatches messages to tables through the router, and tells the lobby, the
mirror and the friends about sockets. It reaches those parts through
:class:`GatewayHost`, which :class:`zanzibar.salon.service.Salon` satisfies
(checked by mypy where the salon builds its gateway), so the gateway never
imports the service and the package's imports go one way: the service at the
top.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from zanzibar.cluster.hub import LinkHub
from zanzibar.cluster.ports import IdKind
from zanzibar.cluster.wiring import NodePorts
from zanzibar.engine.rules import GameRules
from zanzibar.salon.accounts import AccountBook, User
from zanzibar.salon.changes import Change, Command
from zanzibar.salon.chat import RateLimiter
from zanzibar.salon.connections import Connection
from zanzibar.salon.forwarding import Forwarder
from zanzibar.salon.friends import Friends
from zanzibar.salon.limits import Limits, TokenBuckets
from zanzibar.salon.lobby import LobbyFeed
from zanzibar.salon.mailbox import Mailbox
from zanzibar.salon.mirror import Mirror
from zanzibar.salon.persistence import Store
from zanzibar.salon.quotas import TableQuotas
from zanzibar.salon.router import Router
from zanzibar.salon.standing import Standing
from zanzibar.salon.tables import Table


class GatewayHost(Protocol):
    """The salon as its gateway sees it (each member documented on the salon)."""

    limits: Limits
    accounts: AccountBook
    standing: Standing
    router: Router
    lobby: LobbyFeed
    mirror: Mirror
    mailbox: Mailbox
    friends: Friends
    chat_limit: RateLimiter
    message_rate_user: TokenBuckets
    message_rate_address: TokenBuckets
    quotas: TableQuotas
    hello_hooks: list[Callable[[Connection, User], Awaitable[None]]]
    #: Other nodes share the database; commands for their tables go through the forwarder.
    shared: bool
    store: Store
    forwarder: Forwarder
    #: The node's ports (presence, lobby, ...) and its messages to the other nodes.
    ports: NodePorts
    hub: LinkHub

    def online(self, user_id: int) -> bool:
        """Whether the user has a socket on any node (no I/O)."""

    @property
    def rules_for(self) -> Callable[[str], GameRules[Any, Any]]:
        """Where the salon's games come from."""

    async def next_id(self, kind: IdKind) -> int:
        """A new row id, unique over every process."""

    async def open_table(self, table: Table, change: Change, cmd: Command) -> None:
        """Run a new table here; its creation stored as its first change."""

    def spawn(self, work: Awaitable[Any]) -> None:
        """Run ``work`` beside the caller."""

    def _name_of(self, user_id: int) -> str:
        """A person's display name by id (private on the salon, shared with its parts)."""
