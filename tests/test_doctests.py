"""Run the doctest examples of every module of the package."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import zanzibar

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(zanzibar.__path__, prefix="zanzibar.")
    if ".migrations" not in info.name
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
