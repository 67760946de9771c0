"""salon/sqlite_close.py: closing an aiosqlite connection never waits for ever."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from zanzibar.salon.persistence import make_engine
from zanzibar.salon.sqlite_close import install

pytestmark = pytest.mark.anyio

# A query is running on the connection's worker when SQLAlchemy, its waiting task
# cancelled, force-closes the connection (a stop queued behind the query) and then
# runs the graceful close it had started: aiosqlite's own close queued its work behind
# the stop and waited for ever, and so did the loop's shutdown.
RACE = """
import asyncio, os, sys, time
from zanzibar.salon.persistence import make_engine

async def main():
    engine = make_engine("sqlite+aiosqlite:///" + sys.argv[1])
    async with engine.connect() as conn:
        adapted = (await conn.get_raw_connection()).dbapi_connection
        busy = asyncio.ensure_future(adapted._connection._execute(time.sleep, 0.3))
        await asyncio.sleep(0.05)
        adapted._terminate_force_close()
        closing = asyncio.ensure_future(adapted._terminate_graceful_close())
        done, _ = await asyncio.wait([closing], timeout=5)
        if not done:
            print("the graceful close hung", flush=True)
            os._exit(3)
        await busy
        print("closed", flush=True)

asyncio.run(main())
print("the loop ended", flush=True)
"""


def test_a_graceful_close_after_a_forced_one_ends(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(RACE), str(tmp_path / "race.sqlite3")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split() == ["closed", "the", "loop", "ended"], done.stdout + done.stderr


async def test_a_graceful_close_of_an_idle_connection_closes_it(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'idle.sqlite3'}")
    assert install()
    async with engine.connect() as conn:
        adapted = (await conn.get_raw_connection()).dbapi_connection
        worker = adapted._connection._thread
        await adapted._terminate_graceful_close()
        assert adapted._connection._connection is None  # the sqlite3 connection is closed
        worker.join(5)
        assert not worker.is_alive()
        await conn.invalidate()
    await engine.dispose()


def test_a_plain_engine_gets_it_too() -> None:
    """Installed once for the process by make_engine, so every aiosqlite engine has it."""
    make_engine("sqlite+aiosqlite:///:memory:")
    from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_connection

    from zanzibar.salon.sqlite_close import graceful_close

    assert AsyncAdapt_aiosqlite_connection._terminate_graceful_close is graceful_close
    create_async_engine("sqlite+aiosqlite:///:memory:")  # no error either way
