"""One progress convention for long commands (``sim 421``, ``sim zilch``).

Progress goes to standard error and only when it is a terminal: a bar
redrawn in place with a carriage return. Into a pipe or a file nothing is
written, so logs and captured output never hold ``\\r`` lines. The flag is
``--no-progress``; ``--quiet`` is kept as its other name.
"""

from __future__ import annotations

import argparse
import sys
import time


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """``--no-progress`` (alias ``--quiet``)."""
    parser.add_argument(
        "--no-progress",
        "--quiet",
        dest="no_progress",
        action="store_true",
        help="no progress bar (there is none anyway when stderr is not a terminal)",
    )


def progress_bar(done: int, total: int, started: float) -> None:
    """Redraw the bar on a terminal's stderr; write nothing elsewhere."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(total, 1)
    rate = done / max(time.perf_counter() - started, 1e-9)
    bar = "#" * filled + "." * (width - filled)
    end = "\n" if done >= total else ""
    sys.stderr.write(f"\r[{bar}] {done}/{total} games, {rate:.0f} games/s{end}")
    sys.stderr.flush()
