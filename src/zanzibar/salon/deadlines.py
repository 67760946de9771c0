"""What a table waits for next: a bot's move, the turn clock, the pause's end, a takeover.

Deadlines are data on the table, as wall-clock instants (``time.time()``),
not sleeping tasks: the turn clock's ``clock_deadline``, the pause's
``pause_until`` and each dropped seat's ``dropped_at`` are stored with the
table, so a salon started again (or another process taking the table over)
arms the same instants, and a crash gives nobody a fresh clock. Only a bot's
move is not stored: after a restart a bot to act plays after ``bot_delay``.

The table actor keeps ONE timer, for :func:`next_wake`; when it fires, the
actor asks :func:`due` what to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from zanzibar.salon.tables import Table

Kind = Literal["bot", "clock", "pause", "takeover"]


@dataclass(frozen=True)
class Timing:
    """The salon's delays (see :class:`zanzibar.salon.service.Salon`)."""

    bot_delay: float = 0.5
    round_pause: float = 5.0
    takeover_delay: float = 15.0
    clock_scale: float = 1.0


@dataclass(frozen=True)
class Wake:
    """The next thing a table waits for: when, what, and for whom (a takeover's user)."""

    when: float
    kind: Kind
    user: int | None = None


def refresh(table: Table, timing: Timing, now: float) -> None:
    """Bring the table's deadlines up to date after a change (before it is stored).

    The clock runs for each decision of a person whose turn it is (a new
    deadline when the log grows or the turn passes), and stops when a bot
    plays; a bot's move is due ``bot_delay`` after its turn came; a pause
    between rounds ends ``round_pause`` after it began unless the host holds it.
    """
    match = table.match
    playing = table.state == "playing" and match is not None and not match.is_over
    seat = match.to_act if playing and match is not None else None
    key = (table.game_id, len(match.log), seat) if match is not None and seat is not None else None
    bot = seat is not None and table.bot_level(seat) is not None
    if key is not None and bot:
        if table.bot_key != key:
            table.bot_key, table.bot_due = key, now + timing.bot_delay
    else:
        table.bot_key = table.bot_due = None
    if key is not None and not bot and table.clock:
        if table.clock_key != key or table.clock_deadline is None:
            table.clock_key = key
            table.clock_deadline = now + table.clock * timing.clock_scale
    else:
        table.clock_key = table.clock_deadline = None
    if table.state == "paused" and not table.hold:
        if table.pause_until is None:
            table.pause_until = now + timing.round_pause
    else:
        table.pause_until = None
    if not table.running:
        for holder in table.seats:
            holder.dropped_at = None


def committed(table: Table, before: tuple[object, ...], took: float) -> None:
    """Deadlines set by a change count from its commit: people get the whole delay.

    ``before``: the table's deadlines before the change (a snapshot's); the
    ones the change set are moved on by ``took``, the seconds storing it took
    (a slow commit must not eat a round's pause or a turn's clock). The
    stored instants stay as they were, earlier by that much: after a restart
    the pause ends that much sooner, never later.
    """
    old_clock, _key, old_pause, old_bot, _bot_key = before
    if table.clock_deadline is not None and table.clock_deadline != old_clock:
        table.clock_deadline += took
    if table.pause_until is not None and table.pause_until != old_pause:
        table.pause_until += took
    if table.bot_due is not None and table.bot_due != old_bot:
        table.bot_due += took


def restored(table: Table, now: float, online: set[int] | None = None) -> None:
    """After loading a stored table: its clock's key, and the seats whose players are offline.

    A running game's seated players who are not online (after a restart,
    nobody is) count as dropped from ``now`` unless a drop was stored: the
    stored instant is kept.
    """
    match = table.match
    if table.clock_deadline is not None and match is not None and match.to_act is not None:
        table.clock_key = (table.game_id, len(match.log), match.to_act)
    if table.running:
        for holder in table.seats:
            if holder.user is None or holder.away or holder.dropped_at is not None:
                continue
            if online is None or holder.user not in online:
                holder.dropped_at = now


def next_wake(table: Table, timing: Timing, thinking: bool = False) -> Wake | None:
    """The earliest deadline of the table (None: it waits for nobody but its players)."""
    found = pending(table, timing, thinking)
    return min(found, key=lambda w: w.when) if found else None


def pending(table: Table, timing: Timing, thinking: bool = False) -> list[Wake]:
    """Every deadline the table waits for (a bot already thinking is not waited for)."""
    found: list[Wake] = []
    if table.bot_due is not None and not thinking:
        found.append(Wake(table.bot_due, "bot"))
    if table.clock_deadline is not None:
        found.append(Wake(table.clock_deadline, "clock"))
    if table.pause_until is not None:
        found.append(Wake(table.pause_until, "pause"))
    if table.running:
        for holder in table.seats:
            if holder.user is not None and holder.dropped_at is not None and not holder.away:
                found.append(
                    Wake(holder.dropped_at + timing.takeover_delay, "takeover", holder.user)
                )
    return found
