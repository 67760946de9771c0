"""A graceful close of an aiosqlite connection that cannot wait for ever.

When a task is cancelled while its SQLite connection is busy, SQLAlchemy
invalidates the connection: it starts a graceful close in a shielded task and,
the waiting task being cancelled, also a forced one (aiosqlite's ``stop``,
which queues "close and end" for the connection's worker thread). The shielded
close runs a moment later. If it finds the connection not yet closed, aiosqlite's
``close`` queues its work *behind* that stop: the worker ends at the stop and
never answers, so the close waits for ever, and so does the loop's shutdown
that cancels it (``close`` waits again in its ``finally``). Seen as a test that
hung for 300 s after it had passed (test_forwarding's crashed node); a server's
stop could hang the same way.

:func:`install` replaces SQLAlchemy's graceful close of aiosqlite connections
by one that does nothing when a stop is already queued (the worker closes the
connection itself), and otherwise asks for that same stop and waits for its
answer, which the worker always gives: everything queued before it runs
first, and a later stop is queued behind it. Checked against the versions in
use (SQLAlchemy 2.1, aiosqlite 0.22); if the private names it needs are not
there, it leaves the library's own close in place.
"""

from __future__ import annotations

from typing import Any

_installed = False


async def graceful_close(adapted: Any) -> None:
    """Close ``adapted``'s aiosqlite connection and end its worker, without waiting on a
    worker that a stop already ended."""
    connection = adapted._connection
    if not connection._running:
        return  # a stop is queued: the worker closes the connection and ends by itself
    answer = connection.stop()
    if answer is not None:
        await answer


def install() -> bool:
    """Put :func:`graceful_close` in SQLAlchemy's aiosqlite adapter (once); whether it is."""
    global _installed
    if _installed:
        return True
    try:
        import aiosqlite
        from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_connection
    except ImportError:
        return False
    connection_class: Any = aiosqlite.Connection
    if not hasattr(AsyncAdapt_aiosqlite_connection, "_terminate_graceful_close") or not hasattr(
        connection_class, "stop"
    ):
        return False
    AsyncAdapt_aiosqlite_connection._terminate_graceful_close = graceful_close  # type: ignore[method-assign,assignment]
    _installed = True
    return True
