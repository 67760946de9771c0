"""Scoring tables: zilch probabilities by enumeration, and hand-picked rolls in every preset."""

from __future__ import annotations

from fractions import Fraction

import pytest

from zanzibar.games.zilch.options import SCHEMA, scoring_table
from zanzibar.games.zilch.scoring import (
    ScoringTable,
    counts_of,
    dice_of,
    outcome_probability,
    roll_outcomes,
    zilch_ways,
)

SEED = ScoringTable()


def table(preset: str) -> ScoringTable:
    return scoring_table(SCHEMA.resolve(preset))


@pytest.mark.parametrize(("n", "ways"), [(1, 4), (2, 16), (3, 60), (4, 204), (5, 600), (6, 1440)])
def test_zilch_probability_seed_scoring(n: int, ways: int) -> None:
    # research/zilch.md: 4/6, 16/36, 60/216, 204/1296, 600/7776, 1440/46656.
    assert zilch_ways(SEED, n) == ways
    assert Fraction(zilch_ways(SEED, n), 6**n) == Fraction(ways, 6**n)


def test_zilch_probability_with_three_pairs() -> None:
    with_pairs = ScoringTable(three_pairs=1500)
    assert [zilch_ways(with_pairs, n) for n in range(1, 7)] == [4, 16, 60, 204, 600, 1080]


def test_enumeration_is_complete() -> None:
    for n in range(1, 7):
        assert sum(ways for _, ways in roll_outcomes(n)) == 6**n
        assert sum(outcome_probability(c) for c, _ in roll_outcomes(n)) == pytest.approx(1.0)


def test_counts_round_trip() -> None:
    assert dice_of(counts_of((6, 1, 5, 1))) == (1, 1, 5, 6)
    with pytest.raises(ValueError):
        counts_of((0,))


SEED_ROLLS = [
    ((1,), 100),
    ((5,), 50),
    ((1, 5), 150),
    ((2, 2, 2), 200),
    ((3, 3, 3), 300),
    ((4, 4, 4), 400),
    ((5, 5, 5), 500),
    ((6, 6, 6), 600),
    ((1, 1, 1), 1000),
    ((1, 1, 1, 1), 1100),  # triple + a single 1: the seed's own table
    ((5, 5, 5, 5), 550),
    ((2, 2, 2, 2), None),  # the fourth 2 scores nothing
    ((2, 2, 2, 2, 2), None),
    ((2, 2, 2, 2, 2, 2), 400),  # two triples
    ((1, 1, 1, 1, 1, 1), 2000),
    ((3, 3, 3, 5), 350),
    ((1, 2, 3, 4, 5, 6), 1500),
    ((2, 2, 3, 3, 4, 4), None),  # three pairs do not score in seed 004
    ((2, 3), None),
    ((1, 1, 5, 5, 5, 5), 750),
]


@pytest.mark.parametrize(("dice", "value"), SEED_ROLLS)
def test_seed_scoring(dice: tuple[int, ...], value: int | None) -> None:
    assert table("zilch5000").score(counts_of(dice)) == value


PRESET_ROLLS = {
    "farkle10000": [
        ((2, 2, 2, 2), 1000),
        ((3, 3, 3, 3, 3), 2000),
        ((6, 6, 6, 6, 6, 6), 3000),
        ((2, 2, 3, 3, 4, 4), 1500),
        ((1, 2, 3, 4, 5, 6), 2500),
        ((1, 1, 1), 1000),
        ((1, 1, 1, 1), 1100),  # 1000 for the four, or triple + single: the best counts
        ((2, 2, 2, 2, 6), None),
    ],
    "farkle_boxed": [
        ((1, 1, 1), 300),
        ((2, 2, 2, 2, 3, 3), 1500),
        ((2, 2, 2, 3, 3, 3), 2500),
        ((1, 2, 3, 4, 5, 6), 1500),
        ((4, 4, 4, 4), 1000),
    ],
    "zilch_online": [
        ((2, 2, 2, 2), 400),
        ((2, 2, 2, 2, 2), 800),
        ((2, 2, 2, 2, 2, 2), 1600),
        ((1, 1, 1, 1), 2000),
        ((2, 2, 3, 3, 4, 4), 1500),
        ((2, 2, 3, 3, 4, 6), 500),  # six dice, nothing scores: 500
        ((2, 3, 4, 6, 6), None),
    ],
    "farkle_social": [
        ((2, 2, 3, 3, 4, 4), 750),
        ((5, 5, 5, 5), 1000),
        ((1, 2, 3, 4, 5, 6), 1500),
    ],
    "farkle_busche": [
        ((1, 2, 3, 4, 5, 6), None),  # no straight: only 1 and 5 may be set aside
        ((1, 1, 1), 1000),
        ((2, 2, 3, 3, 4, 4), None),
    ],
}


@pytest.mark.parametrize(
    ("preset", "dice", "value"),
    [(preset, dice, value) for preset, rows in PRESET_ROLLS.items() for dice, value in rows],
)
def test_preset_scoring(preset: str, dice: tuple[int, ...], value: int | None) -> None:
    assert table(preset).score(counts_of(dice)) == value


def test_online_nothing_on_six_is_not_a_zilch() -> None:
    online = table("zilch_online")
    assert not online.is_zilch(counts_of((2, 2, 3, 3, 4, 6)))
    assert online.is_zilch(counts_of((2, 2, 3, 3, 4)))
    assert zilch_ways(online, 6) == 0


def test_busche_straight_offers_only_single_ones_and_fives() -> None:
    options = dict(table("farkle_busche").best_by_kept(counts_of((1, 2, 3, 4, 5, 6))))
    assert options == {1: 100, 2: 150}


def test_best_by_kept_seed() -> None:
    # 1 1 1 5 2 3: keep one die (100), two (200), three (1000), four (1050).
    assert SEED.best_by_kept(counts_of((1, 1, 1, 5, 2, 3))) == (
        (1, 100),
        (2, 200),
        (3, 1000),
        (4, 1050),
    )
