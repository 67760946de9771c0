"""What following tables run on another node costs Redis while nothing happens at them.

    .venv/bin/python bench/bench_lease_watch.py                 # 0, 50, 200 tables
    .venv/bin/python bench/bench_lease_watch.py --tables 0,100 --window 5

A socket's node must notice when a table its sockets follow elsewhere changes
owner. Before, it asked Redis for the lease of each such table every 0.5 s
(one ``GET`` per table and check); now each grant and release is pushed on the
channel ``zl`` and a batched safety check (one ``MGET`` per 500 tables) runs
every 5 s. For each side, the same run starts two ``zanzibar serve --redis``
nodes with ``scripts/cluster`` (a private PostgreSQL and Redis in a temporary
directory, loopback only), opens tables on node 1, has a spectator on node 2
watch them all (node 2 follows them elsewhere), and counts the commands Redis
processed over an idle window (``INFO commandstats``) at each number of tables.

The reference, measured in the same run on the same machine, is the code of
``--reference`` (default: the commit before leases were pushed), extracted with
``git archive`` (``bench/reference.py``); ``--reference none`` runs this tree alone.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from bench_forwarding import free_port, free_run
from reference import current_source, discard, extract

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "cluster"
#: main just before the leases were pushed (the socket nodes polled each lease every 0.5 s).
BEFORE_PUSH = "6f497c3"


class Socket:
    """One signed-in guest's WebSocket, answering requests in turn."""

    def __init__(self, url: str, name: str) -> None:
        answer = httpx.post(url + "api/guest", json={"name": name}, timeout=30)
        session = answer.json()
        if "token" not in session:
            raise SystemExit(f"signing in as {name} failed: {answer.status_code} {session}")
        self._opened = connect(url.replace("http://", "ws://") + "ws", open_timeout=30)
        self.ws = self._opened.__enter__()
        self.ids = 0
        self.request("hello", token=session["token"])

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.ids += 1
        self.ws.send(json.dumps({"v": 1, "type": kind, "id": self.ids, **fields}))
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
            if message.get("id") == self.ids:
                if message.get("type") == "error":
                    raise SystemExit(f"{kind} refused: {message}")
                return message

    def drain(self) -> None:
        """Read what arrived (tables, histories, views) until nothing comes for a moment."""
        while True:
            try:
                self.ws.recv(timeout=0.05)
            except TimeoutError:
                return

    def close(self) -> None:
        self._opened.__exit__(None, None, None)


def command_calls(redis_port: int) -> dict[str, int]:
    """Calls per Redis command so far (``INFO commandstats``)."""
    out = subprocess.run(
        ["redis-cli", "-p", str(redis_port), "info", "commandstats"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    calls: dict[str, int] = {}
    for line in out.splitlines():
        if line.startswith("cmdstat_"):
            name, _, stats = line.partition(":")
            fields = dict(part.split("=", 1) for part in stats.split(","))
            calls[name.removeprefix("cmdstat_")] = int(fields["calls"])
    return calls


def side(source: Path, counts: list[int], window: float) -> dict[int, dict[str, float]]:
    """Redis commands per second over an idle window, per number of tables followed."""
    work = Path(tempfile.mkdtemp(prefix="zanzibar-bench-leases-"))
    work.chmod(0o755)
    base = free_run(3)
    redis_port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(source), os.environ.get("PYTHONPATH", "")]),
        "ZANZIBAR_CLUSTER_DIR": str(work / "c"),
        "ZANZIBAR_NODE_PORT": str(base),
        "ZANZIBAR_PG_PORT": str(free_port()),
        "ZANZIBAR_REDIS_PORT": str(redis_port),
        "ZANZIBAR_PG_FAST": "1",
        "ZANZIBAR_PYTHON": sys.executable,
        "ZANZIBAR_NODE_ARGS": "--drain 0.2",
        "ZANZIBAR_LIMIT_TABLES_PER_USER": "10000",
        "ZANZIBAR_LIMIT_TABLE_CREATE_RATE_USER": "10000/minute",
        "ZANZIBAR_LIMIT_MESSAGE_RATE_USER": "100000/second",
    }
    subprocess.run([str(SCRIPT), "up", "2"], env=env, check=True, timeout=180)
    rates: dict[int, dict[str, float]] = {}
    try:
        host = Socket(f"http://127.0.0.1:{base + 1}/", "Opener")
        watcher = Socket(f"http://127.0.0.1:{base + 2}/", "Looker")
        opened = 0
        for count in sorted(counts):
            while opened < count:
                table = host.request("table.create", game="421", seats=2)["table"]["id"]
                watcher.request("table.watch", table=table)
                opened += 1
            watcher.drain()
            time.sleep(1.0)  # let the last watches settle
            before = command_calls(redis_port)
            started = time.monotonic()
            time.sleep(window)
            after = command_calls(redis_port)
            took = time.monotonic() - started
            rates[count] = {
                name: (after[name] - before.get(name, 0)) / took
                for name in after
                if after[name] != before.get(name, 0) and name != "info"
            }
        host.close()
        watcher.close()
    finally:
        subprocess.run([str(SCRIPT), "down"], env=env, timeout=60)
    return rates


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="0,50,200", help="numbers of tables followed")
    parser.add_argument("--window", type=float, default=10.0, help="seconds counted")
    parser.add_argument("--reference", default=BEFORE_PUSH, help="commit to compare, or none")
    parser.add_argument("--details", action="store_true", help="every command's rate too")
    args = parser.parse_args(argv)
    counts = sorted({int(n) for n in args.tables.split(",")})
    if not counts or counts[0] < 0 or counts[-1] > 2000:
        raise SystemExit("bounded: 0 to 2000 tables")
    if not 1 <= args.window <= 120:
        raise SystemExit("bounded: a window of 1 to 120 seconds")
    sides: list[tuple[str, dict[int, dict[str, float]]]] = []
    reference = None if args.reference.lower() == "none" else extract(args.reference)
    if args.reference.lower() != "none" and reference is None:
        print(f"note: no reference: git could not extract commit {args.reference}")
    try:
        if reference is not None:
            sides.append((f"reference {args.reference}", side(reference, counts, args.window)))
        sides.append(("this tree", side(current_source(), counts, args.window)))
    finally:
        if reference is not None:
            discard(reference)
    print(
        f"Redis commands per second, two idle nodes, node 2 following N tables of node 1"
        f" ({args.window:.0f} s windows, load {os.getloadavg()[0]:.1f})"
    )
    print(
        f"{'':24}{'N':>6}{'all':>9}{'lease GET':>11}{'renewal':>9}{'MGET':>7}{'PUBLISH':>9}"
        "   (lease GET: GETs beyond the renewals' own, i.e. asking who owns a table;"
        " renewal: the owner's PEXPIRE per table, the same on both sides)"
    )
    for label, rates in sides:
        for count in counts:
            rate = rates[count]
            asked = rate.get("get", 0.0) - rate.get("pexpire", 0.0)
            print(
                f"{label:24}{count:6}{sum(rate.values()):9.1f}{asked:11.1f}"
                f"{rate.get('pexpire', 0.0):9.1f}{rate.get('mget', 0.0):7.1f}"
                f"{rate.get('publish', 0.0):9.1f}"
            )
            if args.details:
                top = sorted(rate.items(), key=lambda kv: -kv[1])
                print(" " * 30 + ", ".join(f"{name} {value:.1f}" for name, value in top))


if __name__ == "__main__":
    main()
