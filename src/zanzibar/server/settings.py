"""Where the salon listens and where it keeps its data.

One small value gathers what ``zanzibar serve`` needs: the address, the data
directory and the database URL. The defaults keep everything local: the
loopback address, port 8421 (a nod to 421), and SQLite in ``./data`` (or in
``$ZANZIBAR_DATA_DIR``), so a first ``zanzibar serve`` needs no set-up.
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from zanzibar.salon.limits import Limits

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8421
#: The environment variable naming the data directory.
DATA_DIR_ENV = "ZANZIBAR_DATA_DIR"
#: The SQLite file inside the data directory.
DB_FILE_NAME = "zanzibar.sqlite3"
#: Seconds a bot waits before it acts, so people can follow what it does.
DEFAULT_BOT_DELAY = 0.5
#: Seconds of pause between rounds (the host may hold it longer).
DEFAULT_ROUND_PAUSE = 5.0
#: Seconds after a seated player drops mid-game before a bot takes the seat over.
DEFAULT_TAKEOVER_DELAY = 15.0
#: Seconds a node keeps serving after SIGTERM while its health check already fails.
DEFAULT_DRAIN = 5.0


@dataclass(frozen=True)
class TransportLimits:
    """What one connection may cost the server before it is refused or cut off.

    Every value is a ``zanzibar serve`` flag (docs/security.md says why
    each default is what it is). A refusal is always a protocol error a client
    can read (HTTP 408/413/431, a WebSocket ``error`` then a close code), and
    every cut-off is logged with the client's address and the reason.

    >>> TransportLimits().max_body_bytes
    16384
    """

    #: The largest HTTP request body, in bytes (413 as soon as it is passed).
    max_body_bytes: int = 16 * 1024
    #: Seconds a client has to send a whole request body (408 after).
    body_timeout: float = 20.0
    #: Seconds a client has to send a request's headers, from its first byte (408 after);
    #: also how long a new connection may stay silent.
    header_timeout: float = 10.0
    #: The largest header block, in bytes (431 beyond it).
    max_header_bytes: int = 32 * 1024
    #: Seconds an idle keep-alive HTTP connection is kept between requests.
    keep_alive_timeout: float = 5.0
    #: Seconds a new WebSocket has to complete its ``hello`` before it is closed.
    hello_timeout: float = 10.0
    #: Seconds between WebSocket ping frames, and to wait for each answer (0: no pings).
    ws_ping_interval: float = 20.0
    ws_ping_timeout: float = 20.0
    #: Frames a second one WebSocket may send on average, and at once: beyond, the server
    #: stops reading it for a while (TCP pushes back), so a flood costs its sender.
    ws_frames_per_second: float = 50.0
    ws_frame_burst: int = 100
    #: Messages, and bytes, waiting for one socket before it counts as too slow to follow.
    outbox_max_messages: int = 2048
    outbox_max_bytes: int = 2 * 1024 * 1024


def default_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$ZANZIBAR_DATA_DIR`` if set, else ``./data``.

    >>> default_data_dir({"ZANZIBAR_DATA_DIR": "/srv/zanzibar"})
    PosixPath('/srv/zanzibar')
    >>> default_data_dir({})
    PosixPath('data')
    """
    env = os.environ if environ is None else environ
    value = env.get(DATA_DIR_ENV, "").strip()
    return Path(value) if value else Path("data")


def sqlite_url(data_dir: Path) -> str:
    """The SQLAlchemy URL of the SQLite database kept in ``data_dir``.

    >>> sqlite_url(Path("/srv/z"))
    'sqlite+aiosqlite:////srv/z/zanzibar.sqlite3'
    """
    return f"sqlite+aiosqlite:///{data_dir / DB_FILE_NAME}"


@dataclass(frozen=True)
class Settings:
    """Everything the server needs to start.

    ``db_url`` left empty means SQLite under ``data_dir``; any SQLAlchemy async
    URL (``postgresql+asyncpg://...``) may be given instead.

    >>> s = Settings(data_dir=Path("/tmp/z"))
    >>> s.database_url
    'sqlite+aiosqlite:////tmp/z/zanzibar.sqlite3'
    >>> s.url
    'http://127.0.0.1:8421/'
    """

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    db_url: str = ""
    data_dir: Path = field(default_factory=default_data_dir)
    bot_delay: float = DEFAULT_BOT_DELAY
    round_pause: float = DEFAULT_ROUND_PAUSE
    takeover_delay: float = DEFAULT_TAKEOVER_DELAY
    #: fsync every commit (SQLite ``synchronous=FULL``): survives a power cut, not only a crash.
    durable: bool = False
    #: Transport limits (body and header sizes, timeouts, outgoing queues).
    transport: TransportLimits = field(default_factory=TransportLimits)
    #: Quotas and rates against abuse (``--limit name=value``, ``ZANZIBAR_LIMIT_<NAME>``).
    limits: Limits = field(default_factory=Limits)
    #: Redis of a cluster of nodes (``--redis``); empty: one process, Redis never imported.
    redis_url: str = ""
    #: This node's name (``--node``); empty: the host name and port.
    node: str = ""
    #: Seconds between SIGTERM (health check failing) and the shutdown (``--drain``).
    drain_seconds: float = DEFAULT_DRAIN

    @property
    def node_name(self) -> str:
        """``node``, else one made of the host name and port ("web1-8421").

        >>> Settings(node="n1").node_name
        'n1'
        """
        if self.node:
            return self.node
        host = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname()) or "node"
        return f"{host[:48]}-{self.port}".lstrip("._-") or "node"

    @property
    def database_url(self) -> str:
        """The SQLAlchemy URL actually used."""
        return self.db_url or sqlite_url(self.data_dir)

    @property
    def url(self) -> str:
        """The address people open in a browser."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def prepare(self) -> None:
        """Create the data directory (SQLite needs it before the first write)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
