"""The state of a 421 game and the two actions, as plain immutable values.

A state is one frozen dataclass of ints, strings and tuples (its options ride
along as a :class:`~zanzibar.games.dice421.options.Config`), so it compares,
hashes and copies for free and serialises to JSON losslessly.

Actions, and their JSON forms (the wire protocol uses these):

* :class:`Roll` -- roll the dice at the given positions (0, 1, 2, counted on the
  throw as announced, highest die first). ``{"type": "roll", "dice": [0, 2]}``;
  ``{"type": "roll"}`` or ``"dice": "all"`` rolls all three (the first roll of a
  player always rolls all three).
* :class:`Stop` -- keep the current throw and end one's rolls: ``{"type": "stop"}``.

>>> action_from_json({"type": "roll", "dice": [2, 0]})
Roll(reroll=frozenset({0, 2}))
>>> action_to_json(Stop())
{'type': 'stop'}
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from zanzibar.engine.errors import CorruptDataError, IllegalActionError, OptionError
from zanzibar.games.dice421.combos import Throw
from zanzibar.games.dice421.options import Config

ALL_DICE: frozenset[int] = frozenset({0, 1, 2})

PHASES: tuple[str, ...] = ("draw", "charge", "decharge", "over")
PLAYOFFS: tuple[str, ...] = ("", "draw", "worst", "best")


@dataclass(frozen=True)
class Roll:
    """Roll the dice at these positions (0-based, on the throw highest die first)."""

    reroll: frozenset[int] = ALL_DICE


@dataclass(frozen=True)
class Stop:
    """Keep the current throw."""


Action = Roll | Stop

ROLL_ALL = Roll(ALL_DICE)
STOP = Stop()


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON form of an action."""
    if isinstance(action, Stop):
        return {"type": "stop"}
    return {"type": "roll", "dice": sorted(action.reroll)}


def action_from_json(obj: Any) -> Action:
    """Parse an action; :class:`IllegalActionError` if it is malformed."""
    if not isinstance(obj, dict):
        raise IllegalActionError(f"an action is a JSON object, not {obj!r}")
    kind = obj.get("type")
    if kind == "stop":
        return STOP
    if kind != "roll":
        raise IllegalActionError(f"unknown action type {kind!r} (expected 'roll' or 'stop')")
    dice = obj.get("dice", "all")
    if dice == "all":
        return ROLL_ALL
    if not isinstance(dice, list) or not dice:
        raise IllegalActionError("'dice' must be a non-empty list of die positions 0, 1, 2")
    positions: set[int] = set()
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 0 <= die <= 2:
            raise IllegalActionError(f"die position {die!r} is not 0, 1 or 2")
        if die in positions:
            raise IllegalActionError(f"die position {die} is named twice")
        positions.add(die)
    return Roll(frozenset(positions))


@dataclass(frozen=True)
class State:
    """Everything about a 421 game at one moment (the JSON form has the same keys).

    * ``config``: the options in force (every option by name);
    * ``seats``: number of players; ``phase``: ``draw`` (who starts), ``charge``,
      ``decharge`` or ``over``; ``pot``: tokens left in the pot;
    * ``tokens``, ``losses``: tokens held and rounds lost, by seat; ``round``: the
      round being played (from 1); ``turns``: turns finished in the whole game;
    * ``order``: this turn's players in order of play; ``done``: their finished
      throws as ``(seat, throw, rolls)``; ``limit``: the roll limit of the player
      rolling now; ``dice``/``rolls``: that player's throw (highest die first, empty
      before the first roll) and rolls used; ``pending``: die positions waiting
      for the dice (a chance node);
    * ``playoff``: ``""``, or ``"draw"`` (who starts), ``"worst"``/``"best"`` (a
      rampo for the loser or the giver); ``contenders``: who rolls once each, in
      order; ``playoff_throws``: their throws so far; ``turn_loser``: the turn's
      loser while a rampo for the giver runs;
    * ``loser``: the game's loser once over; ``active``: seats still in the
      décharge (out seats have won).
    """

    config: Config
    seats: int
    phase: str
    pot: int
    tokens: tuple[int, ...]
    losses: tuple[int, ...]
    round: int = 1
    turns: int = 0
    order: tuple[int, ...] = ()
    done: tuple[tuple[int, Throw, int], ...] = ()
    limit: int = 3
    dice: tuple[int, ...] = ()
    rolls: int = 0
    pending: tuple[int, ...] = ()
    playoff: str = ""
    contenders: tuple[int, ...] = ()
    playoff_throws: tuple[Throw, ...] = ()
    turn_loser: int | None = None
    loser: int | None = None
    #: Seats still in the décharge (the charge has everybody): out seats have won.
    active: tuple[int, ...] = ()

    @property
    def current(self) -> int | None:
        """The seat rolling now in the turn, if any."""
        if self.playoff or self.phase == "over" or self.phase == "draw":
            return None
        index = len(self.done)
        return self.order[index] if index < len(self.order) else None

    @property
    def in_play(self) -> tuple[int, ...]:
        """Seats still in the round (everybody during the charge)."""
        if self.phase == "decharge":
            return self.active
        return tuple(range(self.seats))


