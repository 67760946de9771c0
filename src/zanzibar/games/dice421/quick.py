"""All-bot games without the action log, for simulations and benchmarks.

:func:`play_quick` plays exactly the game that
``Match(RULES, seats, options, seed).play_bots(bots)`` plays -- the same
``DiceRng`` draws in the same order, the same bot calls on the same states --
but keeps no log and no event list, which is about half the work. Use a
:class:`~zanzibar.engine.match.Match` whenever the game must be saved or replayed;
the tests check that both give the identical final state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zanzibar.engine.chance import DiceRng
from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.rules import Bot
from zanzibar.games.dice421.rules import RULES
from zanzibar.games.dice421.state import Action, State

_MAX_STEPS = 1_000_000


def play_quick(
    seats: int,
    options: Mapping[str, Any],
    bots: Mapping[int, Bot[State, Action]],
    seed: int,
) -> tuple[State, int, int]:
    """Play one all-bot game; return (final state, player actions, dice throws)."""
    rules = RULES
    rng = DiceRng(seed)
    state = rules.new_state(seats, rules.options.validate(dict(options)))
    actions = throws = 0
    chance_request, apply_chance = rules.chance_request, rules.apply_chance
    to_act, apply_action = rules.to_act, rules.apply_action
    for _ in range(_MAX_STEPS):
        request = chance_request(state)
        if request is not None:
            state = apply_chance(state, rng.roll(request)).state
            throws += 1
            continue
        seat = to_act(state)
        if seat is None:
            return state, actions, throws
        state = apply_action(state, bots[seat].choose(state)).state
        actions += 1
    raise ZanzibarError("bot game did not finish")
