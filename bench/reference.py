"""Run a benchmark against the code of an older commit, in the same run, on the same machine.

A figure is only worth something beside a reference measured under the same
conditions. The benchmarks that compare "before" and "after" a speed-up take
the package as it was at a fixed commit (``git archive`` of ``src/zanzibar``
into a temporary directory) and time it in a child process whose
``PYTHONPATH`` puts that copy first; the current code runs in another child
process started the same way. The two sides alternate, round after round, so
that a burst of load on a shared machine hits both, and each side keeps its
best round (the least disturbed). Times are CPU seconds of the child
(``time.process_time``), which other processes on the machine inflate much
less than wall time.

Needs ``git`` and the repository's history; without them :func:`extract`
returns ``None`` and the benchmarks print the new figures alone, saying why.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: main before issue 15's speed-ups: the "today" of the issue's figures.
BEFORE_ISSUE_15 = "52f7176"


def extract(commit: str = BEFORE_ISSUE_15) -> Path | None:
    """A temporary copy of ``src/`` at ``commit`` (``None`` if git cannot provide it)."""
    target = Path(tempfile.mkdtemp(prefix=f"zanzibar-{commit}-"))
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit, "src/zanzibar"],
            check=True,
            capture_output=True,
        )
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError):
        shutil.rmtree(target, ignore_errors=True)
        return None
    return target / "src"


def discard(source: Path) -> None:
    """Remove a copy made by :func:`extract`."""
    shutil.rmtree(source.parent, ignore_errors=True)


def run_child(source: Path, script: Path, args: list[str]) -> dict[str, Any]:
    """Run ``script --worker args`` with ``source`` first on the path; its JSON answer."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(source), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    done = subprocess.run(
        [sys.executable, str(script), "--worker", *args],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def current_source() -> Path:
    """The working tree's ``src/`` (the code under test)."""
    return ROOT / "src"


def alternate(
    reference_commit: str, script: Path, worker_args: list[str], rounds: int
) -> dict[str, list[dict[str, Any]]]:
    """Each side's answers: ``reference COMMIT`` first, then ``this tree``, round after round.

    ``reference_commit`` 'none' (or one git cannot extract, said on stdout) runs this
    tree alone. The reference's copy is removed at the end, whatever happens.
    """
    reference = None if reference_commit.lower() == "none" else extract(reference_commit)
    if reference_commit.lower() != "none" and reference is None:
        print(f"note: no reference: git could not extract commit {reference_commit}")
    order = [("this tree", current_source())]
    if reference is not None:
        order.insert(0, (f"reference {reference_commit}", reference))
    sides: dict[str, list[dict[str, Any]]] = {}
    try:
        for _ in range(rounds):
            for name, source in order:
                sides.setdefault(name, []).append(run_child(source, script, worker_args))
    finally:
        if reference is not None:
            discard(reference)
    return sides
