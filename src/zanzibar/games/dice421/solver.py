"""Exact probabilities for one player's rolls: dynamic programming over the 56 throws.

A player's go is a finite-horizon decision problem. After ``j`` rolls the player
holds a throw ``t`` and either stops, scoring ``S[j][t]``, or rerolls some dice
(one of seven masks), landing on a new throw with known probabilities. Working
backwards from the roll limit gives the best expected score and the best
decision at every (rolls used, throw): :func:`plan_go`. Running the plan
forwards gives the distribution of the final (rolls, throw): :func:`final_distribution`.

:func:`chase` answers the solver command: the exact probability that a player
allowed ``n`` rolls ends with a throw that beats ``target`` made by an earlier
player (the later throw wins ties under the Salon's rule). Known values
(research notes, checked by enumeration in the tests): chasing 4-2-1 optimally
gives 6/216 = 2.78 % with one roll, 11.54 % with two and 22.81 % with three.

>>> round(chase((4, 2, 1), 1).probability * 216)
6
>>> f"{chase((4, 2, 1), 3).probability:.4f}"
'0.2281'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from zanzibar.games.dice421.combos import (
    ALL_THROWS,
    THROW_INDEX,
    Throw,
    mask_positions,
    reroll_outcomes,
    strength,
)

N_THROWS = len(ALL_THROWS)
Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: The decision code for stopping; 1..7 are reroll masks (bit i: reroll die i).
STOP_CODE = 0


def _transitions() -> Array:
    """``P[m, t, u]``: probability that rerolling mask ``m`` of throw ``t`` gives ``u``."""
    table = np.zeros((8, N_THROWS, N_THROWS))
    for t, throw in enumerate(ALL_THROWS):
        table[0, t, t] = 1.0
        for mask in range(1, 8):
            for new, p in reroll_outcomes(throw, mask):
                table[mask, t, THROW_INDEX[new]] += p
    return table


TRANSITIONS: Array = _transitions()
#: Distribution of a fresh throw of three dice over the 56 throws.
FIRST_ROLL: Array = TRANSITIONS[7, 0].copy()


@dataclass(frozen=True)
class GoPlan:
    """The best play of one go: ``decision[j][t]`` after ``j`` rolls holding throw ``t``.

    ``value[j][t]`` is the expected score from there; ``start`` the expected score
    before the first roll. Row 0 is unused (the first roll always throws all three).
    """

    limit: int
    decision: IntArray  # shape (limit + 1, 56)
    value: Array  # shape (limit + 1, 56)
    start: float


def plan_go(stop_score: Array) -> GoPlan:
    """Backward induction for a go with ``stop_score[j][t]`` (rows 1..limit used).

    Ties between stopping and rerolling go to stopping; ties between masks to the
    smallest mask, so plans are deterministic.
    """
    limit = stop_score.shape[0] - 1
    value = np.zeros((limit + 1, N_THROWS))
    decision = np.zeros((limit + 1, N_THROWS), dtype=np.int64)
    value[limit] = stop_score[limit]
    for j in range(limit - 1, 0, -1):
        cont = TRANSITIONS[1:] @ value[j + 1]  # shape (7, 56)
        best = np.argmax(cont, axis=0)
        best_value = cont[best, np.arange(N_THROWS)]
        stop_better = stop_score[j] >= best_value - 1e-12
        value[j] = np.where(stop_better, stop_score[j], best_value)
        decision[j] = np.where(stop_better, STOP_CODE, best + 1)
    start = float(FIRST_ROLL @ value[1]) if limit >= 1 else 0.0
    return GoPlan(limit, decision, value, start)


def final_distribution(plan: GoPlan) -> Array:
    """``out[j][t]``: probability that the go ends after ``j`` rolls holding ``t``."""
    out = np.zeros((plan.limit + 1, N_THROWS))
    mass = FIRST_ROLL.copy()
    rows = np.arange(N_THROWS)
    for j in range(1, plan.limit + 1):
        if j == plan.limit:
            out[j] = mass
            break
        stopping = plan.decision[j] == STOP_CODE
        out[j] = np.where(stopping, mass, 0.0)
        going = np.where(stopping, 0.0, mass)
        moves = TRANSITIONS[plan.decision[j], rows, :]  # row t: where t's chosen reroll leads
        mass = going @ moves
    return out


@cache
def beats_or_equal(target: Throw, fiche_order: str = "salon") -> Array:
    """1 for every throw at least as strong as ``target`` (a later equal throw wins)."""
    power = strength(fiche_order)
    return np.array([1.0 if power[t] >= power[target] else 0.0 for t in ALL_THROWS])


@cache
def strictly_beats(target: Throw, fiche_order: str = "salon") -> Array:
    """1 for every throw strictly stronger than ``target``."""
    power = strength(fiche_order)
    return np.array([1.0 if power[t] > power[target] else 0.0 for t in ALL_THROWS])


@dataclass(frozen=True)
class ChaseResult:
    """The answer of :func:`chase`."""

    target: Throw
    rolls: int
    probability: float
    plan: GoPlan

    def decision_after_first_roll(self, throw: Throw) -> tuple[int, float]:
        """(decision code, probability of success from there) holding ``throw`` after one roll."""
        t = THROW_INDEX[throw]
        return int(self.plan.decision[1][t]), float(self.plan.value[1][t])


def chase(
    target: Throw, rolls: int, fiche_order: str = "salon", later_wins: bool = True
) -> ChaseResult:
    """Best probability of ending with a throw that beats ``target`` in at most ``rolls`` rolls."""
    if rolls < 1:
        raise ValueError("at least one roll")
    good = (
        beats_or_equal(target, fiche_order) if later_wins else strictly_beats(target, fiche_order)
    )
    scores = np.vstack([np.zeros(N_THROWS), *([good] * rolls)])
    plan = plan_go(scores)
    return ChaseResult(target, rolls, plan.start, plan)


def describe_decision(code: int, throw: Throw) -> tuple[str, list[int]]:
    """("stop", []) or ("reroll", [dice faces rerolled]) for a decision code."""
    if code == STOP_CODE:
        return "stop", []
    return "reroll", [throw[i] for i in mask_positions(code)]
