"""Seeded dice and the validation of chance outcomes."""

from __future__ import annotations

import random

import pytest

from zanzibar.engine.chance import REPLAY_LIMIT, DiceRequest, DiceRng


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


def test_rewind_gives_back_the_marked_state_across_fresh_copies() -> None:
    """Marks, throws and rewinds in a random order, over several copies of the state
    (REPLAY_LIMIT): after each rewind the dice are those a generator kept at the mark's
    state throws, and a rewind with nothing thrown since its mark changes nothing."""
    plan = random.Random(3)
    rng = DiceRng(99)
    kept: object = None  # the marked state, as the plain generator holds it
    marked = False
    throws = 0
    while throws < 3 * REPLAY_LIMIT:
        step = plan.random()
        if step < 0.3:
            rng.mark()
            kept, marked = rng.getstate(), True
        elif step < 0.4:
            before = rng.getstate()
            rng.rewind()
            assert rng.getstate() == (kept if marked else before)
            marked = False
        else:
            request = DiceRequest(plan.randint(1, 5), plan.choice((6, 6, 20)))
            rng.roll(request)
            throws += request.count
    reference = random.Random()
    reference.setstate(rng.getstate())
    assert rng.roll(DiceRequest(5)) == tuple(reference.randint(1, 6) for _ in range(5))


def test_setstate_forgets_the_mark() -> None:
    rng = DiceRng(4)
    rng.mark()
    rng.roll(DiceRequest(3))
    state = rng.getstate()
    rng.setstate(state)
    rng.roll(DiceRequest(3))
    after = rng.getstate()
    rng.rewind()  # no mark since setstate: nothing to go back to
    assert rng.getstate() == after
