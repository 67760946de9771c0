"""What Swiss tournaments need of the salon around them, as a few typed callables.

The tournaments (:mod:`zanzibar.salon.tournaments` and the modules under it)
read and write their own rows, open tables and tell entrants; everything else
they reach through :class:`TournamentPorts`, which the salon
(:mod:`zanzibar.salon.service`) fills in. So they never import the salon nor
its gateway, and the imports of the package go one way: the service at the
top, the tournaments below it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from zanzibar.cluster.ports import IdKind, Leases
from zanzibar.engine.rules import GameRules
from zanzibar.salon.actor import TableActor
from zanzibar.salon.changes import Change, Command, TableContext
from zanzibar.salon.connections import Connection
from zanzibar.salon.persistence import Store
from zanzibar.salon.tables import Table


@dataclass(frozen=True)
class TournamentPorts:
    """The salon's parts a tournament uses (each documented where the salon defines it)."""

    store: Store
    #: Who runs what: the tournaments' runner holds a lease too (see ``tournament_runner``).
    leases: Leases
    rules_for: Callable[[str], GameRules[Any, Any]]
    next_id: Callable[[IdKind], Awaitable[int]]
    #: The salon's table context (built after the tournaments, hence a callable).
    context: Callable[[], TableContext]
    #: Run a new table here; its creation stored as its first change.
    open_table: Callable[[Table, Change, Command], Awaitable[None]]
    #: The actor of a table run by this process, if any.
    actor_of: Callable[[int], TableActor | None]
    #: Is this person connected (anywhere)?
    online: Callable[[int], bool]
    #: This person's sockets on this process.
    conns_of: Callable[[int], Iterable[Connection]]
    #: Hand a frame (built per language) to these people's sockets on the other nodes.
    elsewhere: Callable[[Collection[int], Callable[[str], dict[str, Any]]], None]
    #: The sockets following a table run here (those of other nodes too, as proxies).
    followers: Callable[[int], Iterable[Connection]]
    #: A person's display name by id.
    name_of: Callable[[int], str]
    #: Run work beside the caller (the salon's ``settle`` waits for it).
    spawn: Callable[[Awaitable[Any]], None]
    #: Seconds after a seated player's connection drops before a bot plays for them.
    takeover_delay: Callable[[], float]
