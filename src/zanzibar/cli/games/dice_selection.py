"""The dice a player has chosen, for 421 (to reroll) and Zilch (to set aside).

One concern, shared by both dice games: keys 1-6 add a die, Shift+1-6
take it out, and the selection is read back **in the order it was typed**
("3, then 1" is said "3 1"), which is what the player remembers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from zanzibar.engine.errors import IllegalActionError
from zanzibar.l10n import Msg


class DiceSelection:
    """Positions (0-based) in the order they were chosen.

    >>> s = DiceSelection()
    >>> s.add([2, 0, 2]); s.order
    [2, 0]
    >>> s.remove([2]); s.order
    [0]
    """

    def __init__(self) -> None:
        self.order: list[int] = []

    def add(self, positions: Iterable[int]) -> None:
        """Choose dice (a die chosen twice stays once, where it was first typed)."""
        for position in positions:
            if position not in self.order:
                self.order.append(position)

    def remove(self, positions: Iterable[int]) -> None:
        """Take dice out of the selection."""
        for position in positions:
            if position in self.order:
                self.order.remove(position)

    def replace(self, positions: Iterable[int]) -> None:
        """Exactly these dice, in this order."""
        self.order = []
        self.add(positions)

    def clear(self) -> None:
        """Nothing chosen."""
        self.order = []

    def values(self, dice: Sequence[int]) -> list[int]:
        """The chosen dice's faces, in typed order."""
        return [dice[i] for i in self.order if i < len(dice)]

    def others(self, dice: Sequence[int]) -> list[int]:
        """The faces not chosen, in table order."""
        return [value for i, value in enumerate(dice) if i not in self.order]


def positions(words: Sequence[str], count: int) -> list[int]:
    """Die numbers typed by the player (1-based) as positions; a clear refusal otherwise.

    >>> positions(["3", "1"], 3)
    [2, 0]
    """
    found = []
    for word in words:
        if not word.isdigit():
            raise IllegalActionError(Msg("cli-dice-not-a-number", word=word, count=count))
        if not 1 <= int(word) <= count:
            raise IllegalActionError(Msg("cli-dice-no-die", n=int(word), count=count))
        found.append(int(word) - 1)
    return found


def faces(values: Sequence[int]) -> str:
    """Dice faces as a player hears them: ``5 3 1``."""
    return " ".join(str(v) for v in values)
