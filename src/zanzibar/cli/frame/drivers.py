"""Where the human's actions go and where the events come from, one step at a time.

The frame asks a driver for *one* step of the other players at a time
(:meth:`Driver.step`), prints it, and only then asks for the next: so S and T,
pressed between two bot moves, are answered at once from the state that
matches what was printed. A bot's choice runs in a worker thread
(``asyncio.to_thread``) so that the loop keeps reading keys meanwhile; the
match itself is only changed by the loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.engine.rules import Bot, GameRules


class Driver(Protocol):
    """The game as the frame sees it."""

    rules: GameRules[Any, Any]
    names: Sequence[str]
    seat: int

    @property
    def state(self) -> Any:
        """The current game state (as far as this client knows it)."""
        ...

    @property
    def options(self) -> Mapping[str, Any]:
        """The options in force."""
        ...

    def to_act(self) -> int | None:
        """The seat to act, or None."""
        ...

    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    def submit(self, action: Any) -> list[Event]:
        """Send the human's action; its events (raise ZanzibarError if refused)."""
        ...

    async def step(self) -> list[Event]:
        """One step of another player (or of the server); [] if there is none to take."""
        ...

    def pending(self) -> list[Event]:
        """Events that happened and were not shown yet (the game's opening)."""
        ...


class LocalDriver:
    """A local :class:`Match`: bots play their seats, the human plays ``seat``.

    ``max_moves`` stops the bots once the state has that many ``moves`` (chess).
    """

    def __init__(
        self,
        match: Match[Any, Any],
        bots: Mapping[int, Bot[Any, Any]],
        seat: int,
        names: Sequence[str],
        max_moves: int | None = None,
    ) -> None:
        self.match = match
        self.rules: GameRules[Any, Any] = match.rules
        self.bots = dict(bots)
        self.seat = seat
        self.names: Sequence[str] = list(names)
        self.max_moves = max_moves
        self._shown = 0

    @property
    def state(self) -> Any:
        """The match's state."""
        return self.match.state

    @property
    def options(self) -> Mapping[str, Any]:
        """The options in force."""
        return self.match.options

    def to_act(self) -> int | None:
        """The seat to act."""
        return self.match.to_act

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.match.is_over

    def pending(self) -> list[Event]:
        """The events not shown yet."""
        events = [event for _, event in self.match.events[self._shown :]]
        self._shown = len(self.match.events)
        return events

    def submit(self, action: Any) -> list[Event]:
        """Apply the human's action (a refusal changes nothing)."""
        self.match.act(self.seat, action)
        return self.pending()

    def capped(self) -> bool:
        """True once ``max_moves`` moves are played."""
        moves = getattr(self.match.state, "moves", None)
        return self.max_moves is not None and moves is not None and len(moves) >= self.max_moves

    async def step(self) -> list[Event]:
        """One bot's action; [] when it is the human's turn, the game is over or capped."""
        seat = self.match.to_act
        if self.match.is_over or seat is None or seat not in self.bots or self.capped():
            return []
        state = self.match.state
        action = await asyncio.to_thread(self.bots[seat].choose, state)
        if self.match.state is state:  # nothing changed meanwhile (always, offline)
            self.match.act(seat, action)
        return self.pending()


class HotSeatDriver(LocalDriver):
    """Two people at one keyboard: the human seat is whoever must act."""

    @property
    def seat(self) -> int:
        """The seat to act (the first once the game is over)."""
        to_act = self.match.to_act
        return to_act if to_act is not None else 0

    @seat.setter
    def seat(self, value: int) -> None:
        """The seat follows the turn; nothing to store."""


class Clock(Protocol):
    """How the frame waits between two bot steps."""

    async def sleep(self, seconds: float) -> None:
        """Wait (a real clock) or not at all (a manual one)."""
        ...


class RealClock:
    """Wait for real, letting keys be answered meanwhile."""

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        if seconds > 0:
            await asyncio.sleep(seconds)


class ReplayDriver:
    """A saved game played back through the frame, one logged action at a time.

    The listener is a spectator (no seat), so the lines are the ones any
    spectator heard; S, T, I and the arrows answer at the point reached. The
    record is checked whole first (:meth:`Match.from_record`); the state at a
    point is the record's prefix replayed, computed only when asked.
    """

    def __init__(self, rules: GameRules[Any, Any], record: Any, names: Sequence[str]) -> None:
        from zanzibar.engine.match import MatchRecord

        self.rules = rules
        self.record: MatchRecord = record
        self.names: Sequence[str] = list(names)
        self.seat: Any = None  # a spectator
        self.bots: dict[int, Any] = {}
        full = Match.from_record(rules, record)
        self._options = full.options
        actions = [i for i, entry in enumerate(record.log) if entry.kind == "action"]
        #: (end of the log prefix after this step, its events)
        self.steps: list[tuple[int, list[Event]]] = []
        for n, start in enumerate(actions):
            end = actions[n + 1] if n + 1 < len(actions) else len(record.log)
            events = [event for index, event in full.events if start <= index < end]
            self.steps.append((end, events))
        self._opening = [e for index, e in full.events if not actions or index < actions[0]]
        self.position = 0
        self._cache: tuple[int, Any] | None = None

    @property
    def options(self) -> Mapping[str, Any]:
        """The options the game was played with."""
        return self._options

    @property
    def state(self) -> Any:
        """The state at the point reached."""
        end = self.steps[self.position - 1][0] if self.position else self._opening_end()
        if self._cache is None or self._cache[0] != end:
            from dataclasses import replace

            prefix = replace(self.record, log=list(self.record.log[:end]))
            self._cache = (end, Match.from_record(self.rules, prefix).state)
        return self._cache[1]

    def _opening_end(self) -> int:
        for index, entry in enumerate(self.record.log):
            if entry.kind == "action":
                return index
        return len(self.record.log)

    def to_act(self) -> int | None:
        """Who was to act at the point reached."""
        return self.rules.to_act(self.state)

    def is_over(self) -> bool:
        """True once every step has been played back."""
        return self.position >= len(self.steps) and self.rules.is_over(self.state)

    def finished(self) -> bool:
        """True once every step has been played back (an unfinished game stops there)."""
        return self.position >= len(self.steps)

    def pending(self) -> list[Event]:
        """The events before the first action."""
        events, self._opening = self._opening, []
        return events

    def submit(self, action: Any) -> list[Event]:
        """Nobody plays in a replay."""
        from zanzibar.engine.errors import NotYourTurnError

        raise NotYourTurnError("this is a replay")

    async def step(self) -> list[Event]:
        """The events of the next logged action; [] at the end."""
        if self.finished():
            return []
        self.position += 1
        return list(self.steps[self.position - 1][1])
