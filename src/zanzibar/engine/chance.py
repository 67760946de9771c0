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


def _randbelow_is_rejection() -> bool:
    """True if ``random.Random._randbelow(6)`` is "3 bits at a time until below 6".

    That is CPython's ``_randbelow_with_getrandbits``; checked on a sample at import
    so that :meth:`DiceRng.roll` writes the loop out only where it is the same.
    """
    a, b = random.Random(12345), random.Random(12345)
    for _ in range(200):
        r = b.getrandbits(3)
        while r >= 6:
            r = b.getrandbits(3)
        if a._randbelow(6) != r:  # type: ignore[attr-defined]
            return False
    return a.getstate() == b.getstate()


_INLINE_SIX = _randbelow_is_rejection()

#: Dice :meth:`DiceRng.rewind` may replay from the saved state; past them, the next
#: mark saves the state afresh (a copy of 625 numbers every few hundred throws).
REPLAY_LIMIT = 2048


class DiceRng:
    """A seeded generator of dice; the same seed gives the same dice.

    >>> a, b = DiceRng(7), DiceRng(7)
    >>> a.roll(DiceRequest(3)) == b.roll(DiceRequest(3))
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._random = random.Random(self.seed)
        self._bits = self._random.getrandbits
        #: A state saved by a :meth:`mark` (None: never marked), and the sides of every
        #: die drawn since: that state and those draws make the generator's state now.
        self._base: object = None
        self._draws: list[int] = []
        #: How many of ``_draws`` the last :meth:`mark` came after (None: no mark to rewind to).
        self._mark_at: int | None = None

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        """Draw the dice a request asks for.

        ``_randbelow(sides) + 1`` is exactly what ``randint(1, sides)`` computes
        (same draws for the same seed) without its argument checks, which
        dominate the cost of a throw in all-bot simulations. For six-sided dice
        the rejection loop of ``_randbelow`` (draw 3 bits until below 6) is
        written out here: the same calls to ``getrandbits`` in the same order,
        so the same dice, without a Python call per die.

        >>> rng, ref = DiceRng(11), random.Random(11)
        >>> rng.roll(DiceRequest(5)) == tuple(ref.randint(1, 6) for _ in range(5))
        True
        >>> rng.roll(DiceRequest(3, 20)) == tuple(ref.randint(1, 20) for _ in range(3))
        True
        """
        if self._base is not None:  # marked once: every die is counted, for rewind
            self._draws += [request.sides] * request.count
        if request.sides != 6 or not _INLINE_SIX:
            below = self._random._randbelow  # type: ignore[attr-defined]
            sides = request.sides
            return tuple(below(sides) + 1 for _ in range(request.count))
        bits = self._bits
        faces = []
        for _ in range(request.count):
            r = bits(3)
            while r >= 6:
                r = bits(3)
            faces.append(r + 1)
        return tuple(faces)

    def mark(self) -> None:
        """Remember the state as it is now, for :meth:`rewind` (a change about to be tried).

        The state itself (625 numbers, 5-20 µs to copy, which every throw of a
        table's change paid) is copied only now and then: a rewind, which is
        rare (storing a change failed), sets the last copy back and draws again
        the dice drawn since, up to the mark, which gives the same state.

        >>> rng = DiceRng(5); rng.mark(); first = rng.roll(DiceRequest(4))
        >>> rng.rewind(); rng.roll(DiceRequest(4)) == first
        True
        >>> rng.mark(); rng.rewind(); rng.roll(DiceRequest(4)) == first  # nothing drawn
        False
        """
        if self._base is None or len(self._draws) >= REPLAY_LIMIT:
            self._base = self._random.getstate()
            self._draws = []
        self._mark_at = len(self._draws)

    def rewind(self) -> None:
        """Back to the state of the last :meth:`mark` (whatever was drawn since); once."""
        mark_at, self._mark_at = self._mark_at, None
        if mark_at is None or len(self._draws) == mark_at:
            return  # no mark, or nothing drawn since
        self._random.setstate(self._base)  # type: ignore[arg-type]
        below = self._random._randbelow  # type: ignore[attr-defined]
        for sides in self._draws[:mark_at]:  # what _randbelow drew is what roll drew
            below(sides)
        del self._draws[mark_at:]

    def getstate(self) -> object:
        """The generator's internal state (to resume after a restart)."""
        return self._random.getstate()

    def setstate(self, state: object) -> None:
        """Restore a state from :meth:`getstate` (forgetting any mark)."""
        self._random.setstate(state)  # type: ignore[arg-type]
        self._base, self._draws, self._mark_at = None, [], None
