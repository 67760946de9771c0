"""Fixtures for every test directory: the private PostgreSQL and Redis of the ``live`` tests.

The servers start on first use only (a run without live tests starts none);
see ``tests/_services.py`` for how and why.

Every test also speaks through the catalogue strictly: a missing message or variable raises.
Numpy's BLAS runs one thread per test process (xdist's workers already fill the cores).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ.setdefault("ZANZIBAR_L10N_STRICT", "1")  # server subprocesses inherit it
# One BLAS thread per test process (set before numpy loads OpenBLAS): with -n 2 on two cores,
# the Zilch solve's matrix products spun a second thread against the other worker and ran
# three times slower (and past pytest's 300 s limit on a loaded machine).
for _blas in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_blas, "1")
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

import _hang_dump  # noqa: E402
from _services import PostgresServer, RedisServer, migrated  # noqa: E402
from zanzibar.l10n import set_strict  # noqa: E402

set_strict(os.environ["ZANZIBAR_L10N_STRICT"] not in ("", "0"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer.start_new()
    try:
        yield server
    finally:
        server.destroy()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer.start_new()
    try:
        yield server
    finally:
        server.destroy()


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The asyncpg URL of a new, empty database, dropped after the test."""
    url = postgres_server.database()
    try:
        yield url
    finally:
        postgres_server.drop(url)


@pytest.fixture(scope="session")
def pg_template(postgres_server: PostgresServer) -> str:
    """The name of a database the salon's migrations were applied to once (per pytest
    process): ``migrated_pg_url`` copies it (``createdb -T``), a fraction of running them."""
    url = postgres_server.database()
    migrated(url)
    return url.rsplit("/", 1)[1]


@pytest.fixture
def migrated_pg_url(postgres_server: PostgresServer, pg_template: str) -> Iterator[str]:
    """The asyncpg URL of a new database holding the salon's schema and no rows (what
    migrating an empty one gives), dropped after the test."""
    url = postgres_server.database(template=pg_template)
    try:
        yield url
    finally:
        postgres_server.drop(url)


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The private Redis, emptied: a test sees no key of an earlier one."""
    import redis

    if redis_server.process is None or redis_server.process.poll() is not None:
        redis_server.start()  # a test that stopped it without starting it again
    client = redis.Redis.from_url(redis_server.url())
    try:
        client.flushall()
    finally:
        client.close()
    return redis_server.url()


# -- the suite's timeline (ZANZIBAR_TEST_TIMELINE=DIR; bench/suite_timeline.py reads it) ------
# Each pytest process (each xdist worker) appends one JSON line per test to DIR/<worker>.jsonl:
# its start and end (wall clock, setup to teardown), the CPU seconds this process and its
# reaped children spent meanwhile, and the seconds its main thread waited for a CPU while
# runnable (the machine's load, not the test's own waiting). Off unless the variable is set.
_TIMELINE = os.environ.get("ZANZIBAR_TEST_TIMELINE", "")


def _cpu_seconds() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _runqueue_seconds() -> float:
    """Seconds this thread waited for a CPU while runnable (Linux schedstat; 0 elsewhere)."""
    try:
        with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _timeline_write(record: dict[str, object]) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    path = Path(_TIMELINE) / f"{worker}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as out:
        out.write(json.dumps({"worker": worker, **record}) + "\n")


def _timeline_record(item: pytest.Item) -> Callable[[], None]:
    """Start one test's timeline record; the returned call writes it at the test's end."""
    start, (own, children), queued = time.time(), _cpu_seconds(), _runqueue_seconds()

    def finish() -> None:
        end, (own2, children2) = time.time(), _cpu_seconds()
        _timeline_write(
            {
                "test": item.nodeid,
                "start": start,
                "end": end,
                "cpu": own2 - own,
                "children": children2 - children,
                "runqueue": _runqueue_seconds() - queued,
            }
        )

    return finish


if _TIMELINE:

    def pytest_sessionstart(session: pytest.Session) -> None:
        _timeline_write({"event": "start", "at": time.time()})

    def pytest_sessionfinish(session: pytest.Session) -> None:
        _timeline_write({"event": "finish", "at": time.time()})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Each test's timeline record (if asked) and the print of its asyncio tasks if it hangs.

    The second is tests/_hang_dump.py: a few seconds before pytest-timeout ends a test.
    """
    finish = _timeline_record(item) if _TIMELINE else None
    marker = item.get_closest_marker("timeout")
    limit = _hang_dump.timeout_of(marker.args if marker else (), item.config.getini("timeout"))
    timer = _hang_dump.arm(item.nodeid, limit)
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
        if finish is not None:
            finish()


def pytest_configure(config: pytest.Config) -> None:
    """The controlling process makes the folder where hung tests' dumps go (workers inherit it)."""
    if not hasattr(config, "workerinput") and _hang_dump.DIR_VARIABLE not in os.environ:
        os.environ[_hang_dump.DIR_VARIABLE] = tempfile.mkdtemp(prefix="zanzibar-hangs-")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Show what the workers printed about tests that hung (their stderr is lost)."""
    texts = _hang_dump.collected_reports(os.environ.get(_hang_dump.DIR_VARIABLE, ""))
    if texts:
        terminalreporter.section("tests that neared their timeout")
        for text in texts:
            terminalreporter.write(text)
