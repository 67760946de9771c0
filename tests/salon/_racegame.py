"""A tiny dice race used to test the salon while being independent of the real games.

Each turn a player rolls one die as often as they like; a 1 loses the turn's
points, ``stop`` banks them. The first to ``target`` wins. Rounds end when the
turn comes back to seat 0 (so the salon's pause between rounds can be tested).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from zanzibar.engine.chance import DiceRequest
from zanzibar.engine.errors import CorruptDataError, IllegalActionError
from zanzibar.engine.events import Event
from zanzibar.engine.options import OptionSchema, OptionSpec, Preset
from zanzibar.engine.rules import Bot, GameRules, Outcome, Transition


@dataclass(frozen=True)
class RaceState:
    scores: tuple[int, ...]
    target: int
    turn: int = 0
    total: int = 0
    rolling: bool = False
    winner: int | None = None


class CautiousBot:
    def __init__(self, limit: int) -> None:
        self.limit = limit

    def choose(self, state: RaceState) -> str:
        return "roll" if state.total < self.limit else "stop"


class RaceRules(GameRules[RaceState, str]):
    name = "race"
    title = {"en": "Dice race", "fr": "Course de dés"}
    options = OptionSchema(
        (
            OptionSpec(
                "target",
                "int",
                10,
                {"en": "Points to win", "fr": "Points pour gagner"},
                minimum=1,
                maximum=100,
            ),
            OptionSpec("fast", "bool", False, {"en": "Fast", "fr": "Rapide"}),
        ),
        (
            Preset("standard", {"en": "Standard", "fr": "Standard"}, {}),
            Preset("short", {"en": "Short", "fr": "Courte"}, {"target": 5}),
        ),
    )

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return (2, 4)

    def new_state(self, seats: int, options: Mapping[str, Any]) -> RaceState:
        return RaceState((0,) * seats, int(options["target"]))

    def to_act(self, state: RaceState) -> int | None:
        return None if state.rolling or state.winner is not None else state.turn

    def chance_request(self, state: RaceState) -> DiceRequest | None:
        return DiceRequest(1) if state.rolling else None

    def is_over(self, state: RaceState) -> bool:
        return state.winner is not None

    def outcome(self, state: RaceState) -> Outcome:
        assert state.winner is not None
        others = tuple(s for s in range(len(state.scores)) if s != state.winner)
        return Outcome((state.winner,), others)

    def legal_actions(self, state: RaceState) -> Sequence[str]:
        if self.to_act(state) is None:
            return []
        return ["roll", "stop"] if state.total else ["roll"]

    def _next(self, state: RaceState, events: list[Event]) -> RaceState:
        turn = (state.turn + 1) % len(state.scores)
        if turn == 0:
            events.append(Event("round_end", None, {}))
        return replace(state, turn=turn, total=0, rolling=False)

    def apply_action(self, state: RaceState, action: str) -> Transition[RaceState]:
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"{action!r} is not legal now")
        if action == "roll":
            return Transition(replace(state, rolling=True))
        scores = list(state.scores)
        scores[state.turn] += state.total
        events = [Event("bank", state.turn, {"points": state.total, "score": scores[state.turn]})]
        banked = replace(state, scores=tuple(scores))
        if scores[state.turn] >= state.target:
            events.append(Event("win", state.turn, {}))
            return Transition(replace(banked, winner=state.turn, total=0), tuple(events))
        return Transition(self._next(banked, events), tuple(events))

    def apply_chance(self, state: RaceState, outcome: tuple[int, ...]) -> Transition[RaceState]:
        (die,) = outcome
        events = [Event("roll", state.turn, {"die": die})]
        if die == 1:
            events.append(Event("bust", state.turn, {}))
            return Transition(self._next(state, events), tuple(events))
        return Transition(replace(state, total=state.total + die, rolling=False), tuple(events))

    def action_to_json(self, action: str) -> Any:
        return {"type": action}

    def action_from_json(self, obj: Any) -> str:
        if not isinstance(obj, dict) or obj.get("type") not in ("roll", "stop"):
            raise IllegalActionError(f"not a race action: {obj!r}")
        return str(obj["type"])

    def state_to_json(self, state: RaceState) -> dict[str, Any]:
        return {
            "scores": list(state.scores),
            "target": state.target,
            "turn": state.turn,
            "total": state.total,
            "rolling": state.rolling,
            "winner": state.winner,
        }

    def state_from_json(self, obj: Any) -> RaceState:
        try:
            return RaceState(
                tuple(obj["scores"]),
                obj["target"],
                obj["turn"],
                obj["total"],
                obj["rolling"],
                obj["winner"],
            )
        except (KeyError, TypeError) as exc:
            raise CorruptDataError(str(exc)) from None

    def render_event(
        self, event: Event, lang: str, viewer: int | None, names: Sequence[str]
    ) -> str:
        who = (
            ("you" if lang == "en" else "vous")
            if viewer == event.seat
            else (names[event.seat] if event.seat is not None else "")
        )
        if event.kind == "roll":
            return (
                f"{who} rolled {event.get('die')}"
                if lang == "en"
                else f"{who} a lancé {event.get('die')}"
            )
        if event.kind == "bank":
            return f"{who} banked {event.get('points')}"
        if event.kind == "round_end":
            return "end of round" if lang == "en" else "fin de manche"
        return f"{who} {event.kind}"

    def describe(
        self, state: RaceState, topic: str, lang: str, viewer: int | None, names: Sequence[str]
    ) -> str:
        if topic != "scores":
            raise IllegalActionError(f"unknown topic {topic}")
        return ", ".join(f"{names[i]} {s}" for i, s in enumerate(state.scores))

    def help_text(self, lang: str) -> str:
        return "r roll, s stop"

    def rules_text(self, lang: str, options: Mapping[str, Any]) -> str:
        return "race"

    def bot_levels(self) -> Sequence[str]:
        return ("easy", "hard")

    def make_bot(
        self, level: str, options: Mapping[str, Any], seed: int = 0
    ) -> Bot[RaceState, str]:
        return CautiousBot(3 if level == "easy" else 6)

    def is_round_end(self, event: Event) -> bool:
        return event.kind == "round_end"


RULES = RaceRules()
