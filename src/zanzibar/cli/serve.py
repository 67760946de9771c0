"""``zanzibar serve``: run the salon on uvicorn.

``zanzibar serve [--host H] [--port P] [--db URL] [--data-dir D] [--bot-delay S]
[--redis URL --node NAME --drain S]`` starts the HTTP API, the WebSocket endpoint and the web client on
127.0.0.1:8421 by default, with SQLite under ``./data`` (or
``$ZANZIBAR_DATA_DIR``). ``--port 0`` picks a free port; either way the
address is printed once the salon is ready, on a line of its own
("Zanzibar salon ready at http://127.0.0.1:8421/"), so scripts and tests can
wait for it.

With ``--redis`` the process is one node of a salon spread over several
(docs/deploy.md): it needs a PostgreSQL ``--db`` shared by every node, says
it is alive in Redis, and on SIGTERM first fails its health check for
``--drain`` seconds so a load balancer stops sending it new sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from zanzibar.cli.main import make_parser
from zanzibar.engine.errors import ZanzibarError
from zanzibar.salon.limits import limits_from
from zanzibar.server.settings import (
    DEFAULT_BOT_DELAY,
    DEFAULT_DRAIN,
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_ROUND_PAUSE,
    DEFAULT_TAKEOVER_DELAY,
    Settings,
    TransportLimits,
    default_data_dir,
)
from zanzibar.server.stalls import StallWatch

#: The line printed once the server accepts connections (tests look for it).
READY_PREFIX = "Zanzibar salon ready at "
#: Collector thresholds once started (CPython's defaults are 700, 10, 10): see tune_gc.
GC_THRESHOLDS = (2_000, 10, 1_000)
#: How long to wait for the salon to start (migrations, restoring tables).
_STARTUP_LIMIT_S = 120.0


def parse_settings(argv: list[str]) -> tuple[Settings, str]:
    """Settings and the log level from the command line."""
    parser = make_parser("serve", "Start the Zanzibar salon (HTTP API, WebSocket and web client).")
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--db",
        default="",
        metavar="URL",
        help="SQLAlchemy URL (default: SQLite in the data directory)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        metavar="D",
        help="where data is kept (default $ZANZIBAR_DATA_DIR or ./data)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=DEFAULT_BOT_DELAY,
        metavar="S",
        help=f"seconds a bot waits before acting (default {DEFAULT_BOT_DELAY})",
    )
    parser.add_argument(
        "--round-pause",
        type=float,
        default=DEFAULT_ROUND_PAUSE,
        metavar="S",
        help=f"seconds of pause between rounds (default {DEFAULT_ROUND_PAUSE})",
    )
    parser.add_argument(
        "--takeover-delay",
        type=float,
        default=DEFAULT_TAKEOVER_DELAY,
        metavar="S",
        help=f"seconds before a bot takes the seat of a player who dropped (default {DEFAULT_TAKEOVER_DELAY})",
    )
    parser.add_argument(
        "--durable",
        action="store_true",
        help="with SQLite, fsync every commit (survives a power cut; slower)",
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set one limit against abuse, e.g. tables_per_user=3 or"
        " message_rate_user=20/second (repeatable; also ZANZIBAR_LIMIT_<NAME>;"
        " see docs/security.md)",
    )
    parser.add_argument(
        "--redis",
        default="",
        metavar="URL",
        help="Redis of a salon run as several nodes (redis://host:6379/0); needs a PostgreSQL --db",
    )
    parser.add_argument(
        "--node",
        default="",
        metavar="NAME",
        help="this node's name, unique in the cluster (default: host name and port)",
    )
    parser.add_argument(
        "--drain",
        type=float,
        default=DEFAULT_DRAIN,
        metavar="S",
        help="with --redis, seconds between SIGTERM (health check failing) and the shutdown"
        f" (default {DEFAULT_DRAIN})",
    )
    parser.add_argument(
        "--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"]
    )
    _add_limit_flags(parser)
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"port {args.port} is not between 0 and 65535")
    _check_cluster_flags(parser, args)
    for flag in ("bot_delay", "round_pause", "takeover_delay", "drain"):
        if getattr(args, flag) < 0:
            parser.error(f"--{flag.replace('_', '-')} cannot be negative")
    transport = {}
    for name, _, _ in _LIMIT_FLAGS:
        value = getattr(args, name)
        if value < 0 or (value == 0 and name not in _ZERO_ALLOWED):
            parser.error(f"--{name.replace('_', '-')} must be positive")
        transport[name] = value
    try:
        limits = limits_from(args.limit, os.environ)
    except ValueError as exc:
        parser.error(str(exc))
    return Settings(
        host=args.host,
        port=args.port,
        db_url=args.db,
        data_dir=args.data_dir if args.data_dir is not None else default_data_dir(),
        bot_delay=args.bot_delay,
        round_pause=args.round_pause,
        takeover_delay=args.takeover_delay,
        durable=args.durable,
        transport=TransportLimits(**transport),
        limits=limits,
        redis_url=args.redis,
        node=args.node,
        drain_seconds=args.drain,
    ), args.log_level


def _check_cluster_flags(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse a cluster node that could not share anything (Redis alone, or SQLite)."""
    from zanzibar.cluster.ports import check_node_name

    if args.node:
        try:
            check_node_name(args.node)
        except ValueError as exc:
            parser.error(str(exc))
    if not args.redis:
        return
    if not args.redis.startswith(("redis://", "rediss://", "unix://")):
        parser.error(f"--redis takes a redis:// URL, not {args.redis!r}")
    if not args.db.startswith("postgresql"):
        parser.error(
            "--redis runs this process as one node of several, which share one PostgreSQL"
            " database: give --db postgresql+asyncpg://..."
        )


