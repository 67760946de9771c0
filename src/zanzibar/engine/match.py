"""A game in progress: rules, state, the table's seeded dice and the action log.

The log holds every player action and every chance outcome, in order, so
``Match.from_record`` rebuilds the identical state (and the identical dice
generator, which it advances as it replays). The salon stores records; the
tools replay them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, NamedTuple, TypeVar

from zanzibar.engine.chance import DiceRng
from zanzibar.engine.errors import CorruptDataError, IllegalActionError, ZanzibarError
from zanzibar.engine.events import Event
from zanzibar.engine.rules import GameRules

S = TypeVar("S")
A = TypeVar("A")

#: Guard against a rules bug looping on chance nodes forever.
_MAX_CHANCE_STEPS = 10_000


class LogEntry(NamedTuple):
    """One step of a game: a seat's action or the dice of a chance node.

    A named tuple rather than a frozen dataclass: one is built for every step
    of every game, and tuples are several times cheaper to build.
    """

    kind: Literal["action", "chance"]
    seat: int | None
    value: Any  # action JSON, or the tuple of dice

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        value = list(self.value) if self.kind == "chance" else self.value
        return {"kind": self.kind, "seat": self.seat, "value": value}

    @classmethod
    def from_json(cls, obj: Any) -> LogEntry:
        """Parse a log entry; CorruptDataError if malformed."""
        try:
            kind = obj["kind"]
            if kind == "chance":
                return cls("chance", None, tuple(int(v) for v in obj["value"]))
            if kind == "action":
                return cls("action", int(obj["seat"]), obj["value"])
        except (KeyError, TypeError, ValueError) as exc:
            raise CorruptDataError(f"bad log entry {obj!r}: {exc}") from None
        raise CorruptDataError(f"bad log entry kind {obj!r}")


@dataclass
class MatchRecord:
    """Everything needed to rebuild a match: the saved form of a game."""

    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    log: list[LogEntry] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form."""
        return {
            "game": self.game,
            "seats": self.seats,
            "options": dict(self.options),
            "seed": self.seed,
            "log": [entry.to_json() for entry in self.log],
        }

    @classmethod
    def from_json(cls, obj: Any) -> MatchRecord:
        """Parse a record; CorruptDataError if malformed."""
        try:
            return cls(
                game=str(obj["game"]),
                seats=int(obj["seats"]),
                options=dict(obj["options"]),
                seed=int(obj["seed"]),
                log=[LogEntry.from_json(e) for e in obj["log"]],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CorruptDataError(f"bad match record: {exc}") from None


class Match(Generic[S, A]):
    """Drive one game: validate actions, throw the dice, keep the log.

    Nothing changes when an action is refused: the error is raised before the
    state, the log or the generator are touched.
    """

    def __init__(
        self,
        rules: GameRules[S, A],
        seats: int,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> None:
        self.rules = rules
        self.options = rules.options.validate(dict(options or rules.options.resolve()))
        low, high = rules.seat_range(self.options)
        if not low <= seats <= high:
            raise ZanzibarError(f"{rules.name} is played by {low} to {high} players, not {seats}")
        self.seats = seats
        self.rng = DiceRng(seed)
        self.log: list[LogEntry] = []
        #: Every event so far, each with the index of the log entry that caused it.
        self.events: list[tuple[int, Event]] = []
        self.state: S = rules.new_state(seats, self.options)
        self._resolve_chance()

    # -- playing ------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat that must act, or None when the game is over."""
        return self.rules.to_act(self.state)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.rules.is_over(self.state)

    def legal_actions(self) -> Sequence[A]:
        """The legal actions of the seat to act."""
        return self.rules.legal_actions(self.state)

    def act(self, seat: int, action: A) -> list[Event]:
        """Apply one action of ``seat`` and any dice it calls for; return the events."""
        start = len(self.events)
        self._act(seat, action)
        return [event for _, event in self.events[start:]]

    def _act(self, seat: int, action: A) -> None:
        transition = self.rules.apply(self.state, seat, action)
        self._commit(LogEntry("action", seat, self.rules.action_to_json(action)), transition)
        self._resolve_chance()

    def act_json(self, seat: int, obj: Any) -> list[Event]:
        """Like :meth:`act` for an action in its JSON form."""
        return self.act(seat, self.rules.action_from_json(obj))

    def _commit(self, entry: LogEntry, transition: Any) -> None:
        index = len(self.log)
        self.log.append(entry)
        self.state = transition.state
        if transition.events:
            self.events.extend([(index, event) for event in transition.events])

    def _resolve_chance(self, scripted: list[LogEntry] | None = None) -> None:
        for _ in range(_MAX_CHANCE_STEPS):
            request = self.rules.chance_request(self.state)
            if request is None:
                return
            dice = self.rng.roll(request)
            if scripted is not None:
                if not scripted or scripted[0].kind != "chance":
                    raise CorruptDataError("the log is missing the dice of a chance node")
                logged = tuple(scripted.pop(0).value)
                try:
                    request.validate(logged)
                except ValueError as exc:
                    raise CorruptDataError(f"bad dice in log: {exc}") from None
                dice = logged
            transition = self.rules.apply_chance(self.state, dice)
            self._commit(LogEntry("chance", None, dice), transition)
        raise ZanzibarError("too many chance steps in a row: rules bug")

    # -- saving and replaying -----------------------------------------------------

    def record(self) -> MatchRecord:
        """The saved form of this match."""
        return MatchRecord(
            self.rules.name, self.seats, dict(self.options), self.rng.seed, list(self.log)
        )

    @classmethod
    def from_record(cls, rules: GameRules[S, A], record: MatchRecord) -> Match[S, A]:
        """Replay a record to the identical state; CorruptDataError if it does not replay."""
        if record.game != rules.name:
            raise CorruptDataError(f"record is for {record.game!r}, not {rules.name!r}")
        # Chance outcomes come from the log; the generator is advanced alongside.
        pending = list(record.log)
        match = cls.__new__(cls)
        match.rules = rules
        match.options = rules.options.validate(record.options)
        match.seats = record.seats
        match.rng = DiceRng(record.seed)
        match.log = []
        match.events = []
        match.state = rules.new_state(record.seats, match.options)
        match._resolve_chance(pending)
        while pending:
            entry = pending.pop(0)
            if entry.kind != "action" or entry.seat is None:
                raise CorruptDataError("unexpected dice in the log: no chance node is waiting")
            try:
                action = rules.action_from_json(entry.value)
                transition = rules.apply(match.state, entry.seat, action)
            except IllegalActionError as exc:
                raise CorruptDataError(
                    f"log entry {len(match.log)} does not replay: {exc.message}"
                ) from None
            except ZanzibarError as exc:
                raise CorruptDataError(
                    f"log entry {len(match.log)} does not replay: {exc.message}"
                ) from None
            match._commit(entry, transition)
            match._resolve_chance(pending)
        return match

    def play_bots(self, bots: Mapping[int, Any], max_steps: int = 1_000_000) -> None:
        """Let bots play every seat they hold until a human must act or the game ends.

        The hot loop of all-bot games, so :meth:`_commit` and :meth:`_resolve_chance`
        are written out here (same log entries, same events, same dice, in the
        same order; the state and the log move together at every step, so an
        error leaves them consistent).
        """
        rules = self.rules
        to_act, apply_action, action_to_json = (
            rules.to_act,
            rules.apply_action,
            rules.action_to_json,
        )
        chance_request, apply_chance, roll = rules.chance_request, rules.apply_chance, self.rng.roll
        log = self.log
        log_append, add_events = log.append, self.events.extend
        entry = tuple.__new__  # LogEntry(...) without its Python-level __new__
        state = self.state
        for _ in range(max_steps):
            seat = to_act(state)
            if seat is None or seat not in bots:
                return
            # ``seat`` is the seat to act, so ``rules.apply``'s turn checks are
            # already done; ``apply_action`` still refuses an illegal bot move.
            action = bots[seat].choose(state)
            transition = apply_action(state, action)
            index = len(log)
            log_append(entry(LogEntry, ("action", seat, action_to_json(action))))
            state = self.state = transition.state
            if transition.events:
                add_events([(index, event) for event in transition.events])
            for _ in range(_MAX_CHANCE_STEPS):
                request = chance_request(state)
                if request is None:
                    break
                dice = roll(request)
                transition = apply_chance(state, dice)
                index = len(log)
                log_append(entry(LogEntry, ("chance", None, dice)))
                state = self.state = transition.state
                if transition.events:
                    add_events([(index, event) for event in transition.events])
            else:
                raise ZanzibarError("too many chance steps in a row: rules bug")
        raise ZanzibarError("bot game did not finish")
