"""Where the test suite's wall time goes, from the timeline ``tests/conftest.py`` writes.

    ZANZIBAR_TEST_TIMELINE=/tmp/tl .venv/bin/pytest -n 2
    .venv/bin/python bench/suite_timeline.py /tmp/tl [--top 20] [--workers 2,3]

With ``ZANZIBAR_TEST_TIMELINE=DIR`` set, each pytest process (each xdist worker) appends a
line per test to ``DIR/<worker>.jsonl``: the test's start and end (setup to teardown) and the
CPU seconds its process and the children it reaped spent meanwhile. This prints:

- per worker: tests, busy seconds (the sum of its tests' spans), gaps between its tests
  (waiting for the controller's next tests), its start-up (the run's start to its first
  test) and its idle tail (its last test's end to the run's end);
- wait = wall - CPU - queued per test (queued: the seconds the worker's main thread was
  runnable but waiting for a CPU, i.e. the machine's load), summed by directory, and the
  tests that wait the longest: time spent sleeping, polling or waiting on other processes. Processes a test starts
  detached (the live tests' cluster nodes, PostgreSQL's postmaster) are not counted in its
  CPU: for those tests "wait" includes the nodes' work;
- the cores the workers kept busy, minute by minute (each test's CPU spread over its span);
- the makespan a dynamic schedule (each free worker takes the next test) would give with
  the same per-test times, in collection order and longest first, on each ``--workers``
  count: what ordering alone can win (contention between workers not modelled).
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
from collections import defaultdict
from pathlib import Path
from typing import Any


def load(directory: Path) -> tuple[list[dict[str, Any]], float, float]:
    """Every test record (sorted by start) and the run's start and end."""
    tests: list[dict[str, Any]] = []
    marks: list[float] = []
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if "event" in record:
                marks.append(record["at"])
            else:
                tests.append(record)
    tests.sort(key=lambda r: r["start"])
    start = min([*marks, tests[0]["start"]])
    end = max([*marks, max(r["end"] for r in tests)])
    return tests, start, end


def simulate(durations: list[float], workers: int) -> float:
    """Makespan of list scheduling: each free worker takes the next duration."""
    free = [0.0] * workers
    for d in durations:
        at = heapq.heappop(free)
        heapq.heappush(free, at + d)
    return max(free)


def area(nodeid: str) -> str:
    parts = nodeid.split("::")[0].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--workers", default="2,3", help="worker counts to simulate")
    args = parser.parse_args()
    tests, start, end = load(args.directory)
    span = end - start
    for r in tests:
        r["wall"] = r["end"] - r["start"]
        r["cpu_all"] = r["cpu"] + r["children"]
        r["queued"] = r.get("runqueue", 0.0)
        r["wait"] = max(0.0, r["wall"] - r["cpu_all"] - r["queued"])
    print(f"{len(tests)} tests, run span {span:.0f} s")
    by_worker: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in tests:
        by_worker[r["worker"]].append(r)
    print(
        f"{'worker':8} {'tests':>6} {'busy s':>8} {'CPU s':>8} {'queued':>7} {'wait s':>8} {'gaps s':>7} "
        f"{'start-up':>8} {'tail s':>7}"
    )
    for worker, rows in sorted(by_worker.items()):
        busy = sum(r["wall"] for r in rows)
        gaps = sum(max(0.0, b["start"] - a["end"]) for a, b in itertools.pairwise(rows))
        print(
            f"{worker:8} {len(rows):6d} {busy:8.0f} {sum(r['cpu_all'] for r in rows):8.0f} "
            f"{sum(r['queued'] for r in rows):7.0f} {sum(r['wait'] for r in rows):8.0f} {gaps:7.1f} {rows[0]['start'] - start:8.1f} "
            f"{end - rows[-1]['end']:7.1f}"
        )
    wall = sum(r["wall"] for r in tests)
    cpu = sum(r["cpu_all"] for r in tests)
    queued = sum(r["queued"] for r in tests)
    print(
        f"all: wall {wall:.0f} s in tests, CPU {cpu:.0f} s ({cpu / wall:.0%}), queued for a CPU "
        f"{queued:.0f} s, wait {sum(r['wait'] for r in tests):.0f} s"
    )
    print("\nby directory:  tests   wall s   CPU s   queued   wait s")
    areas: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
    for r in tests:
        a = areas[area(r["test"])]
        a[0] += 1
        a[1] += r["wall"]
        a[2] += r["cpu_all"]
        a[3] += r["queued"]
        a[4] += r["wait"]
    for name, (n, w, c, q, wt) in sorted(areas.items(), key=lambda kv: -kv[1][1]):
        print(f"  {name:24} {n:5.0f} {w:8.0f} {c:7.0f} {q:8.0f} {wt:8.0f}")
    for title, key in (("longest", "wall"), ("most waiting", "wait")):
        print(f"\n{title} (wall s, CPU s, queued s, wait s, worker, start s):")
        for r in sorted(tests, key=lambda r: -r[key])[: args.top]:
            print(
                f"  {r['wall']:6.1f} {r['cpu_all']:6.1f} {r['wait']:6.1f} {r['worker']:>5} "
                f"{r['start'] - start:6.0f}  {r['test']}"
            )
    print("\ncores kept busy by the workers' own CPU, per minute:")
    minutes = int(span // 60) + 1
    busy_cores = [0.0] * minutes
    for r in tests:
        if r["wall"] <= 0:
            continue
        rate = r["cpu_all"] / r["wall"]
        t = r["start"]
        while t < r["end"]:
            m = int((t - start) // 60)
            step = min(r["end"], start + (m + 1) * 60) - t
            busy_cores[m] += rate * step / 60
            t += step
    print("  " + " ".join(f"{c:.1f}" for c in busy_cores))
    print("\nmakespan of a dynamic schedule with these per-test times:")
    order = [r["wall"] for r in sorted(tests, key=lambda r: r["start"])]
    for n in (int(x) for x in args.workers.split(",")):
        print(
            f"  {n} workers: start order {simulate(order, n):.0f} s, "
            f"longest first {simulate(sorted(order, reverse=True), n):.0f} s"
        )


if __name__ == "__main__":
    main()
