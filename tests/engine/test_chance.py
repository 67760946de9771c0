"""Seeded dice and the validation of chance outcomes."""

from __future__ import annotations

import pytest

from zanzibar.engine.chance import DiceRequest, DiceRng


def test_same_seed_same_dice() -> None:
    a, b = DiceRng(42), DiceRng(42)
    assert [a.roll(DiceRequest(6)) for _ in range(20)] == [
        b.roll(DiceRequest(6)) for _ in range(20)
    ]


def test_state_resumes() -> None:
    rng = DiceRng(1)
    rng.roll(DiceRequest(3))
    saved = rng.getstate()
    first = rng.roll(DiceRequest(3))
    rng.setstate(saved)
    assert rng.roll(DiceRequest(3)) == first


def test_faces_are_in_range() -> None:
    rng = DiceRng(5)
    faces = {face for _ in range(500) for face in rng.roll(DiceRequest(3))}
    assert faces == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("outcome", [(1, 2), (0, 1, 2), (1, 2, 7), (1, 2, "3")])
def test_bad_outcomes_are_refused(outcome: tuple) -> None:
    with pytest.raises(ValueError):
        DiceRequest(3).validate(outcome)
