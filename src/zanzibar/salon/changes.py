"""What flows through a table actor: the command in, the change out.

A transition (:mod:`zanzibar.salon.seating`, :mod:`zanzibar.salon.play`) is a
plain function of a :class:`~zanzibar.salon.tables.Table`, a
:class:`TableContext` and a :class:`Command`. It checks everything first
(raising :class:`~zanzibar.salon.errors.SalonError` with nothing changed),
then changes the table in memory, stages history items, and returns a
:class:`Change`: the reply, the storage ops beyond the table row and its
history items, and what the followers must be sent. The actor
(:mod:`zanzibar.salon.actor`) then stores the change, and only once it is
committed publishes it and replies: the walk of one action goes forward.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zanzibar.salon.persistence import Op

if TYPE_CHECKING:
    from zanzibar.salon.accounts import User
    from zanzibar.salon.chat import RateLimiter
    from zanzibar.salon.connections import Connection
    from zanzibar.salon.tables import Table


@dataclass
class Command:
    """One request for a table: who asks, in which language, and the message.

    ``conn`` is the connection to answer and, for joins and watches, the one
    that starts following the table (None for the salon's own commands).
    """

    type: str
    user: User | None = None
    lang: str = "en"
    message: dict[str, Any] = field(default_factory=dict)
    conn: Connection | None = None


@dataclass
class Change:
    """What one transition did, for the actor to store, publish and answer.

    ``reply``: the fields of the ``ok`` answer (None: answer nothing, e.g. a
    timer's change). ``ops``: statements stored with the change, in the same
    transaction as the table row and the staged history items.
    ``table``: the table's seats, host, options or state changed (followers
    get ``table``, the lobby an update). ``views``: the game changed
    (followers get ``game.view`` and ``your_turn``); ``new_turn``: announce
    the turn again even if it stayed with the same seat (a resumed round).
    ``follow``: the asking connection follows the table from this ``seq``.
    ``unfollow``: this user's connections stop following it. ``close``: the
    table is closed once stored. ``undo``: called if storing fails.
    ``finished``: the game that finished and was stored with this change
    (the single place where "a game ended" is known, e.g. for ratings).
    """

    reply: dict[str, Any] | None = None
    ops: list[Op] = field(default_factory=list)
    table: bool = False
    views: bool = False
    new_turn: bool = False
    follow: int | None = None
    unfollow: int | None = None
    close: bool = False
    undo: list[Callable[[], None]] = field(default_factory=list)
    finished: int | None = None


class TableHooks:
    """What the salon's standing (ratings) asks of table transitions; no-ops here.

    :class:`zanzibar.salon.standing.Standing` overrides them: a table built for a
    test without a salon rates nothing and refuses nobody.
    """

    def check_seat(self, table_id: int, guest: bool) -> None:
        """Refuse (``SalonError``) a new seat this person may not take."""

    def kicked(self, game_id: int | None, seat: int) -> None:
        """The host sent the player of ``seat`` away (during game ``game_id``, if any)."""

    def finish_ops_of(self, table: Table, outcome: Any) -> list[Op]:
        """Ops stored with a game's result, read before its seats are reset."""
        return []


@dataclass
class TableContext:
    """What transitions need from the salon around a table (names, presence, ids, settings).

    Transitions never reach the salon itself: everything they read outside
    the table comes through here, which keeps them plain functions.
    """

    name_of: Callable[[int], str]
    connected: Callable[[int], bool]
    new_game_id: Callable[[], int]
    seed: Callable[[], int]
    chat_limit: RateLimiter
    round_pause: float = 5.0
    #: Ratings' checks and finishing order (:class:`TableHooks`).
    standing: TableHooks = field(default_factory=TableHooks)
