"""The browser tests skip without Chromium, except where a browser is required (CI)."""

from __future__ import annotations

from pathlib import Path

import browser_helpers
import pytest


def test_missing_chromium_skips_without_the_requirement(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(browser_helpers, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.delenv("ZANZIBAR_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception):
        browser_helpers.require_browser()


def test_missing_chromium_fails_when_a_browser_is_required(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(browser_helpers, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setenv("ZANZIBAR_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception):
        browser_helpers.require_browser()


def test_present_chromium_neither_skips_nor_fails(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = tmp_path / "chromium"
    fake.write_text("")
    monkeypatch.setattr(browser_helpers, "CHROMIUM", fake)
    browser_helpers.require_browser()
