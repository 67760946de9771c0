"""Property tests over whole games: conservation, one loser, exact replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zanzibar.engine.match import Match, MatchRecord
from zanzibar.games.dice421.rules import RULES

options_strategy = st.fixed_dictionaries(
    {
        "tokens": st.integers(1, 30),
        "dry_charge": st.booleans(),
        "zero_after_charge": st.sampled_from(["out", "stay"]),
        "token_amount": st.sampled_from(["strongest", "own"]),
        "nenette": st.sampled_from(["value4", "penalty2"]),
        "ties": st.sampled_from(["later_wins", "rampo"]),
        "fewer_rolls_win": st.booleans(),
        "first_player": st.sampled_from(["seat_order", "lowest_throw"]),
        "rounds_to_lose": st.integers(1, 3),
        "fiche_order": st.sampled_from(["salon", "fiche_first", "fiches_above"]),
        "max_rolls": st.integers(1, 3),
    }
)


def _play_random(match: Match[Any, Any], rng: random.Random) -> None:
    total = match.options["tokens"]
    while not match.is_over:
        state = match.state
        assert state.pot + sum(state.tokens) == total
        seat = match.to_act
        assert seat is not None
        match.act(seat, rng.choice(list(match.legal_actions())))
    assert match.state.pot + sum(match.state.tokens) == total


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(options=options_strategy, seats=st.integers(2, 7), seed=st.integers(0, 2**31))
def test_random_games_conserve_tokens_end_with_one_loser_and_replay(
    options: dict[str, Any], seats: int, seed: int
) -> None:
    match = Match(RULES, seats, options, seed=seed)
    _play_random(match, random.Random(seed))
    outcome = RULES.outcome(match.state)
    assert len(outcome.losers) == 1
    assert sorted(outcome.winners + outcome.losers) == list(range(seats))
    loser = outcome.losers[0]
    assert match.state.losses[loser] == options["rounds_to_lose"]
    assert all(
        n < options["rounds_to_lose"] for s, n in enumerate(match.state.losses) if s != loser
    )
    assert [e.kind for _, e in match.events].count("game_over") == 1
    record = MatchRecord.from_json(json.loads(json.dumps(match.record().to_json())))
    replayed = Match.from_record(RULES, record)
    assert replayed.state == match.state
    assert replayed.events == match.events


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**31), seats=st.integers(2, 10))
def test_every_step_conserves_tokens_with_chance_steps_too(seed: int, seats: int) -> None:
    """Drive the rules directly so that every chance step is checked as well."""
    rng = random.Random(seed)
    state = RULES.new_state(seats, RULES.options.resolve(rng.choice(["salon", "bar"])))
    total = state.config.tokens
    for _ in range(100_000):
        assert state.pot + sum(state.tokens) == total
        assert all(t >= 0 for t in state.tokens) and state.pot >= 0
        if RULES.is_over(state):
            break
        request = RULES.chance_request(state)
        if request is not None:
            dice = tuple(rng.randint(1, 6) for _ in range(request.count))
            state = RULES.apply_chance(state, dice).state
        else:
            seat = RULES.to_act(state)
            assert seat is not None
            state = RULES.apply(state, seat, rng.choice(list(RULES.legal_actions(state)))).state
    assert RULES.is_over(state)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(options=options_strategy, seats=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_bots_finish_games_under_any_options(
    options: dict[str, Any], seats: int, seed: int
) -> None:
    """The expert's model must cope with every option combination, legally."""
    match = Match(RULES, seats, options, seed=seed)
    levels = ["expert", "simple"]
    bots = {s: RULES.make_bot(levels[s % 2], options, seed=s) for s in range(seats)}
    total = options["tokens"]
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        action = bots[seat].choose(match.state)
        assert action in match.legal_actions()
        match.act(seat, action)
        assert match.state.pot + sum(match.state.tokens) == total
    assert len(RULES.outcome(match.state).losers) == 1
