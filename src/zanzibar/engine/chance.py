"""Dice as explicit chance events.

A state that waits for dice answers ``chance_request`` with a
:class:`DiceRequest`; whoever drives the game (a :class:`~zanzibar.engine.match.Match`,
a solver, a test) supplies the outcome. The table owns the seeded generator,
and the outcome is written to the action log, so a game replays exactly
without the generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class DiceRequest:
    """The state waits for ``count`` dice of ``sides`` faces each."""

    count: int
    sides: int = 6

    def validate(self, outcome: tuple[int, ...]) -> None:
        """Raise ``ValueError`` if ``outcome`` cannot answer this request."""
        if len(outcome) != self.count:
            raise ValueError(f"expected {self.count} dice, got {len(outcome)}")
        for face in outcome:
            if not isinstance(face, int) or not 1 <= face <= self.sides:
                raise ValueError(f"die face {face!r} is not between 1 and {self.sides}")


class DiceRng:
    """A seeded generator of dice; the same seed gives the same dice.

    >>> a, b = DiceRng(7), DiceRng(7)
    >>> a.roll(DiceRequest(3)) == b.roll(DiceRequest(3))
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._random = random.Random(self.seed)

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """Draw the dice a request asks for.

        ``_randbelow(sides) + 1`` is exactly what ``randint(1, sides)`` computes
        (same draws for the same seed) without its argument checks, which
        dominate the cost of a throw in all-bot simulations.

        >>> rng, ref = DiceRng(11), random.Random(11)
        >>> rng.roll(DiceRequest(5)) == tuple(ref.randint(1, 6) for _ in range(5))
        True
        """
        below = self._random._randbelow  # type: ignore[attr-defined]
        sides = request.sides
        return tuple(below(sides) + 1 for _ in range(request.count))

    def getstate(self) -> object:
        """The generator's internal state (to resume after a restart)."""
        return self._random.getstate()

    def setstate(self, state: object) -> None:
        """Restore a state from :meth:`getstate`."""
        self._random.setstate(state)  # type: ignore[arg-type]
