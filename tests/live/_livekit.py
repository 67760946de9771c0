"""A salon of real nodes for the live tests, started by ``scripts/cluster`` (so it is tested too).

:func:`running_cluster` starts a private PostgreSQL and redis-server, ``N``
``zanzibar serve --redis`` nodes and the test proxy (tests/live/proxy.py) in a
temporary directory, on free loopback ports, and stops all of it afterwards.
:class:`Cluster` drives it: node and proxy addresses, ``kill -9`` and restart
of a node, restarts of Redis and PostgreSQL, and the database's URL for the
checks that read what was stored.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from _orphans import clean_up_after, dismiss

from _services import free_port, postgres_bindir, unavailable

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "cluster"

#: Flags of every node in the live tests: bots and round pauses at once, a quick drain.
NODE_ARGS = "--bot-delay 0 --round-pause 0 --drain 0.2"


@dataclass
class Cluster:
    """A running salon of ``nodes`` nodes behind one proxy."""

    directory: Path
    base: int
    env: dict[str, str]
    nodes: int = 3

    def node(self, i: int) -> str:
        """Node ``i``'s base URL (from 1), with a trailing slash."""
        return f"http://127.0.0.1:{self.base + i}/"

    @property
    def proxy(self) -> str:
        """The one address in front of every node."""
        return f"http://127.0.0.1:{self.base}/"

    @property
    def pg_url(self) -> str:
        """The salon's database (asyncpg URL)."""
        return self._setting("PG_URL")

    @property
    def redis_url(self) -> str:
        return self._setting("REDIS_URL")

    def _setting(self, name: str) -> str:
        for line in (self.directory / "env").read_text().splitlines():
            key, _, value = line.partition("=")
            if key == name:
                return value.strip("'")
        raise KeyError(name)

    def run(self, *args: str, timeout: float = 90) -> str:
        """Run one ``scripts/cluster`` verb; on failure, raise with every log's tail."""
        done = subprocess.run(
            [str(SCRIPT), *args], env=self.env, capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise AssertionError(f"scripts/cluster {' '.join(args)}: {done.stderr}{self.logs()}")
        return done.stdout

    def logs(self, chars: int = 1500) -> str:
        """The end of every node's log, for a failure's message."""
        return "".join(
            f"\n--- {p.name}\n{p.read_text(errors='replace')[-chars:]}"
            for p in sorted(self.directory.glob("*.log"))
        )

    def alive(self, i: int) -> bool:
        """Whether node ``i``'s process runs."""
        pid_file = self.directory / f"n{i}.pid"
        if not pid_file.exists():
            return False
        try:
            os.kill(int(pid_file.read_text()), 0)
        except (OSError, ValueError):
            return False
        return True

    def kill(self, i: int) -> None:
        """``kill -9`` node ``i``: nothing of it gets to say goodbye."""
        self.run("kill", str(i))

    def start(self, i: int) -> None:
        """Start node ``i`` again; returns once it serves."""
        self.run("start", str(i), timeout=120)

    def restart_redis(self) -> None:
        """Redis restarted without persistence: every key is gone."""
        self.run("restart-redis")

    def restart_pg(self, down: int = 0) -> None:
        """``pg_ctl stop -m fast`` then start (``down`` seconds later): every connection drops."""
        self.run("restart-pg", str(down), timeout=120 + down)


def _free_run(count: int) -> int:
    """A port p such that p .. p + count - 1 are all free now."""
    for _ in range(50):
        base = free_port()
        if base + count > 65535:
            continue
        try:
            for port in range(base, base + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no run of free ports")


@contextlib.contextmanager
def running_cluster(nodes: int = 3, node_args: str = NODE_ARGS) -> Iterator[Cluster]:
    """A salon of ``nodes`` nodes for the duration of the ``with`` block.

    Skips (or fails, under ``ZANZIBAR_REQUIRE_LIVE=1``) when PostgreSQL or
    redis-server is not installed.
    """
    if postgres_bindir() is None:
        unavailable("PostgreSQL is not installed (no initdb)")
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        unavailable("redis-server is not installed")
    directory = Path(tempfile.mkdtemp(prefix="zanzibar-cluster-"))
    directory.chmod(0o755)  # as root, PostgreSQL runs as postgres and must reach its data
    base = _free_run(nodes + 1)
    env = {
        **os.environ,
        "ZANZIBAR_CLUSTER_DIR": str(directory / "c"),
        "ZANZIBAR_NODE_PORT": str(base),
        "ZANZIBAR_PG_PORT": str(free_port()),
        "ZANZIBAR_REDIS_PORT": str(free_port()),
        "ZANZIBAR_PG_FAST": "1",
        "ZANZIBAR_NODE_SESSIONS": "1",  # each node leads its session (test_nodes checks it)
        "ZANZIBAR_PYTHON": sys.executable,
        "ZANZIBAR_NODE_ARGS": f"{node_args} {os.environ.get('ZANZIBAR_LIVE_NODE_ARGS', '')}",
    }
    made = Cluster(directory / "c", base, env, nodes)
    # Should this worker die without its finally (a crash, a hung worker ended by
    # pytest-timeout), the watcher takes the cluster down.
    watcher = clean_up_after(os.getpid(), directory, [str(SCRIPT), "down"], env)
    try:
        made.run("up", str(nodes), timeout=150)
        yield made
    finally:
        try:
            keep = os.environ.get("ZANZIBAR_LIVE_LOGS")
            if keep:  # each node's logs kept for a look after the run (it may have failed)
                into = Path(keep) / directory.name
                into.mkdir(parents=True, exist_ok=True)
                for log in (directory / "c").glob("*.log*"):
                    shutil.copy(log, into / log.name)
            made.run("down", timeout=60)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
            dismiss(watcher)
