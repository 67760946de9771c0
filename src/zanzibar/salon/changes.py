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
from typing import TYPE_CHECKING, Any, Literal

from zanzibar.salon.persistence import Op

if TYPE_CHECKING:
    from zanzibar.engine.rules import Outcome
    from zanzibar.salon.accounts import User
    from zanzibar.salon.chat import RateLimiter
    from zanzibar.salon.connections import Connection
    from zanzibar.salon.tables import Table


@dataclass
class Command:
    """One request for a table: who asks, in which language, and the message.

    ``conn`` is the connection to answer and, for joins and watches, the one
    that starts following the table (None for the salon's own commands).
    ``cmd_id``: the router's id of a command that may be resent (forwarded
    between nodes): its reply is stored with the change, and a repeat of the
    id is answered from it instead of being applied again. ``fresh``: the id
    was just made for this command (its first attempt), so it cannot have
    been applied before and the stored replies are not searched. ``acked``:
    a resend whose first ``ok`` already reached the socket (only the answer
    between nodes was lost): a repeat is then not answered twice.
    """

    type: str
    user: User | None = None
    lang: str = "en"
    message: dict[str, Any] = field(default_factory=dict)
    conn: Connection | None = None
    cmd_id: str | None = None
    fresh: bool = False
    acked: bool = False
    #: Set by the table's actor once the command was applied: the table's version right
    #: then (a later step may follow before the caller resumes), and whether it stored.
    applied_at: int | None = None
    stored: bool = False

    def without_id(self) -> Command:
        """The same command with no id (a first try applied here: nothing to remember).

        ``dataclasses.replace`` did the same through the class's fields, some 1.7 %
        of the salon's Python per player action; this copies the instance's dict.

        >>> cmd = Command("game.action", cmd_id="n1:7", fresh=True)
        >>> bare = cmd.without_id()
        >>> bare.cmd_id, bare.fresh, bare.type, cmd.cmd_id
        (None, True, 'game.action', 'n1:7')
        """
        bare = object.__new__(Command)
        bare.__dict__.update(self.__dict__)
        bare.cmd_id = None
        return bare


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
    ``reply_at``: where the ``ok`` goes among what is sent (docs/protocol.md's
    example): before the items (a chat line), after them (the default: then
    the table and the view follow), or last (a game action: its events and
    view come first).
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
    reply_at: Literal["first", "after_items", "last"] = "after_items"


def no_finish_ops(_table: Table, _outcome: Outcome) -> list[Op]:
    """Nothing more to store when a game ends (the default of :class:`TableContext`)."""
    return []


class TableHooks:
    """What the salon's standing (ratings) asks of seating transitions; no-ops here.

    :class:`zanzibar.salon.standing.Standing` overrides them: a table built for a
    test without a salon rates nothing and refuses nobody.
    """

    def check_seat(self, table_id: int, guest: bool) -> None:
        """Refuse (``SalonError``) a new seat this person may not take."""

    def kicked(self, game_id: int | None, seat: int) -> None:
        """The host sent the player of ``seat`` away (during game ``game_id``, if any)."""


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
    #: Ratings' checks of seats and kicks (:class:`TableHooks`); their finishing
    #: order goes through ``finish_ops``.
    standing: TableHooks = field(default_factory=TableHooks)
    #: More rows stored with a game's end, in its transaction (a tournament's result);
    #: called before the seats of those who left are freed.
    finish_ops: Callable[[Table, Outcome], list[Op]] = no_finish_ops
