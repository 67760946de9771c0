"""Keep solver caches of the tests out of the user's cache directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    directory = tmp_path_factory.getbasetemp() / "zilch-cache"
    monkeypatch.setenv("ZANZIBAR_CACHE_DIR", str(directory))
    yield directory
