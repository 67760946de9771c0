"""The state of a game of Zilch and the players' actions, as plain values.

A state is a frozen dataclass of tuples: comparable, hashable, and lossless in
JSON (:func:`state_to_json` / :func:`state_from_json`).

Phases of a turn:

* ``start``: the player to act starts the turn by rolling six dice
  (``{"type": "roll", "keep": []}``);
* ``rolling``: the game waits for ``dice_left`` dice (a chance node);
* ``choose``: the player sets aside scoring dice of ``roll`` and either rolls
  the others or banks: ``{"type": "roll", "keep": [0, 3]}``,
  ``{"type": "bank", "keep": [0, 3]}`` (indices into ``roll``, from 0);
* ``over``: the game has ended; ``winners`` says who won.

Stages of the game: ``main``; ``final`` once a player has reached the target
(every other player has one last turn: ``queue`` lists who is still to play);
``tiebreak`` while tied leaders each take another turn (``contenders``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from zanzibar.engine.errors import CorruptDataError, IllegalActionError
from zanzibar.games.zilch.options import SCHEMA, scoring_table
from zanzibar.games.zilch.scoring import ScoringTable

PHASES = ("start", "rolling", "choose", "over")
STAGES = ("main", "final", "tiebreak")
ACTION_TYPES = ("roll", "bank")

OptionItems = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class ZilchAction:
    """Set aside the dice at ``keep`` (indices into the roll), then roll or bank.

    >>> ZilchAction("roll", (0, 3)).to_json()
    {'type': 'roll', 'keep': [0, 3]}
    """

    type: str
    keep: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"type": "roll" | "bank", "keep": [indices]}``."""
        return {"type": self.type, "keep": list(self.keep)}

    @classmethod
    def from_json(cls, obj: Any) -> ZilchAction:
        """Parse an action; IllegalActionError if malformed."""
        if not isinstance(obj, Mapping):
            raise IllegalActionError(f"an action is an object like {{'type': 'roll'}}, not {obj!r}")
        kind = obj.get("type")
        if kind not in ACTION_TYPES:
            raise IllegalActionError(f"action type must be 'roll' or 'bank', not {kind!r}")
        keep = obj.get("keep", [])
        if not isinstance(keep, list | tuple) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in keep
        ):
            raise IllegalActionError(f"'keep' must be a list of die positions, not {keep!r}")
        if len(set(keep)) != len(keep):
            raise IllegalActionError("a die cannot be set aside twice")
        extra = set(obj) - {"type", "keep"}
        if extra:
            raise IllegalActionError(f"unknown action fields: {', '.join(sorted(extra))}")
        return cls(kind, tuple(sorted(keep)))


