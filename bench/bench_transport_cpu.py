"""The transport's CPU per player action, without the salon and without the kernel.

    .venv/bin/python bench/bench_transport_cpu.py                    # against 3134400, 3 rounds
    .venv/bin/python bench/bench_transport_cpu.py --reference none --actions 20000

``bench_load.py`` measures the whole server; ``bench_salon_cpu.py`` the salon
alone. This one measures the rest: what the server does between the socket
and ``Salon.handle`` or a connection's ``put_message``. It runs the real
transport (our uvicorn WebSocket protocol, ``create_app``'s Starlette app with
its middleware, ``websocket_endpoint``, ``check_incoming``, ``Outbox`` and the
batched writer, websockets' parser and framing) on uvloop, in one process,
with a fake socket (its ``write`` only counts bytes: no system calls) and a
fake salon that answers as the real one does at a table of 421 (three
players and a bot): each player action is answered with ``ok`` to its
sender, the item and the view to the three seats (one message for the
audience, shared) and ``your_turn`` to the next; every other action a bot
move follows in a later turn of the loop (item and view to the three seats
again); three actions in seven come with a protocol ``ping`` from another
player (the load bench pings 200 times a second beside some 470 actions).
So a player action is about 1.4 frames in and 4.5 frames out, the load
bench's shape (docs/cluster.md, ninth round).

Each action is fed alone and the loop runs until its answers are written,
so nothing is batched across sockets: that is the most a frame can cost,
and it makes the run deterministic, hence fit for instruction counts under
cachegrind (``--worker N`` runs N actions and prints its figures; two
values of N cancel the start-up).

The same load runs against the code of ``--reference`` (``git archive``) and
against this tree's, in child processes, alternating for ``--rounds`` pairs;
each side keeps its best round, in the event loop thread's CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import alternate

#: main when the ninth round of "Cheaper actions" began (docs/cluster.md).
REFERENCE_COMMIT = "3134400"

#: Sockets of one table: three players (the bot has none).
SEATS = 3


def _client_frame(text: str) -> bytes:
    """A masked text frame as a client sends it (websockets' own framing)."""
    from websockets.frames import Frame, Opcode

    return Frame(Opcode.TEXT, text.encode()).serialize(mask=True, extensions=[])


def _messages(table: int, seq: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """An item and a view of the sizes a 421 table sends (about 300 and 700 bytes)."""
    event = {
        "v": 1,
        "type": "game.event",
        "table": table,
        "seq": seq,
        "event": {"kind": "roll", "seat": seq % 4, "dice": [4, 2, 1], "kept": [True, False, True]},
        "text": "Alice rolls 4, 2, 1 and keeps 4 and 1: four-two-one!",
        "at": 1795000000.25,
    }
    view = {
        "v": 1,
        "type": "game.view",
        "table": table,
        "seq": seq,
        "log_length": seq,
        "view": {
            "phase": "play",
            "to_act": (seq + 1) % 4,
            "round": 3,
            "tokens": [5, 3, 6, 7],
            "pot": 0,
            "dice": [4, 2, 1],
            "throws_left": 2,
            "best": {"seat": 1, "combination": "421", "throws": 1},
            "legal": [
                {"type": "roll", "keep": [a, b, c]} for a in (0, 1) for b in (0, 1) for c in (0, 1)
            ],
            "over": False,
            "names": ["Alice", "Bob", "Carol", "Bot Dora"],
        },
    }
    return event, view


class _FakeTransport:
    """The socket: writes are counted, never made (the kernel is not measured here)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.writes = 0
        self.bytes = 0
        self.closing = False
        self.pauses = 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.bytes += len(data)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8630), "peername": ("127.0.0.1", self.port)}.get(
            name, default
        )

    def is_closing(self) -> bool:
        return self.closing

    def pause_reading(self) -> None:
        self.pauses += 1

    def resume_reading(self) -> None:
        pass

    def close(self) -> None:
        self.closing = True

    def abort(self) -> None:
        self.closing = True

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass


class _Conn:
    def __init__(self, send: Any) -> None:
        self.send = send
        self.user: int | None = None
        self.lang = "en"
        self.table = 0


class _FakeSalon:
    """Answers as the salon does at a table of 421, with messages made beforehand.

    Each message put is a new one (a copy of the table's item or view with the
    new version), so the transport encodes each as it would the salon's; the
    fake's own work (those copies, the calls) is in the figure: a few per cent.
    """

    def __init__(self) -> None:
        from zanzibar.salon.connections import Shared

        self.shared = Shared
        self.tables: dict[int, list[_Conn]] = {}
        self.made: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        self.handled = 0
        self.seq = 0
        self.bot_moves = 0

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def connect(self, send: Any, address: str | None = None) -> _Conn:
        conn = _Conn(send)
        return conn

    async def disconnect(self, conn: _Conn) -> None:
        pass

    def _fan_out(self, table: int) -> None:
        self.seq += 1
        made = self.made.get(table)
        if made is None:
            made = self.made[table] = _messages(table, 0)
        # new messages (each encoded by the transport), the salon's own making left out
        event, view = self.shared(made[0], seq=self.seq), self.shared(made[1], seq=self.seq)
        for conn in self.tables[table]:
            conn.send.put_message(event)
            conn.send.put_message(view)

    def _bot_moves(self, table: int) -> None:
        self.bot_moves += 1
        self._fan_out(table)

    async def handle(self, conn: _Conn, message: dict[str, Any]) -> None:
        self.handled += 1
        kind = message["type"]
        if kind == "hello":
            conn.user = self.handled
            conn.table = message["lang"] and int(message["token"])
            self.tables.setdefault(conn.table, []).append(conn)
            conn.send.put_message({"v": 1, "type": "welcome", "user": conn.user, "protocol": 2})
        elif kind == "ping":
            conn.send.put_message({"v": 1, "type": "pong", "id": message["id"]})
        else:
            table = conn.table
            self._fan_out(table)
            conn.send.put_message({"v": 1, "type": "ok", "id": message["id"]})
            seats = self.tables[table]
            following = seats[(seats.index(conn) + 1) % len(seats)]
            following.send.put_message(
                {"v": 1, "type": "your_turn", "table": table, "seq": self.seq}
            )
            if self.handled % 2 == 0:  # a bot's move, after the action (a later turn)
                asyncio.get_running_loop().call_soon(self._bot_moves, table)


async def _settle(turns: int = 6) -> None:
    for _ in range(turns):
        await asyncio.sleep(0)


async def _measure(tables: int, actions: int) -> dict[str, Any]:
    """Seat ``tables`` tables of three sockets; play ``actions`` actions; the last 4/5 measured."""
    from uvicorn.server import ServerState

    from zanzibar.server.app import create_app
    from zanzibar.server.guards import uvicorn_config
    from zanzibar.server.settings import TransportLimits

    salon = _FakeSalon()
    # no keepalive pings: under cachegrind a run lasts minutes, and the fake clients
    # never answer one (the load's WebSocket pings, one per socket every 20 s, are left out)
    limits = TransportLimits(ws_frames_per_second=1e9, ws_frame_burst=10**9, ws_ping_interval=0)
    config = uvicorn_config(
        create_app(salon, limits), "127.0.0.1", 8630, limits, lifespan="off", log_level="warning"
    )
    config.load()
    state = ServerState()
    sockets: list[tuple[Any, _FakeTransport]] = []
    key = base64.b64encode(b"0123456789abcdef").decode()
    upgrade = (
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8630\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Protocol: zanzibar.v2\r\n\r\n"
    ).encode()
    for table in range(tables):
        for seat in range(SEATS):
            transport = _FakeTransport(40000 + table * SEATS + seat)
            protocol = config.ws_protocol_class(config=config, server_state=state, app_state={})
            protocol.connection_made(transport)
            protocol.data_received(upgrade)
            await _settle()
            hello = {"v": 1, "type": "hello", "token": str(table), "lang": "en"}
            protocol.data_received(_client_frame(json.dumps(hello)))
            await _settle()
            sockets.append((protocol, transport))
    if salon.handled != tables * SEATS:
        raise RuntimeError(f"only {salon.handled} of {tables * SEATS} sockets said hello")
    action = {"v": 1, "type": "game.action", "table": 0, "seq": 7, "action": {"type": "roll"}}
    frames = []
    for request_id in range(1, 8):
        action["id"] = request_id
        frames.append(_client_frame(json.dumps(action)))
    pings = [_client_frame(json.dumps({"v": 1, "type": "ping", "id": i})) for i in range(1, 8)]
    gc.collect()
    gc.freeze()
    warm = actions // 5
    start_cpu = 0.0
    start_handled = 0
    count = len(sockets)
    for step in range(actions):
        if step == warm:
            start_cpu, start_handled = time.thread_time(), salon.handled
            start_writes = sum(t.writes for _, t in sockets)
        protocol, _ = sockets[(step * 7) % count]
        protocol.data_received(frames[step % 7])
        if step % 7 in (0, 2, 4):
            sockets[(step * 7 + 1) % count][0].data_received(pings[step % 7])
        await _settle()
    cpu = time.thread_time() - start_cpu
    measured = actions - warm
    writes = sum(t.writes for _, t in sockets) - start_writes
    frames_in = salon.handled - start_handled
    closed = sum(transport.closing for _, transport in sockets)
    if closed:
        raise RuntimeError(f"{closed} sockets were closed during the run")
    for protocol, _transport in sockets:
        protocol.connection_lost(None)
    await _settle()
    return {
        "us_per_action": cpu * 1e6 / measured,
        "actions": measured,
        "all_actions": actions,
        "frames_in_per_action": frames_in / measured,
        "writes_per_action": writes / measured,
    }


def _worker(argv: list[str]) -> None:
    import uvloop

    tables, actions = (int(a) for a in argv)
    print(json.dumps(uvloop.run(_measure(tables, actions))))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--worker":
        _worker(argv[1:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--actions", type=int, default=10000, help="player actions per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reference", default=REFERENCE_COMMIT, help="commit, or 'none'")
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 500 and 100 <= args.actions <= 1_000_000 and 1 <= args.rounds <= 9):
        raise SystemExit("bounded: 1-500 tables, 100-1,000,000 actions, 1-9 rounds")
    worker_args = [str(args.tables), str(args.actions)]
    sides = alternate(args.reference, Path(__file__).resolve(), worker_args, args.rounds)
    print(
        f"{args.tables} tables of {SEATS} sockets, {args.actions} player actions a round"
        f" (the first fifth warms up), {args.rounds} round(s) alternating"
    )
    best: dict[str, float] = {}
    for name, results in sides.items():
        figures = [r["us_per_action"] for r in results]
        best[name] = min(figures)
        every = ", ".join(f"{f:.1f}" for f in figures)
        print(
            f"{name:24} {best[name]:6.1f} us CPU per player action (best; every round: {every}),"
            f" {results[0]['frames_in_per_action']:.2f} frames in and"
            f" {results[0]['writes_per_action']:.2f} writes per action"
        )
    if len(best) == 2:
        ref, this = best[f"reference {args.reference}"], best["this tree"]
        print(
            f"this tree spends {this / ref:.2f}x the transport CPU per action of {args.reference}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
