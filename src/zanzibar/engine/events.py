"""Structured game events.

An event is data, never a sentence: the game's ``render_event`` turns it into
one short sentence per language and per viewer ("you rolled ..." for the
roller, "Anna rolled ..." for everyone else) at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: ``isinstance`` with a tuple of types: a ``list | tuple`` written in the call
#: builds a union object on every call, twice the cost (events are made per action).
_SEQUENCES = (list, tuple)


#: Types :func:`_freeze` and :func:`_thaw` keep as they are (exactly these: a flat
#: sequence of them is copied whole, in C, instead of element by element).
_ATOMS = frozenset((int, str))


def _freeze(value: Any) -> Any:
    """Lists become tuples so events stay hashable and comparable.

    A flat sequence of ints and texts (dice, a list of seats: most details) is
    copied in one call; the element-by-element way made a generator and a call
    per die, some 1 % of the salon's Python per player action with ``_thaw``.

    >>> _freeze([4, 2, [1, "a"], {"b": [3]}])
    (4, 2, (1, 'a'), (('b', (3,)),))
    """
    kind = type(value)
    if kind is int or kind is str:  # most details: kept as they are
        return value
    if isinstance(value, _SEQUENCES):
        if _ATOMS.issuperset(map(type, value)):
            return tuple(value)
        return tuple(map(_freeze, value))
    if isinstance(value, dict):
        return tuple(sorted(zip(value.keys(), map(_freeze, value.values()), strict=True)))
    return value


def _thaw(value: Any) -> Any:
    """Tuples become lists again (:func:`_freeze`'s inverse for JSON).

    >>> _thaw((4, 2, (1, "a"), (("b", (3,)),)))
    [4, 2, [1, 'a'], [['b', [3]]]]
    """
    if isinstance(value, tuple):
        if _ATOMS.issuperset(map(type, value)):
            return list(value)
        return list(map(_thaw, value))
    return value


@dataclass(frozen=True)
class Event:
    """Something that happened in a game.

    ``kind`` names the event ("roll", "turn_lost", "move" ...), ``seat`` is the
    seat that caused it (``None`` for the game itself) and ``data`` holds
    JSON-compatible details.

    >>> e = Event("roll", 0, {"dice": [4, 2, 1]})
    >>> e.get("dice")
    (4, 2, 1)
    >>> Event.from_json(e.to_json()) == e
    True
    """

    kind: str
    seat: int | None = None
    #: A dict when built; stored as sorted (key, frozen value) pairs.
    data: Any = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if isinstance(self.data, dict):
            data = self.data
            object.__setattr__(
                self,
                "data",
                tuple(sorted(zip(data.keys(), map(_freeze, data.values()), strict=True))),
            )

    def get(self, key: str, default: Any = None) -> Any:
        """One detail of the event."""
        for k, v in self.data:
            if k == key:
                return v
        return default

    @property
    def details(self) -> dict[str, Any]:
        """The details as a JSON-ready dict."""
        return {k: _thaw(v) for k, v in self.data}

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form: ``{"kind": ..., "seat": ..., "data": {...}}``."""
        return {"kind": self.kind, "seat": self.seat, "data": self.details}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Event:
        """Inverse of :meth:`to_json`."""
        return cls(str(obj["kind"]), obj.get("seat"), dict(obj.get("data") or {}))