def evolve(state: State, **changes: Any) -> State:
    """A copy of ``state`` with some fields changed (a fast ``dataclasses.replace``).

    The rules build hundreds of states per game; this skips ``__init__`` since
    every field is already valid. It does not check the names it is given (that
    check cost 6 % of a simulated game): the rules' tests compare whole states.

    >>> from zanzibar.games.dice421.options import Config
    >>> s = State(Config(), 2, "charge", 21, (0, 0), (0, 0))
    >>> evolve(s, pot=20).pot, s.pot
    (20, 21)
    """
    fields = state.__dict__.copy()
    fields.update(changes)
    new = _new(State)
    _set(new, "__dict__", fields)  # one dict, handed over whole
    return new


_new = object.__new__
_set = object.__setattr__


def state_to_json(state: State) -> dict[str, Any]:
    """The whole state as JSON (lists for tuples)."""
    return {
        "config": state.config.to_options(),
        "seats": state.seats,
        "phase": state.phase,
        "pot": state.pot,
        "tokens": list(state.tokens),
        "losses": list(state.losses),
        "round": state.round,
        "turns": state.turns,
        "order": list(state.order),
        "done": [[seat, list(throw), rolls] for seat, throw, rolls in state.done],
        "limit": state.limit,
        "dice": list(state.dice),
        "rolls": state.rolls,
        "pending": list(state.pending),
        "playoff": state.playoff,
        "contenders": list(state.contenders),
        "playoff_throws": [list(t) for t in state.playoff_throws],
        "turn_loser": state.turn_loser,
        "loser": state.loser,
        "active": list(state.active),
    }


