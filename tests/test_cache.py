"""The user's cache folder: $ZANZIBAR_CACHE_DIR, else $XDG_CACHE_HOME/zanzibar, else ~/.cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from zanzibar.cache import cache_dir


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZANZIBAR_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("ZANZIBAR_CACHE_DIR")
    assert cache_dir() == tmp_path / "xdg" / "zanzibar"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "zanzibar"
