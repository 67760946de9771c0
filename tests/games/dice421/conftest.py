"""Helpers to drive 421 states with chosen dice (no generator involved)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from zanzibar.engine.events import Event
from zanzibar.games.dice421.rules import RULES
from zanzibar.games.dice421.state import ROLL_ALL, STOP, Roll, State


class Table:
    """A 421 state advanced by hand: every die is chosen by the test."""

    def __init__(self, seats: int = 2, preset: str = "salon", **overrides: Any) -> None:
        options = RULES.options.resolve(preset, overrides)
        self.state: State = RULES.new_state(seats, options)
        self.events: list[Event] = []

    def dice(self, *faces: int) -> None:
        """Answer the pending chance node with these dice."""
        transition = RULES.apply_chance(self.state, tuple(faces))
        self.state = transition.state
        self.events.extend(transition.events)

    def act(self, action: Any) -> None:
        seat = RULES.to_act(self.state)
        assert seat is not None, "nobody is to act"
        transition = RULES.apply(self.state, seat, action)
        self.state = transition.state
        self.events.extend(transition.events)

    def play(
        self, first: Sequence[int], *rerolls: tuple[Sequence[int], Sequence[int]], stop: bool = True
    ) -> None:
        """One player's go: the first roll, then (positions, new faces) rerolls, then stop.

        Stop is only sent while the player is still to act (the limit ends a go by itself).
        """
        seat = RULES.to_act(self.state)
        self.act(ROLL_ALL)
        self.dice(*first)
        for positions, faces in rerolls:
            self.act(Roll(frozenset(positions)))
            self.dice(*faces)
        if stop and RULES.to_act(self.state) == seat and self.state.rolls > 0:
            self.act(STOP)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def last(self, kind: str) -> Event:
        return [e for e in self.events if e.kind == kind][-1]


@pytest.fixture
def table() -> type[Table]:
    return Table