def _int(value: Any, what: str, low: int = 0, high: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CorruptDataError(f"{what}: {value!r} is not a whole number from {low} to {high}")
    return value


def _seat(value: Any, seats: int, what: str) -> int:
    return _int(value, what, 0, seats - 1)


def _optional_seat(value: Any, seats: int, what: str) -> int | None:
    return None if value is None else _seat(value, seats, what)


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise CorruptDataError(f"{what}: expected a list, got {value!r}")
    return value


def _throw(value: Any, what: str) -> Throw:
    faces = [_int(face, what, 1, 6) for face in _list(value, what)]
    if len(faces) != 3 or faces != sorted(faces, reverse=True):
        raise CorruptDataError(f"{what}: {value!r} is not three dice, highest first")
    return (faces[0], faces[1], faces[2])


def state_from_json(obj: Any) -> State:
    """Rebuild a state; :class:`CorruptDataError` if anything is off."""
    if not isinstance(obj, dict):
        raise CorruptDataError("a 421 state is a JSON object")
    expected = {f.name for f in fields(State)}
    if set(obj) != expected:
        raise CorruptDataError(f"a 421 state has the keys {sorted(expected)}")
    raw_config = obj["config"]
    if not isinstance(raw_config, dict) or set(raw_config) != set(Config().to_options()):
        raise CorruptDataError("the state's options must name every 421 option")
    try:
        config = Config.from_options(raw_config)
    except (OptionError, TypeError, ValueError) as exc:
        raise CorruptDataError(f"bad options in state: {exc}") from None
    seats = _int(obj["seats"], "seats", 2, 10)
    phase = obj["phase"]
    if phase not in PHASES:
        raise CorruptDataError(f"unknown phase {phase!r}")
    playoff = obj["playoff"]
    if playoff not in PLAYOFFS:
        raise CorruptDataError(f"unknown play-off {playoff!r}")
    tokens = tuple(_int(t, "tokens", 0, config.tokens) for t in _list(obj["tokens"], "tokens"))
    losses = tuple(_int(n, "losses", 0, 9) for n in _list(obj["losses"], "losses"))
    if len(tokens) != seats or len(losses) != seats:
        raise CorruptDataError("tokens and losses need one entry per seat")
    pot = _int(obj["pot"], "pot", 0, config.tokens)
    if pot + sum(tokens) != config.tokens:
        raise CorruptDataError("tokens are not conserved: pot and holdings do not add up")
    done = []
    for item in _list(obj["done"], "done"):
        entry = _list(item, "done entry")
        if len(entry) != 3:
            raise CorruptDataError(f"done entry {item!r} is not [seat, throw, rolls]")
        done.append(
            (
                _seat(entry[0], seats, "done seat"),
                _throw(entry[1], "done throw"),
                _int(entry[2], "done rolls", 1, 3),
            )
        )
    dice = tuple(_int(d, "dice", 1, 6) for d in _list(obj["dice"], "dice"))
    if len(dice) not in {0, 3} or list(dice) != sorted(dice, reverse=True):
        raise CorruptDataError(f"dice {dice!r} are not three dice, highest first, or none")
    pending = tuple(_int(p, "pending", 0, 2) for p in _list(obj["pending"], "pending"))
    order = tuple(_seat(s, seats, "order") for s in _list(obj["order"], "order"))
    contenders = tuple(
        _seat(s, seats, "contenders") for s in _list(obj["contenders"], "contenders")
    )
    state = State(
        config=config,
        seats=seats,
        phase=phase,
        pot=pot,
        tokens=tokens,
        losses=losses,
        round=_int(obj["round"], "round", 1),
        turns=_int(obj["turns"], "turns"),
        order=order,
        done=tuple(done),
        limit=_int(obj["limit"], "limit", 1, 3),
        dice=dice,
        rolls=_int(obj["rolls"], "rolls", 0, 3),
        pending=pending,
        playoff=playoff,
        contenders=contenders,
        playoff_throws=tuple(
            _throw(t, "playoff throw") for t in _list(obj["playoff_throws"], "playoff_throws")
        ),
        turn_loser=_optional_seat(obj["turn_loser"], seats, "turn_loser"),
        loser=_optional_seat(obj["loser"], seats, "loser"),
        active=tuple(_seat(s, seats, "active") for s in _list(obj["active"], "active")),
    )
    _check_consistency(state)
    return state


def _check_consistency(state: State) -> None:
    """Invariants a state from storage must satisfy (beyond types)."""
    if list(state.active) != sorted(set(state.active)):
        raise CorruptDataError("the seats still in play are not in order")
    if state.phase == "decharge" and len(state.active) < 2:
        raise CorruptDataError("a décharge needs two players still in")
    if len(set(state.order)) != len(state.order) or len(state.done) > len(state.order):
        raise CorruptDataError("the order of play is inconsistent")
    if any(seat != state.order[i] for i, (seat, _, _) in enumerate(state.done)):
        raise CorruptDataError("finished throws do not follow the order of play")
    if (state.rolls == 0) != (not state.dice) or state.rolls > state.limit:
        raise CorruptDataError("rolls and dice disagree")
    if state.pending and (state.playoff or state.current is None):
        raise CorruptDataError("dice are pending but nobody is rolling")
    if len(state.playoff_throws) > len(state.contenders):
        raise CorruptDataError("more play-off throws than contenders")
    if state.playoff and len(state.contenders) < 1:
        raise CorruptDataError("a play-off without contenders")
    if (state.phase == "over") != (state.loser is not None):
        raise CorruptDataError("only a finished game has a loser")
    if any(n >= state.config.rounds_to_lose for n in state.losses) != (state.phase == "over"):
        raise CorruptDataError("rounds lost and the end of the game disagree")
