"""The Match driver: turn checks, chance resolution, logging and exact replay.

A deliberately small game defined here ("race to ten": roll one die per turn,
first to ten wins) exercises the contract without depending on a real game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from zanzibar.engine.chance import DiceRequest
from zanzibar.engine.errors import CorruptDataError, IllegalActionError, NotYourTurnError
from zanzibar.engine.events import Event
from zanzibar.engine.match import LogEntry, Match, MatchRecord
from zanzibar.engine.options import OptionSchema, OptionSpec
from zanzibar.engine.rules import GameRules, Outcome, Transition


@dataclass(frozen=True)
class Race:
    scores: tuple[int, ...]
    turn: int
    waiting_for_die: bool = False


class RaceRules(GameRules[Race, str]):
    name = "race"
    title = {"en": "Race", "fr": "Course"}
    options = OptionSchema(
        (OptionSpec("goal", "int", 10, {"en": "Goal", "fr": "But"}, minimum=1, maximum=100),)
    )

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        return (2, 4)

    def new_state(self, seats: int, options: Mapping[str, Any]) -> Race:
        return Race((0,) * seats, 0)

    def goal(self) -> int:
        return 10

    def to_act(self, state: Race) -> int | None:
        if self.is_over(state) or state.waiting_for_die:
            return None
        return state.turn

    def chance_request(self, state: Race) -> DiceRequest | None:
        return DiceRequest(1) if state.waiting_for_die else None

    def is_over(self, state: Race) -> bool:
        return max(state.scores) >= self.goal()

    def outcome(self, state: Race) -> Outcome:
        best = max(state.scores)
        winners = tuple(i for i, s in enumerate(state.scores) if s == best)
        return Outcome(winners, tuple(i for i in range(len(state.scores)) if i not in winners))

    def legal_actions(self, state: Race) -> Sequence[str]:
        return ["roll"] if self.to_act(state) is not None else []

    def apply_action(self, state: Race, action: str) -> Transition[Race]:
        if action != "roll":
            raise IllegalActionError(f"unknown action {action!r}")
        return Transition(replace(state, waiting_for_die=True))

    def apply_chance(self, state: Race, outcome: tuple[int, ...]) -> Transition[Race]:
        scores = list(state.scores)
        scores[state.turn] += outcome[0]
        new = Race(tuple(scores), (state.turn + 1) % len(scores))
        return Transition(new, (Event("roll", state.turn, {"dice": list(outcome)}),))

    def action_to_json(self, action: str) -> Any:
        return {"type": action}

    def action_from_json(self, obj: Any) -> str:
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise IllegalActionError("malformed action")
        return str(obj["type"])

    def state_to_json(self, state: Race) -> dict[str, Any]:
        return {"scores": list(state.scores), "turn": state.turn, "wait": state.waiting_for_die}

    def state_from_json(self, obj: Any) -> Race:
        return Race(tuple(obj["scores"]), obj["turn"], obj["wait"])

    def render_event(
        self, event: Event, lang: str, viewer: int | None, names: Sequence[str]
    ) -> str:
        return f"{names[event.seat or 0]} rolled {event.get('dice')[0]}"

    def describe(
        self, state: Race, topic: str, lang: str, viewer: int | None, names: Sequence[str]
    ) -> str:
        return str(state.scores)

    def help_text(self, lang: str) -> str:
        return "roll"

    def rules_text(self, lang: str, options: Mapping[str, Any]) -> str:
        return "race to ten"

    def bot_levels(self) -> Sequence[str]:
        return ["only"]

    def make_bot(self, level: str, options: Mapping[str, Any], seed: int = 0) -> Any:
        rules = self

        class Roller:
            def choose(self, state: Race) -> str:
                return rules.legal_actions(state)[0]

        return Roller()


RULES = RaceRules()


def play_out(match: Match[Race, str]) -> None:
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        match.act(seat, "roll")


def test_a_game_is_played_to_the_end_with_logged_dice() -> None:
    match = Match(RULES, 2, seed=3)
    play_out(match)
    assert RULES.outcome(match.state).winners
    kinds = [entry.kind for entry in match.log]
    assert kinds[0::2] == ["action"] * (len(kinds) // 2)
    assert kinds[1::2] == ["chance"] * (len(kinds) // 2)
    assert sum(entry.value[0] for entry in match.log if entry.kind == "chance") == sum(
        match.state.scores
    )


def test_refusals_change_nothing() -> None:
    match = Match(RULES, 3, seed=1)
    match.act(0, "roll")
    before = (match.state, list(match.log), match.rng.getstate())
    with pytest.raises(NotYourTurnError):
        match.act(0, "roll")
    with pytest.raises(IllegalActionError):
        match.act(1, "jump")
    with pytest.raises(IllegalActionError):
        match.act_json(1, ["roll"])
    assert (match.state, match.log, match.rng.getstate()) == before


def test_same_seed_same_game() -> None:
    a, b = Match(RULES, 2, seed=99), Match(RULES, 2, seed=99)
    play_out(a)
    play_out(b)
    assert a.log == b.log and a.state == b.state


@pytest.mark.parametrize("seed", range(5))
def test_replay_rebuilds_state_log_and_generator(seed: int) -> None:
    match = Match(RULES, 3, seed=seed)
    for _ in range(4):
        match.act(match.to_act or 0, "roll")
    record = MatchRecord.from_json(match.record().to_json())
    again = Match.from_record(RULES, record)
    assert again.state == match.state
    assert again.log == match.log
    assert again.events == match.events
    # The generator resumes where it was: the next dice are the same.
    seat = match.to_act or 0
    assert again.act(seat, "roll") == match.act(seat, "roll")


def test_replay_uses_the_logged_dice_not_the_seed() -> None:
    match = Match(RULES, 2, seed=0)
    match.act(0, "roll")
    record = match.record()
    record.log[1] = LogEntry("chance", None, (6,))
    assert Match.from_record(RULES, record).state.scores == (6, 0)


@pytest.mark.parametrize(
    "mangle",
    [
        lambda r: r.update(game="chess"),
        lambda r: r["log"].append({"kind": "chance", "seat": None, "value": [3]}),
        lambda r: r["log"].__setitem__(1, {"kind": "chance", "value": [9]}),
        lambda r: r["log"].__setitem__(0, {"kind": "action", "seat": 1, "value": {"type": "roll"}}),
        lambda r: r["log"].__setitem__(0, {"kind": "wish"}),
        lambda r: r.pop("seed"),
        lambda r: r["log"].pop(1),
    ],
)
def test_corrupt_records_are_refused(mangle: Any) -> None:
    match = Match(RULES, 2, seed=0)
    match.act(0, "roll")
    match.act(1, "roll")
    data = match.record().to_json()
    mangle(data)
    with pytest.raises(CorruptDataError):
        Match.from_record(RULES, MatchRecord.from_json(data))


def test_bots_play_their_seats() -> None:
    match = Match(RULES, 2, seed=4)
    bot = RULES.make_bot("only", match.options)
    match.play_bots({0: bot, 1: bot})
    assert match.is_over


def test_seat_count_is_checked() -> None:
    with pytest.raises(Exception, match="2 to 4 players"):
        Match(RULES, 5)
