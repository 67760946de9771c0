"""The watcher that takes a dead worker's cluster down (tests/live/_orphans.py).

A stand-in "worker" process starts a watcher whose clean-up writes a file, then
dies by ``SIGKILL`` (no ``finally`` runs): the clean-up must run and the guard
go. When the worker removes its guard itself, the watcher must leave quietly
without cleaning anything.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: The stand-in worker: start the watcher, say its pid, then die or tidy up.
_WORKER = """
import os, signal, sys
from pathlib import Path
from _orphans import clean_up_after
guard, marker, how = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
command = [sys.executable, "-c", f"open({marker!r}, 'w').write('cleaned')"]
watcher = clean_up_after(os.getpid(), guard, command, os.environ)
print(watcher.pid, flush=True)
if how == "crash":
    os.kill(os.getpid(), signal.SIGKILL)
guard.rmdir()
"""


def _run_worker(tmp_path: Path, how: str) -> tuple[int, Path, Path]:
    guard = tmp_path / "cluster"
    guard.mkdir()
    marker = tmp_path / "cleaned"
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    done = subprocess.run(
        [sys.executable, "-c", _WORKER, str(guard), str(marker), how],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return int(done.stdout.split()[0]), guard, marker


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # An orphan that ended but was not yet reaped (a zombie) still answers kill(0).
    try:
        return "State:\tZ" in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True


def _wait_for(condition: Callable[[], bool], limit: float = 30.0) -> bool:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def test_a_crashed_worker_is_cleaned_up_after(tmp_path: Path) -> None:
    watcher, guard, marker = _run_worker(tmp_path, "crash")
    assert _wait_for(marker.exists), "the clean-up never ran after the worker died"
    assert marker.read_text() == "cleaned"
    assert _wait_for(lambda: not guard.exists()), "the guard was left behind"
    assert _wait_for(lambda: _gone(watcher)), "the watcher outlived its work"


def test_a_worker_that_tidied_up_leaves_nothing_to_clean(tmp_path: Path) -> None:
    watcher, _guard, marker = _run_worker(tmp_path, "tidy")
    assert _wait_for(lambda: _gone(watcher)), "the watcher did not leave with its guard"
    assert not marker.exists()
