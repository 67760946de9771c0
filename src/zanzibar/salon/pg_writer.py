"""The PostgreSQL writer's group commit, run on the asyncpg connection itself.

Through SQLAlchemy's async layer every statement of a group commit paid a
greenlet switch, an execution context, a cursor adapter and a result object
(about a fifth of a loaded node's event loop in py-spy, more than the driver's
own work). Here the writer keeps one connection and runs each statement's SQL,
compiled by SQLAlchemy for the asyncpg dialect (so the SQL, the casts and the
stored values are SQLAlchemy's own: its bind processors serialise the JSON
columns), straight on the asyncpg connection:

* a plain insert, or a built-once UPDATE, is compiled once per statement and
  set of columns (:class:`PgPlans`); a batch's rows of one insert go as one
  ``executemany`` (the driver sends them in one round trip);
* the tables' fenced writes of a batch with the same columns become ONE
  ``UPDATE tables SET ... FROM (VALUES (...), (...)) AS v WHERE id = v.id AND
  epoch = v.epoch AND version = v.version``, whose row count must be one per
  change (asyncpg counts no rows of an ``executemany``): a stale one fails the
  whole batch, whose jobs are then written one by one, as before;
* any other statement (built per call: a game's end, a table's members) is
  compiled when met, its IN lists expanded to plain parameters.

A driver error is raised as SQLAlchemy raises it (``IntegrityError``...), so
the salon's handlers see the same exceptions on either path.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql import Executable
from sqlalchemy.sql.dml import Insert, Update

from zanzibar.salon.batching import (
    BUILT_ONCE,
    FENCE,
    Fenced,
    Op,
    plain_insert_table,
    returned_to,
)
from zanzibar.salon.pg_batch import OneStatements, fence_failure

#: A parameter of the asyncpg dialect's SQL: ``$3`` with its cast (``$3::INTEGER``).
_PARAM = re.compile(r"\$(\d+)(::\w+)?")

#: The writer's session. Its statements' plans are made once, never per call: they are few
#: and always of one shape (an UPDATE by primary key, inserts, the one-statement batch of
#: ``salon/pg_batch.py``), but PostgreSQL plans a prepared statement afresh for each of its
#: first five runs and keeps doing so when the generic plan's estimate looks dearer, which
#: for the one-statement batch it does: planning then cost the server more than running it
#: (0.48 against 0.25 ms of its CPU per batch of one change, measured). And its joins are
#: nested loops: the fenced rows of a batch (``UPDATE tables ... FROM unnest(...)``, a few
#: rows, estimated at ten) are found by the primary key, where the planner's own choice was
#: a hash join over a sequential scan of every row of ``tables`` (dead versions included) at
#: each commit. The writer's statements all address rows by key: no other join is hurt.
WRITER_SETTINGS = (
    "SET plan_cache_mode = force_generic_plan; SET enable_hashjoin = off;"
    " SET enable_mergejoin = off"
)

#: Fenced writes merged into one statement at most (asyncpg takes 32,767 parameters).
MERGED_ROWS = 500

#: Seconds at least between the starts of two group commits of a node's writer while
#: changes come faster than its commits (the last batch held several jobs, or one came
#: while it committed): waiting out the rest of the spacing lets the next commit take what
#: came meanwhile. Nearly all of PostgreSQL's CPU per change is the commit's fixed part,
#: whatever it holds: a ``perf`` of the writer's backend under ``bench_pg_store.py
#: --stream`` spent 27 % in the WAL flush (``XLogFlush``: ``fdatasync``, which a SQLite
#: node's ``synchronous=NORMAL`` commit never pays), 14 % starting the executor (the
#: batch's plan tree, set up at every run), 10 % in the foreign-key checks, ~10 % in the
#: socket; the rows' own inserts and updates under 6 %. Measured
#: apart (--stream 100,200,12: one node's changes at 200 a second over 100 tables), per
#: change, spacing 15 / 20 / 25 / 30 ms: commits 0.28-0.31 / 0.24 / 0.19 / 0.165, the
#: server's CPU 0.23-0.29 / 0.21-0.23 / 0.16-0.19 / 0.17 ms, the bench process's (its
#: writer and the load it makes) 0.37-0.48 /
#: 0.39-0.46 / 0.34-0.38 / 0.37-0.38 ms, median wait 14-19 / 20 / 21-24 / 22-24 ms
#: (docs/deploy.md, "Seventh round"; 15 ms was the sixth round's choice, 0.69 commits per
#: action before it). Past 25 ms the commits fall little more. It caps a node at 40
#: commits a second under load and adds at most this to an action's latency; a writer
#: alone (a quiet salon, a test writing in sequence) never waits. Durability is unchanged:
#: a change is acknowledged only once committed. SQLite commits inline, without it.
COMMIT_SPACING = 0.025


@dataclass(frozen=True)
class PgStatement:
    """SQL compiled for asyncpg, and per positional parameter its key and bind processor
    (and its SQLAlchemy type, where known)."""

    sql: str
    keys: tuple[str, ...]
    processors: tuple[Callable[[Any], Any] | None, ...]
    types: tuple[Any, ...] = ()

    def args(self, row: Mapping[str, Any]) -> list[Any]:
        """The driver's arguments for one parameter set, processed as SQLAlchemy would."""
        return [
            row[key] if proc is None else proc(row[key])
            for key, proc in zip(self.keys, self.processors, strict=True)
        ]


