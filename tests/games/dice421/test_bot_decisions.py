"""The expert's decisions, pinned: against the exact solver, the reference plan and the old bot.

Issue 15 made the expert faster (plans built from cached parts, one plan per
go). None of that may change a decision: these tests replay many random
situations and compare.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from zanzibar.engine.match import Match
from zanzibar.games.dice421.bots import ROLL_BY_MASK, ExpertBot, turn_model
from zanzibar.games.dice421.combos import THROW_INDEX
from zanzibar.games.dice421.rules import RULES
from zanzibar.games.dice421.solver import STOP_CODE, TRANSITIONS, chase
from zanzibar.games.dice421.state import State

#: sha256 of the old expert's decisions on :func:`situations` (300 per preset), computed
#: once with main's bot before issue 15 (commit 52f7176).
OLD_DECISIONS = {
    "salon": "e972558366163600",
    "bar": "8150a215358594f3",
}

#: sha256 of whole all-bot games through Match (records, events, final states): 40 expert
#: games and 20 simple ones per (preset, seats), computed once with main before issue 15.
OLD_GAMES = {
    ("salon", 2): ("1c8c4134449ec9d3", "d85f4dda76bd1bbb"),
    ("salon", 4): ("8ca1372d8bc270e5", "10b11deedd78d2e3"),
    ("salon", 7): ("008731964aff27cf", "d37017ddd9b4c385"),
    ("bar", 2): ("18b507a7c510a860", "e2e8ff0ac2d23ccd"),
    ("bar", 4): ("aa4f2c1b57b9ffc7", "0cac7583498d8fb0"),
    ("bar", 7): ("fa2cfa61903ec934", "b981d000af966448"),
}


def situations(preset: str, count: int, seed: int = 15) -> list[State]:
    """States where a player holds dice and may roll again, from seeded random games."""
    rng = random.Random(seed)
    options = RULES.options.resolve(preset)
    found: list[State] = []
    game = 0
    while len(found) < count:
        seats = rng.randint(2, 6)
        bots = {
            s: RULES.make_bot("random", options, seed=rng.randrange(10**6)) for s in range(seats)
        }
        match = Match(RULES, seats, options, seed=rng.randrange(10**9))
        while not match.is_over:
            seat = match.to_act
            state = match.state
            if state.rolls >= 1 and rng.random() < 0.3:
                found.append(state)
            match.act(seat, bots[seat].choose(state))
        game += 1
    return found[:count]


def _mask(action: object) -> int:
    return ROLL_BY_MASK.index(action)  # type: ignore[arg-type]


def _digest(codes: list[int]) -> str:
    return hashlib.sha256(bytes(codes)).hexdigest()[:16]


@pytest.mark.parametrize("preset", ["salon", "bar"])
def test_decisions_are_the_old_bots(preset: str) -> None:
    """Same decisions as the bot before the speed-up, on 300 random situations."""
    bot = RULES.make_bot("expert", RULES.options.resolve(preset))
    codes = [_mask(bot.choose(state)) for state in situations(preset, 300)]
    assert len(set(codes)) > 3  # stops and several kinds of rerolls: a real sample
    assert _digest(codes) == OLD_DECISIONS[preset]


@pytest.mark.parametrize("preset", ["salon", "bar"])
def test_fast_plans_are_the_reference_plans(preset: str) -> None:
    """The cached-parts plan gives plan_go's decision (solver.py) in every situation."""
    bot = RULES.make_bot("expert", RULES.options.resolve(preset))
    assert isinstance(bot, ExpertBot)
    model = bot.model
    for state in situations(preset, 300, seed=16):
        reference = model.go_plan(model.context(state)).decision
        expected = ROLL_BY_MASK[int(reference[state.rolls][THROW_INDEX[state.dice]])]  # type: ignore[index]
        assert bot.choose(state) == expected


def test_last_player_in_the_charge_plays_the_exact_solver() -> None:
    """With nobody after it, the expert's every decision is optimal for the solver's chase."""
    bot = RULES.make_bot("expert", RULES.options.resolve())
    checked = 0
    for state in situations("salon", 600, seed=17):
        if state.phase != "charge" or len(state.done) != len(state.order) - 1 or not state.done:
            continue
        power = turn_model(state.config).power_of
        worst = min((throw for _, throw, _ in state.done), key=lambda t: (power[t],))
        # Later equal throws win (salon): the weakest is the earliest of the weakest.
        plan = chase(worst, state.limit).plan
        t = THROW_INDEX[state.dice]  # type: ignore[index]
        j = state.rolls
        code = _mask(bot.choose(state))
        if code == STOP_CODE:
            # Stopping scores 1 if the throw beats (or equals, later wins) the worst.
            outcome = float(power[state.dice] >= power[worst])  # type: ignore[index]
        else:
            outcome = float(TRANSITIONS[code, t] @ plan.value[j + 1])
        # The expert's choice is worth the solver's optimum from there.
        assert outcome == pytest.approx(float(plan.value[j][t]), abs=1e-12)
        checked += 1
    assert checked >= 30


def _games_digest(preset: str, seats: int, level: str, games: int) -> str:
    digest = hashlib.sha256()
    options = RULES.options.resolve(preset)
    bots = {s: RULES.make_bot(level, options, seed=s) for s in range(seats)}
    for game in range(games):
        match = Match(RULES, seats, options, seed=game)
        match.play_bots(bots)
        digest.update(json.dumps(match.record().to_json(), sort_keys=True).encode())
        events = [[i, e.to_json()] for i, e in match.events]
        digest.update(json.dumps(events, sort_keys=True).encode())
        digest.update(json.dumps(RULES.state_to_json(match.state), sort_keys=True).encode())
    return digest.hexdigest()[:16]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "seats"), list(OLD_GAMES))
def test_whole_games_are_the_old_games(preset: str, seats: int) -> None:
    """Same dice, same actions, same events, same end as before the speed-up."""
    expert, simple = OLD_GAMES[(preset, seats)]
    assert _games_digest(preset, seats, "expert", 40) == expert
    assert _games_digest(preset, seats, "simple", 20) == simple


@pytest.mark.parametrize("preset", ["salon", "bar"])
def test_events_built_on_the_hot_path_are_canonical(preset: str) -> None:
    """Events built without Event's constructor equal the constructor's (sorted data)."""
    from zanzibar.engine.events import Event

    options = RULES.options.resolve(preset)
    bots = {s: RULES.make_bot("expert", options, seed=s) for s in range(3)}
    kinds = set()
    for game in range(5):
        match = Match(RULES, 3, options, seed=game)
        match.play_bots(bots)
        for _, event in match.events:
            assert Event.from_json(event.to_json()) == event
            assert list(event.data) == sorted(event.data)
            kinds.add(event.kind)
    assert {"roll", "stop", "next", "turn_start", "turn_end"} <= kinds
