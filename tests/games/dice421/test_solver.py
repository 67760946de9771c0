"""The solver against an independent brute-force enumeration with exact fractions."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, product

import numpy as np
import pytest

from zanzibar.games.dice421.combos import ALL_THROWS, strength
from zanzibar.games.dice421.solver import FIRST_ROLL, TRANSITIONS, chase, final_distribution

POWER = strength("salon")


def brute_force(target: tuple[int, int, int], rolls: int, later_wins: bool = True) -> Fraction:
    """Enumerate every ordered outcome and every choice of dice to reroll."""

    def good(dice: tuple[int, ...]) -> bool:
        p = POWER[tuple(sorted(dice, reverse=True))]  # type: ignore[index]
        return p >= POWER[target] if later_wins else p > POWER[target]

    @cache
    def best(dice: tuple[int, ...], left: int) -> Fraction:
        stop = Fraction(int(good(dice)))
        if left == 0:
            return stop
        options = [stop]
        for size in (1, 2, 3):
            for chosen in combinations(range(3), size):
                total = Fraction(0)
                for faces in product(range(1, 7), repeat=size):
                    new = list(dice)
                    for position, face in zip(chosen, faces, strict=True):
                        new[position] = face
                    total += best(tuple(sorted(new, reverse=True)), left - 1)
                options.append(total / 6**size)
        return max(options)

    outcomes = [
        best(tuple(sorted(d, reverse=True)), rolls - 1) for d in product(range(1, 7), repeat=3)
    ]
    return sum(outcomes, Fraction(0)) / 216


def test_chasing_421_known_values() -> None:
    assert chase((4, 2, 1), 1).probability == pytest.approx(6 / 216)
    assert round(chase((4, 2, 1), 1).probability * 100, 2) == 2.78
    assert round(chase((4, 2, 1), 2).probability * 100, 2) == 11.54
    assert round(chase((4, 2, 1), 3).probability * 100, 2) == 22.81
    # Rerolling all three dice every time is far worse: 1 - (35/36)^3 = 8.1 %.
    assert pytest.approx(0.0810, abs=1e-4) == 1 - (35 / 36) ** 3


@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_421_matches_brute_force_exactly(rolls: int) -> None:
    exact = brute_force((4, 2, 1), rolls)
    assert chase((4, 2, 1), rolls).probability == pytest.approx(float(exact), abs=1e-12)
    if rolls == 1:
        assert exact == Fraction(6, 216)


@pytest.mark.parametrize(
    ("target", "later_wins"),
    [
        ((6, 6, 5), True),
        ((2, 2, 1), True),
        ((6, 5, 4), False),
        ((1, 1, 1), True),
        ((6, 1, 1), True),
    ],
)
def test_other_targets_match_brute_force(target: tuple[int, int, int], later_wins: bool) -> None:
    exact = brute_force(target, 2, later_wins)
    assert chase(target, 2, later_wins=later_wins).probability == pytest.approx(float(exact))


def test_beating_a_nenette_is_certain_with_later_wins() -> None:
    assert chase((2, 2, 1), 1).probability == pytest.approx(1.0)
    assert chase((2, 2, 1), 1, later_wins=False).probability == pytest.approx(213 / 216)


def test_transitions_and_forward_distribution() -> None:
    assert FIRST_ROLL.sum() == pytest.approx(1)
    assert np.allclose(TRANSITIONS.sum(axis=2), 1)
    plan = chase((5, 4, 3), 3).plan
    out = final_distribution(plan)
    assert out.sum() == pytest.approx(1)
    # The chance of ending on a good throw is the plan's value.
    good = np.array([1.0 if POWER[t] >= POWER[(5, 4, 3)] else 0.0 for t in ALL_THROWS])
    assert float((out * good).sum()) == pytest.approx(plan.start)


def test_first_decisions() -> None:
    result = chase((4, 2, 1), 3)
    assert result.decision_after_first_roll((4, 2, 1)) == (0, 1.0)
    code, chance = result.decision_after_first_roll((6, 4, 1))
    assert code == 1  # reroll the 6 only (position 0), keeping 4 and 1
    assert chance == pytest.approx(1 - (5 / 6) ** 2)
