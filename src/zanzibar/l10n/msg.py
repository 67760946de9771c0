"""A message: an id of the catalogue and its arguments, not yet a sentence.

Games, the salon and refusals hand out :class:`Msg` values; only the edge that
knows the listener (their language, their seat, the players' names) turns one
into words with :class:`zanzibar.l10n.voice.Voice`. Keeping the data apart
from the words is what lets one event read "You rolled" to its roller and
"Anna a lancé" to a French spectator.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

#: What an argument may be: a number, a word, a seat, another message, or a list
#: of those (joined as a sentence joins them: "a, b and c").
Arg = Union[str, int, float, "Seat", "Msg", "Sequence[Arg]", None]


@dataclass(frozen=True)
class Seat:
    """A seat named from the listener's point of view.

    As the argument ``name`` it fills ``$name`` with the seat's display name and
    ``$who`` with ``you`` (the listener's own seat) or ``name``; as any other
    argument ``K`` it fills ``$K`` and ``$K_who``. In a list, the listener's
    seat reads as the catalogue's ``voice-you`` word.
    """

    index: int


class AnyOf(tuple[Any, ...]):
    """Alternatives, joined as a choice: "Queen, Rook or Bishop", "Dame, Tour ou Fou".

    A plain list or tuple argument is joined with "and" (all of them); use
    ``AnyOf(items)`` where the sentence offers one of them.

    >>> AnyOf(["a", "b"])
    AnyOf('a', 'b')
    """

    def __repr__(self) -> str:
        return f"AnyOf{tuple.__repr__(self)}" if len(self) != 1 else f"AnyOf({self[0]!r},)"


#: ``isinstance`` with a tuple of types: ``list | tuple`` written in the call builds a
#: union object each time (these run for every argument of every message said).
_SEQUENCES = (list, tuple)


def _freeze(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int:  # most arguments: kept as they are (a bool is not)
        return value
    if isinstance(value, AnyOf):
        return AnyOf(_freeze(v) for v in value)
    if isinstance(value, _SEQUENCES):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, bool):
        return int(value)
    return value


class Msg:
    """A catalogue id with arguments.

    >>> Msg("zilch-bank", points=300, total=1200)
    Msg('zilch-bank', points=300, total=1200)
    >>> Msg.from_json(Msg("a", n=1, sub=Msg("b")).to_json()) == Msg("a", n=1, sub=Msg("b"))
    True
    """

    __slots__ = ("_hash", "_seats", "args", "id")

    def __init__(self, id: str, /, **args: Arg) -> None:
        if not id or not isinstance(id, str):
            raise ValueError(f"a message id must be a non-empty string, not {id!r}")
        self.id = id
        frozen: dict[str, Any] = args  # a dict of its own: kept when nothing needs freezing
        for value in args.values():
            if type(value) not in _KEPT:
                frozen = {k: _freeze(v) for k, v in args.items()}
                break
        self.args: Mapping[str, Any] = frozen
        self._hash: int | None = None
        self._seats: frozenset[int] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and self.id == other.id and self.args == other.args

    def __hash__(self) -> int:
        # a message is never changed once made: its hash is computed once (a sentence
        # is looked up by its message several times on its way to every listener)
        if self._hash is None:
            self._hash = hash((self.id, tuple(sorted(self.args.items()))))
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        # without the cached hash: string hashes differ from one process to another
        return (_remade, (self.id, dict(self.args)))

    def seats(self) -> frozenset[int]:
        """Every seat this message names, in its arguments and the messages inside them.

        A listener whose seat is not among them hears the same words as a
        spectator (nobody is "you"), which lets those sentences be shared.

        >>> sorted(Msg("a", name=Seat(2), sub=Msg("b", of=(Seat(0), "x"))).seats())
        [0, 2]
        """
        if self._seats is None:
            found: set[int] = set()
            _collect_seats(self.args.values(), found)
            self._seats = frozenset(found)
        return self._seats

    def __repr__(self) -> str:
        inner = "".join(f", {k}={v!r}" for k, v in self.args.items())
        return f"Msg({self.id!r}{inner})"

    def to_json(self) -> dict[str, Any]:
        """JSON form, for storing or sending a message still to be rendered."""
        return {"id": self.id, "args": {k: _arg_to_json(v) for k, v in self.args.items()}}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Msg:
        """Inverse of :meth:`to_json`."""
        args = obj.get("args") or {}
        return cls(str(obj["id"]), **{str(k): _arg_from_json(v) for k, v in args.items()})


#: Argument types that :func:`_freeze` keeps as they are (exactly these types: a bool,
#: a subclass or a sequence is frozen); most arguments of most messages.
_KEPT = frozenset({str, int, Seat, Msg})


def _remade(id: str, args: dict[str, Any]) -> Msg:
    """A message again from its id and arguments (unpickling)."""
    return Msg(id, **args)


def _collect_seats(values: Any, found: set[int]) -> None:
    for value in values:
        if isinstance(value, Seat):
            found.add(value.index)
        elif isinstance(value, Msg):
            found.update(value.seats())
        elif isinstance(value, _SEQUENCES):
            _collect_seats(value, found)


def _arg_to_json(value: Any) -> Any:
    if isinstance(value, AnyOf):
        return {"any_of": [_arg_to_json(v) for v in value]}
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, Seat):
        return {"seat": value.index}
    if isinstance(value, tuple):
        return [_arg_to_json(v) for v in value]
    return value


def _arg_from_json(value: Any) -> Any:
    if isinstance(value, dict) and "any_of" in value:
        return AnyOf(_arg_from_json(v) for v in value["any_of"])
    if isinstance(value, dict) and "msg" in value:
        return Msg.from_json(value["msg"])
    if isinstance(value, dict) and "seat" in value:
        return Seat(int(value["seat"]))
    if isinstance(value, list):
        return tuple(_arg_from_json(v) for v in value)
    return value


class Texts(Mapping[str, str]):
    """A message seen as ``{language: sentence}``, for code that holds texts per language.

    >>> Texts(Msg("salon-nobody"))["fr"]
    'personne'
    """

    def __init__(self, msg: Msg) -> None:
        self.msg = msg

    def __getitem__(self, lang: str) -> str:
        from zanzibar.l10n import catalogue
        from zanzibar.l10n.voice import Voice

        if lang not in catalogue.default_catalogue().languages:
            raise KeyError(lang)
        return Voice(lang).say(self.msg)

    def __iter__(self) -> Iterator[str]:
        from zanzibar.l10n.catalogue import languages

        return iter(languages())

    def __len__(self) -> int:
        from zanzibar.l10n.catalogue import languages

        return len(languages())

    def __repr__(self) -> str:
        return f"Texts({self.msg!r})"


def texts(value: Mapping[str, str] | Msg) -> Mapping[str, str]:
    """``value`` as texts per language (a Msg becomes :class:`Texts`)."""
    return Texts(value) if isinstance(value, Msg) else value
