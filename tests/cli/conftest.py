"""The terminal client's tests; their shared helpers live in ``_online.py`` (this directory is on sys.path)."""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
