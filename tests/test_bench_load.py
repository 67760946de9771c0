"""bench/bench_load.py's player socket: websockets' sans-I/O client driven from the loop.

The load bench's figures are only as good as its players' reading of the server's frames,
so its socket is checked here against websockets' own server: the handshake with the
protocol's subprotocol, whole and fragmented text messages in order, pings answered,
sending after the close refused, and the closing handshake.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from tests._bench_module import load_bench
from websockets.asyncio.server import ServerConnection, serve


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_bench("bench_load")


@asynccontextmanager
async def server(handler: Callable[[ServerConnection], Awaitable[None]]) -> AsyncIterator[str]:
    async with serve(handler, "127.0.0.1", 0, subprotocols=["zanzibar.v2"]) as running:
        port = next(iter(running.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}/ws"


def run(coroutine: Awaitable[Any]) -> Any:
    async def main() -> Any:
        return await asyncio.wait_for(coroutine, 20)

    return asyncio.run(main())


def test_whole_and_fragmented_texts_arrive_in_order(bench: Any) -> None:
    async def handler(ws: ServerConnection) -> None:
        assert ws.subprotocol == "zanzibar.v2"
        await ws.send('{"n": 1}')
        await ws.send(iter(['{"n": ', "2", "}"]))  # one message in three frames
        await ws.send("é" * 70_000)  # a 64-bit length header
        await ws.wait_closed()

    async def main() -> list[bytes | None]:
        got: list[bytes | None] = []
        async with server(handler) as url:
            socket = bench.PlayerSocket(url, got.append, ["zanzibar.v2"])
            await socket.open(timeout=5)
            while len(got) < 3:
                await asyncio.sleep(0.01)
            await socket.close()
        return got

    got = run(main())
    assert got[:3] == [b'{"n": 1}', b'{"n": 2}', ("é" * 70_000).encode()]
    assert got[3:] == [None]  # the close is said once


def test_sends_reach_the_server_and_pings_are_answered(bench: Any) -> None:
    heard: list[str] = []

    async def handler(ws: ServerConnection) -> None:
        pong = await ws.ping(b"x")
        await asyncio.wait_for(pong, 5)  # the player's socket answered
        async for message in ws:
            heard.append(str(message))
            if len(heard) == 2:
                await ws.send("done")

    async def main() -> list[bytes | None]:
        got: list[bytes | None] = []
        async with server(handler) as url:
            socket = bench.PlayerSocket(url, got.append, ["zanzibar.v2"])
            await socket.open(timeout=5)
            socket.send('{"type": "hello"}')
            socket.send("second")
            while not got:
                await asyncio.sleep(0.01)
            await socket.close()
            with pytest.raises(ConnectionError):
                socket.send("after the close")
        return got

    assert run(main())[0] == b"done"
    assert heard == ['{"type": "hello"}', "second"]


def test_a_refused_handshake_raises(bench: Any) -> None:
    async def main() -> None:
        async def refuse(connection: ServerConnection, request: Any) -> Any:
            return connection.respond(403, "no\n")

        async with serve(lambda ws: ws.wait_closed(), "127.0.0.1", 0, process_request=refuse) as s:
            port = next(iter(s.sockets)).getsockname()[1]
            socket = bench.PlayerSocket(f"ws://127.0.0.1:{port}/ws", lambda _: None, None)
            await socket.open(timeout=5)

    with pytest.raises(Exception, match="403"):
        run(main())
