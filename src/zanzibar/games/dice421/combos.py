"""The 56 distinct throws of three dice, their ranking and their values.

A throw is written with its dice from highest to lowest: ``(4, 2, 1)``. The
order comes from seed 000 (and its French twin 001): 421 first, then three
aces, then the baraques (three of a kind) and fiches (two aces and another
die, "pure" or "en l'air"), then the straights, then every other throw by its
highest die, second and third, and the nénette 2-2-1 last of all.

How fiches and baraques interleave is a regional matter, so it is an option
(``fiche_order``):

* ``salon`` (seed 000): at equal value the baraque wins, but a fiche beats a
  lower baraque: 666 > 611 > 555 > 511 > ... > 222 > 211;
* ``fiche_first`` (French Wikipedia, "421 (jeu)"): at equal value the fiche wins:
  611 > 666 > 511 > 555 > ...;
* ``fiches_above`` (regional, research notes): every fiche above every baraque.

>>> len(ALL_THROWS)
56
>>> ranking("salon")[:4]
((4, 2, 1), (1, 1, 1), (6, 6, 6), (6, 1, 1))
>>> ranking("salon")[-2:]
((3, 2, 2), (2, 2, 1))
>>> value((2, 2, 1), "value4"), value((2, 2, 1), "penalty2")
(4, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from itertools import product

Throw = tuple[int, int, int]

FICHE_ORDERS: tuple[str, ...] = ("salon", "fiche_first", "fiches_above")
NENETTE_RULES: tuple[str, ...] = ("value4", "penalty2")

TOP: Throw = (4, 2, 1)
ACES: Throw = (1, 1, 1)
NENETTE: Throw = (2, 2, 1)
STRAIGHTS: tuple[Throw, ...] = ((6, 5, 4), (5, 4, 3), (4, 3, 2), (3, 2, 1))


def normalise(dice: Iterable[int]) -> Throw:
    """The throw of three dice, highest die first.

    >>> normalise([1, 4, 2])
    (4, 2, 1)
    """
    a, b, c = sorted(dice, reverse=True)
    return (a, b, c)


#: Every distinct throw, in a fixed enumeration order (highest die first, then ...).
ALL_THROWS: tuple[Throw, ...] = tuple(
    sorted({normalise(d) for d in product(range(1, 7), repeat=3)}, reverse=True)
)

#: Index of each throw in :data:`ALL_THROWS` (the bots' and solver's tables use it).
THROW_INDEX: Mapping[Throw, int] = {t: i for i, t in enumerate(ALL_THROWS)}


def category(throw: Throw) -> str:
    """The kind of combination: 421, aces, baraque, fiche, straight, nenette or other.

    >>> [category(t) for t in [(4, 2, 1), (1, 1, 1), (5, 5, 5), (5, 1, 1), (4, 3, 2), (2, 2, 1), (6, 6, 5)]]
    ['421', 'aces', 'baraque', 'fiche', 'straight', 'nenette', 'other']
    """
    a, b, c = throw
    if throw == TOP:
        return "421"
    if throw == ACES:
        return "aces"
    if a == b == c:
        return "baraque"
    if b == c == 1:
        return "fiche"
    if throw in STRAIGHTS:
        return "straight"
    if throw == NENETTE:
        return "nenette"
    return "other"


def _ordinary() -> list[Throw]:
    return sorted((t for t in ALL_THROWS if category(t) == "other"), reverse=True)


@cache
def ranking(fiche_order: str = "salon") -> tuple[Throw, ...]:
    """All 56 throws, strongest first, for a fiche/baraque order."""
    if fiche_order not in FICHE_ORDERS:
        raise ValueError(f"unknown fiche order {fiche_order!r}")
    middle: list[Throw] = []
    if fiche_order == "fiches_above":
        middle = [(x, 1, 1) for x in range(6, 1, -1)] + [(x, x, x) for x in range(6, 1, -1)]
    else:
        for x in range(6, 1, -1):
            pair: list[Throw] = [(x, x, x), (x, 1, 1)]
            middle.extend(pair if fiche_order == "salon" else reversed(pair))
    return (TOP, ACES, *middle, *STRAIGHTS, *_ordinary(), NENETTE)


@cache
def strength(fiche_order: str = "salon") -> Mapping[Throw, int]:
    """Throw -> strength, 55 for the strongest and 0 for the nénette.

    >>> s = strength("salon")
    >>> s[(6, 6, 6)] > s[(6, 1, 1)] > s[(5, 5, 5)], s[(4, 1, 1)] > s[(3, 3, 3)]
    (True, True)
    >>> s[(6, 2, 1)] > s[(5, 5, 4)], s[(5, 2, 1)] > s[(4, 3, 3)]
    (True, True)
    """
    order = ranking(fiche_order)
    return {throw: len(order) - 1 - i for i, throw in enumerate(order)}


@cache
def value(throw: Throw, nenette: str = "value4") -> int:
    """Tokens a throw is worth (seed 000 for all, seed 002 for the nénette at 2).

    Cached: the rules look it up at the end of every turn (112 entries at most).

    >>> [value(t) for t in [(4, 2, 1), (1, 1, 1), (6, 6, 6), (3, 1, 1), (6, 5, 4), (6, 6, 5)]]
    [10, 7, 6, 3, 2, 1]
    """
    kind = category(throw)
    if kind == "421":
        return 10
    if kind == "aces":
        return 7
    if kind in {"baraque", "fiche"}:
        return throw[0]
    if kind == "straight":
        return 2
    if kind == "nenette":
        return 4 if nenette == "value4" else 2
    return 1


def outcome_counts() -> Counter[str]:
    """How many of the 216 ordered outcomes of three dice fall in each category.

    >>> sorted(outcome_counts().items())
    [('421', 6), ('aces', 1), ('baraque', 5), ('fiche', 15), ('nenette', 3), ('other', 162), ('straight', 24)]
    """
    return Counter(category(normalise(d)) for d in product(range(1, 7), repeat=3))


#: Ways of picking the dice to reroll from a throw: bit i set = reroll position i.
REROLL_MASKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)


def mask_positions(mask: int) -> tuple[int, ...]:
    """The die positions (0-based) a reroll mask names.

    >>> mask_positions(5)
    (0, 2)
    """
    return tuple(i for i in range(3) if mask >> i & 1)


@cache
def reroll_outcomes(throw: Throw, mask: int) -> tuple[tuple[Throw, float], ...]:
    """Each throw reachable by rerolling the masked dice of ``throw``, with its probability.

    >>> dict(reroll_outcomes((6, 2, 1), 1))[(4, 2, 1)]
    0.16666666666666666
    """
    kept = [throw[i] for i in range(3) if not mask >> i & 1]
    count = 3 - len(kept)
    tally: Counter[Throw] = Counter(
        normalise([*kept, *new]) for new in product(range(1, 7), repeat=count)
    )
    total = 6**count
    return tuple((t, n / total) for t, n in sorted(tally.items(), reverse=True))
