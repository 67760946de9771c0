"""A seat at a table: empty, a person, a bot, or a person a bot stands in for.

Before a game starts a seat is simply taken or free. During a game the seats
are fixed: a person who leaves or drops keeps the seat, marked ``away``, and a
bot of the game's default level plays for them until they come back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Seat:
    """One seat; ``user`` for a person, ``bot`` (a level) for a bot."""

    user: int | None = None
    name: str | None = None
    bot: str | None = None
    away: bool = False
    #: The person left on purpose (rather than dropping); they may still come back.
    left: bool = False
    #: When the person's last connection closed mid-game (wall clock; None: online or
    #: not playing): a bot takes the seat over ``takeover_delay`` later. Stored apart
    #: from the seat (``tables.dropped``), as a deadline.
    dropped_at: float | None = None

    @property
    def empty(self) -> bool:
        """Nobody, person or bot, sits here."""
        return self.user is None and self.bot is None

    @property
    def human(self) -> bool:
        """A person holds this seat (present or away)."""
        return self.user is not None

    def clear(self) -> None:
        """Free the seat."""
        self.user, self.name, self.bot = None, None, None
        self.away = self.left = False
        self.dropped_at = None

    def to_json(self) -> dict[str, Any]:
        """The stored form.

        >>> Seat(3, "Anna").to_json()
        {'user': 3, 'name': 'Anna', 'bot': None, 'away': False, 'left': False}
        >>> Seat.from_json(Seat(None, "Bot 1 (easy)", "easy").to_json()).bot
        'easy'
        """
        return {
            "user": self.user,
            "name": self.name,
            "bot": self.bot,
            "away": self.away,
            "left": self.left,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Seat:
        """Inverse of :meth:`to_json`."""
        return cls(
            obj.get("user"),
            obj.get("name"),
            obj.get("bot"),
            bool(obj.get("away")),
            bool(obj.get("left")),
        )
