"""The 56 throws: order (seed 000 and the regional variants), values, outcome counts."""

from __future__ import annotations

from itertools import product

import pytest

from zanzibar.games.dice421.combos import (
    ALL_THROWS,
    category,
    normalise,
    outcome_counts,
    ranking,
    reroll_outcomes,
    strength,
    value,
)

ORDINARY = [
    (6, 6, 5), (6, 6, 4), (6, 6, 3), (6, 6, 2), (6, 6, 1),
    (6, 5, 5), (6, 5, 3), (6, 5, 2), (6, 5, 1),
    (6, 4, 4), (6, 4, 3), (6, 4, 2), (6, 4, 1),
    (6, 3, 3), (6, 3, 2), (6, 3, 1),
    (6, 2, 2), (6, 2, 1),
    (5, 5, 4), (5, 5, 3), (5, 5, 2), (5, 5, 1),
    (5, 4, 4), (5, 4, 2), (5, 4, 1),
    (5, 3, 3), (5, 3, 2), (5, 3, 1),
    (5, 2, 2), (5, 2, 1),
    (4, 4, 3), (4, 4, 2), (4, 4, 1),
    (4, 3, 3), (4, 3, 1),
    (4, 2, 2),
    (3, 3, 2), (3, 3, 1),
    (3, 2, 2),
]  # fmt: skip

SALON_ORDER = [
    (4, 2, 1), (1, 1, 1),
    (6, 6, 6), (6, 1, 1), (5, 5, 5), (5, 1, 1), (4, 4, 4), (4, 1, 1),
    (3, 3, 3), (3, 1, 1), (2, 2, 2), (2, 1, 1),
    (6, 5, 4), (5, 4, 3), (4, 3, 2), (3, 2, 1),
    *ORDINARY,
    (2, 2, 1),
]  # fmt: skip


def test_there_are_56_distinct_throws() -> None:
    assert len(ALL_THROWS) == 56
    assert len(set(ALL_THROWS)) == 56
    assert len(ORDINARY) == 39


def test_salon_order_is_exactly_seed_000() -> None:
    assert list(ranking("salon")) == SALON_ORDER


def test_fiche_first_order_swaps_each_pair() -> None:
    order = list(ranking("fiche_first"))
    assert order[2:12] == [
        (6, 1, 1), (6, 6, 6), (5, 1, 1), (5, 5, 5), (4, 1, 1),
        (4, 4, 4), (3, 1, 1), (3, 3, 3), (2, 1, 1), (2, 2, 2),
    ]  # fmt: skip
    assert order[:2] == SALON_ORDER[:2] and order[12:] == SALON_ORDER[12:]


def test_fiches_above_every_baraque() -> None:
    order = list(ranking("fiches_above"))
    assert order[2:12] == [
        (6, 1, 1), (5, 1, 1), (4, 1, 1), (3, 1, 1), (2, 1, 1),
        (6, 6, 6), (5, 5, 5), (4, 4, 4), (3, 3, 3), (2, 2, 2),
    ]  # fmt: skip


def test_seed_examples() -> None:
    s = strength("salon")
    assert s[(6, 6, 6)] > s[(6, 1, 1)]  # 666 beats 611
    assert s[(4, 1, 1)] > s[(3, 3, 3)]  # 411 beats 333
    assert s[(6, 2, 1)] > s[(5, 5, 4)]  # 621 beats 554
    assert s[(5, 2, 1)] > s[(4, 3, 3)]  # 521 beats 433
    assert s[(6, 5, 4)] > s[(3, 2, 1)] > s[(6, 6, 5)]
    assert min(s, key=s.__getitem__) == (2, 2, 1)
    assert sorted(s.values()) == list(range(56))


VALUES_SALON = {
    (4, 2, 1): 10, (1, 1, 1): 7,
    (6, 6, 6): 6, (6, 1, 1): 6, (5, 5, 5): 5, (5, 1, 1): 5, (4, 4, 4): 4, (4, 1, 1): 4,
    (3, 3, 3): 3, (3, 1, 1): 3, (2, 2, 2): 2, (2, 1, 1): 2,
    (6, 5, 4): 2, (5, 4, 3): 2, (4, 3, 2): 2, (3, 2, 1): 2,
    (2, 2, 1): 4,
}  # fmt: skip


@pytest.mark.parametrize("throw", ALL_THROWS)
def test_values_of_both_presets(throw: tuple[int, int, int]) -> None:
    salon = VALUES_SALON.get(throw, 1)
    bar = 2 if throw == (2, 2, 1) else salon
    assert value(throw, "value4") == salon
    assert value(throw, "penalty2") == bar


def test_216_outcome_counts() -> None:
    assert outcome_counts() == {
        "421": 6,
        "aces": 1,
        "fiche": 15,
        "baraque": 5,
        "straight": 24,
        "nenette": 3,
        "other": 162,
    }
    assert sum(outcome_counts().values()) == 216


def test_categories_cover_every_outcome() -> None:
    for dice in product(range(1, 7), repeat=3):
        assert category(normalise(dice)) in {
            "421", "aces", "baraque", "fiche", "straight", "nenette", "other"
        }  # fmt: skip


def test_reroll_outcomes_are_distributions() -> None:
    for throw in ALL_THROWS:
        for mask in range(1, 8):
            outcomes = reroll_outcomes(throw, mask)
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    # Keeping 4 and 1 of 6-4-1 and rolling the 6: one face in six gives 421.
    assert dict(reroll_outcomes((6, 4, 1), 1))[(4, 2, 1)] == pytest.approx(1 / 6)