#: The transport limits as flags: (field of TransportLimits, metavar, help).
_LIMIT_FLAGS: tuple[tuple[str, str, str], ...] = (
    ("max_body_bytes", "N", "largest HTTP request body in bytes (413 beyond)"),
    ("body_timeout", "S", "seconds to send a request body (408 after)"),
    ("header_timeout", "S", "seconds to send request headers, or to stay silent after connecting"),
    ("max_header_bytes", "N", "largest request header block in bytes (431 beyond)"),
    ("keep_alive_timeout", "S", "seconds an idle keep-alive HTTP connection is kept"),
    ("hello_timeout", "S", "seconds a new WebSocket has to say hello"),
    ("ws_ping_interval", "S", "seconds between WebSocket pings (0: none)"),
    ("ws_ping_timeout", "S", "seconds to wait for a ping's answer before dropping the socket"),
    ("ws_frames_per_second", "N", "frames a second a WebSocket may send on average"),
    ("ws_frame_burst", "N", "frames a WebSocket may send at once before reading slows down"),
    (
        "outbox_max_messages",
        "N",
        "messages waiting for one socket before it is cut off as too slow",
    ),
    ("outbox_max_bytes", "N", "bytes waiting for one socket before it is cut off as too slow"),
)
_ZERO_ALLOWED = frozenset({"ws_ping_interval"})


def _add_limit_flags(parser: argparse.ArgumentParser) -> None:
    defaults = TransportLimits()
    group = parser.add_argument_group("limits (docs/security.md)")
    for name, metavar, text in _LIMIT_FLAGS:
        default = getattr(defaults, name)
        group.add_argument(
            "--" + name.replace("_", "-"),
            type=type(default),
            default=default,
            metavar=metavar,
            help=f"{text} (default {default})",
        )


def salon_logging(level: str) -> None:
    """Below ``warning``, the salon's own loggers too (``--log-level`` otherwise sets only
    uvicorn's), with the time and the logger's name: to follow a node's decisions (tables
    claimed, leases taken back, sockets following a table again) in its log."""
    number = logging.getLevelName(level.upper())
    if not isinstance(number, int) or number >= logging.WARNING:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    salon = logging.getLogger("zanzibar")
    salon.setLevel(number)
    salon.addHandler(handler)
    salon.propagate = False


def warm_up() -> None:
    """Load now what the first game would otherwise load in the middle of play.

    The message catalogue (every language's Fluent files, parsed, and Babel's
    plural rules) is loaded on first use: at the first table message, a third
    of a second in which the event loop served no one (bench/bench_load.py saw
    it). Loaded before :func:`tune_gc`, it is also frozen out of collections.
    """
    from zanzibar.l10n.catalogue import default_catalogue

    default_catalogue()


