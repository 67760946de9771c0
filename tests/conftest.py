"""Fixtures for every test directory: the private PostgreSQL and Redis of the ``live`` tests.

The servers start on first use only (a run without live tests starts none);
see ``tests/_services.py`` for how and why.

Every test also speaks through the catalogue strictly: a missing message or variable raises.
Numpy's BLAS runs one thread per test process (xdist's workers already fill the cores).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

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

from _services import PostgresServer, RedisServer  # noqa: E402
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
