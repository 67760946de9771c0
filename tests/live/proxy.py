"""A small TCP proxy for tests: one address in front of several salon nodes.

Each new connection (an HTTP request or a WebSocket) goes to the next node in
turn; a node that refuses the connection is skipped for the next one, so a
killed node costs a client one retry at most, as behind HAProxy with health
checks (deploy/haproxy.cfg is what production uses). Bytes are copied both
ways untouched, so WebSocket upgrades work without the proxy knowing HTTP.

Run it by itself::

    python tests/live/proxy.py --listen 127.0.0.1:8430 --to 127.0.0.1:8431,127.0.0.1:8432

or from a test: ``proxy = await Proxy.start(targets)``; ``proxy.port``;
``await proxy.close()``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
from collections import Counter


def parse_address(text: str) -> tuple[str, int]:
    """``host:port`` (or a bare port, on 127.0.0.1)."""
    host, _, port = text.rpartition(":")
    return host or "127.0.0.1", int(port)


class Proxy:
    """Round-robin over ``targets``, skipping any that refuses a connection."""

    def __init__(self, targets: list[tuple[str, int]]) -> None:
        if not targets:
            raise ValueError("the proxy needs at least one target")
        self.targets = targets
        self._turn = itertools.cycle(range(len(targets)))
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()
        #: Connections sent to each target (host, port).
        self.sent: Counter[tuple[str, int]] = Counter()
        self.port = 0

    @classmethod
    async def start(
        cls, targets: list[tuple[str, int]], host: str = "127.0.0.1", port: int = 0
    ) -> Proxy:
        proxy = cls(targets)
        proxy._server = await asyncio.start_server(proxy._accept, host, port)
        proxy.port = proxy._server.sockets[0].getsockname()[1]
        return proxy

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        for _ in range(len(self.targets)):
            target = self.targets[next(self._turn)]
            try:
                streams = await asyncio.wait_for(asyncio.open_connection(*target), 2.0)
            except (OSError, TimeoutError):
                continue
            self.sent[target] += 1
            return streams
        return None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._pipes.add(task)
        try:
            upstream = await self._open()
            if upstream is None:  # every node is down: close, as a balancer with none healthy
                return
            up_reader, up_writer = upstream
            try:
                await asyncio.gather(_copy(reader, up_writer), _copy(up_reader, writer))
            finally:
                up_writer.close()
        finally:
            writer.close()
            self._pipes.discard(task)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for task in list(self._pipes):
                task.cancel()
            for task in list(self._pipes):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            await self._server.wait_closed()
            self._server = None


async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until end of file, then half-close (the other direction may still talk)."""
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        writer.close()


async def _main(listen: str, to: str) -> None:
    host, port = parse_address(listen)
    proxy = await Proxy.start([parse_address(t) for t in to.split(",") if t], host, port)
    print(f"proxy on {host}:{proxy.port} -> {to}", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await proxy.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", default="127.0.0.1:8430", metavar="HOST:PORT")
    parser.add_argument("--to", required=True, metavar="HOST:PORT,HOST:PORT,...")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main(args.listen, args.to))
