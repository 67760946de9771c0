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
def shared_cluster() -> Iterator[Cluster]:
    """Three nodes shared by the live tests that leave them running (per pytest process):
    each test uses tables and names of its own. The chaos tests start their own."""
    with running_cluster(3) as made:
        yield made


@pytest.fixture
def cluster(shared_cluster: Cluster) -> Cluster:
    """The shared nodes, each running: a node an earlier test left down (it killed the
    node and failed before starting it again) is started first, so that one failure does
    not fail every live test after it."""
    for i in range(1, shared_cluster.nodes + 1):
        if not shared_cluster.alive(i):
            shared_cluster.start(i)
    return shared_cluster
