"""The live tests' helpers (``_livekit``, ``_scripted``, ``_scene``, ``_invariants``) are
imported by those names: this directory is put on ``sys.path``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from _livekit import Cluster, running_cluster  # noqa: E402


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    """Three nodes shared by the live tests that leave them running (per pytest process):
    each test uses tables and names of its own. The chaos tests start their own."""
    with running_cluster(3) as made:
        yield made
