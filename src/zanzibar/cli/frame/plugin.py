"""What a game brings to the terminal frame: its keys, its commands, its words.

A game plugin (``zanzibar.cli.games.*``) says which keys it binds and to
which command, which typed commands it understands, how to run them, and
which of its events already tell the player it is their turn. Everything
else (the loop, F1, Ctrl+F1, S, T, I, Q, unknown keys, "your turn", both
languages' command words) is the frame's, the same for every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from zanzibar.engine.events import Event

if TYPE_CHECKING:
    from zanzibar.cli.frame.drivers import Driver


@dataclass(frozen=True)
class Binding:
    """Keys that stand for one command; ``{digit}`` is the key's digit.

    ``label`` is the message id of how the help names the keys (``1 to 6``);
    without it the keys are named one by one.
    """

    keys: tuple[str, ...]
    command: str
    help: str
    label: str | None = None


@dataclass(frozen=True)
class CommandSpec:
    """A typed command: its words are the message ``cli-cmd-{name}`` of every language.

    ``args`` shows what follows the word in the help (``[1 2 3]``).
    """

    name: str
    args: str = ""


@dataclass
class Reply:
    """What a command produced: lines to say, an action to submit, or quitting."""

    say: list[str] = field(default_factory=list)
    action: Any = None
    quit: bool = False


@dataclass
class Ctx:
    """What a plugin sees of the running frame."""

    driver: Driver
    lang: str
    last_events: list[Event] = field(default_factory=list)

    @property
    def seat(self) -> int:
        """The human's seat."""
        return self.driver.seat

    @property
    def names(self) -> Sequence[str]:
        """Display names by seat."""
        return self.driver.names

    @property
    def state(self) -> Any:
        """The game state as this client knows it."""
        return self.driver.state

    @property
    def my_turn(self) -> bool:
        """True when the human must act (never when a bot plays the human's seat: watching)."""
        if self.driver.seat in getattr(self.driver, "bots", {}):
            return False
        return not self.driver.is_over() and self.driver.to_act() == self.driver.seat

    def describe(self, topic: str) -> str:
        """Ask the rules about the state (scores, turn, status, board ...)."""
        return self.driver.rules.describe(self.state, topic, self.lang, self.seat, self.names)


class GamePlugin(Protocol):
    """A game's part of the terminal: keys, commands and a few hooks."""

    #: The game's message prefix and name ("421", "zilch", "chess").
    game: str
    #: Chess: a printable key with no binding starts a typed line (moves are typed).
    line_first: bool

    def keys(self) -> Sequence[Binding]:
        """The game's own keys."""
        ...

    def commands(self) -> Sequence[CommandSpec]:
        """The game's typed commands."""
        ...

    def run(self, name: str, args: list[str], ctx: Ctx) -> Reply | None:
        """Run one of the game's commands; ``None``: not the game's."""
        ...

    def parse_free(self, text: str, ctx: Ctx) -> Reply | None:
        """A typed line that is no command word (a chess move); ``None``: unknown."""
        ...

    def on_events(self, events: Sequence[Event], ctx: Ctx) -> None:
        """Every batch of events (to clear a selection, say)."""
        ...

    def says_turn(self, event: Event, seat: int) -> bool:
        """True if this event already tells ``seat`` it is their turn."""
        ...

    def your_turn(self, ctx: Ctx) -> list[str]:
        """What to say when it becomes the human's turn after others played."""
        ...

    def stopped(self, ctx: Ctx) -> str | None:
        """A reason to stop before the end (chess ``--max-moves``), or None."""
        ...