def compile_for(dialect: Dialect, statement: Executable, params: Mapping[str, Any] | None) -> Any:
    """SQLAlchemy's compiled form of ``statement`` for these parameters' columns."""
    keys = list(params) if params is not None else None
    return statement.compile(dialect=dialect, column_keys=keys)  # type: ignore[attr-defined]


def statement_of(compiled: Any, dialect: Dialect) -> PgStatement | None:
    """A :class:`PgStatement` of a compiled statement (None: not positional, say)."""
    order = compiled.positiontup
    if order is None:
        return None
    try:
        processors = [_processor(compiled, key, dialect) for key in order]
        types = [_bind(compiled, key).type for key in order]
    except KeyError:
        return None
    return PgStatement(compiled.string, tuple(order), tuple(processors), tuple(types))


def _bind(compiled: Any, key: str) -> Any:
    """The bind parameter ``key`` of a compiled statement (KeyError: no such parameter)."""
    binds = compiled.binds
    bind = binds.get(key)
    if bind is None:  # an IN list's expanded parameter (``user_id_1_2``): its bind's type
        bind = binds.get(key.rsplit("_", 1)[0])
    if bind is None:
        raise KeyError(key)
    return bind


def _processor(compiled: Any, key: str, dialect: Dialect) -> Callable[[Any], Any] | None:
    """The bind processor of parameter ``key`` (KeyError: no such parameter)."""
    bind = _bind(compiled, key)
    processor: Callable[[Any], Any] | None = bind.type.dialect_impl(dialect).bind_processor(dialect)
    return processor


class PgPlans:
    """The writer's statements compiled once: plain inserts per table and columns,
    built-once updates per statement and columns (a statement built per call is not kept)."""

    def __init__(self) -> None:
        self._plans: dict[tuple[Any, tuple[str, ...]], PgStatement | None] = {}
        self._merged: dict[tuple[Any, tuple[str, ...], int], str | None] = {}

    def kept(self, dialect: Dialect, statement: Executable, keys: tuple[str, ...]) -> bool:
        """Whether ``statement`` is one compiled once (a plain insert or a built-once update)."""
        del dialect, keys
        if plain_insert_table(statement) is not None:
            return True
        return isinstance(statement, Update) and bool(
            statement.get_execution_options().get(BUILT_ONCE)
        )

    def plan(
        self, dialect: Dialect, statement: Executable, keys: tuple[str, ...]
    ) -> PgStatement | None:
        """The compiled statement for rows with exactly ``keys`` (None: SQLAlchemy adds some)."""
        target = statement.table if isinstance(statement, Insert) else statement
        cache_key = (target, keys)
        if cache_key in self._plans:
            return self._plans[cache_key]
        compiled = compile_for(dialect, statement, dict.fromkeys(keys))
        plan = statement_of(compiled, dialect)
        if plan is not None and sorted(plan.keys) != sorted(keys):
            plan = None  # a column default of SQLAlchemy's own: leave it to construct_params
        if len(self._plans) > 256:  # bounded: a handful of kinds of statement
            self._plans.clear()
        self._plans[cache_key] = plan
        return plan

    def merged_update(self, statement: Executable, plan: PgStatement, rows: int) -> str | None:
        """``plan`` (a one-row UPDATE ... WHERE) for ``rows`` parameter sets in ONE statement:
        ``UPDATE t SET c = v.p0 ... FROM (VALUES (...), ...) AS v (p0, ...) WHERE ... v.pN``.
        None if its SQL is not of that simple shape (then each row runs on its own)."""
        cache_key = (statement, plan.keys, rows)
        if cache_key in self._merged:
            return self._merged[cache_key]
        sql = _merge_update_sql(plan.sql, len(plan.keys), rows)
        if len(self._merged) > 256:
            self._merged.clear()
        self._merged[cache_key] = sql
        return sql


