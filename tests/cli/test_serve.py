"""``zanzibar serve``: its options, and a real start, answer and clean stop."""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from zanzibar.cli.serve import READY_PREFIX, parse_settings, salon_logging
from zanzibar.server.settings import DATA_DIR_ENV


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    settings, level = parse_settings([])
    assert (settings.host, settings.port) == ("127.0.0.1", 8421)
    assert settings.data_dir == Path("data")
    assert settings.database_url == "sqlite+aiosqlite:///data/zanzibar.sqlite3"
    assert settings.url == "http://127.0.0.1:8421/"
    assert level == "warning"


def test_log_level_info_shows_the_salons_own_logs(capsys: pytest.CaptureFixture[str]) -> None:
    salon = logging.getLogger("zanzibar")
    before = (salon.level, list(salon.handlers), salon.propagate)
    try:
        salon_logging("warning")  # the default: the salon's loggers are left as they are
        assert (salon.level, list(salon.handlers), salon.propagate) == before
        salon_logging("info")
        logging.getLogger("zanzibar.salon.reaper").info("table 7: its lost lease taken back")
        logging.getLogger("zanzibar.salon.reaper").debug("not shown at info")
        line = capsys.readouterr().err
        assert "INFO zanzibar.salon.reaper: table 7: its lost lease taken back" in line
        assert "not shown" not in line
    finally:
        salon.setLevel(before[0])
        salon.handlers[:] = before[1]
        salon.propagate = before[2]


def test_data_dir_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    settings, _ = parse_settings([])
    assert settings.data_dir == tmp_path
    assert settings.database_url.endswith(f"{tmp_path}/zanzibar.sqlite3")


def test_options(tmp_path: Path) -> None:
    settings, _ = parse_settings(
        ["--host", "127.0.0.2", "--port", "9000", "--data-dir", str(tmp_path), "--bot-delay", "0"]
    )
    assert (settings.host, settings.port, settings.data_dir, settings.bot_delay) == (
        "127.0.0.2",
        9000,
        tmp_path,
        0.0,
    )
    settings, _ = parse_settings(
        ["--limit", "tables_per_user=3", "--limit", "login_rate_name=3/minute;10/hour"]
    )
    assert settings.limits.tables_per_user == 3
    assert settings.limits.login_rate_name == "3/minute;10/hour"
    assert settings.limits.sockets_per_user == 8  # the others keep their defaults
    settings, _ = parse_settings(["--db", "postgresql+asyncpg://u@127.0.0.1/z", "--durable"])
    assert settings.database_url == "postgresql+asyncpg://u@127.0.0.1/z"
    assert settings.durable


@pytest.mark.parametrize(
    "argv",
    [
        ["--port", "70000"],
        ["--bot-delay", "-1"],
        ["--takeover-delay", "-2"],
        ["--port", "x"],
        ["--limit", "no_such_limit=3"],
        ["--limit", "tables_per_user=0"],
        ["--limit", "message_rate_user=very fast"],
    ],
)
def test_bad_options_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_settings(argv)
    assert exit_.value.code == 2


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "zanzibar.cli.main", "serve", *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )


def _ready_url(process: subprocess.Popen[bytes], log: Path, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith(READY_PREFIX):
                return line[len(READY_PREFIX) :]
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(log.read_text(errors="replace"))


def test_serve_starts_answers_and_stops(tmp_path: Path) -> None:
    data_dir = tmp_path / "salon-data"
    log = tmp_path / "serve.log"
    process = _start(["--port", "0", "--data-dir", str(data_dir), "--durable"], log)
    try:
        url = _ready_url(process, log)
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        assert (data_dir / "zanzibar.sqlite3").exists()
        assert httpx.get(url + "api/games", timeout=10).status_code == 200
        assert httpx.get(url + "api/openapi.json", timeout=10).json()["openapi"].startswith("3.")
        page = httpx.get(url, timeout=10)
        assert page.status_code == 200 and "<html" in page.text.lower()
    finally:
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=20)
    assert status == 0, log.read_text()


def test_serve_reports_a_busy_port(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        log = tmp_path / "serve.log"
        process = _start(["--port", str(port), "--data-dir", str(tmp_path / "d")], log)
        try:
            status = process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
    assert status != 0
    assert READY_PREFIX not in log.read_text()


def test_a_missing_database_driver_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from zanzibar.cli.main import main

    # the test extra installs asyncpg (for the live PostgreSQL tests): hide it
    monkeypatch.setitem(sys.modules, "asyncpg", None)
    assert main(["serve", "--port", "0", "--db", "postgresql+asyncpg://u@127.0.0.1:1/z"]) == 2
    assert "'asyncpg' is not installed" in capsys.readouterr().err


def test_tune_gc_freezes_and_raises_thresholds() -> None:
    import gc

    from zanzibar.cli.serve import GC_THRESHOLDS, tune_gc

    saved = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)


def test_young_collections_stay_small_and_full_ones_rare() -> None:
    from zanzibar.cli.serve import GC_THRESHOLDS

    young, middle, old = GC_THRESHOLDS
    # a second-generation collection scans what survived young * middle allocations:
    # at 50,000 * 20 it was a million objects, hundreds of milliseconds
    assert young * middle <= 50_000
    # a full collection (the whole heap) waits for millions of allocations
    assert young * middle * old >= 10_000_000


def test_serve_warms_up_freezes_and_watches_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from zanzibar.cli import serve
    from zanzibar.server.settings import Settings

    steps: list[str] = []

    class Watch:
        def start(self) -> None:
            steps.append("watch")

        async def stop(self) -> None:
            steps.append("unwatch")

    class Server:
        started = True
        servers: list[object] = []

        async def serve(self) -> None:
            steps.append("serving")
            await asyncio.sleep(0.01)

    monkeypatch.setattr(serve, "StallWatch", Watch)
    monkeypatch.setattr(serve, "warm_up", lambda: steps.append("warm"))
    monkeypatch.setattr(serve, "tune_gc", lambda: steps.append("gc"))
    assert asyncio.run(serve._serve(Server(), Settings(port=0))) == 0
    assert steps == ["warm", "gc", "watch", "serving", "unwatch"]


def test_warm_up_loads_the_message_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    from zanzibar.cli.serve import warm_up
    from zanzibar.l10n import catalogue

    loads: list[str] = []
    monkeypatch.setattr(catalogue, "default_catalogue", lambda: loads.append("catalogue"))
    warm_up()
    assert loads == ["catalogue"]
