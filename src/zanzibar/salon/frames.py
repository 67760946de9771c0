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


__all__: list[str] = [
    "DROPPED",
    "FOLLOWING",
    "ITEM_TYPES",
    "int_or",
    "is_ok",
    "is_pushed_history",
    "seq_at_most",
]
