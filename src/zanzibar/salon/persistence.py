"""Storage: the async engine, migrations at start, and one writer that batches.

Every change the salon acknowledges goes through :meth:`Store.write`, which
returns only once the change is committed. Writes wait in a queue; a single
writer task takes everything queued, runs it in ONE transaction and commits,
so under load many tables share one commit (group commit) while an idle salon
commits each action at once. If a batch fails, its jobs are retried one by
one so that one bad job cannot sink the others.

With SQLite the writer runs each batch on a plain (synchronous) SQLAlchemy
connection *inline*, in the event loop: a WAL commit with ``synchronous=NORMAL``
appends to the log without fsync and takes about a tenth of a millisecond,
far less than handing the work to a thread (every hand-over of the GIL waits
for the OS to schedule the other thread, tens of milliseconds on a loaded
machine; aiosqlite pays that once per statement). The fsyncs happen at WAL
checkpoints, which a background thread runs every second on its own
connection (automatic checkpoints are off on the writer's connection). With
``durable=True`` (fsync at every commit) the batch runs in one worker thread
instead, so the loop never waits for the disk. Other databases (PostgreSQL
through asyncpg) are written through the async engine, a batch's inserts merged
per table (``salon/batching.py``); reads run in autocommit (no BEGIN and
ROLLBACK around a lone SELECT) and nothing pings a connection before use
(:func:`make_engine` says why, and what happens after a restart).

On that SQLite writer, what SQLAlchemy costs per statement (over 100 µs) is
paid once per kind of insert: a plain insert is compiled once per table and
set of columns (SQLAlchemy's SQL and bind processors: the same stored values)
and run straight on the DBAPI cursor of the writer's kept connection
(``salon/sqlite_ops.py``).

SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit survives the
process being killed (``kill -9``), which is the salon's requirement; only a
power cut or an OS crash can lose the last commits. ``durable=True`` selects
``synchronous=FULL`` for that case, at the cost of one fsync per commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, make_url
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.sql import Executable

from zanzibar.salon.batching import BUILT_ONCE as BUILT_ONCE
from zanzibar.salon.batching import FENCE as FENCE
from zanzibar.salon.batching import Fenced as Fenced
from zanzibar.salon.batching import Op as Op
from zanzibar.salon.batching import built_once as built_once
from zanzibar.salon.batching import fenced as fenced
from zanzibar.salon.batching import keep_returned as _keep_returned
from zanzibar.salon.batching import merge_inserts as merge_inserts
from zanzibar.salon.batching import note_slow_write
from zanzibar.salon.fields import end_tasks
from zanzibar.salon.history import dump_json as dump_json
from zanzibar.salon.inbox import Inbox
from zanzibar.salon.pg_writer import COMMIT_SPACING, PgWriter
from zanzibar.salon.sqlite_close import install as install_sqlite_close
from zanzibar.salon.sqlite_ops import InsertPlans as InsertPlans
from zanzibar.salon.sqlite_ops import check_fence, execute_sync, on_cursor

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).with_name("migrations")


def _log_failure(exc: Exception) -> None:
    if isinstance(exc, Fenced):
        log.warning("fenced write refused: %s", exc)
    else:
        log.error("database write failed", exc_info=exc)


def alembic_config(url: str) -> Config:
    """An Alembic configuration pointing at the packaged migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def _sqlite_pragmas(engine: Engine, durable: bool) -> None:
    synchronous = "FULL" if durable else "NORMAL"

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


#: A node's pooled PostgreSQL connections kept open, and the most opened beyond them at once;
#: kept, since a new one is a forked backend and a handshake (5 churned at 300 players).
POOL_SIZE = 15
POOL_OVERFLOW = 5


