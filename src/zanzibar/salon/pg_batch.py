"""A PostgreSQL group commit as ONE statement: one round trip, no BEGIN and COMMIT.

A batch written as a transaction costs the node and the server one round trip
per statement: BEGIN, the tables' fenced UPDATE, an ``executemany`` per table
inserted into (the heaviest call of asyncpg's), COMMIT; five awaits on the
event loop and five protocol exchanges per group commit, and on a quiet salon
nearly every action is a group commit of its own. When every statement of the
batch is a plain insert or the tables' built-once fenced UPDATE (the common
case: a move stores its table's version, its history items and its game log
entries), the batch becomes one statement of data-modifying CTEs, run in
autocommit, which PostgreSQL runs as one transaction::

    WITH w0 AS (UPDATE tables SET state = z0.p0::VARCHAR, ...
                FROM unnest($1::VARCHAR[], ...) AS z0 (p0, ...)
                WHERE tables.id = z0.p2::INTEGER AND ... RETURNING 1),
         w1 AS (INSERT INTO history (table_id, ...)
                SELECT z1.p0::INTEGER, ... FROM unnest($6::INTEGER[], ...) AS z1 (p0, ...))
    SELECT CASE WHEN n = $11::INTEGER THEN n
                ELSE ('zanzibar fence: ' || n)::INTEGER END
    FROM (SELECT (SELECT count(*) FROM w0) AS n) AS zc

Each statement's SQL is SQLAlchemy's own (compiled once per statement and
columns by :class:`~zanzibar.salon.pg_writer.PgPlans`), its parameters made
columns of arrays: the SQL does not depend on how many rows the batch holds,
so asyncpg's prepared statements are reused. JSON goes as its text and is cast
back. The fence holds as in a transaction: the fenced rows changed must be as
many as the batch's changes, else the failed cast aborts the statement, and
with it everything the statement did (an error in a statement rolls its
implicit transaction back); the writer reads that error as
:class:`~zanzibar.salon.batching.Fenced`. A foreign key between two parts (a
new table and its first history items) is checked at the end of the
statement, when both rows are there. Anything else (a DELETE, an update built
per call) keeps the transaction of several statements.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.sql import Executable
from sqlalchemy.sql.dml import Insert, Update

from zanzibar.salon.batching import BUILT_ONCE, FENCE, Op, plain_insert_table

#: The error text of a fence that failed inside the statement (what the writer looks for).
FENCE_TAG = "zanzibar fence: "

#: SQLSTATE of the failed cast that carries :data:`FENCE_TAG` (invalid_text_representation).
FENCE_SQLSTATE = "22P02"

#: Each parameter cast the one statement knows how to pass as an array: the array's type.
#: JSON travels as its text (what SQLAlchemy's bind processor made) and is cast back.
ARRAY_OF = {
    "INTEGER": "INTEGER[]",
    "BIGINT": "BIGINT[]",
    "SMALLINT": "SMALLINT[]",
    "VARCHAR": "VARCHAR[]",
    "TEXT": "TEXT[]",
    "FLOAT": "FLOAT[]",
    "BOOLEAN": "BOOLEAN[]",
    "JSON": "TEXT[]",
    "JSONB": "TEXT[]",
}

#: A parameter and its cast in the asyncpg dialect's SQL (``$3::INTEGER``); what follows
#: the cast must not extend it (``::INTEGER[]``, ``::NUMERIC(4)``).
_CAST = re.compile(r"\$(\d+)::(\w+)(?![\w\[(])")
_ANY_PARAM = re.compile(r"\$\d+")

#: Kinds of part.
INSERT, FENCED_UPDATE = "insert", "fenced"

#: Built statements kept (a handful of kinds of batch).
KEPT = 256


@dataclass(frozen=True)
class Part:
    """One statement of the batch in the one statement: its kind, keys in parameter order
    and bind processors (as :class:`~zanzibar.salon.pg_writer.PgStatement`'s)."""

    kind: str
    keys: tuple[str, ...]
    processors: tuple[Any, ...]


@dataclass(frozen=True)
class OneStatement:
    """A batch's SQL and how to turn its rows into the statement's arguments."""

    sql: str
    parts: tuple[Part, ...]

    def args(self, rows: Sequence[Sequence[Mapping[str, Any]]]) -> list[Any]:
        """One array per parameter of each part (its rows' values, processed), then the
        number of fenced rows that must change (if any part is fenced)."""
        out: list[Any] = []
        fenced = 0
        for part, part_rows in zip(self.parts, rows, strict=True):
            for key, proc in zip(part.keys, part.processors, strict=True):
                if proc is None:
                    out.append([row[key] for row in part_rows])
                else:
                    out.append([proc(row[key]) for row in part_rows])
            if part.kind == FENCED_UPDATE:
                fenced += len(part_rows)
        if any(part.kind == FENCED_UPDATE for part in self.parts):
            out.append(fenced)
        return out


def part_sql(kind: str, sql: str, width: int, alias: str, first: int) -> str | None:
    """A compiled one-row statement (``sql``, parameters ``$1``..``$width``) as a CTE body
    reading its rows from ``unnest`` of arrays ``$first``.. (None: not of a known shape)."""
    casts: dict[int, str] = {}

    def column(match: re.Match[str]) -> str:
        number, cast = int(match.group(1)), match.group(2)
        casts[number] = cast
        return f"{alias}.p{number - 1}::{cast}"

    if len(_ANY_PARAM.findall(sql)) != width:
        return None
    body = _CAST.sub(column, sql)
    if sorted(casts) != list(range(1, width + 1)) or _ANY_PARAM.search(body):
        return None
    if any(cast not in ARRAY_OF for cast in casts.values()):
        return None
    arrays = ", ".join(f"${first + i}::{ARRAY_OF[casts[i + 1]]}" for i in range(width))
    names = ", ".join(f"p{i}" for i in range(width))
    source = f"unnest({arrays}) AS {alias} ({names})"
    if kind == INSERT:
        head, sep, values = body.partition(" VALUES (")
        if not sep or not head.startswith("INSERT INTO ") or not values.endswith(")"):
            return None
        values = values[:-1]
        if ")" in values or "(" in values:  # one row of plain values, nothing after it
            return None
        return f"{head} SELECT {values} FROM {source}"
    head, sep, where = body.partition(" WHERE ")
    if not sep or not head.startswith("UPDATE ") or " FROM " in head or " RETURNING " in where:
        return None
    return f"{head} FROM {source} WHERE {where} RETURNING 1"


def one_statement_sql(parts: Sequence[tuple[str, str, int]]) -> str | None:
    """The batch's one statement from its parts' (kind, compiled SQL, width)."""
    ctes: list[str] = []
    counted: list[str] = []
    first = 1
    for n, (kind, sql, width) in enumerate(parts):
        body = part_sql(kind, sql, width, f"z{n}", first)
        if body is None:
            return None
        ctes.append(f"w{n} AS ({body})")
        if kind == FENCED_UPDATE:
            counted.append(f"(SELECT count(*) FROM w{n})")
        first += width
    if not counted:  # nothing fenced: nothing to check (and no constant error for the
        return f"WITH {', '.join(ctes)} SELECT 0"  # planner to fold and raise at once)
    return (
        f"WITH {', '.join(ctes)} SELECT CASE WHEN n = ${first}::INTEGER THEN n "
        f"ELSE ('{FENCE_TAG}' || n)::INTEGER END FROM (SELECT {' + '.join(counted)} AS n) AS zc"
    )


def part_kind(statement: Executable) -> str | None:
    """What part ``statement`` can be of a one-statement batch (None: it cannot)."""
    if plain_insert_table(statement) is not None:
        return INSERT
    if isinstance(statement, Update):
        options = statement.get_execution_options()
        if options.get(BUILT_ONCE) and options.get(FENCE):
            return FENCED_UPDATE
    return None


def same_keys(params: Any) -> list[Mapping[str, Any]] | None:
    """The rows of an op's parameters if they are dicts with the same keys, else None."""
    rows = params if isinstance(params, list) else [params] if isinstance(params, dict) else None
    if not rows or not all(isinstance(row, dict) for row in rows):
        return None
    first = rows[0].keys()
    return rows if all(row.keys() == first for row in rows) else None


class OneStatements:
    """The writer's one-statement batches, built once per shape (statements and columns)."""

    def __init__(self) -> None:
        self._built: dict[tuple[Any, ...], OneStatement | None] = {}

    def of(
        self, dialect: Dialect, ops: Sequence[Op], plan: Any
    ) -> tuple[OneStatement, list[list[Mapping[str, Any]]]] | None:
        """The one statement of ``ops`` and each part's rows, or None if they do not fit
        (``plan(dialect, statement, keys)``: the writer's compiled one-row statement)."""
        shape: list[Any] = []
        rows: list[list[Mapping[str, Any]]] = []
        statements: list[tuple[str, Executable, tuple[str, ...]]] = []
        for statement, params in ops:
            if isinstance(params, list) and not params:
                continue
            kind = part_kind(statement)
            part_rows = same_keys(params) if kind is not None else None
            if kind is None or part_rows is None:
                return None
            keys = tuple(part_rows[0])
            target = statement.table if isinstance(statement, Insert) else statement
            shape.append((kind, target, keys))
            statements.append((kind, statement, keys))
            rows.append(list(part_rows))
        if not statements:
            return None
        key = tuple(shape)
        if key not in self._built:
            if len(self._built) >= KEPT:
                self._built.clear()
            self._built[key] = self._build(dialect, statements, plan)
        built = self._built[key]
        return None if built is None else (built, rows)

    @staticmethod
    def _build(
        dialect: Dialect, statements: Sequence[tuple[str, Executable, tuple[str, ...]]], plan: Any
    ) -> OneStatement | None:
        parts: list[Part] = []
        sqls: list[tuple[str, str, int]] = []
        for kind, statement, keys in statements:
            compiled = plan(dialect, statement, keys)
            if compiled is None:
                return None
            parts.append(Part(kind, compiled.keys, compiled.processors))
            sqls.append((kind, compiled.sql, len(compiled.keys)))
        sql = one_statement_sql(sqls)
        return None if sql is None else OneStatement(sql, tuple(parts))


def fence_failure(exc: BaseException) -> str | None:
    """The message of a fence that failed inside a one-statement batch, else None."""
    if getattr(exc, "sqlstate", None) != FENCE_SQLSTATE:
        return None
    text = str(exc)
    at = text.find(FENCE_TAG)
    if at < 0:
        return None
    changed = text[at + len(FENCE_TAG) :].split('"', 1)[0]
    return f"fenced writes changed {changed} rows instead of as many as the batch's changes"
