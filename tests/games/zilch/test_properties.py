"""Property tests over random games: scores never fall, points are lost exactly on a zilch,
and a game replays from its record."""

from __future__ import annotations

import itertools
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from zanzibar.engine.match import Match, MatchRecord
from zanzibar.games.zilch.rules import RULES
from zanzibar.games.zilch.scoring import counts_of
from zanzibar.games.zilch.state import ZilchState

PRESETS = [
    "zilch5000",
    "farkle10000",
    "farkle_boxed",
    "farkle_busche",
]  # no penalty: scores only rise


def random_game(seed: int, preset: str, seats: int, chooser: random.Random) -> Match[Any, Any]:
    """A game with random legal choices (banking is tried first half of the time, to end games)."""
    options = RULES.options.resolve(preset, {"target": 2000})
    match: Match[Any, Any] = Match(RULES, seats, options, seed=seed)
    for _ in range(5000):
        if match.is_over:
            break
        seat = match.to_act
        assert seat is not None
        legal = list(match.legal_actions())
        banks = [a for a in legal if a.type == "bank"]
        pool = banks if banks and chooser.random() < 0.5 else legal
        match.act(seat, chooser.choice(pool))
    return match


def replay_states(match: Match[Any, Any]) -> list[ZilchState]:
    """Every state of the game, step by step, rebuilt from the log alone."""
    states = [RULES.new_state(match.seats, match.options)]
    for entry in match.log:
        state = states[-1]
        if entry.kind == "chance":
            states.append(RULES.apply_chance(state, tuple(entry.value)).state)
        else:
            states.append(RULES.apply(state, entry.seat, RULES.action_from_json(entry.value)).state)
    return states


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    preset=st.sampled_from(PRESETS),
    seats=st.integers(2, 4),
    choices=st.randoms(use_true_random=False),
)
def test_random_games(seed: int, preset: str, seats: int, choices: random.Random) -> None:
    match = random_game(seed, preset, seats, choices)
    assert match.is_over
    states = replay_states(match)
    assert states[-1] == match.state

    for before, after, entry in zip(states, states[1:], match.log, strict=False):
        # Scores never decrease.
        assert all(b >= a for a, b in zip(before.scores, after.scores, strict=True))
        if entry.kind != "chance":
            continue
        events = RULES.apply_chance(before, tuple(entry.value)).events
        lost = any(e.kind == "zilch" for e in events)
        assert lost == before.config.table.is_zilch(counts_of(entry.value))
        if lost:
            # Turn points are lost exactly on a zilch: the score stays, the turn total goes.
            assert after.scores == before.scores
            assert after.turn_points == 0
            assert next(e for e in events if e.kind == "zilch").get("lost") == before.turn_points
        else:
            assert after.turn_points == before.turn_points

    # Banked points are exactly the turn's points.
    for before, after in itertools.pairwise(states):
        gained = [b - a for a, b in zip(before.scores, after.scores, strict=True)]
        if any(gained):
            seat = before.current
            assert gained[seat] >= before.turn_points and sum(gained) == gained[seat]

    # The record replays to the same state, through JSON.
    record = MatchRecord.from_json(match.record().to_json())
    replayed = Match.from_record(RULES, record)
    assert replayed.state == match.state
    assert [e for _, e in replayed.events] == [e for _, e in match.events]
    assert RULES.state_from_json(RULES.state_to_json(match.state)) == match.state
