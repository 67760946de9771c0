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

    WITH w0 AS (UPDATE tables SET state = z0."state"::VARCHAR, ...
                FROM unnest($1::VARCHAR[], ...) AS z0 ("state", ...)
                WHERE tables.id = z0."fence_id"::INTEGER AND ... RETURNING 1),
         w1 AS (INSERT INTO history (table_id, ...)
                SELECT z1."table_id"::INTEGER, ... FROM unnest($6::INTEGER[], ...)
                AS z1 ("table_id", ...))
    SELECT CASE WHEN n = $11::INTEGER THEN n
                ELSE ('zanzibar fence: ' || n)::INTEGER END
    FROM (SELECT (SELECT count(*) FROM w0) AS n) AS zc

Each statement's SQL is SQLAlchemy's own (compiled once per statement and
columns by :class:`~zanzibar.salon.pg_writer.PgPlans`), its parameters made
columns of typed arrays (binary arrays are what the server reads cheapest: see
docs/deploy.md, "Eighth round", for the rows sent as one JSON text instead):
the SQL does not depend on how many rows the batch holds, so asyncpg's
prepared statements are reused. Each column is taken from the rows in C
(``map``); a JSON column goes as its text: a history item's
:class:`~zanzibar.salon.history.JSONText` as it is, the values of a column
whose processor is :func:`~zanzibar.salon.history.dump_json` written by orjson
in C when they are of the types it writes alike (a dict, a list, a number,
None), any other through SQLAlchemy's bind processor; the server casts the
text back. The fence holds as in a transaction: the fenced rows changed must be as
many as the batch's changes, else the failed cast aborts the statement, and
with it everything the statement did (an error in a statement rolls its
implicit transaction back); the writer reads that error as
:class:`~zanzibar.salon.batching.Fenced`. A foreign key between two parts (a
new table and its first history items) is checked at the end of the
statement, when both rows are there. Anything else (a DELETE, an update built
per call) keeps the transaction of several statements.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy.engine import Dialect
from sqlalchemy.sql import Executable, sqltypes
from sqlalchemy.sql.dml import Insert

from zanzibar.salon.batching import Op, statement_shape
from zanzibar.salon.history import JSONText, dump_json

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
#: A key that is a column name as it is (quoted, it needs no escaping).
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: Kinds of part.
INSERT, FENCED_UPDATE = "insert", "fenced"

#: Built statements kept (a handful of kinds of batch).
KEPT = 256

#: The types of a JSON column's value that orjson writes as :func:`dump_json` does (any
#: other, a string above all, goes through the column's processor).
ORJSON_TYPES = frozenset({dict, list, tuple, int, float, bool, type(None)})


