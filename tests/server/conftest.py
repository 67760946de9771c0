"""Fixtures for the server tests: a real ``zanzibar serve`` process, and helpers.

``server`` starts a fresh salon process (its own data directory, a free
loopback port) for one test; ``shared_server`` one per test module. The
helpers live in ``_server.py`` (``start_server``), ``_wsclient.py``
(``WsClient``) and ``_fakesalon.py``; this directory is put on ``sys.path`` so
test modules can import them by those names.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from _server import ServerProcess, start_server  # noqa: E402


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A salon process of its own for one test (bots act at once)."""
    process = start_server(tmp_path / "data")
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One salon process shared by the tests of a module."""
    process = start_server(tmp_path_factory.mktemp("salon") / "data")
    try:
        yield process
    finally:
        process.stop()
