"""Instructions per change of a node's PostgreSQL writer path, this tree beside a reference.

Counts, under ``valgrind --tool=cachegrind --cache-sim=no`` with ``PYTHONHASHSEED=0``,
the instructions of ``bench_pg_store.py --worker --count N --group B`` (N changes of a
table, B tables' at a time: each group one commit; a change is its table's fenced UPDATE
and two history items, ``--log`` adds a game-log entry) for two N, and divides the
difference by the changes between them: what the node's process runs per change from
``Store.write`` to the statement's answer, the set-up and imports cancelling out. The
PostgreSQL server's own work is not in it (another process): see ``bench_pg_store.py
--stream`` for its CPU per change. Each side is the package at its commit
(``bench/reference.py``) run by this tree's bench, against the same scratch database.

    .venv/bin/python bench/bench_pg_instructions.py --db postgresql+asyncpg://zanzibar@127.0.0.1:45632/zanzibar \\
        --reference 145bcd1 --counts 200,800 --group 4
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference

BENCH = Path(__file__).resolve().parent / "bench_pg_store.py"


def instructions(source: Path, db: str, base: int, count: int, group: int, log: bool) -> int:
    """Instructions of one worker run (cachegrind's ``I refs``)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join([str(source), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        str(BENCH),
        "--worker",
        "--db",
        db,
        "--base",
        str(base),
        "--count",
        str(count),
        "--group",
        str(group),
        *(["--log"] if log else []),
    ]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in cachegrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a scratch PostgreSQL (asyncpg URL)")
    parser.add_argument("--reference", default="none", help="a commit to count beside")
    parser.add_argument(
        "--tree", default="", help="commits (comma-separated) instead of the working tree"
    )
    parser.add_argument("--counts", default="200,800", help="the two numbers of changes")
    parser.add_argument("--group", type=int, default=1, help="tables changed per commit")
    parser.add_argument("--log", action="store_true", help="a game-log entry in every change")
    parser.add_argument("--base", type=int, default=30_000_000)
    args = parser.parse_args()
    low, high = (int(x) for x in args.counts.split(","))
    copies = [reference.extract(commit) for commit in args.tree.split(",") if commit]
    sides = [
        (commit, copy)
        for commit, copy in zip(args.tree.split(","), copies, strict=False)
        if copy is not None
    ]
    if not args.tree:
        sides.append(("this tree", reference.current_source()))
    old = reference.extract(args.reference) if args.reference != "none" else None
    if old is not None:
        sides.insert(0, (args.reference, old))
    base = args.base
    try:
        for label, source in sides:
            counted = []
            for count in (low, high):
                counted.append(instructions(source, args.db, base, count, args.group, args.log))
                base += 100_000
            per = (counted[1] - counted[0]) / (high - low)
            print(
                f"{label:10s} {counted[0]:,} and {counted[1]:,} instructions for {low} and"
                f" {high} changes ({args.group} a commit): {per:,.0f} per change",
                flush=True,
            )
    finally:
        for copy in (old, *copies):
            if copy is not None:
                reference.discard(copy)
    return 0


if __name__ == "__main__":
    sys.exit(main())
