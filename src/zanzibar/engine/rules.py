"""The contract every game implements, and the contract of its bots.

Modelled on OpenSpiel's Game/State split: the rules object is stateless and
every function is pure. A state is a plain immutable value; applying an action
returns a new state and the structured events it caused. A state is in one of
three conditions: a seat must act (``to_act``), dice must be thrown
(``chance_request``), or the game is over (``is_over``).
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from zanzibar.engine.chance import DiceRequest
from zanzibar.engine.errors import IllegalActionError, NotYourTurnError
from zanzibar.engine.events import Event
from zanzibar.engine.options import OptionSchema
from zanzibar.l10n.msg import Msg
from zanzibar.l10n.voice import Listener, Voice

S = TypeVar("S")
A = TypeVar("A")

LANGUAGES: tuple[str, ...] = ("en", "fr")

#: Topic words of the French read-outs ("tour", "état", "dés"), mapped to the topics of
#: :meth:`GameRules.describe`, so a topic a French read-out names is understood.
TOPIC_ALIASES: dict[str, str] = {
    "tour": "turn",
    "état": "status",
    "etat": "status",
    "dés": "dice",
    "des": "dice",
}


@dataclass(frozen=True)
class Transition(Generic[S]):
    """A new state and what happened on the way to it."""

    state: S
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, seat by seat."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    draw: bool = False
    summary: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {
            "winners": list(self.winners),
            "losers": list(self.losers),
            "draw": self.draw,
            "summary": dict(self.summary),
        }


S_contra = TypeVar("S_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)


class Bot(Protocol[S_contra, A_co]):
    """A player that picks one legal action for the seat to act."""

    def choose(self, state: S_contra) -> A_co:
        """Return one action from ``rules.legal_actions(state)``."""
        ...


class GameRules(abc.ABC, Generic[S, A]):
    """Everything the salon and the tools know about a game.

    Subclasses fill in the abstract methods; the helpers here (``apply`` with
    its seat and legality checks) are shared.
    """

    #: Stable identifier used in URLs, the protocol and the command line.
    name: str = ""
    #: Title per language.
    title: Mapping[str, str] = {}
    #: The game's options and presets.
    options: OptionSchema

    # -- setting up -----------------------------------------------------------------

    @abc.abstractmethod
    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """The smallest and largest number of seats with these options."""

    @abc.abstractmethod
    def new_state(self, seats: int, options: Mapping[str, Any]) -> S:
        """The state before anything happened, for ``seats`` players."""

    # -- whose move ----------------------------------------------------------------

    @abc.abstractmethod
    def to_act(self, state: S) -> int | None:
        """The seat that must act now, or ``None`` (chance node or game over)."""

    @abc.abstractmethod
    def chance_request(self, state: S) -> DiceRequest | None:
        """The dice the state waits for, or ``None`` if it waits for no dice."""

    @abc.abstractmethod
    def is_over(self, state: S) -> bool:
        """True once the game has ended."""

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome:
        """Winners and losers of a finished game."""

    # -- moving --------------------------------------------------------------------

    @abc.abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action of the seat to act (empty at chance nodes and at the end)."""

    @abc.abstractmethod
    def apply_action(self, state: S, action: A) -> Transition[S]:
        """Apply a legal action of the seat to act. Raise IllegalActionError otherwise."""

    @abc.abstractmethod
    def apply_chance(self, state: S, outcome: tuple[int, ...]) -> Transition[S]:
        """Apply the dice a chance node asked for."""

    def apply(self, state: S, seat: int, action: A) -> Transition[S]:
        """Apply ``action`` for ``seat``, refusing out-of-turn or illegal actions."""
        if self.is_over(state):
            raise IllegalActionError("the game is over")
        to_act = self.to_act(state)
        if to_act is None:
            raise NotYourTurnError("the game is waiting for dice, not for a player")
        if seat != to_act:
            raise NotYourTurnError(f"it is seat {to_act + 1}'s turn, not seat {seat + 1}'s")
        return self.apply_action(state, action)

    # -- serialising ---------------------------------------------------------------

    @abc.abstractmethod
    def action_to_json(self, action: A) -> Any:
        """An action as JSON."""

    @abc.abstractmethod
    def action_from_json(self, obj: Any) -> A:
        """Parse an action; raise IllegalActionError if malformed."""

    @abc.abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]:
        """The whole state as JSON (lossless)."""

    @abc.abstractmethod
    def state_from_json(self, obj: Any) -> S:
        """Inverse of state_to_json; raise CorruptDataError if invalid."""

    def view(self, state: S, viewer: int | None, lang: str) -> dict[str, Any]:
        """What a client shows: by default the state and the viewer's legal actions."""
        legal: list[Any] = []
        if viewer is not None and self.to_act(state) == viewer:
            legal = [self.action_to_json(a) for a in self.legal_actions(state)]
        return {
            "state": self.state_to_json(state),
            "to_act": self.to_act(state),
            "over": self.is_over(state),
            "legal": legal,
        }

    # -- words ---------------------------------------------------------------------

    def message_of(self, event: Event) -> Msg:
        """The catalogue message of an event: its id and arguments, no words.

        Games override this; the seat that acted is passed as a
        :class:`~zanzibar.l10n.Seat` so that one message reads "You ..." to that
        seat's player and "Anna ..." to everybody else. The default names the
        event's kind, so an event a game forgot to word is still heard.
        """
        return Msg("engine-event-unknown", kind=event.kind)

    def render_event(
        self, event: Event, lang: str, viewer: int | None, names: Sequence[str]
    ) -> str:
        """One short sentence for a screen reader, in ``lang``, from ``viewer``'s seat.

        Every client (terminal, web, replay) goes through here, so the same
        event reads the same everywhere. The salon renders each event once
        per player of the table: the event's message is made once (and kept
        a while), so its words are found again for every listener.
        """
        try:
            msg = _message_of(self, event)
        except TypeError:  # rules or an event that cannot be hashed: made each time
            msg = self.message_of(event)
        return Voice(lang).say(msg, Listener(viewer, tuple(names)))

    @abc.abstractmethod
    def describe(
        self, state: S, topic: str, lang: str, viewer: int | None, names: Sequence[str]
    ) -> str:
        """Answer a question about the state: topics "scores", "turn", "status", ..."""

    @abc.abstractmethod
    def help_text(self, lang: str) -> str:
        """The game's keys and commands."""

    @abc.abstractmethod
    def rules_text(self, lang: str, options: Mapping[str, Any]) -> str:
        """The rules in force with these options, with their sources."""

    # -- bots ----------------------------------------------------------------------

    @abc.abstractmethod
    def bot_levels(self) -> Sequence[str]:
        """Names of the bot levels, the default one first."""

    @abc.abstractmethod
    def make_bot(self, level: str, options: Mapping[str, Any], seed: int = 0) -> Bot[S, A]:
        """A bot of the given level for a game played with these options."""


@functools.lru_cache(maxsize=4096)
def _message_of(rules: GameRules[Any, Any], event: Event) -> Msg:
    """``rules.message_of(event)``, remembered: a message depends on its event alone.

    Events are frozen values, so equal events (the same one decoded for each
    listener) share one message, its hash and its list of seats.
    """
    return rules.message_of(event)
