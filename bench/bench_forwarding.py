"""What forwarding a command to a table's owner on another node costs.

    .venv/bin/python bench/bench_forwarding.py            # 300 actions each way
    .venv/bin/python bench/bench_forwarding.py --count 1000

Starts two ``zanzibar serve --redis`` nodes with ``scripts/cluster`` (a
private PostgreSQL and Redis in a temporary directory, loopback only), opens
a 421 table on node 1, and times game actions from request to ``ok`` (the
``ok`` of a forwarded command arrives over the Redis table bus) for its two
players:

* the reference, measured in the same run: a player whose socket is on node 1,
  the table's owner (no forwarding);
* a player at the same table whose socket is on node 2 (each command travels
  to node 1 over the link, its frames come back over the bus).

Each plays the first legal action when its turn comes, so both see the same
load. It prints p50/p90/p99 of both and the CPU both nodes used per action.
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
        self.view: dict[str, Any] = {}
        self.request("hello", token=session["token"])

    def request(self, kind: str, **fields: Any) -> tuple[dict[str, Any], float]:
        self.ids += 1
        started = time.perf_counter()
        self.ws.send(json.dumps({"v": 1, "type": kind, "id": self.ids, **fields}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message.get("type") == "game.view":
                self.view = message
            if message.get("id") == self.ids:
                return message, (time.perf_counter() - started) * 1000

    def catch_up(self) -> None:
        """Read what arrived (views) until nothing more comes for a moment."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0.05))
            except TimeoutError:
                return
            if message.get("type") == "game.view":
                self.view = message

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
    parser.add_argument("--count", type=int, default=300, help="actions per player")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 5000:
        raise SystemExit("bounded: 1 to 5000 actions")
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
        "ZANZIBAR_NODE_ARGS": "--drain 0.2 --takeover-delay 300 --round-pause 0",
    }
    directory = work / "c"
    subprocess.run([str(SCRIPT), "up", "2"], env=env, check=True, timeout=180)
    try:
        one, two = (f"http://127.0.0.1:{base + i}/" for i in (1, 2))
        here, there = Player(one, "Here"), Player(two, "There")
        table = here.request("table.create", game="421", seats=2)[0]["table"]["id"]
        assert there.request("table.join", table=table)[0]["type"] == "ok"
        idle = node_cpu(directory, 1) + node_cpu(directory, 2)
        time.sleep(5.0)  # the nodes' own background work (heartbeats, leases), no load
        idle = (node_cpu(directory, 1) + node_cpu(directory, 2) - idle) / 5.0
        here.request("table.start", table=table)
        players = [here, there]
        times: list[list[float]] = [[], []]
        cpu = 0.0
        window = 0.0
        warm = 20
        while min(len(t) for t in times) < args.count + warm:
            for player in players:
                player.catch_up()
            view = max((p.view for p in players), key=lambda v: v.get("log_length", -1))
            state = view.get("view", {})
            if state.get("over"):
                here.request("table.start", table=table)
                continue
            seat = state.get("to_act")
            if seat is None:
                continue
            mover = players[seat]
            legal = mover.view.get("view", {}).get("legal") or []
            if mover.view.get("log_length") != view.get("log_length") or not legal:
                continue
            reply, ms = mover.request("game.action", table=table, action=legal[0])
            assert reply["type"] == "ok", reply
            times[seat].append(ms)
            if min(len(t) for t in times) == warm and not cpu:
                cpu = node_cpu(directory, 1) + node_cpu(directory, 2)
                window = time.monotonic()
        local, forwarded = times[0][warm:], times[1][warm:]
        used = node_cpu(directory, 1) + node_cpu(directory, 2) - cpu
        window = time.monotonic() - window
        here.close()
        there.close()
    finally:
        subprocess.run([str(SCRIPT), "down"], env=env, timeout=60)
    print(
        f"{len(local)} and {len(forwarded)} game actions, two nodes on PostgreSQL + Redis, load {os.getloadavg()[0]:.1f}"
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
    actions = len(local) + len(forwarded)
    print(
        f"both nodes' CPU per action (both kinds together): {used * 1000 / actions:.2f} ms;"
        f" of it, their idle background work over the same {window:.0f} s:"
        f" {idle * window * 1000 / actions:.2f} ms"
    )


if __name__ == "__main__":
    main()
