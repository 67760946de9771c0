"""The vectorised turn DP against a plain recursion over every real selection."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

from zanzibar.games.zilch.scoring import ScoringTable, outcome_probability, roll_outcomes
from zanzibar.games.zilch.turn_dp import build_model, expected_turn, scoring_unit

TOP = 30  # units: 1500 points, small enough for the plain recursion


def brute_force(
    table: ScoringTable, threshold: int, top: int, unit: int = 50
) -> Callable[[int, int], float]:
    """Expected banked score, by recursion over rolls and every scoring selection.

    Same conventions as the DP: a turn total reaching ``top`` units is banked.
    """

    @cache
    def roll_value(t: int, n: int) -> float:
        total = 0.0
        for counts, _ in roll_outcomes(n):
            options = table.options(counts)
            if not options:
                continue  # zilch: worth 0
            best = max(standing(t + value // unit, n - sum(sub)) for sub, value in options)
            total += outcome_probability(counts) * best
        return total

    @cache
    def standing(t: int, left: int) -> float:
        if t >= top:
            return float(top * unit)
        bank = t * unit if t * unit >= threshold else -np.inf
        return max(bank, roll_value(t, left or 6))

    return roll_value


@pytest.mark.parametrize("threshold", [0, 350, 500])
def test_dp_matches_plain_recursion(threshold: int) -> None:
    table = ScoringTable()
    model = build_model(table, 50, False)
    values = expected_turn(model, threshold, top_units=TOP)
    oracle = brute_force(table, threshold, TOP)
    for t in (0, 3, 9, 20, TOP - 1):
        for n in range(1, 7):
            assert values.R[t, n - 1, 0] == pytest.approx(oracle(t, n), abs=1e-9)


def test_dp_matches_plain_recursion_with_farkle_table() -> None:
    table = ScoringTable(kinds="fixed", three_pairs=1500, straight=2500)
    model = build_model(table, 50, False)
    values = expected_turn(model, 0, top_units=TOP)
    oracle = brute_force(table, 0, TOP)
    for n in range(1, 7):
        assert values.R[0, n - 1, 0] == pytest.approx(oracle(0, n), abs=1e-9)


def test_zilch_probabilities_of_the_model() -> None:
    model = build_model(ScoringTable(), 50, False)
    expected = [4 / 6, 16 / 36, 60 / 216, 204 / 1296, 600 / 7776, 1440 / 46656]
    assert [model.zilch_probability(n) for n in range(1, 7)] == pytest.approx(expected)
    for group in model.groups:
        assert group.probs.sum() + group.zilch == pytest.approx(1.0)


def test_banking_is_best_well_below_the_cap() -> None:
    """The default cap (40,000 points) is far past the point where rolling stops paying."""
    model = build_model(ScoringTable(), 50, False)
    values = expected_turn(model, 0)
    t = np.arange(values.R.shape[0] - 1) * 50.0
    for n in range(1, 7):
        stops = t[values.R[:-1, n - 1, 0] < t]
        assert stops.size and stops[0] < 12_000  # six dice: rolling stops paying at 10,700


def test_unit() -> None:
    assert scoring_unit(ScoringTable(), 5000, 500, 350) == 50
