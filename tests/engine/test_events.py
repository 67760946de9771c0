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
