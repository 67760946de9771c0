"""Frames as the socket's node sees them: which ones are answers, items, pushed histories.

Small helpers of :mod:`zanzibar.salon.forwarding` (its file stays under the size the
layout allows), for delivering each history item to a socket exactly once, in order.
"""

from __future__ import annotations

from typing import Any


def is_ok(message: Any) -> bool:
    return isinstance(message, dict) and message.get("type") == "ok"


#: Held in place of a frame: the owner let the socket go at that version.
DROPPED: dict[str, Any] = {"type": "dropped"}

#: The commands that (re)follow a table: the table, its history and view come back.
FOLLOWING = frozenset({"follow", "table.join", "table.watch"})

#: Commands whose answer says whether the socket follows the table (a follow, or leaving).
DECIDING = FOLLOWING | {"table.leave"}

#: The refusals of a re-follow that say "not now" while a table changes hands.
CHANGING_HANDS = frozenset({"not_found", "internal"})

#: The numbered history items (each has the table's ``seq``).
ITEM_TYPES = frozenset({"game.event", "chat", "system"})


def is_pushed_history(message: Any, table_id: int) -> bool:
    """A ``history`` the salon sends when following a table (no request id, no channel)."""
    return (
        isinstance(message, dict)
        and message.get("type") == "history"
        and message.get("table") == table_id
        and "id" not in message
        and "channel" not in message
    )


def int_or(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def seq_at_most(item: Any, seq: int) -> bool:
    """Whether ``item`` is numbered ``seq`` or lower (already sent)."""
    value = item.get("seq") if isinstance(item, dict) else None
    return isinstance(value, int) and not isinstance(value, bool) and value <= seq


def after_seq(history: dict[str, Any], sent: int) -> dict[str, Any]:
    """A pushed ``history`` less its items at or below ``sent`` (the last seq a socket was
    sent; -1: none yet), ``since`` moved up to match; the message itself if nothing goes.

    >>> after_seq({"since": 2, "items": [{"seq": 3}, {"seq": 4}]}, 3)
    {'since': 3, 'items': [{'seq': 4}]}
    """
    items = history.get("items")
    if sent < 0 or not isinstance(items, list):
        return history
    fresh = [i for i in items if not seq_at_most(i, sent)]
    if len(fresh) == len(items) and int_or(history.get("since"), sent) >= sent:
        return history
    return {**history, "since": max(sent, int_or(history.get("since"), 0)), "items": fresh}


__all__: list[str] = [
    "CHANGING_HANDS",
    "DECIDING",
    "DROPPED",
    "FOLLOWING",
    "ITEM_TYPES",
    "after_seq",
    "int_or",
    "is_ok",
    "is_pushed_history",
    "seq_at_most",
]
