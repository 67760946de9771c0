"""Where zanzibar keeps what it can compute again: the user's cache folder.

Zilch's solved policies and the parsed message catalogue go there, so that a
second start does not redo them. ``$ZANZIBAR_CACHE_DIR`` wins; else
``$XDG_CACHE_HOME/zanzibar``, else ``~/.cache/zanzibar``.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """The user's cache folder for zanzibar (it may not exist yet)."""
    env = os.environ.get("ZANZIBAR_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "zanzibar"
