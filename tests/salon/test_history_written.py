"""A staged history item's text, written by orjson here, is read without the long-number look."""

from __future__ import annotations

import pytest

from zanzibar.salon import history
from zanzibar.salon.history import History, Item


class _NoLook:
    def search(self, _text: str) -> None:
        raise AssertionError("looked for long numbers in a text orjson wrote")


def test_a_staged_item_is_read_without_looking_for_long_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = {"game_id": 7, "event": {"dice": [4, 2, 1], "n": 2**64 - 1, "m": -(2**63)}}
    item = History().make("game", data)
    monkeypatch.setattr(history, "_LONG_NUMBER", _NoLook())
    assert item.data == data


def test_items_json_wrote_or_read_back_from_storage_are_still_looked_at() -> None:
    big = Item.of(1, "chat", {"n": 2**70, "x": 1.5})  # beyond 64 bits: json wrote it
    assert big.data == {"n": 2**70, "x": 1.5}
    stored = Item(2, "chat", '{"n":1180591620717411303424}')  # as a row gives it back
    assert stored.data == {"n": 2**70}
    assert History([stored]).items[0].data == {"n": 2**70}