def make_engine(url: str, durable: bool = False) -> AsyncEngine:
    """An async engine; SQLite gets WAL, a busy timeout, foreign keys and a close that
    cannot hang (salon/sqlite_close.py).

    A database server (PostgreSQL) gets a pool of :data:`POOL_SIZE` kept connections and
    no ``pool_pre_ping``: a ping is three round trips per checkout on asyncpg (BEGIN, a
    query, ROLLBACK), paid by every read and every commit. A connection found dead after
    a server restart instead fails its first statement, which invalidates the whole pool
    (SQLAlchemy then replaces every connection older than the failure), and the store
    runs a read, or a write that failed before its commit, once more on a fresh one
    (:func:`again_after_disconnect`)."""
    if make_url(url).get_backend_name() == "sqlite":
        install_sqlite_close()
        # dump_json on every engine: a history item's JSONText is stored as it is
        engine = create_async_engine(url, json_serializer=dump_json)
        _sqlite_pragmas(engine.sync_engine, durable)
        return engine
    return create_async_engine(
        url, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW, json_serializer=dump_json
    )


def reader_of(engine: AsyncEngine) -> AsyncEngine:
    """The engine reads go through: on PostgreSQL the same pool in autocommit (a lone
    SELECT needs no BEGIN and ROLLBACK around it: one round trip instead of three)."""
    if engine.dialect.name == "sqlite":
        return engine
    return engine.execution_options(isolation_level="AUTOCOMMIT")


def again_after_disconnect(exc: Exception, attempt: int) -> bool:
    """Whether a failed statement is worth one more try: its connection was found dead
    (a database restart), which invalidated the pool; the next checkout is a new one."""
    return attempt == 0 and isinstance(exc, DBAPIError) and exc.connection_invalidated


