"""The SQLite writer's statements, run straight on the DBAPI cursor where they can be.

What SQLAlchemy costs per statement (over 100 µs) is paid once per kind of
insert: a plain insert (and the table's fenced UPDATE, built once) is compiled
once per table and set of columns, its SQL and bind processors kept
(:class:`InsertPlans`), and each later one runs on the writer's connection's
DBAPI cursor with the same stored values. Anything else goes through
``Connection.execute`` as usual. Used by :class:`~zanzibar.salon.persistence.Store`.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import Executable
from sqlalchemy.sql.dml import Insert, Update

from zanzibar.salon.batching import FENCE, Fenced, Op, returned_to, statement_shape
from zanzibar.salon.batching import keep_returned as _keep_returned

#: What :meth:`InsertPlans.kind_of` says of a statement.
INSERT, UPDATE, OTHER = "insert", "update", "other"

#: A plan not looked for yet (None is a plan found impossible).
_UNSEEN = object()


def check_fence(statement: Executable, rowcount: int, rows: int = 1) -> None:
    """A fenced write changes exactly one row per parameter set (``rows`` of them)."""
    if statement.get_execution_options().get(FENCE) and rowcount != rows:
        raise Fenced(f"a fenced write changed {rowcount} rows instead of {rows}")


@dataclass(frozen=True)
class InsertPlan:
    """A plain insert compiled once: its SQL, and per parameter its key and bind processor.

    >>> plan = InsertPlan("INSERT ...", ("b", "a"), (None, str.upper))
    >>> plan.rows([{"a": "x", "b": 1}, {"a": "y", "b": 2}])
    [(1, 'X'), (2, 'Y')]
    >>> InsertPlan("INSERT ...", ("a",), (None,)).rows([{"a": 7}])
    [(7,)]
    """

    sql: str
    keys: tuple[str, ...]
    processors: tuple[Callable[[Any], Any] | None, ...]

    @functools.cached_property
    def _getter(self) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
        """A row's values in the plan's order, as one tuple (``itemgetter``, in C)."""
        if len(self.keys) == 1:
            key = self.keys[0]
            return lambda row: (row[key],)
        return operator.itemgetter(*self.keys)

    @functools.cached_property
    def _processed(self) -> tuple[tuple[int, Callable[[Any], Any]], ...]:
        """(position, bind processor) of the parameters that have one (most have none)."""
        return tuple((i, p) for i, p in enumerate(self.processors) if p is not None)

    def rows(self, params: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
        """The DBAPI parameters of these rows, processed as SQLAlchemy would.

        Each row's values are taken in one C call, and only the few parameters
        with a bind processor (a JSON column) pass through Python: a generator
        per row and a test per column cost more than the statement's own run.
        """
        getter, processed = self._getter, self._processed
        if not processed:
            return [getter(row) for row in params]
        out = []
        for row in params:
            values = list(getter(row))
            for index, process in processed:
                values[index] = process(values[index])
            out.append(tuple(values))
        return out


class InsertPlans:
    """The writer's compiled plain inserts, per table and set of columns.

    A plan is made only where SQLAlchemy's SQL binds exactly the given keys
    (no column default of its own to fill in, positional parameters), else
    the insert goes through ``Connection.execute`` as usual.
    """

    def __init__(self) -> None:
        self._plans: dict[tuple[Any, Any, tuple[str, ...]], InsertPlan | None] = {}
        #: The plans by statement object and keys, in front of ``_plans`` (one look-up).
        self._by_statement: dict[tuple[Any, tuple[str, ...]], InsertPlan | None] = {}
        #: What each statement object is to :func:`execute_sync` (see :meth:`kind_of`).
        self._kinds: dict[Any, str] = {}
        self._dialect: Any = None

    def kind_of(self, conn: Connection, statement: Executable) -> str:
        """:data:`INSERT` (a plain insert), :data:`UPDATE` (a built-once UPDATE with
        neither inline values nor RETURNING) or :data:`OTHER`, once per statement object.

        Most ops a change stores are module constants (``INSERT_HISTORY``, the
        fence, ``INSERT_GAME_LOG``): looking at their options and clauses again
        for every op was some 0.5 % of the salon's Python per player action. A
        statement is immutable (SQLAlchemy builds a new one for every change to
        it), so what it is never changes; the few built per call (a game's row)
        only pass through this bounded cache.
        """
        self._same_dialect(conn)
        kind = self._kinds.get(statement)
        if kind is None:
            table, built_update, _ = statement_shape(statement)
            if returned_to(statement) is not None:
                kind = OTHER  # its rows are read back: SQLAlchemy's result
            elif table is not None:
                kind = INSERT
            elif (
                built_update
                and not statement._values  # type: ignore[attr-defined]
                and not statement._returning  # type: ignore[attr-defined]
            ):
                kind = UPDATE
            else:
                kind = OTHER
            if len(self._kinds) > 256:  # bounded, as the plans
                self._kinds.clear()
            self._kinds[statement] = kind
        return kind

    def _same_dialect(self, conn: Connection) -> None:
        """One dialect per store; another one (a test's second engine) starts anew."""
        if conn.dialect is not self._dialect:
            self._dialect = conn.dialect
            self._kinds.clear()
            self._by_statement.clear()

    def plan(
        self, conn: Connection, statement: Insert | Update, keys: tuple[str, ...]
    ) -> InsertPlan | None:
        """The compiled plan of ``statement`` for rows of ``keys`` (None: not plannable)."""
        self._same_dialect(conn)
        found = self._by_statement.get((statement, keys), _UNSEEN)
        if found is not _UNSEEN:
            return found  # type: ignore[return-value]
        plan = self._plan(conn, statement, keys)
        if len(self._by_statement) > 256:
            self._by_statement.clear()
        self._by_statement[(statement, keys)] = plan
        return plan

    def _plan(
        self, conn: Connection, statement: Insert | Update, keys: tuple[str, ...]
    ) -> InsertPlan | None:
        dialect = conn.dialect
        # an insert is known by its table; an update (built once, a module constant) by itself
        target = statement.table if isinstance(statement, Insert) else statement
        cache_key = (dialect, target, keys)
        if cache_key in self._plans:
            return self._plans[cache_key]
        plan: InsertPlan | None = None
        compiled = statement.compile(dialect=dialect, column_keys=list(keys))
        order = compiled.positiontup
        binds = compiled.binds
        if (
            order is not None
            and sorted(order) == sorted(keys)
            and all(key in binds for key in order)
        ):
            processors = tuple(
                binds[key].type.dialect_impl(dialect).bind_processor(dialect) for key in order
            )
            plan = InsertPlan(compiled.string, tuple(order), processors)
        if len(self._plans) > 256:  # bounded: the salon has a handful of kinds of insert
            self._plans.clear()
        self._plans[cache_key] = plan
        return plan


def execute_sync(conn: Connection, ops: Sequence[Op], plans: InsertPlans | None = None) -> None:
    """Run ``ops`` in ``conn``'s transaction: planned ones on the cursor, the rest as usual."""
    for statement, params in ops:
        if params is not None and plans is not None:
            kind = plans.kind_of(conn, statement)
            if kind is not OTHER and _on_plan(conn, statement, params, plans, kind):
                continue
        if params is None or returned_to(statement) is not None:
            result = conn.execute(statement, params)
            check_fence(statement, result.rowcount)
            _keep_returned(statement, result)
        elif isinstance(params, list) and statement.get_execution_options().get(FENCE):
            for one in params:  # merged fenced writes: each changes its row
                check_fence(statement, conn.execute(statement, one).rowcount)
        else:
            check_fence(statement, conn.execute(statement, params).rowcount)


def _same_keys(params: Any) -> list[dict[str, Any]] | None:
    """``params`` as a non-empty list of dicts with the same keys (None: not so)."""
    if type(params) is dict:
        return [params]
    if not isinstance(params, list) or not params:
        return None
    first = params[0]
    if not isinstance(first, dict):
        return None
    if len(params) > 1:
        keys = first.keys()
        for row in params:
            if not isinstance(row, dict) or row.keys() != keys:
                return None
    return params


def _on_plan(
    conn: Connection, statement: Executable, params: Any, plans: InsertPlans, kind: str
) -> bool:
    """Run a plain insert or a built-once UPDATE (:meth:`InsertPlans.kind_of`) of rows
    with the same keys straight on the DBAPI cursor (False: not such rows, or no plan).

    An UPDATE's fence is checked on the cursor's row count, as for ``conn.execute``
    (merged fenced writes, :func:`merge_inserts`: executemany sums the row counts).
    Only statements marked :func:`built_once` qualify as UPDATEs (the table's fenced
    write, :data:`zanzibar.salon.tablestore.FENCE`): a plan is kept per statement
    object, and a statement built per call would only fill the cache.
    """
    rows = _same_keys(params)
    if rows is None:
        return False
    plan = plans.plan(conn, statement, tuple(rows[0]))  # type: ignore[arg-type]
    if plan is None:
        return False
    rowcount = on_cursor(conn, plan.sql, plan.rows(rows))
    if kind is UPDATE:
        check_fence(statement, rowcount, len(rows))
    return True


def on_cursor(conn: Connection, sql: str, parameters: list[Any]) -> int:
    """Run ``sql`` on the DBAPI cursor, once or for many rows; the row count.

    A DBAPI error is raised as SQLAlchemy raises it (``IntegrityError``, ...).
    """
    dbapi_error = conn.dialect.loaded_dbapi.Error
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        if len(parameters) == 1:
            cursor.execute(sql, parameters[0])
        else:
            cursor.executemany(sql, parameters)
        return int(cursor.rowcount)
    except dbapi_error as exc:
        raise DBAPIError.instance(sql, parameters, exc, dbapi_error, dialect=conn.dialect) from exc
    finally:
        cursor.close()
