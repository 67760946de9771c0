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
                FROM json_to_recordset($1::JSON) AS z0 ("state" VARCHAR, ...)
                WHERE tables.id = z0."fence_id"::INTEGER AND ... RETURNING 1),
         w1 AS (INSERT INTO history (table_id, ...)
                SELECT z1."table_id"::INTEGER, ... FROM json_to_recordset($2::JSON)
                AS z1 ("table_id" INTEGER, ...))
    SELECT CASE WHEN n = $3::INTEGER THEN n
                ELSE ('zanzibar fence: ' || n)::INTEGER END
    FROM (SELECT (SELECT count(*) FROM w0) AS n) AS zc

Each statement's SQL is SQLAlchemy's own (compiled once per statement and
columns by :class:`~zanzibar.salon.pg_writer.PgPlans`), its rows sent as ONE
text parameter per part: the rows' dicts as a JSON array, written by orjson in
one call and read back on the server by ``json_to_recordset`` with a column
per key, each of the type SQLAlchemy casts its parameter to. (Until w28pgwire
the rows went as one typed array per column: a Python list per column, and
asyncpg's array encoder walking every element in Python, an ABC ``isinstance``
each.) A JSON column's value (a dict, a list, a number, None) goes inside
the rows' JSON as it is, whose text there is what SQLAlchemy's processor
(:func:`~zanzibar.salon.history.dump_json`) would write, and the server casts
that part of the text (JSON's null for a null, as SQLAlchemy stores None); a
history item's :class:`~zanzibar.salon.history.JSONText` goes as a string of
its text; any other value (a plain string) goes as its processor's text. So
the stored text is the same, with no Python per row for a move's rows. A
float JSON cannot write (NaN, an infinity: orjson writes ``null``) or a value
orjson refuses sends the batch the other way (a transaction of statements with
typed parameters), so what is stored never differs. The SQL does not depend on
how many rows the batch holds, so asyncpg's prepared statements are reused.
The fence holds as in a transaction: the fenced rows changed must be as
many as the batch's changes, else the failed cast aborts the statement, and
with it everything the statement did (an error in a statement rolls its
implicit transaction back); the writer reads that error as
:class:`~zanzibar.salon.batching.Fenced`. A foreign key between two parts (a
new table and its first history items) is checked at the end of the
statement, when both rows are there. Anything else (a DELETE, an update built
per call) keeps the transaction of several statements.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Collection, Mapping, Sequence
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

#: Each parameter cast the one statement knows how to read from its rows' JSON: the type
#: of the record's column. JSON travels as its text (what SQLAlchemy's bind processor made)
#: and is cast back.
COLUMN_OF = {
    "INTEGER": "INTEGER",
    "BIGINT": "BIGINT",
    "SMALLINT": "SMALLINT",
    "VARCHAR": "VARCHAR",
    "TEXT": "TEXT",
    "FLOAT": "FLOAT",
    "BOOLEAN": "BOOLEAN",
    "JSON": "TEXT",
    "JSONB": "TEXT",
}

#: A parameter and its cast in the asyncpg dialect's SQL (``$3::INTEGER``); what follows
#: the cast must not extend it (``::INTEGER[]``, ``::NUMERIC(4)``).
_CAST = re.compile(r"\$(\d+)::(\w+)(?![\w\[(])")
_ANY_PARAM = re.compile(r"\$\d+")
#: A key that is a column of the record as it is (quoted, it needs no escaping).
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: Kinds of part.
INSERT, FENCED_UPDATE = "insert", "fenced"

#: Built statements kept (a handful of kinds of batch).
KEPT = 256


#: The types of a JSON column's value that go inside the rows' JSON as they are (its text
#: there is what :func:`dump_json` writes): any other (a plain string, whose column text
#: is a JSON string literal; SQLAlchemy's ``null()``) goes through the column's processor.
#: A :class:`JSONText` goes as a string whose content is the column's text.
RAW_TYPES = frozenset({dict, list, tuple, int, float, bool, type(None), JSONText})


@dataclass(frozen=True)
class Part:
    """One statement of the batch in the one statement: its kind, the keys whose values
    go through a bind processor, the JSON columns whose values go inside the rows' JSON
    as they are (with their processor, for a value of another type), and the keys read
    as floats."""

    kind: str
    processed: tuple[tuple[str, Any], ...]
    raw: tuple[tuple[str, Any], ...]
    floats: tuple[str, ...]

    def json(self, rows: Sequence[Mapping[str, Any]]) -> str | None:
        """The rows as one JSON array of objects (None: a value JSON cannot carry exactly).

        A JSON column's value of :data:`RAW_TYPES` is written inside the array by
        orjson, as :func:`dump_json` would write it alone; the server reads that part
        of the text as it is (``COALESCE(..., 'null')``: JSON's null, as SQLAlchemy
        stores None). Checking the types and the floats runs in C (``map``), so the
        rows of a move cost no Python each.
        """
        processed = self.processed
        for key, _ in self.raw:
            if not RAW_TYPES.issuperset(map(type, map(operator.itemgetter(key), rows))):
                processed = processed + self.raw  # a plain string, say: processed
                break
        if processed:
            rows = processed_rows(rows, processed)
        for key in self.floats:  # NaN and infinities: orjson writes null, JSON has neither
            try:
                total = sum(filter(None, map(operator.itemgetter(key), rows)))
                if not math.isfinite(total):
                    return None
            except (TypeError, OverflowError):  # not a number: the typed path says why
                return None
        try:
            return orjson.dumps(rows).decode()
        except TypeError:  # orjson.JSONEncodeError: a lone surrogate, an int over 64 bits
            return None


def processed_rows(
    rows: Sequence[Mapping[str, Any]], processed: tuple[tuple[str, Any], ...]
) -> list[Mapping[str, Any]]:
    """``rows`` with each value of a ``processed`` key replaced by its processor's text
    (a row copied only if one changes: a :class:`JSONText` is that text already).

    >>> rows = [{"a": 1, "j": JSONText('{"x":1}')}, {"a": 2, "j": [1]}]
    >>> processed_rows(rows, (("j", lambda v: "<" + repr(v) + ">"),))
    [{'a': 1, 'j': '{"x":1}'}, {'a': 2, 'j': '<[1]>'}]
    """
    out: list[Mapping[str, Any]] = []
    for row in rows:
        new: dict[str, Any] | None = None
        for key, processor in processed:
            value = row[key]
            if type(value) is JSONText:  # the column's text already (dump_json keeps it)
                continue
            if new is None:
                new = dict(row)
            new[key] = processor(value)
        out.append(row if new is None else new)
    return out


@dataclass(frozen=True)
class OneStatement:
    """A batch's SQL and how to turn its rows into the statement's arguments."""

    sql: str
    parts: tuple[Part, ...]

    def args(self, rows: Sequence[Sequence[Mapping[str, Any]]]) -> list[Any] | None:
        """One JSON text per part (its rows), then the number of fenced rows that must
        change (if any part is fenced); None if a value cannot go as JSON exactly."""
        out: list[Any] = []
        fenced = 0
        for part, part_rows in zip(self.parts, rows, strict=True):
            text = part.json(part_rows)
            if text is None:
                return None
            out.append(text)
            if part.kind == FENCED_UPDATE:
                fenced += len(part_rows)
        if any(part.kind == FENCED_UPDATE for part in self.parts):
            out.append(fenced)
        return out


def casts_of(sql: str, width: int) -> dict[int, str] | None:
    """Each parameter's cast (``$3::INTEGER``: 3 -> INTEGER) of a compiled one-row
    statement with parameters ``$1``..``$width``, each once (None: not so, or a cast
    the one statement cannot read from JSON)."""
    if len(_ANY_PARAM.findall(sql)) != width:
        return None
    casts = {int(number): cast for number, cast in _CAST.findall(sql)}
    if sorted(casts) != list(range(1, width + 1)):
        return None
    if any(cast not in COLUMN_OF for cast in casts.values()):
        return None
    return casts


def part_sql(
    kind: str, sql: str, keys: Sequence[str], alias: str, param: int, raw: Collection[str] = ()
) -> str | None:
    """A compiled one-row statement (``sql``, parameters ``$1``.. named ``keys`` in order)
    as a CTE body reading its rows from ``json_to_recordset`` of parameter ``param``
    (None: not of a known shape); the JSON columns ``raw`` are read as the text of their
    value in the rows' JSON, JSON's null for a null."""
    casts = casts_of(sql, len(keys))
    if casts is None or not all(_NAME.fullmatch(key) for key in keys):
        return None

    def column(match: re.Match[str]) -> str:
        key, cast = keys[int(match.group(1)) - 1], match.group(2)
        if key in raw:
            return f"COALESCE({alias}.\"{key}\", 'null')::{cast}"
        return f'{alias}."{key}"::{cast}'

    columns = ", ".join(f'"{key}" {COLUMN_OF[casts[i + 1]]}' for i, key in enumerate(keys))
    source = f"json_to_recordset(${param}::JSON) AS {alias} ({columns})"
    if kind == INSERT:
        head, sep, values = sql.partition(" VALUES (")
        if not sep or not head.startswith("INSERT INTO ") or not values.endswith(")"):
            return None
        values = values[:-1]
        if ")" in values or "(" in values:  # one row of plain values, nothing after it
            return None
        selected = _CAST.sub(column, values)
        return (
            None
            if _ANY_PARAM.search(head + selected)
            else f"{head} SELECT {selected} FROM {source}"
        )
    head, sep, where = sql.partition(" WHERE ")
    if not sep or not head.startswith("UPDATE ") or " FROM " in head or " RETURNING " in where:
        return None
    head, where = _CAST.sub(column, head), _CAST.sub(column, where)
    if _ANY_PARAM.search(head + where):
        return None
    return f"{head} FROM {source} WHERE {where} RETURNING 1"


def one_statement_sql(
    parts: Sequence[tuple[str, str, Sequence[str], Collection[str]]],
) -> str | None:
    """The batch's one statement from its parts' (kind, compiled SQL, keys, raw JSON keys)."""
    ctes: list[str] = []
    counted: list[str] = []
    for n, (kind, sql, keys, raw) in enumerate(parts):
        body = part_sql(kind, sql, keys, f"z{n}", n + 1, raw)
        if body is None:
            return None
        ctes.append(f"w{n} AS ({body})")
        if kind == FENCED_UPDATE:
            counted.append(f"(SELECT count(*) FROM w{n})")
    if not counted:  # nothing fenced: nothing to check (and no constant error for the
        return f"WITH {', '.join(ctes)} SELECT 0"  # planner to fold and raise at once)
    return (
        f"WITH {', '.join(ctes)} SELECT CASE WHEN n = ${len(parts) + 1}::INTEGER THEN n "
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
        if built is None:
            return None
        args = built.args(rows)
        return None if args is None else (built, args)

    @staticmethod
    def _build(
        dialect: Dialect, statements: Sequence[tuple[str, Executable, tuple[str, ...]]], plan: Any
    ) -> OneStatement | None:
        parts: list[Part] = []
        sqls: list[tuple[str, str, tuple[str, ...], Collection[str]]] = []
        for kind, statement, keys in statements:
            compiled = plan(dialect, statement, keys)
            if compiled is None:
                return None
            casts = casts_of(compiled.sql, len(compiled.keys))
            if casts is None:
                return None
            processed: list[tuple[str, Any]] = []
            raw: list[tuple[str, Any]] = []
            for i, (key, proc) in enumerate(zip(compiled.keys, compiled.processors, strict=True)):
                if proc is None:
                    continue
                types = compiled.types
                is_raw = bool(types) and raw_json(dialect, types[i]) and casts[i + 1] == "JSON"
                (raw if is_raw else processed).append((key, proc))
            floats = tuple(key for i, key in enumerate(compiled.keys) if casts[i + 1] == "FLOAT")
            parts.append(Part(kind, tuple(processed), tuple(raw), floats))
            sqls.append((kind, compiled.sql, compiled.keys, {key for key, _ in raw}))
        sql = one_statement_sql(sqls)
        return None if sql is None else OneStatement(sql, tuple(parts))


def raw_json(dialect: Dialect, type_: Any) -> bool:
    """Whether a value of this column type can go inside the rows' JSON as it is: a JSON
    column whose processor writes :func:`dump_json`'s text, None as JSON's null."""
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