@dataclass(frozen=True, eq=False)
class Config:
    """Resolved options, with the derived scoring table (cached per option set)."""

    options: OptionItems
    table: ScoringTable
    values: Mapping[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.values[name]


@lru_cache(maxsize=64)
def config_of(options: OptionItems) -> Config:
    """The configuration of a set of resolved options."""
    values = dict(options)
    return Config(options, scoring_table(values), values)


def option_items(options: Mapping[str, Any]) -> OptionItems:
    """Resolved options as a sorted tuple (hashable, stored in the state)."""
    return tuple(sorted(SCHEMA.validate(options).items()))


@dataclass(frozen=True)
class ZilchState:
    """Everything about a game of Zilch at one moment."""

    options: OptionItems
    scores: tuple[int, ...]
    entered: tuple[bool, ...]
    streaks: tuple[int, ...]
    turns: tuple[int, ...]
    current: int = 0
    phase: str = "start"
    stage: str = "main"
    turn_points: int = 0
    dice_left: int = 6
    roll: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()  # set aside since the last roll of six dice
    queue: tuple[int, ...] = ()
    contenders: tuple[int, ...] = ()
    trigger: int | None = None
    winners: tuple[int, ...] = ()

    @property
    def config(self) -> Config:
        """The options in force."""
        return config_of(self.options)

    @property
    def seats(self) -> int:
        """Number of players."""
        return len(self.scores)

    def threshold(self, seat: int | None = None) -> int:
        """Smallest turn total ``seat`` (default: the current player) may bank."""
        seat = self.current if seat is None else seat
        values = self.config
        return int(values["minimum"] if self.entered[seat] else values["entry"])

    def with_changes(self, **changes: Any) -> ZilchState:
        """A copy with some fields changed."""
        return replace(self, **changes)


def new_state(seats: int, options: Mapping[str, Any]) -> ZilchState:
    """The state before the first roll."""
    return ZilchState(
        options=option_items(options),
        scores=(0,) * seats,
        entered=(False,) * seats,
        streaks=(0,) * seats,
        turns=(0,) * seats,
    )


def state_to_json(state: ZilchState) -> dict[str, Any]:
    """Lossless JSON form of a state."""
    return {
        "options": dict(state.options),
        "scores": list(state.scores),
        "entered": list(state.entered),
        "streaks": list(state.streaks),
        "turns": list(state.turns),
        "current": state.current,
        "phase": state.phase,
        "stage": state.stage,
        "turn_points": state.turn_points,
        "dice_left": state.dice_left,
        "roll": list(state.roll),
        "kept": list(state.kept),
        "queue": list(state.queue),
        "contenders": list(state.contenders),
        "trigger": state.trigger,
        "winners": list(state.winners),
    }


def _ints(obj: Any, name: str, low: int | None = None, high: int | None = None) -> tuple[int, ...]:
    values = obj[name]
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise CorruptDataError(f"state field '{name}' must be a list of whole numbers")
    for v in values:
        if (low is not None and v < low) or (high is not None and v > high):
            raise CorruptDataError(f"state field '{name}' holds {v}, out of range")
    return tuple(values)


def _int(obj: Any, name: str, low: int, high: int) -> int:
    value = obj[name]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CorruptDataError(f"state field '{name}' must be a whole number in {low}..{high}")
    return value


def state_from_json(obj: Any) -> ZilchState:
    """Inverse of :func:`state_to_json`; CorruptDataError if anything is off."""
    if not isinstance(obj, Mapping):
        raise CorruptDataError("a Zilch state is a JSON object")
    try:
        from zanzibar.engine.errors import OptionError

        try:
            options = option_items(obj["options"])
        except (OptionError, TypeError, AttributeError) as exc:
            raise CorruptDataError(f"bad options in state: {exc}") from None
        scores = _ints(obj, "scores")
        seats = len(scores)
        if not 1 <= seats <= 10:
            raise CorruptDataError("a Zilch state has 1 to 10 players")
        entered = obj["entered"]
        if not isinstance(entered, list) or not all(isinstance(e, bool) for e in entered):
            raise CorruptDataError("state field 'entered' must be a list of true/false")
        state = ZilchState(
            options=options,
            scores=scores,
            entered=tuple(entered),
            streaks=_ints(obj, "streaks", 0, 100),
            turns=_ints(obj, "turns", 0),
            current=_int(obj, "current", 0, seats - 1),
            phase=str(obj["phase"]),
            stage=str(obj["stage"]),
            turn_points=_int(obj, "turn_points", 0, 10**9),
            dice_left=_int(obj, "dice_left", 0, 6),
            roll=_ints(obj, "roll", 1, 6),
            kept=_ints(obj, "kept", 1, 6),
            queue=_ints(obj, "queue", 0, seats - 1),
            contenders=_ints(obj, "contenders", 0, seats - 1),
            trigger=None if obj["trigger"] is None else _int(obj, "trigger", 0, seats - 1),
            winners=_ints(obj, "winners", 0, seats - 1),
        )
    except KeyError as exc:
        raise CorruptDataError(f"a Zilch state lacks the field {exc}") from None
    _check_consistent(state)
    return state


def _check_consistent(state: ZilchState) -> None:
    seats = state.seats
    if not (len(state.entered) == len(state.streaks) == len(state.turns) == seats):
        raise CorruptDataError("per-player fields of the state have different lengths")
    if state.phase not in PHASES:
        raise CorruptDataError(f"unknown phase {state.phase!r}")
    if state.stage not in STAGES:
        raise CorruptDataError(f"unknown stage {state.stage!r}")
    if state.phase == "choose" and not state.roll:
        raise CorruptDataError("a state waiting for a choice has no dice to choose from")
    if state.phase == "rolling" and not 1 <= state.dice_left <= 6:
        raise CorruptDataError("a state waiting for dice must wait for 1 to 6 dice")
    if state.phase == "choose" and len(state.roll) + len(state.kept) != 6:
        raise CorruptDataError("the dice rolled and set aside do not make six")
    if state.phase == "over" and not state.winners:
        raise CorruptDataError("a finished game has no winner")