def _merge_update_sql(sql: str, width: int, rows: int) -> str | None:
    head, sep, where = sql.partition(" WHERE ")
    if not sep or not head.startswith("UPDATE ") or " FROM " in head or " RETURNING " in where:
        return None
    casts: dict[int, str] = {}

    def alias(match: re.Match[str]) -> str:
        number = int(match.group(1))
        casts[number] = match.group(2) or ""
        return f"zv.p{number - 1}"

    head = _PARAM.sub(alias, head)
    where = _PARAM.sub(alias, where)
    if sorted(casts) != list(range(1, width + 1)):
        return None
    values = ", ".join(
        "(" + ", ".join(f"${r * width + i}{casts[i]}" for i in range(1, width + 1)) + ")"
        for r in range(rows)
    )
    names = ", ".join(f"p{i}" for i in range(width))
    return f"{head} FROM (VALUES {values}) AS zv ({names}) WHERE {where}"


def _rowcount(status: str) -> int:
    """The row count of a command status (``UPDATE 3``, ``INSERT 0 1``, ``DELETE 0``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


async def run_ops(raw: Any, dialect: Dialect, ops: Sequence[Op], plans: PgPlans) -> None:
    """Run ``ops`` on the asyncpg connection ``raw`` (inside its open transaction).

    Raises :class:`PgFenced` when a fenced statement changed another number of
    rows than it must; a driver error comes as the driver raised it.
    """
    for statement, params in ops:
        fence = bool(statement.get_execution_options().get(FENCE))
        rows = params if isinstance(params, list) else None
        if rows is not None and not rows:
            continue
        one = params if isinstance(params, dict) else None
        keys = tuple(rows[0] if rows else one or ())
        if (
            rows is not None
            and plans.kept(dialect, statement, keys)
            and all(isinstance(r, dict) and r.keys() == rows[0].keys() for r in rows)
        ):
            plan = plans.plan(dialect, statement, keys)
            if plan is not None:
                await _run_rows(raw, statement, plan, rows, fence, plans)
                continue
        if rows is not None:  # rows the plan cannot take: each on its own
            for row in rows:
                await _run_one(raw, dialect, statement, row, fence, plans)
            continue
        await _run_one(raw, dialect, statement, one, fence, plans)


async def _run_one(
    raw: Any,
    dialect: Dialect,
    statement: Executable,
    params: Mapping[str, Any] | None,
    fence: bool,
    plans: PgPlans,
) -> None:
    keys = tuple(params or ())
    plan = plans.plan(dialect, statement, keys) if plans.kept(dialect, statement, keys) else None
    if plan is None:
        # built for this call: compiled now, its IN lists expanded to plain parameters
        compiled = compile_for(dialect, statement, params)
        state = compiled.construct_expanded_state(params)
        args = []
        for key, value in zip(state.positiontup or (), state.positional_parameters, strict=True):
            proc = _processor(compiled, key, dialect)
            args.append(value if proc is None else proc(value))
        sql = state.statement
    else:
        args, sql = plan.args(params or {}), plan.sql
    returned = returned_to(statement)
    if returned is not None:  # RETURNING: its rows, for whoever wrote it (not fenced)
        returned.rows = [tuple(record) for record in await raw.fetch(sql, *args)]
        return
    status = await raw.execute(sql, *args)
    if fence and _rowcount(status) != 1:
        raise Fenced(f"a fenced write changed {_rowcount(status)} rows instead of 1")


async def _run_rows(
    raw: Any,
    statement: Executable,
    plan: PgStatement,
    rows: list[Any],
    fence: bool,
    plans: PgPlans,
) -> None:
    if not fence:
        if len(rows) == 1:
            await raw.execute(plan.sql, *plan.args(rows[0]))
        else:
            await raw.executemany(plan.sql, [plan.args(row) for row in rows])
        return
    for start in range(0, len(rows), MERGED_ROWS):
        chunk = rows[start : start + MERGED_ROWS]
        sql = plan.sql if len(chunk) == 1 else plans.merged_update(statement, plan, len(chunk))
        if sql is None:
            for row in chunk:
                status = await raw.execute(plan.sql, *plan.args(row))
                if _rowcount(status) != 1:
                    raise Fenced(f"a fenced write changed {_rowcount(status)} rows instead of 1")
            continue
        args = [arg for row in chunk for arg in plan.args(row)]
        changed = _rowcount(await raw.execute(sql, *args))
        if changed != len(chunk):
            raise Fenced(f"fenced writes changed {changed} rows instead of {len(chunk)}")


def as_sqlalchemy_error(exc: BaseException, adapted: Any, dialect: Dialect) -> Exception | None:
    """The exception SQLAlchemy would raise for a driver error (None: not the driver's).

    The asyncpg adapter translates it to its DBAPI class (``IntegrityError``...),
    which :meth:`DBAPIError.instance` wraps as ``sqlalchemy.exc`` does; a lost
    connection is marked ``connection_invalidated``.
    """
    dbapi_error = dialect.loaded_dbapi.Error
    translated: BaseException = exc
    if not isinstance(exc, dbapi_error):
        try:
            adapted._handle_exception(exc)
        except dbapi_error as adapted_exc:
            translated = adapted_exc
        except Exception:
            return None
    if not isinstance(translated, dbapi_error):
        return None
    lost = bool(dialect.is_disconnect(translated, adapted, None))
    return DBAPIError.instance(
        None, None, translated, dbapi_error, connection_invalidated=lost, dialect=dialect
    )


class PgWriter:
    """The writer's side of a PostgreSQL store: one kept connection, compiled statements."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._conn: AsyncConnection | None = None
        #: Its pooled connection (asked once: SQLAlchemy answers through a greenlet).
        self._proxied: Any = None
        self._plans = PgPlans()
        self._one = OneStatements()
        #: Batches sent as one statement, and as a transaction of several (for tests).
        self.one_statement = 0
        self.transactions = 0

    async def commit(self, ops: Sequence[Op]) -> None:
        """Run ``ops`` in one transaction and commit it: as ONE statement when they are
        plain inserts and fenced updates (``salon/pg_batch.py``), else statement by
        statement between BEGIN and COMMIT.

        A statement that found its connection dead (a database restart) is run
        again on a new one, with the whole transaction: nothing of it was
        committed. A failed COMMIT is not: its outcome is unknown.
        """
        one = self._one.of(self.engine.dialect, ops, self._plans.plan)
        if one is not None:
            self.one_statement += 1
            await self._commit_one(one[0].sql, one[1])
            return
        self.transactions += 1
        for attempt in (0, 1):
            conn, proxied = await self._connection()
            adapted, raw = proxied.dbapi_connection, proxied.driver_connection
            assert raw is not None
            transaction = None
            try:
                transaction = raw.transaction()  # raises at once if the server closed it
                await transaction.start()
                await run_ops(raw, conn.dialect, ops, self._plans)
            except Exception as exc:
                error = self._error(exc, adapted, conn.dialect)
                lost = bool(getattr(error, "connection_invalidated", False)) or raw.is_closed()
                lost = lost or _unsent(exc)
                if lost:
                    # as SQLAlchemy does on a disconnect: every pooled connection older than
                    # this one is replaced at its next checkout (a restart killed them all)
                    with contextlib.suppress(Exception):
                        self.engine.sync_engine.pool._invalidate(proxied, exc)
                if lost or transaction is None or not await _rolled_back(transaction):
                    await self.close()
                if attempt == 0 and lost:
                    continue
                if error is exc:
                    raise
                raise error from exc
            try:
                await transaction.commit()
            except Exception as exc:
                await self.close()
                raise self._error(exc, adapted, conn.dialect) from exc
            return

    async def _connection(self) -> tuple[AsyncConnection, Any]:
        """The writer's kept connection and its pooled connection, opened with
        :data:`WRITER_SETTINGS` if there is none."""
        conn = self._conn
        if conn is not None and self._proxied is not None:
            return conn, self._proxied
        if conn is None:
            conn = await self.engine.connect()
            proxied = await conn.get_raw_connection()
            raw = proxied.driver_connection
            assert raw is not None
            try:
                await raw.execute(WRITER_SETTINGS)
            except Exception as exc:
                with contextlib.suppress(Exception):
                    await conn.invalidate()
                raise self._error(exc, proxied.dbapi_connection, conn.dialect) from exc
            self._conn = conn
        self._proxied = await conn.get_raw_connection()
        return conn, self._proxied

    async def _commit_one(self, sql: str, args: list[Any]) -> None:
        """Run a one-statement batch in autocommit: it commits, or changes nothing.

        A connection found closed before the statement leaves is replaced first.
        A statement the server refused is rolled back whole, so it runs again on a
        new connection if the refusal was the server going away (a restart); one
        whose connection broke without an answer may have committed: its error is
        raised (the outcome is unknown, as for a failed COMMIT).
        """
        for attempt in (0, 1):
            conn, proxied = await self._connection()
            adapted, raw = proxied.dbapi_connection, proxied.driver_connection
            assert raw is not None
            dialect = conn.dialect
            if raw.is_closed():  # closed by a restart while idle: nothing was sent
                with contextlib.suppress(Exception):
                    self.engine.sync_engine.pool._invalidate(proxied, None)
                await self.close()
                if attempt == 0:
                    continue
            try:
                await raw.execute(sql, *args)
            except Exception as exc:
                refused = fence_failure(exc)
                if refused is not None:
                    raise Fenced(refused) from None
                error = self._error(exc, adapted, dialect)
                unsent = _unsent(exc)
                lost = bool(getattr(error, "connection_invalidated", False)) or raw.is_closed()
                if lost or unsent:
                    with contextlib.suppress(Exception):
                        self.engine.sync_engine.pool._invalidate(proxied, exc)
                    await self.close()
                    if attempt == 0 and (unsent or _answered(exc)):
                        continue
                if error is exc:
                    raise
                raise error from exc
            return

    @staticmethod
    def _error(exc: Exception, adapted: Any, dialect: Dialect) -> Exception:
        if isinstance(exc, Fenced):
            return exc
        return as_sqlalchemy_error(exc, adapted, dialect) or exc

    async def close(self) -> None:
        """Give the connection up (invalidated: its state after a failure is not known)."""
        conn, self._conn = self._conn, None
        self._proxied = None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.invalidate()
            with contextlib.suppress(Exception):
                await conn.close()


def _unsent(exc: BaseException) -> bool:
    """Whether the driver refused to send the statement because its connection is still in
    another exchange: the server's farewell (a restart) read, its closing not yet. Nothing
    was sent, so nothing was committed: the statement runs again on a new connection."""
    try:
        from asyncpg.exceptions import InternalClientError  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - the writer runs on asyncpg only
        return False
    return isinstance(exc, InternalClientError) and "another operation" in str(exc)


def _answered(exc: BaseException) -> bool:
    """Whether the server itself refused the statement (an error it sent: the statement's
    transaction was rolled back), not a connection that broke on the way (class 08)."""
    sqlstate = getattr(exc, "sqlstate", None)
    return isinstance(sqlstate, str) and not sqlstate.startswith("08")


async def _rolled_back(transaction: Any) -> bool:
    """Roll a failed transaction back; False if the connection cannot even do that."""
    try:
        await transaction.rollback()
    except Exception:
        return False
    return True
