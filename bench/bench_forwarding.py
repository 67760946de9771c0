"""What forwarding a command to a table's owner on another node costs.

    .venv/bin/python bench/bench_forwarding.py            # 300 lines each way
    .venv/bin/python bench/bench_forwarding.py --count 1000

Starts two ``zanzibar serve --redis`` nodes with ``scripts/cluster`` (a
private PostgreSQL and Redis in a temporary directory, loopback only), opens
a table on node 1, and times ``chat.say`` from request to ``ok`` (the ``ok``
of a forwarded command arrives over the Redis table bus) for two players:

* the reference, measured in the same run: a player whose socket is on node 1,
  the table's owner (no forwarding);
* a player at the same table whose socket is on node 2 (each command travels
  to node 1 over the link, its frames come back over the bus).

The two players alternate, one line at a time, so both see the same load.
It prints p50/p90/p99 of both and the CPU both nodes used per line.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "cluster"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def free_run(count: int) -> int:
    for _ in range(50):
        base = free_port()
        try:
            for port in range(base, base + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise SystemExit("no run of free ports")


class Player:
    def __init__(self, url: str, name: str) -> None:
        session = httpx.post(url + "api/guest", json={"name": name}, timeout=30).json()
        self._opened = connect(url.replace("http://", "ws://") + "ws", open_timeout=30)
        self.ws = self._opened.__enter__()
        self.ids = 0
        self.request("hello", token=session["token"])

    def request(self, kind: str, **fields: Any) -> tuple[dict[str, Any], float]:
        self.ids += 1
        started = time.perf_counter()
        self.ws.send(json.dumps({"v": 1, "type": kind, "id": self.ids, **fields}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message.get("id") == self.ids:
                return message, (time.perf_counter() - started) * 1000

    def close(self) -> None:
        self._opened.__exit__(None, None, None)


def node_cpu(directory: Path, node: int) -> float:
    pid = int((directory / f"n{node}.pid").read_text())
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="lines per player")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 5000:
        raise SystemExit("bounded: 1 to 5000 lines")
    work = Path(tempfile.mkdtemp(prefix="zanzibar-bench-fwd-"))
    work.chmod(0o755)
    base = free_run(3)
    env = {
        **os.environ,
        "ZANZIBAR_CLUSTER_DIR": str(work / "c"),
        "ZANZIBAR_NODE_PORT": str(base),
        "ZANZIBAR_PG_PORT": str(free_port()),
        "ZANZIBAR_REDIS_PORT": str(free_port()),
        "ZANZIBAR_PG_FAST": "1",
        "ZANZIBAR_PYTHON": sys.executable,
        "ZANZIBAR_NODE_ARGS": "--drain 0.2 --takeover-delay 300 --limit message_rate_user=1000/second",
    }
    directory = work / "c"
    subprocess.run([str(SCRIPT), "up", "2"], env=env, check=True, timeout=180)
    try:
        one, two = (f"http://127.0.0.1:{base + i}/" for i in (1, 2))
        here, there = Player(one, "Here"), Player(two, "There")
        table = here.request("table.create", game="421", seats=2)[0]["table"]["id"]
        assert there.request("table.join", table=table)[0]["type"] == "ok"
        for _ in range(20):  # warm-up
            here.request("chat.say", table=table, text="warm")
            there.request("chat.say", table=table, text="warm")
        cpu = node_cpu(directory, 1) + node_cpu(directory, 2)
        local: list[float] = []
        forwarded: list[float] = []
        for n in range(args.count):
            reply, ms = here.request("chat.say", table=table, text=f"here {n}")
            assert reply["type"] == "ok", reply
            local.append(ms)
            reply, ms = there.request("chat.say", table=table, text=f"there {n}")
            assert reply["type"] == "ok", reply
            forwarded.append(ms)
        used = node_cpu(directory, 1) + node_cpu(directory, 2) - cpu
        here.close()
        there.close()
    finally:
        subprocess.run([str(SCRIPT), "down"], env=env, timeout=60)
    print(
        f"{args.count} chat lines each, two nodes on PostgreSQL + Redis, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'request -> ok (ms)':36}{'p50':>8}{'p90':>8}{'p99':>8}{'mean':>8}")
    for label, values in (
        ("reference: socket on the owner node", local),
        ("socket on another node (forwarded)", forwarded),
    ):
        print(
            f"{label:36}{pct(values, 0.5):8.2f}{pct(values, 0.9):8.2f}"
            f"{pct(values, 0.99):8.2f}{statistics.mean(values):8.2f}"
        )
    print(
        f"both nodes' CPU per line (both kinds together): {used * 1000 / (2 * args.count):.2f} ms"
    )


if __name__ == "__main__":
    main()
