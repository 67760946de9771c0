"""Events are comparable values with a lossless JSON form."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from zanzibar.engine.events import Event


def test_lists_are_frozen_and_thawed() -> None:
    event = Event("roll", 2, {"dice": [4, 2, 1], "kept": []})
    assert event.get("dice") == (4, 2, 1)
    assert event.details == {"dice": [4, 2, 1], "kept": []}
    assert hash(event) == hash(Event("roll", 2, {"kept": [], "dice": [4, 2, 1]}))


json_scalars = st.one_of(st.integers(), st.text(max_size=5), st.booleans(), st.none())


@given(
    kind=st.text(min_size=1, max_size=8),
    seat=st.one_of(st.none(), st.integers(0, 9)),
    data=st.dictionaries(
        st.text(max_size=5), st.one_of(json_scalars, st.lists(json_scalars)), max_size=4
    ),
)
def test_json_round_trip(kind: str, seat: int | None, data: dict) -> None:
    event = Event(kind, seat, data)
    assert Event.from_json(event.to_json()) == event


def _freeze_one_by_one(value: object) -> object:
    """The element-by-element freezing events used before (the reference for the fast one)."""
    kind = type(value)
    if kind is int or kind is str:
        return value
    if isinstance(value, list | tuple):
        return tuple(_freeze_one_by_one(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze_one_by_one(v)) for k, v in value.items()))
    return value


def _thaw_one_by_one(value: object) -> object:
    if isinstance(value, tuple):
        return [_thaw_one_by_one(v) for v in value]
    return value


json_values = st.recursive(
    json_scalars | st.floats(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(data=st.dictionaries(st.text(max_size=5), json_values, max_size=5))
def test_flat_sequences_copied_whole_freeze_and_thaw_as_one_by_one(data: dict) -> None:
    """Details frozen and thawed with flat sequences of ints and texts copied in one call
    are exactly (types included: a bool stays a bool) those made element by element."""
    from zanzibar.engine.events import _freeze, _thaw

    event = Event("k", None, data)
    expected = tuple(sorted((k, _freeze_one_by_one(v)) for k, v in data.items()))
    assert event.data == expected
    assert repr(event.data) == repr(expected)  # 1 and True are equal: compare the types too
    for value in data.values():
        frozen = _freeze(value)
        assert repr(frozen) == repr(_freeze_one_by_one(value))
        assert repr(_thaw(frozen)) == repr(_thaw_one_by_one(frozen))
    assert repr(event.details) == repr({k: _thaw_one_by_one(v) for k, v in expected})
