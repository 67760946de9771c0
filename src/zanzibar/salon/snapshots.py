"""Undoing a change in memory when storing it failed.

A table is changed in memory first (so the storage ops can be built from the
new state), then stored. If the commit fails, the snapshot taken before the
change puts the table, and its game, back exactly as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zanzibar.engine.match import Match
from zanzibar.salon.seats import Seat
from zanzibar.salon.tables import Table


def _copy_seat(seat: Seat) -> Seat:
    """A copy of a seat (its fields as they are; no ``__init__`` to run)."""
    copy: Seat = object.__new__(Seat)
    copy.__dict__.update(seat.__dict__)
    return copy


@dataclass
class Snapshot:
    """What a change may touch, to undo it if storing fails."""

    preset: str | None
    options: dict[str, Any]
    capacity: int
    seats: list[Seat]
    private: bool
    host: int | None
    state: str
    hold: bool
    clock: int | None
    game_id: int | None
    banned: set[int]
    spectators: set[int]
    match: Match[Any, Any] | None
    clock_seat: int | None
    deadlines: tuple[Any, ...]
    match_state: Any = None
    log_length: int = 0
    events_length: int = 0

    @classmethod
    def of(cls, table: Table) -> Snapshot:
        """Everything of ``table`` a change may touch, as it is now."""
        match = table.match
        snap = cls(
            table.preset,
            dict(table.options),
            table.capacity,
            [_copy_seat(s) for s in table.seats],
            table.private,
            table.host,
            table.state,
            table.hold,
            table.clock,
            table.game_id,
            set(table.banned),
            set(table.spectators),
            match,
            table.clock_seat,
            (
                table.clock_deadline,
                table.clock_key,
                table.pause_until,
                table.bot_due,
                table.bot_key,
            ),
        )
        if match is not None:
            snap.match_state = match.state
            snap.log_length = len(match.log)
            snap.events_length = len(match.events)
            match.rng.mark()  # its state is kept by its first draw, if any
        return snap

    def restore(self, table: Table) -> None:
        """Put ``table`` (and its game's state, log, events and dice) back as they were."""
        table.preset, table.options, table.capacity = self.preset, self.options, self.capacity
        table.seats, table.private, table.host = self.seats, self.private, self.host
        table.state, table.hold, table.clock = self.state, self.hold, self.clock  # type: ignore[assignment]
        table.game_id, table.banned, table.spectators = self.game_id, self.banned, self.spectators
        table.match, table.clock_seat = self.match, self.clock_seat
        (
            table.clock_deadline,
            table.clock_key,
            table.pause_until,
            table.bot_due,
            table.bot_key,
        ) = self.deadlines
        match = self.match
        if match is not None:
            match.state = self.match_state
            del match.log[self.log_length :]
            del match.events[self.events_length :]
            match.rng.rewind()
        table.drop_staged()
