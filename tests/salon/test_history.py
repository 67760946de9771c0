"""The per-table stream of items, numbered from 1."""

from __future__ import annotations

import pytest

from zanzibar.salon.history import History, Item


def test_since_and_channels() -> None:
    history = History()
    for i in range(10):
        history.append("chat" if i % 2 else "system", {"n": i})
    assert history.last_seq == 10
    assert [i.seq for i in history.since(7)] == [8, 9, 10]
    assert [i.seq for i in history.since(0, "chat")] == [2, 4, 6, 8, 10]
    assert list(history.since(10)) == []
    assert list(history.since(99)) == []


def test_staged_items_follow_in_order() -> None:
    history = History()
    a = history.make("system", {}, pending=0)
    b = history.make("chat", {}, pending=1)
    assert (a.seq, b.seq) == (1, 2)
    history.add(a)
    history.add(b)
    with pytest.raises(ValueError):
        history.add(Item.of(5, "chat", {}))


def test_restored_history_keeps_numbers() -> None:
    history = History([Item.of(2, "chat", {}), Item.of(1, "system", {})])
    assert history.last_seq == 2
    assert [i.seq for i in history.since(1)] == [2]


def test_items_are_invisible_to_the_cycle_collector() -> None:
    """Many stored items must not lengthen Python's full garbage collections."""
    import gc

    history = History()
    event = {"kind": "roll", "data": {"dice": [4, 2, 1]}}
    history.append("game", {"game_id": 1, "log": 0, "event": event})
    gc.collect()
    assert not any(gc.is_tracked(row) for row in history._rows)
    assert history.items[0].data["event"] == event
