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


@pytest.mark.parametrize("compulsory", [False, True])
@pytest.mark.parametrize("every_option", [False, True])
@pytest.mark.parametrize("batch", [1, 5, 64, 300])
def test_turn_start_is_solve_turn_to_rounding(
    compulsory: bool, every_option: bool, batch: int
) -> None:
    """The solver's fast path gives the start values of the reference DP (to 1e-14)."""
    from zanzibar.games.zilch.options import SCHEMA, scoring_table
    from zanzibar.games.zilch.turn_dp import FORBIDDEN, solve_turn, turn_start

    table = scoring_table(SCHEMA.resolve())
    model = build_model(table, scoring_unit(table), compulsory, every_option=every_option)
    rng = np.random.default_rng(batch)
    top = 90
    bank = rng.random((top + 1, batch))
    bank[: rng.integers(1, 10)] = FORBIDDEN  # a bank threshold
    zilch = rng.random(batch)
    expected = solve_turn(model, bank, zilch).start
    got = turn_start(model, bank, zilch)
    assert got.shape == (batch,)
    assert np.abs(got - expected).max() < 1e-14
    # Not a copy of the inputs: the values are those of a real decision problem.
    assert ((got >= zilch * model.zilch_probability(6) - 1e-12) & (got <= 1.0)).all()


def test_padded_groups_keep_every_option_once_per_group() -> None:
    """Padding repeats a group's own options only, and the weights are its probabilities."""
    from zanzibar.games.zilch.options import SCHEMA, scoring_table

    table = scoring_table(SCHEMA.resolve())
    model = build_model(table, scoring_unit(table), False, every_option=True)
    layout = model.padded
    # Each roll size's groups carry the probability of scoring with that many dice.
    for n in range(1, 7):
        assert layout.weights[n - 1].sum() == pytest.approx(1.0 - model.zilch_probability(n))
    total_groups = sum(len(g.probs) for g in model.groups)
    assert layout.weights.shape == (6, total_groups)
    assert sum(groups for _, groups, _, _ in layout.classes) == total_groups
    positions = set()
    for g in model.groups:
        positions.update(
            (int(gain) - 1) * 7 + int(slot) for gain, slot in zip(g.gains, g.slots, strict=True)
        )
    used = set()
    for _, groups, size, index in layout.classes:
        assert len(index) == groups * size
        used.update(int(i) for i in index)
    assert used == positions
