"""Private PostgreSQL and redis-server instances for the ``live`` tests.

Each pytest process (each xdist worker too) starts its own instances on free
loopback ports in temporary directories and stops them at the end of the
session. One instance per worker rather than one shared behind a file lock:
a shared instance needs the *last* worker to stop it, which no worker can
know, and tests of two workers would see each other's keys, databases and
restarts (the chaos tests restart the servers). A private PostgreSQL starts in
about a second, so two or three per run cost little.

PostgreSQL refuses to run as root, and CI runs as root: there the server runs
as the ``postgres`` user that Debian's package creates (through ``runuser``),
in a directory that user owns. Client tools (``createdb``) run as whoever we
are and connect over TCP with trust authentication: nothing listens beyond
127.0.0.1.

When the programs are missing the live tests are skipped, unless
``ZANZIBAR_REQUIRE_LIVE=1`` (set by ``.ci/run``): then they fail, so CI can
never pass by skipping them.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

#: Set by .ci/run: a missing service fails instead of skipping.
REQUIRE_ENV = "ZANZIBAR_REQUIRE_LIVE"
#: The role every test connects as (trust authentication, loopback only).
PG_USER = "zanzibar"


def live_required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def unavailable(reason: str) -> None:
    """Skip the test, or fail it when live services are required."""
    if live_required():
        pytest.fail(f"{reason} (and {REQUIRE_ENV}=1 forbids skipping)", pytrace=False)
    pytest.skip(reason)


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def postgres_bindir() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian keeps them off PATH)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _server_user() -> str | None:
    """Who runs PostgreSQL: None for ourselves, else an unprivileged account (we are root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    return None


@dataclass
class PostgresServer:
    """One private PostgreSQL cluster; :meth:`database` hands out fresh databases."""

    bindir: Path
    root: Path
    port: int
    user: str | None
    _names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def data(self) -> Path:
        return self.root / "data"

    def _as_server(self, *args: str) -> list[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user is None:
            return command
        return ["runuser", "-u", self.user, "--", *command]

    @classmethod
    def start_new(cls) -> PostgresServer:
        bindir = postgres_bindir()
        if bindir is None:
            unavailable("PostgreSQL is not installed (no initdb)")
        assert bindir is not None
        user = _server_user()
        if os.geteuid() == 0 and user is None:
            unavailable("running as root and no unprivileged account for PostgreSQL")
        if user is not None and shutil.which("runuser") is None:
            unavailable("running as root without runuser to start PostgreSQL")
        root = Path(tempfile.mkdtemp(prefix="zanzibar-pg-"))
        if user is not None:
            account = pwd.getpwnam(user)
            os.chown(root, account.pw_uid, account.pw_gid)
        server = cls(bindir, root, free_port(), user)
        try:
            server._initdb()
            server.start()
        except BaseException:
            server.destroy()
            raise
        return server

    def _initdb(self) -> None:
        subprocess.run(
            self._as_server(
                "initdb",
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                PG_USER,
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ),
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        """Start (or restart after :meth:`stop`) on the same port and data."""
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} "
            "-c fsync=off -c full_page_writes=off -c max_connections=200"
        )
        log = str(self.root / "log")
        result = subprocess.run(
            self._as_server(
                "pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", "start"
            ),
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            log = (self.root / "log").read_text() if (self.root / "log").exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {result.stderr}\n{log[-2000:]}")

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(
            self._as_server("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop"),
            capture_output=True,
        )

    def restart(self) -> None:
        """What an operator's ``pg_ctl restart -m fast`` does: every connection drops."""
        self.stop("fast")
        self.start()

    def destroy(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str, driver: str = "postgresql+asyncpg") -> str:
        return f"{driver}://{PG_USER}@127.0.0.1:{self.port}/{database}"

    def _client(self, program: str, *args: str) -> None:
        subprocess.run(
            [
                str(self.bindir / program),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                PG_USER,
                *args,
            ],
            check=True,
            capture_output=True,
        )

    def database(self, template: str = "template0") -> str:
        """A new database, a copy of ``template`` (by default empty); its asyncpg URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        self._client("createdb", "-T", template, name)
        return self.url(name)

    def snapshot(self, url: str) -> str:
        """A new database holding what ``url``'s had committed now: what a crash would leave.

        ``pg_dump`` reads one consistent snapshot while the salon keeps running on
        the source (the way the SQLite tests copy the files of a running salon).
        """
        dump = self.root / f"dump-{next(self._names)}"
        self._client("pg_dump", "-Fc", "-f", str(dump), url.rsplit("/", 1)[1])
        copy = self.database()
        self._client("pg_restore", "--no-owner", "-d", copy.rsplit("/", 1)[1], str(dump))
        dump.unlink()
        return copy

    def drop(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with contextlib.suppress(subprocess.CalledProcessError):
            self._client("dropdb", "--force", "--if-exists", name)


@dataclass
class RedisServer:
    """One private redis-server without persistence (as the salon runs it: Redis may forget)."""

    program: str
    root: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @classmethod
    def start_new(cls) -> RedisServer:
        program = shutil.which("redis-server")
        if program is None:
            unavailable("redis-server is not installed")
        assert program is not None
        server = cls(program, Path(tempfile.mkdtemp(prefix="zanzibar-redis-")), free_port())
        try:
            server.start()
        except BaseException:
            server.destroy()
            raise
        return server

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.program,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.root),
                "--logfile",
                str(self.root / "log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_port(self.port, 20)
        except OSError as exc:
            self.stop()
            raise RuntimeError(f"redis-server did not start on port {self.port}") from exc

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def restart(self) -> None:
        """A restart without persistence: every key is gone afterwards."""
        self.stop()
        self.start()

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"


def migrated(url: str) -> None:
    """Apply the salon's migrations to the database at ``url``, as a salon's start does."""
    import asyncio

    from zanzibar.salon.persistence import make_engine, migrate

    async def run() -> None:
        engine = make_engine(url)
        try:
            await migrate(engine, url)
        finally:
            await engine.dispose()

    asyncio.run(run())
