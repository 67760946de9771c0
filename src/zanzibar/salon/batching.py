"""The statements of one group commit, merged so that each kind runs once.

The writer (``salon/persistence.py``) commits everything queued in one
transaction; :func:`merge_inserts` turns the jobs' statements into fewer,
larger ones: every plain insert into one table becomes one ``executemany``,
and (on SQLite, whose ``executemany`` sums the row counts) the tables' fenced
writes too. The merge never changes what the batch stores: a row moves only
earlier, and only where nothing that could see the difference runs between.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from sqlalchemy.sql import Executable
from sqlalchemy.sql.dml import Insert, Update

log = logging.getLogger("zanzibar.salon.persistence")

#: Seconds from a change's write to its commit's end above which the commit is logged at
#: info (``serve --log-level info``, beside the event loop's stalls): the change waited
#: in the writer's queue behind a slow commit, or its own commit was slow.
SLOW_WRITE_S = 0.1


class Fenced(Exception):
    """A fenced write matched no row: another process claimed the table since.

    The transaction it ran in is rolled back; in a group commit the other
    jobs are then retried one by one, so only the fenced one fails.
    """


#: A statement and its parameters (a dict, or a list of dicts for executemany).
Op = tuple[Executable, Any]

#: Execution option marking a fenced statement: it must change exactly one row.
FENCE = "zanzibar_fence"

#: Execution option marking an UPDATE built once and reused (a module constant): the
#: SQLite writer compiles it once per set of parameters and runs it on the DBAPI cursor.
BUILT_ONCE = "zanzibar_built_once"

#: Execution option of a statement with RETURNING whose rows its writer wants: a
#: :class:`Returned` that the store fills when it runs the statement (:func:`returning`).
RETURNS = "zanzibar_returns"


def fenced(statement: Executable) -> Executable:
    """``statement`` (an UPDATE) that must change exactly one row, else :class:`Fenced`."""
    return statement.execution_options(**{FENCE: True})


def built_once(statement: Executable) -> Executable:
    """``statement`` (an UPDATE made once, at import) marked for the writer's compiled path."""
    return statement.execution_options(**{BUILT_ONCE: True})


def note_slow_write(queued: float, started: float, ended: float, jobs: int, waiting: int) -> None:
    """Log a group commit whose oldest change (written at ``queued``) waited over
    :data:`SLOW_WRITE_S` for it: how long in the queue, how long the commit itself
    took, and how many were queued behind it (times in ``perf_counter`` seconds)."""
    if ended - queued <= SLOW_WRITE_S or not log.isEnabledFor(logging.INFO):
        return
    log.info(
        "slow write: a commit of %d changes took %.0f ms, the oldest waited %.0f ms before it"
        " (%d more queued meanwhile)",
        jobs,
        (ended - started) * 1000,
        (started - queued) * 1000,
        waiting,
    )


class Returned:
    """The rows a written statement's RETURNING gave (filled by the store's writer).

    Read them once the write returned: the transaction committed. A batch that failed
    and ran again job by job fills them again, from the run that committed.
    """

    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []


def returning(statement: Executable) -> tuple[Executable, Returned]:
    """``statement`` (built per call, with RETURNING) marked so that the writer keeps its
    rows, and where they will be: ``UPDATE ... RETURNING`` is one statement, so what it
    read is what it wrote, whatever else runs at the same moment."""
    returned = Returned()
    return statement.execution_options(**{RETURNS: returned}), returned


def returned_to(statement: Executable) -> Returned | None:
    """Where the rows of ``statement``'s RETURNING go (None: nobody reads them)."""
    returned: Returned | None = statement.get_execution_options().get(RETURNS)
    return returned


def keep_returned(statement: Executable, result: Any) -> None:
    """The rows of a statement's RETURNING (a SQLAlchemy result), for whoever wrote it."""
    returned = returned_to(statement)
    if returned is not None:
        returned.rows = [tuple(row) for row in result.fetchall()]