def tune_gc(thresholds: tuple[int, int, int] = GC_THRESHOLDS) -> None:
    """Make the garbage collector's pauses short for a long-running server.

    Everything alive once the salon has started (modules, the message catalogue,
    restored tables) is frozen out of the collector's scans. With CPython's
    default thresholds the rest (about 300,000 objects at 1,000 players) was
    scanned whole every few seconds; with thresholds of (50,000, 20, 100) the
    young collections themselves became the stalls: 20-90 ms for each first
    generation and, every million allocations, a second-generation scan of up
    to a million objects (hundreds of milliseconds: the load bench's latency tail).
    Now a young collection scans at most a few thousand objects (about 10 ms
    for the first generation, 25 ms for the second, measured under load), and a
    full collection, which scans the whole heap (some 300 ms at 1,000 players),
    waits for twenty million allocations (a quarter of an hour at 500 actions/s):
    cyclic garbage old enough to reach it is rare, short-lived garbage is
    still found young.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def _make_server(config: Any, drain: Callable[[], Awaitable[None]] | None = None) -> Any:
    """A uvicorn server that stops cleanly on SIGINT/SIGTERM and then exits with 0.

    (uvicorn's own handler re-raises the signal after shutting down, which
    makes a clean stop look like a crash to service managers and scripts.)
    With ``drain`` (a cluster node), the first SIGTERM runs it before the
    shutdown (the node's health check fails while open sockets keep working);
    a second signal, or SIGINT, stops at once.
    """
    import uvicorn

    class Server(uvicorn.Server):
        draining: asyncio.Task[None] | None = None

        def on_signal(self, sig: int) -> None:
            if drain is None or sig != signal.SIGTERM or self.draining is not None:
                self.handle_exit(sig, None)
                return

            async def drain_then_exit() -> None:
                try:
                    await drain()
                finally:
                    self.handle_exit(sig, None)

            self.draining = asyncio.get_running_loop().create_task(drain_then_exit())

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, self.on_signal, sig)
            try:
                yield
            finally:
                for sig in (signal.SIGINT, signal.SIGTERM):
                    loop.remove_signal_handler(sig)

    return Server(config)


async def _serve(server: Any, settings: Settings) -> int:
    # before the server starts (and a node joins its cluster and claims tables): under
    # load the catalogue took seconds of a blocked loop, in which a node that had just
    # joined missed its heartbeats and lease renewals and lost its tables again
    warm_up()
    task = asyncio.create_task(server.serve())
    steps = int(_STARTUP_LIMIT_S / 0.02)
    for _ in range(steps):
        if server.started or task.done():
            break
        await asyncio.sleep(0.02)
    if not server.started:
        if not task.done():
            server.should_exit = True
        await task
        print("zanzibar serve: the salon did not start", file=sys.stderr)
        return 1
    port = settings.port
    for listener in server.servers:
        for sock in listener.sockets:
            port = sock.getsockname()[1]
            break
    url = Settings(host=settings.host, port=port).url
    tune_gc()
    # stalls of the event loop are logged at info (--log-level info), with what ran
    watch = StallWatch()
    watch.start()
    print(f"{READY_PREFIX}{url}", flush=True)
    print(f"data: {settings.db_url or settings.data_dir.resolve()}", flush=True)
    if settings.redis_url:
        print(f"node: {settings.node_name}", flush=True)
    try:
        await task
    finally:
        await watch.stop()
    return 0


def main(argv: list[str]) -> int:
    """Run the salon until interrupted."""
    from zanzibar.server.app import create_app
    from zanzibar.server.guards import uvicorn_config

    settings, log_level = parse_settings(argv)
    salon_logging(log_level)
    try:
        app = create_app(settings)
    except ModuleNotFoundError as exc:
        raise ZanzibarError(
            f"the database driver '{exc.name}' is not installed for {settings.database_url}"
            " (PostgreSQL needs the 'postgres' extra: pip install 'zanzibar[postgres]')"
        ) from None
    # WebSocket pings find dead connections (a laptop closed mid-game), so
    # their seats go to bots after the salon's takeover delay.
    config = uvicorn_config(
        app,
        settings.host,
        settings.port,
        settings.transport,
        log_level=log_level,
        lifespan="on",
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    parts = app.state.node
    server = _make_server(config, parts.drain if parts.node is not None else None)
    loop_factory = config.get_loop_factory()
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        return runner.run(_serve(server, settings))