@dataclass(frozen=True)
class Part:
    """One statement of the batch in the one statement: its kind, and per parameter (in
    the statement's order) its key, its bind processor, and whether it is a JSON column
    written by :func:`dump_json` (see :func:`raw_json`)."""

    kind: str
    keys: tuple[str, ...]
    processors: tuple[Any, ...]
    raw: tuple[bool, ...]

    def arrays(self, rows: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
        """One list per parameter: its column of ``rows``, processed as SQLAlchemy would."""
        out: list[list[Any]] = []
        for key, processor, raw in zip(self.keys, self.processors, self.raw, strict=True):
            values = list(map(operator.itemgetter(key), rows))
            out.append(values if processor is None else processed(values, processor, raw))
        return out


def processed(values: list[Any], processor: Any, raw: bool) -> list[Any]:
    """A column's values as their processor makes them, in C where it can be: a
    :func:`dump_json` column's (``raw``) JSONTexts are their text already, and orjson
    writes its dicts, lists, numbers and None as ``dump_json`` does.

    >>> processed([JSONText("[1]"), JSONText("{}")], None, True)
    ['[1]', '{}']
    >>> processed([{"a": [1, 2.5]}, None, 3], None, True)
    ['{"a":[1,2.5]}', 'null', '3']
    >>> processed(["text", JSONText("[1]")], dump_json, True)
    ['"text"', '[1]']
    >>> processed([{"a": 1}], lambda value: "<" + repr(value) + ">", False)
    ["<{'a': 1}>"]
    """
    if raw:
        types = set(map(type, values))
        if types == {JSONText}:
            return values
        if types <= ORJSON_TYPES:
            try:
                return list(map(bytes.decode, map(orjson.dumps, values)))
            except TypeError:  # orjson.JSONEncodeError (an int over 64 bits): dump_json's way
                pass
        return [value if type(value) is JSONText else processor(value) for value in values]
    return [processor(value) for value in values]


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
            out += part.arrays(part_rows)
            if part.kind == FENCED_UPDATE:
                fenced += len(part_rows)
        if any(part.kind == FENCED_UPDATE for part in self.parts):
            out.append(fenced)
        return out


def casts_of(sql: str, width: int) -> dict[int, str] | None:
    """Each parameter's cast (``$3::INTEGER``: 3 -> INTEGER) of a compiled one-row
    statement with parameters ``$1``..``$width``, each once (None: not so, or a cast
    the one statement cannot pass as an array)."""
    if len(_ANY_PARAM.findall(sql)) != width:
        return None
    casts = {int(number): cast for number, cast in _CAST.findall(sql)}
    if sorted(casts) != list(range(1, width + 1)):
        return None
    if any(cast not in ARRAY_OF for cast in casts.values()):
        return None
    return casts


def part_sql(kind: str, sql: str, keys: Sequence[str], alias: str, first: int) -> str | None:
    """A compiled one-row statement (``sql``, parameters ``$1``.. named ``keys`` in order)
    as a CTE body reading its rows from ``unnest`` of arrays ``$first``.. (None: not of a
    known shape)."""
    casts = casts_of(sql, len(keys))
    if casts is None or not all(_NAME.fullmatch(key) for key in keys):
        return None

    def column(match: re.Match[str]) -> str:
        return f'{alias}."{keys[int(match.group(1)) - 1]}"::{match.group(2)}'

    arrays = ", ".join(f"${first + i}::{ARRAY_OF[casts[i + 1]]}" for i in range(len(keys)))
    names = ", ".join(f'"{key}"' for key in keys)
    source = f"unnest({arrays}) AS {alias} ({names})"
    if kind == INSERT:
        head, sep, values = sql.partition(" VALUES (")
        if not sep or not head.startswith("INSERT INTO ") or not values.endswith(")"):
            return None
        values = values[:-1]
        if ")" in values or "(" in values:  # one row of plain values, nothing after it
            return None
        selected = _CAST.sub(column, values)
        if _ANY_PARAM.search(head + selected):
            return None
        return f"{head} SELECT {selected} FROM {source}"
    head, sep, where = sql.partition(" WHERE ")
    if not sep or not head.startswith("UPDATE ") or " FROM " in head or " RETURNING " in where:
        return None
    head, where = _CAST.sub(column, head), _CAST.sub(column, where)
    if _ANY_PARAM.search(head + where):
        return None
    return f"{head} FROM {source} WHERE {where} RETURNING 1"


def one_statement_sql(parts: Sequence[tuple[str, str, Sequence[str]]]) -> str | None:
    """The batch's one statement from its parts' (kind, compiled SQL, keys)."""
    ctes: list[str] = []
    counted: list[str] = []
    first = 1
    for n, (kind, sql, keys) in enumerate(parts):
        body = part_sql(kind, sql, keys, f"z{n}", first)
        if body is None:
            return None
        ctes.append(f"w{n} AS ({body})")
        if kind == FENCED_UPDATE:
            counted.append(f"(SELECT count(*) FROM w{n})")
        first += len(keys)
    if not counted:  # nothing fenced: nothing to check (and no constant error for the
        return f"WITH {', '.join(ctes)} SELECT 0"  # planner to fold and raise at once)
    return (
        f"WITH {', '.join(ctes)} SELECT CASE WHEN n = ${first}::INTEGER THEN n "
        f"ELSE ('{FENCE_TAG}' || n)::INTEGER END FROM (SELECT {' + '.join(counted)} AS n) AS zc"
    )


def part_kind(statement: Executable) -> str | None:
    """What part ``statement`` can be of a one-statement batch (None: it cannot)."""
    name, built, fence = statement_shape(statement)
    if name is not None:
        return INSERT
    return FENCED_UPDATE if built and fence else None


def same_keys(params: Any) -> list[Mapping[str, Any]] | None:
    """The rows of an op's parameters if they are dicts with the same keys, else None
    (looked at in C: ``dict.keys`` refuses what is not a dict)."""
    if isinstance(params, dict):
        return [params]
    if not isinstance(params, list) or not params:
        return None
    try:
        keys = list(map(dict.keys, params))
    except TypeError:  # a row that is not a dict
        return None
    return params if keys.count(keys[0]) == len(keys) else None


class OneStatements:
    """The writer's one-statement batches, built once per shape (statements and columns)."""

    def __init__(self) -> None:
        self._built: dict[tuple[Any, ...], OneStatement | None] = {}

    def of(
        self, dialect: Dialect, ops: Sequence[Op], plan: Any
    ) -> tuple[OneStatement, list[Any]] | None:
        """The one statement of ``ops`` and its arguments, or None if they do not fit
        (``plan(dialect, statement, keys)``: the writer's compiled one-row statement)."""
        shape: list[Any] = []
        rows: list[Sequence[Mapping[str, Any]]] = []
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
            rows.append(part_rows)
        if not statements:
            return None
        key = tuple(shape)
        if key not in self._built:
            if len(self._built) >= KEPT:
                self._built.clear()
            self._built[key] = self._build(dialect, statements, plan)
        built = self._built[key]
        return None if built is None else (built, built.args(rows))

    @staticmethod
    def _build(
        dialect: Dialect, statements: Sequence[tuple[str, Executable, tuple[str, ...]]], plan: Any
    ) -> OneStatement | None:
        parts: list[Part] = []
        sqls: list[tuple[str, str, tuple[str, ...]]] = []
        for kind, statement, keys in statements:
            compiled = plan(dialect, statement, keys)
            if compiled is None:
                return None
            types = compiled.types or (None,) * len(compiled.keys)
            raw = tuple(raw_json(dialect, type_) for type_ in types)
            parts.append(Part(kind, compiled.keys, compiled.processors, raw))
            sqls.append((kind, compiled.sql, compiled.keys))
        sql = one_statement_sql(sqls)
        return None if sql is None else OneStatement(sql, tuple(parts))


def raw_json(dialect: Dialect, type_: Any) -> bool:
    """Whether this column type's processor writes :func:`dump_json`'s text for every
    value (None as JSON's null): a JSON column of the salon's engines, which
    :func:`processed` may write with orjson in C."""
    return (
        isinstance(type_, sqltypes.JSON)
        and not type_.none_as_null
        and getattr(dialect, "_json_serializer", None) is dump_json
    )


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
