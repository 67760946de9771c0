"""Scoring tables of the Zilch / Farkle family, and which dice of a roll may be set aside.

A table (:class:`ScoringTable`) is built from a game's options. The one
question every other module asks is :meth:`ScoringTable.score`: what is a set of
dice worth when *every* die in it must be part of a scoring combination? It
returns ``None`` when some die would not score, which is exactly the rule that
forbids setting aside a non-scoring die.

Dice are handled as *counts*: a 6-tuple ``(ones, twos, ..., sixes)``, so two
rolls that differ only in order are the same thing to the scorer.

>>> seed = ScoringTable()
>>> seed.score(counts_of((1, 5)))
150
>>> seed.score(counts_of((2, 2, 2, 2))) is None   # the fourth 2 scores nothing (seed 004)
True
>>> seed.score(counts_of((1, 2, 3, 4, 5, 6)))
1500
>>> seed.is_zilch(counts_of((2, 3, 4, 6, 6, 3)))   # three pairs do not score in seed 004
True
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from math import factorial

Counts = tuple[int, int, int, int, int, int]

#: How four, five or six of a kind score.
KIND_MODES: tuple[str, ...] = ("seed", "doubling", "fixed")


def counts_of(dice: Iterable[int]) -> Counts:
    """Count the faces of some dice.

    >>> counts_of((5, 1, 5))
    (1, 0, 0, 0, 2, 0)
    """
    out = [0] * 6
    for face in dice:
        if not 1 <= face <= 6:
            raise ValueError(f"die face {face!r} is not between 1 and 6")
        out[face - 1] += 1
    return (out[0], out[1], out[2], out[3], out[4], out[5])


def dice_of(counts: Counts) -> tuple[int, ...]:
    """The dice of a count vector, in ascending order.

    >>> dice_of((1, 0, 0, 0, 2, 0))
    (1, 5, 5)
    """
    return tuple(face + 1 for face in range(6) for _ in range(counts[face]))


def sub_counts(counts: Counts) -> Iterator[Counts]:
    """Every non-empty sub-multiset of ``counts``."""
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if any(sub):
            yield (sub[0], sub[1], sub[2], sub[3], sub[4], sub[5])


def outcome_probability(counts: Counts) -> float:
    """Probability that a roll of ``sum(counts)`` fair dice shows exactly these faces."""
    n = sum(counts)
    ways = factorial(n)
    for c in counts:
        ways //= factorial(c)
    return float(ways) / 6**n


def roll_outcomes(n: int) -> list[tuple[Counts, int]]:
    """Every distinct roll of ``n`` dice with its number of ordered ways (out of 6**n).

    >>> sum(ways for _, ways in roll_outcomes(3))
    216
    """
    outcomes: list[tuple[Counts, int]] = []
    for combo in itertools.combinations_with_replacement(range(1, 7), n):
        counts = counts_of(combo)
        ways = factorial(n)
        for c in counts:
            ways //= factorial(c)
        outcomes.append((counts, ways))
    return outcomes


@dataclass(frozen=True)
class ScoringTable:
    """The scoring combinations in force; the defaults are seed 004's table.

    * ``one``, ``five``: a single 1 or 5.
    * ``three_ones``: three 1s; three of any other face score 100 x face.
    * ``kinds``: four, five or six of a kind. ``"seed"``: nothing beyond the triple
      (extra 1s and 5s still score as singles, six of a kind is two triples);
      ``"doubling"``: each die past three doubles the triple;
      ``"fixed"``: 1000, 2000, 3000.
    * ``straight``, ``three_pairs``, ``four_and_pair``, ``two_triplets``: whole-roll
      combinations of six dice (0 = does not score).
    * ``nothing``: six dice in which nothing scores are worth this much (0 = a zilch).
    """

    one: int = 100
    five: int = 50
    three_ones: int = 1000
    kinds: str = "seed"
    straight: int = 1500
    three_pairs: int = 0
    four_and_pair: int = 0
    two_triplets: int = 0
    nothing: int = 0

    def triple(self, face: int) -> int:
        """Three of a kind of ``face``."""
        return self.three_ones if face == 1 else 100 * face

    def single(self, face: int) -> int | None:
        """A lone die of ``face``, or None if it does not score alone."""
        if face == 1:
            return self.one
        if face == 5:
            return self.five
        return None

    def kind(self, face: int, size: int) -> int | None:
        """``size`` (3..6) dice of ``face`` scored as one combination, or None."""
        base = self.triple(face)
        if size == 3:
            return base
        if self.kinds == "doubling":
            return base * 2 ** (size - 3)
        if self.kinds == "fixed":
            return {4: 1000, 5: 2000, 6: 3000}[size]
        return None

    def score(self, counts: Counts) -> int | None:
        """Best score of these dice if every one of them scores, else None."""
        return _score(self, counts)

    def is_zilch(self, counts: Counts) -> bool:
        """True if no die of this roll can be set aside (the roll scores nothing)."""
        return _best_by_kept(self, counts) == ()

    def options(self, counts: Counts) -> tuple[tuple[Counts, int], ...]:
        """Every scoring sub-selection of a roll with its score."""
        return _options(self, counts)

    def best_by_kept(self, counts: Counts) -> tuple[tuple[int, int], ...]:
        """For each number of dice kept, the best score: ``((kept, score), ...)``."""
        return _best_by_kept(self, counts)


def _face_score(table: ScoringTable, face: int, count: int) -> int | None:
    """Best score of ``count`` dice all showing ``face``, each die scoring, else None."""
    if count == 0:
        return 0
    single = table.single(face)
    best: int | None = count * single if single is not None else None
    for size in range(3, count + 1):
        group = table.kind(face, size)
        if group is None:
            continue
        rest = _face_score(table, face, count - size)
        if rest is not None and (best is None or group + rest > best):
            best = group + rest
    return best


def _per_face(table: ScoringTable, counts: Counts) -> int | None:
    total = 0
    for index, count in enumerate(counts):
        part = _face_score(table, index + 1, count)
        if part is None:
            return None
        total += part
    return total


def _any_die_scores(table: ScoringTable, counts: Counts) -> bool:
    """True if some die scores under the per-face rules (singles and kinds)."""
    if counts[0] or counts[4]:
        return True
    return any(c >= 3 for c in counts)


def _whole_roll(table: ScoringTable, counts: Counts) -> int | None:
    """Best six-dice combination using all of ``counts``, or None."""
    if sum(counts) != 6:
        return None
    shape = sorted((c for c in counts if c), reverse=True)
    candidates: list[int] = []
    if table.straight and shape == [1] * 6:
        candidates.append(table.straight)
    if table.three_pairs and shape == [2, 2, 2]:
        candidates.append(table.three_pairs)
    if table.four_and_pair and shape == [4, 2]:
        candidates.append(table.four_and_pair)
    if table.two_triplets and shape == [3, 3]:
        candidates.append(table.two_triplets)
    if table.nothing and not candidates and not _any_die_scores(table, counts):
        candidates.append(table.nothing)
    return max(candidates) if candidates else None


@lru_cache(maxsize=65536)
def _score(table: ScoringTable, counts: Counts) -> int | None:
    per_face = _per_face(table, counts)
    whole = _whole_roll(table, counts)
    if per_face is None:
        return whole
    if whole is None:
        return per_face
    return max(per_face, whole)


@lru_cache(maxsize=8192)
def _options(table: ScoringTable, counts: Counts) -> tuple[tuple[Counts, int], ...]:
    out = []
    for sub in sub_counts(counts):
        value = _score(table, sub)
        if value is not None:
            out.append((sub, value))
    return tuple(out)


@lru_cache(maxsize=8192)
def _best_by_kept(table: ScoringTable, counts: Counts) -> tuple[tuple[int, int], ...]:
    best: dict[int, int] = {}
    for sub, value in _options(table, counts):
        kept = sum(sub)
        if value > best.get(kept, -1):
            best[kept] = value
    return tuple(sorted(best.items()))


def zilch_ways(table: ScoringTable, n: int) -> int:
    """How many of the ``6**n`` ordered rolls of ``n`` dice score nothing.

    >>> [zilch_ways(ScoringTable(), n) for n in range(1, 7)]
    [4, 16, 60, 204, 600, 1440]
    """
    return sum(ways for counts, ways in roll_outcomes(n) if table.is_zilch(counts))