def merge_inserts(batches: Sequence[Sequence[Op]], fences: bool = True) -> list[Op]:
    """The ops of several jobs in order, the plain inserts into one table merged, and
    (``fences``) the built-once fenced updates of the same columns too.

    All rows inserted into one table run as one ``executemany`` at the place of
    that table's first insert. Rows only ever move earlier, and never past a
    statement that could tell: a merged group is closed (the next rows start a
    new one) once another statement on its table runs after it (a job's
    ``DELETE ... WHERE table_id`` before its new ``table_members`` rows must
    not find them already there), or an insert into a table its rows refer to
    (a new table's history must come after the table: PostgreSQL checks a
    foreign key at once). The tables' fenced writes (one per change, each the
    first op of its job: an actor stores one change at a time) run as one
    ``executemany`` whose row count must be one per change; a stale version
    fails the batch, whose jobs then run one by one, as for any failure.
    Without ``fences`` (PostgreSQL's driver does not count the rows of an
    ``executemany``) each fenced write runs on its own.

    >>> from sqlalchemy import insert, update
    >>> from zanzibar.salon import models as m
    >>> ops = merge_inserts([
    ...     [(insert(m.history), [{"seq": 1}]), (update(m.tables), {"state": "playing"})],
    ...     [(insert(m.history), {"seq": 2}), (insert(m.game_log), [{"idx": 0}])],
    ... ])
    >>> [(type(stmt).__name__, params) for stmt, params in ops]  # doctest: +NORMALIZE_WHITESPACE
    [('Insert', [{'seq': 1}, {'seq': 2}]), ('Update', {'state': 'playing'}),
     ('Insert', [{'idx': 0}])]
    """
    out: list[Op] = []
    rows_of: dict[Any, list[Any]] = {}
    table_of: dict[Any, Any] = {}
    for ops in batches:
        for statement, params in ops:
            key = _merge_key(statement, params, fences)
            if key is not None and key in rows_of:
                rows_of[key].extend(params if isinstance(params, list) else [params])
                continue
            if key is None:
                out.append((statement, params))
            else:
                rows_of[key] = list(params if isinstance(params, list) else [params])
                table_of[key] = getattr(statement, "table", None)
                out.append((statement, rows_of[key]))
            for closed in _closed_by(statement, key, table_of):
                del rows_of[closed], table_of[closed]
    return out


def _closed_by(statement: Executable, key: Any, table_of: dict[Any, Any]) -> list[Any]:
    """The open groups ``statement`` (just placed, as group ``key`` or alone) closes:
    those of its table, and, for an insert, those whose rows refer to its table."""
    table = getattr(statement, "table", None)
    name = getattr(table, "name", None)
    if name is None:  # not known: nothing may move past it
        return [other for other in table_of if other != key]
    inserted = isinstance(statement, Insert)
    return [
        other
        for other, group in table_of.items()
        if other != key
        and (
            group is None
            or group.name == name
            or (inserted and any(fk.column.table.name == name for fk in group.foreign_keys))
        )
    ]


def _merge_key(statement: Executable, params: Any, fences: bool = True) -> Any:
    """What ops :func:`merge_inserts` runs together share (None: run on its own)."""
    if params is None:
        return None
    name, built, fence = statement_shape(statement)
    if name is not None:
        return name
    if built and isinstance(params, dict):
        return (statement, frozenset(params)) if fences and fence else None
    return None


#: :func:`statement_shape`'s answers, per statement object (bounded).
_SHAPES: dict[Any, tuple[str | None, bool, bool]] = {}


def statement_shape(statement: Executable) -> tuple[str | None, bool, bool]:
    """A statement's plain insert's table (:func:`plain_insert_table`), whether it is a
    built-once UPDATE, whether it is fenced: looked at once per statement object.

    A statement is immutable (SQLAlchemy makes a new one for any change to it), and
    most of a change's are module constants (the fence, ``INSERT_HISTORY``,
    ``INSERT_GAME_LOG``): looking at their clauses and options again for every op of
    every group commit was a tenth of the PostgreSQL writer's Python per change. The
    few built per call only pass through this bounded cache.
    """
    shape = _SHAPES.get(statement)
    if shape is None:
        options = statement.get_execution_options()
        built = isinstance(statement, Update) and bool(options.get(BUILT_ONCE))
        shape = (plain_insert_table(statement), built, bool(options.get(FENCE)))
        if len(_SHAPES) >= 256:
            _SHAPES.clear()
        _SHAPES[statement] = shape
    return shape


def plain_insert_table(statement: Executable) -> str | None:
    """The table of an ``insert(table)`` without inline values or RETURNING, else None."""
    if not isinstance(statement, Insert):
        return None
    if statement._values or statement._multi_values or statement._returning:
        return None
    return str(statement.table.name)