def make_sync_writer_engine(url: str, durable: bool = False) -> Engine | None:
    """A synchronous engine on the same SQLite file for the writer (None for other databases)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    engine = create_engine(parsed.set(drivername="sqlite"), json_serializer=dump_json)
    _sqlite_pragmas(engine, durable)
    if not durable:

        @event.listens_for(engine, "connect")
        def _no_autocheckpoint(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.execute("PRAGMA wal_autocheckpoint=0")

    return engine


#: Any constant: the PostgreSQL advisory lock held while migrating.
MIGRATION_LOCK = 0x7A616E7A


async def migrate(engine: AsyncEngine, url: str) -> None:
    """Apply every Alembic migration up to the head, on the salon's own engine.

    On PostgreSQL several nodes may start at once on one database: the first
    to take a transaction-level advisory lock migrates, the others wait for it
    and then find nothing left to do (two concurrent upgrades would both try
    to create the same tables).
    """
    config = alembic_config(url)

    def upgrade(connection: Connection) -> None:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")

    async with engine.begin() as conn:
        await conn.run_sync(upgrade)


@dataclass
class _Job:
    ops: Sequence[Op]
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    queued: float = field(default_factory=time.perf_counter)  # when it was written


class Store:
    """The database behind the salon: reads on demand, writes through one queue."""

    def __init__(self, url: str, durable: bool = False) -> None:
        self.url = url
        self.engine = make_engine(url, durable)
        #: Reads (and id sequences): autocommit on PostgreSQL, see :func:`reader_of`.
        self.reader = reader_of(self.engine)
        self.sync_engine = make_sync_writer_engine(url, durable)
        #: Inline SQLite writes (not durable); otherwise a writer thread for SQLite.
        self.inline = self.sync_engine is not None and not durable
        self._thread: ThreadPoolExecutor | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self.checkpoint_interval = 1.0
        #: Jobs waiting for the writer (salon/inbox.py: one reader, no bound), and how many
        #: were queued and not yet answered (:meth:`stop` waits for none).
        self._queue: Inbox[_Job] = Inbox()
        self._unfinished = 0
        self._idle: asyncio.Future[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        #: The SQLite writer's own connection (opened on the first write, kept).
        self._writer_conn: Connection | None = None
        self._inserts = InsertPlans()
        #: The PostgreSQL writer: its own connection (kept, as SQLite's), compiled statements.
        self._pg = PgWriter(self.engine)
        #: Commits made, jobs written and seconds spent writing, for benchmarks.
        self.commits, self.jobs, self.busy_seconds = 0, 0, 0.0
        #: Seconds at least between two commits' starts while jobs come faster than commits
        #: (PostgreSQL: pg_writer.COMMIT_SPACING); the last start; whether they do.
        self.commit_spacing = 0.0 if self.sync_engine is not None else COMMIT_SPACING
        self._last_start, self._gathering = 0.0, False

    async def start(self) -> None:
        """Migrate the schema and start the writer."""
        await migrate(self.engine, self.url)
        if self.sync_engine is not None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="salon-db")
        if self.inline:
            self._checkpointer = asyncio.create_task(self._checkpoint_loop(), name="salon-wal")
        self._writer = asyncio.create_task(self._write_loop(), name="salon-store-writer")

    async def stop(self) -> None:
        """Finish queued writes, stop the writer, close connections."""
        if self._writer is not None:
            if not self._writer.done():
                await self._drained()
            # bounded (fields.STOP_WAIT_S): a writer that misses its cancel must not hold the stop
            await end_tasks([self._writer], grace=0.0)
            self._writer = None
        self._close_sync(wait=True)
        await self._pg.close()
        await self.engine.dispose()

    def _close_sync(self, wait: bool) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            self._checkpointer = None
        if self._thread is not None:
            self._thread.shutdown(wait=wait)
            self._thread = None
        self._drop_writer_conn()
        if self.sync_engine is not None:
            self.sync_engine.dispose()

    async def abandon(self) -> None:
        """Drop everything without waiting: what a crash leaves behind (for tests)."""
        if self._writer is not None:
            # bounded (fields.STOP_WAIT_S): a writer that misses its cancel must not hold the stop
            await end_tasks([self._writer], grace=0.0)
            self._writer = None
        self._close_sync(wait=True)
        await self._pg.close()
        await self.engine.dispose()

    async def write(self, ops: Sequence[Op]) -> None:
        """Run ``ops`` in a transaction and return once they are committed.

        Raises whatever the database raised if they could not be committed.

        The caller waits on the job's own future, not on an ``asyncio.shield`` of it:
        the shield's extra future and callback cost one more turn of the loop per
        write (some 2 % of the salon's Python per player action). A caller cancelled
        while waiting cancels that future; the queued job is written all the same
        (the writer skips only the answer of a job whose future is done), as the
        shield did.
        """
        if not ops:
            return
        if self._writer is None or self._writer.done():
            raise RuntimeError("the store is not running")
        job = _Job(ops)
        self._queue.put_nowait(job)
        self._unfinished += 1
        await job.done

    async def _write_loop(self) -> None:
        while True:
            jobs = [await self._queue.get()]
            wait = self._last_start + self.commit_spacing - time.perf_counter()
            if self._gathering and wait > 0:  # changes come faster than commits: gather them
                await asyncio.sleep(wait)
            elif (self.inline or self.sync_engine is None) and self._queue.empty():
                # one turn of the loop more: the changes woken in this turn join this commit
                # (its own cost shared: a SQLite commit's, PostgreSQL's round trip and flush)
                await asyncio.sleep(0)
            while not self._queue.empty():
                jobs.append(self._queue.get_nowait())
            started = self._last_start = time.perf_counter()
            try:
                await self._run(jobs)
            except Exception as exc:  # never let the writer die: fail these jobs instead
                log.exception("the database writer failed")
                for job in jobs:
                    if not job.done.done():
                        job.done.set_exception(exc)
            finally:  # several jobs, or one more came while this one committed: gather
                self._gathering = len(jobs) > 1 or not self._queue.empty()
                ended = time.perf_counter()
                self.busy_seconds += ended - started
                note_slow_write(jobs[0].queued, started, ended, len(jobs), self._queue.qsize())
                self._unfinished -= len(jobs)
                idle = self._idle
                if not self._unfinished and idle is not None and not idle.done():
                    idle.set_result(None)

    async def _drained(self) -> None:
        """Wait until every queued job was answered (committed or failed)."""
        while self._unfinished:
            self._idle = asyncio.get_running_loop().create_future()
            await self._idle

    async def _checkpoint_loop(self) -> None:
        """Move the WAL into the database now and then, off the event loop."""
        while True:
            await asyncio.sleep(self.checkpoint_interval)
            if self._thread is None:
                return
            try:
                await asyncio.get_running_loop().run_in_executor(self._thread, self._checkpoint)
            except Exception:
                log.exception("WAL checkpoint failed")

    def _checkpoint(self) -> None:
        engine = self.sync_engine
        assert engine is not None
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    async def _run(self, jobs: list[_Job]) -> None:
        if self.sync_engine is not None:
            if self.inline:
                failures = self._run_sync(jobs)
            else:
                assert self._thread is not None
                loop = asyncio.get_running_loop()
                failures = await loop.run_in_executor(self._thread, self._run_sync, jobs)
            for job, failure in zip(jobs, failures, strict=True):
                if job.done.done():
                    continue
                if failure is None:
                    job.done.set_result(None)
                else:
                    job.done.set_exception(failure)
            return
        try:
            await self._commit_async(jobs)
            self.commits += 1
            self.jobs += len(jobs)
            for job in jobs:
                if not job.done.done():
                    job.done.set_result(None)
        except Exception as exc:
            if len(jobs) == 1:
                _log_failure(exc)
                if not jobs[0].done.done():
                    jobs[0].done.set_exception(exc)
                return
            for job in jobs:
                await self._run([job])

    async def _commit_async(self, jobs: list[_Job]) -> None:
        """All jobs in one transaction: on asyncpg on the driver's connection
        (``salon/pg_writer.py``: inserts merged, fenced writes one statement); on another
        async driver through SQLAlchemy (inserts merged; fenced writes each their own: a
        driver may count no rows of an ``executemany``). A statement that found its
        connection dead is run again on a new one, with the whole transaction; a failed
        commit is not: its outcome is unknown, the jobs fail."""
        if self.engine.dialect.driver == "asyncpg":
            one = len(jobs) == 1
            await self._pg.commit(jobs[0].ops if one else merge_inserts([j.ops for j in jobs]))
            return
        ops = jobs[0].ops if len(jobs) == 1 else merge_inserts([j.ops for j in jobs], False)
        for attempt in (0, 1):
            async with self.engine.connect() as conn:
                try:
                    await conn.begin()
                    for statement, params in ops:
                        result = await conn.execute(statement, params)
                        check_fence(statement, result.rowcount)
                        _keep_returned(statement, result)
                except Exception as exc:
                    if again_after_disconnect(exc, attempt):
                        continue
                    raise
                await conn.commit()
                return

    def _run_sync(self, jobs: list[_Job]) -> list[Exception | None]:
        """All jobs in one transaction (their inserts merged), else each job alone."""
        engine = self.sync_engine
        assert engine is not None
        try:
            if self._writer_conn is None:
                self._writer_conn = engine.connect()
            conn = self._writer_conn
            with conn.begin():
                if len(jobs) == 1:
                    execute_sync(conn, jobs[0].ops, self._inserts)
                else:
                    # foreign keys are checked at commit: merged inserts may come early
                    # (on the DBAPI cursor: SQLAlchemy's execution costs more than the pragma)
                    on_cursor(conn, "PRAGMA defer_foreign_keys=ON", [()])
                    execute_sync(conn, merge_inserts([job.ops for job in jobs]), self._inserts)
            self.commits += 1
            self.jobs += len(jobs)
            return [None] * len(jobs)
        except Exception as exc:
            # rolled back; a fresh connection for what follows, whatever state this one is in
            self._drop_writer_conn()
            if len(jobs) == 1:
                _log_failure(exc)
                return [exc]
        return [self._run_sync([job])[0] for job in jobs]

    def _drop_writer_conn(self) -> None:
        conn, self._writer_conn = self._writer_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    async def read(self, statement: Executable, params: Any = None) -> list[Any]:
        """All rows of a query (on PostgreSQL in autocommit; tried again on a new
        connection if its connection was found dead)."""
        for attempt in (0, 1):
            try:
                async with self.reader.connect() as conn:
                    result = await conn.execute(statement, params)
                    return list(result.fetchall())
            except Exception as exc:
                if not again_after_disconnect(exc, attempt):
                    raise
        raise AssertionError("unreachable")
