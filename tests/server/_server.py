"""Start a real ``zanzibar serve`` process for tests (reusable by any test module).

    server = start_server(tmp_path / "data")   # server.url == "http://127.0.0.1:41234/"
    server.kill()                              # SIGKILL, as a crash would
    server = server.restart()                  # same data dir, same port

The process runs ``python -m zanzibar.cli.main serve --port 0`` on the
loopback address with its own data directory; ``start_server`` returns once
the process has printed its address and answers ``GET /api/games``.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

READY_PREFIX = "Zanzibar salon ready at "
#: Seconds to wait for a server to start (migrations included).
START_TIMEOUT_S = 60.0


@dataclass
class ServerProcess:
    """A running salon: its address, its process and its data directory."""

    url: str
    process: subprocess.Popen[bytes]
    data_dir: Path
    port: int
    bot_delay: float = 0.0
    round_pause: float = 0.0
    takeover_delay: float = 0.5
    log_path: Path = field(default_factory=Path)

    @property
    def ws_url(self) -> str:
        """The WebSocket endpoint."""
        return self.url.replace("http://", "ws://", 1) + "ws"

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs (a crash or ``kill -9``)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not stop within 10 s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self) -> ServerProcess:
        """Stop if running, then start again on the same data directory and port."""
        self.stop()
        return start_server(
            self.data_dir,
            port=self.port,
            bot_delay=self.bot_delay,
            round_pause=self.round_pause,
            takeover_delay=self.takeover_delay,
        )

    def logs(self) -> str:
        """What the process printed (useful in assertion messages)."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


def _wait_for_ready_line(process: subprocess.Popen[bytes], log_path: Path, deadline: float) -> str:
    while time.monotonic() < deadline:
        text = log_path.read_text(errors="replace")
        for line in text.splitlines():
            if line.startswith(READY_PREFIX):
                return line[len(READY_PREFIX) :].strip()
        if process.poll() is not None:
            raise RuntimeError(
                "zanzibar serve exited early:\n" + log_path.read_text(errors="replace")
            )
        time.sleep(0.05)
    raise RuntimeError(
        "zanzibar serve did not start in time:\n" + log_path.read_text(errors="replace")
    )


_launches = itertools.count(1)


def start_server(
    data_dir: Path,
    *,
    port: int = 0,
    bot_delay: float = 0.0,
    round_pause: float = 0.0,
    takeover_delay: float = 0.5,
    extra_args: list[str] | None = None,
    env: dict[str, str] | None = None,
) -> ServerProcess:
    """Start ``zanzibar serve`` on 127.0.0.1 with ``data_dir``; wait until it answers.

    The process's output goes to ``serve-N.log`` beside the data directory
    (a file, not a pipe, so a chatty server can never block on a full pipe).
    """
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "zanzibar.cli.main",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        "--bot-delay",
        str(bot_delay),
        "--round-pause",
        str(round_pause),
        "--takeover-delay",
        str(takeover_delay),
        # test clients play at machine speed, far above any person's message rate
        # (a test of that limit passes its own --limit, which comes later and wins)
        "--limit",
        "message_rate_user=100000/second",
        *(extra_args or []),
    ]
    process_env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    log_path = data_dir.parent / f"{data_dir.name}-serve-{os.getpid()}-{next(_launches)}.log"
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            command, stdout=log_file, stderr=subprocess.STDOUT, env=process_env
        )
    deadline = time.monotonic() + START_TIMEOUT_S
    try:
        url = _wait_for_ready_line(process, log_path, deadline)
        if not url.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"unexpected address {url!r}")
        actual_port = int(url.rstrip("/").rsplit(":", 1)[1])
        _wait_until_answers(url, deadline)
    except BaseException:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        raise
    return ServerProcess(
        url, process, data_dir, actual_port, bot_delay, round_pause, takeover_delay, log_path
    )


def _wait_until_answers(url: str, deadline: float) -> None:
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            response = httpx.get(url + "api/games", timeout=2.0)
            if response.status_code == 200:
                return
        except httpx.HTTPError as exc:
            last = exc
        time.sleep(0.05)
    raise RuntimeError(f"{url} does not answer: {last}")
