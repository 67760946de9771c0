"""The merge of a group commit's statements: fewer statements, the same rows stored."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, update

from zanzibar.salon import models as m
from zanzibar.salon.batching import merge_inserts
from zanzibar.salon.tablestore import FENCE


def _shape(ops: list[Any]) -> list[tuple[str, str, Any]]:
    return [(type(stmt).__name__, stmt.table.name, params) for stmt, params in ops]


def test_rows_never_move_before_a_delete_of_their_table() -> None:
    """Two tables' seat changes in one batch: each deletes its moved user's row, then
    inserts the new one. The second table's new row must not run before its delete
    (it would be deleted: the user would be missing from that table's places)."""
    rows = m.table_members

    def seat(table: int, user: int) -> list[Any]:
        where = (rows.c.table_id == table) & rows.c.user_id.in_([user])
        return [
            (delete(rows).where(where), None),
            (insert(rows), [{"table_id": table, "user_id": user, "seat": 0}]),
        ]

    merged = merge_inserts([seat(5, 1), seat(6, 2)])
    assert [(kind, table) for kind, table, _ in _shape(merged)] == [
        ("Delete", "table_members"),
        ("Insert", "table_members"),
        ("Delete", "table_members"),
        ("Insert", "table_members"),
    ]
    assert merged[3][1] == [{"table_id": 6, "user_id": 2, "seat": 0}]


def test_a_child_row_never_moves_before_its_new_parent() -> None:
    """A history row of a table made in the same batch comes after the table's row
    (PostgreSQL checks foreign keys at each statement); the rows of tables made earlier
    still merge."""
    merged = merge_inserts(
        [
            [(insert(m.history), {"table_id": 1, "seq": 9})],
            [(insert(m.tables), {"id": 2}), (insert(m.history), {"table_id": 2, "seq": 1})],
            [(insert(m.tables), {"id": 3}), (insert(m.history), {"table_id": 3, "seq": 1})],
        ]
    )
    assert _shape(merged) == [
        ("Insert", "history", [{"table_id": 1, "seq": 9}]),
        ("Insert", "tables", [{"id": 2}, {"id": 3}]),
        ("Insert", "history", [{"table_id": 2, "seq": 1}, {"table_id": 3, "seq": 1}]),
    ]


def test_fenced_writes_merge_only_when_asked() -> None:
    """On SQLite the tables' fenced writes of a batch are one ``executemany`` (its row
    count is checked); on PostgreSQL (``fences=False``) each runs alone, its inserts
    still merged."""

    def change(table: int) -> list[Any]:
        fence = {"state": "playing", "version": 2}
        fence |= {"fence_id": table, "fence_epoch": 1, "fence_version": 1}
        return [(FENCE, fence), (insert(m.history), {"table_id": table, "seq": 2})]

    together = merge_inserts([change(7), change(8)])
    assert [(kind, len(params)) for kind, _, params in _shape(together)] == [
        ("Update", 2),
        ("Insert", 2),
    ]
    apart = merge_inserts([change(7), change(8)], fences=False)
    assert [(kind, table) for kind, table, _ in _shape(apart)] == [
        ("Update", "tables"),
        ("Insert", "history"),
        ("Update", "tables"),
    ]
    assert apart[1][1] == [{"table_id": 7, "seq": 2}, {"table_id": 8, "seq": 2}]
    assert apart[2][1]["fence_id"] == 8


def test_an_update_of_a_table_closes_its_insert_group() -> None:
    """A row inserted by a later job must not exist yet when an earlier job's update of
    that table runs (the update could match it)."""
    games = m.games
    merged = merge_inserts(
        [
            [(insert(games), {"id": 1}), (update(games).where(games.c.id > 0), {"ended": 1.0})],
            [(insert(games), {"id": 2})],
        ]
    )
    assert [(kind, params) for kind, _, params in _shape(merged)] == [
        ("Insert", [{"id": 1}]),
        ("Update", {"ended": 1.0}),
        ("Insert", [{"id": 2}]),
    ]
