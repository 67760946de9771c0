"""The live tests' helpers (``_livekit``, ``_scripted``, ``_scene``, ``_invariants``) are
imported by those names: this directory is put on ``sys.path``."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
