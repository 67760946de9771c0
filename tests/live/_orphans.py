"""Clean up after a pytest worker that died without running its ``finally`` blocks.

The live tests start a whole cluster (PostgreSQL, redis-server, nodes, a proxy)
through ``scripts/cluster``, whose processes run in the background, detached
from the worker. When an xdist worker crashes (a segfault, the OOM killer,
pytest-timeout ending a hung worker with ``os._exit``), its ``finally`` never
runs and the cluster keeps running, holding ports and memory for the rest of
the CI run and beyond. ``PR_SET_PDEATHSIG`` does not help: it reaches only the
direct child, not the script's background grandchildren.

:func:`clean_up_after` starts a small detached watcher instead: it polls the
worker's pid once a second and, when the worker is gone while the *guard* path
still exists (the normal stop removes it first), runs the clean-up command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

#: The watcher's program, run by ``python -c``: argv = owner pid, guard, command (JSON).
_WATCHER = """
import json, os, shutil, subprocess, sys, time
owner, guard, command = int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
while True:
    try:
        os.kill(owner, 0)
    except ProcessLookupError:
        break
    except PermissionError:
        pass
    if not os.path.exists(guard):
        sys.exit(0)
    time.sleep(1)
if os.path.exists(guard):
    try:
        subprocess.run(command, timeout=120, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        shutil.rmtree(guard, ignore_errors=True)
"""


def clean_up_after(
    owner: int, guard: Path, command: Sequence[str], env: Mapping[str, str]
) -> subprocess.Popen[bytes]:
    """Run ``command`` once process ``owner`` has died while ``guard`` still exists.

    The watcher is in its own session, so a signal to the worker's process
    group does not take it along. It ends by itself once ``guard`` is removed
    (the normal way out: stop what you started, remove the guard, and the
    watcher has nothing to do); :func:`dismiss` ends it at once.
    """
    return subprocess.Popen(
        [sys.executable, "-c", _WATCHER, str(owner), str(guard), json.dumps(list(command))],
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def dismiss(watcher: subprocess.Popen[bytes]) -> None:
    """End a watcher whose owner stopped everything itself."""
    watcher.terminate()
    try:
        watcher.wait(5)
    except subprocess.TimeoutExpired:
        watcher.kill()
        watcher.wait()
