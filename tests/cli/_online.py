"""What the terminal client's online tests share: a salon server and ``play --server`` arguments."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from _server import ServerProcess, start_server


def serve(tmp_path_factory: pytest.TempPathFactory, label: str) -> Iterator[ServerProcess]:
    """A real ``zanzibar serve`` on a fresh data directory, stopped afterwards (a fixture's body)."""
    process = start_server(tmp_path_factory.mktemp(label) / "data")
    try:
        yield process
    finally:
        process.stop()


def online_args(server: str, **extra: Any) -> argparse.Namespace:
    """The parsed arguments of ``zanzibar play --server SERVER``, with ``extra`` set."""
    values: dict[str, Any] = {
        "server": server,
        "name": "Tess",
        "password": None,
        "register": False,
        "table": None,
        "invite": None,
        "preset": None,
        "option": [],
        "bots": 1,
        "level": None,
        "seats": None,
        "private": False,
        "lang": "en",
    }
    values.update(extra)
    return argparse.Namespace(**values)
