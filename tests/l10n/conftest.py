"""The l10n tests run the catalogue strict: a missing message or variable raises."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from zanzibar.l10n import set_strict


@pytest.fixture(autouse=True)
def strict_l10n() -> Iterator[None]:
    before = set_strict(True)
    yield
    set_strict(before)
