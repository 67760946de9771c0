"""Load benchmark: N simulated players over loopback WebSockets at tables with bots.

    .venv/bin/python bench/bench_load.py                       # modest defaults
    .venv/bin/python bench/bench_load.py --players 1000 --tables 300 --duration 60 --procs 2

It starts a ``zanzibar serve`` process on a free loopback port with a
temporary data directory (or uses ``--server URL``, loopback only), signs in
the players as guests, seats them at tables of one game (each table gets one
bot besides its players), starts the games and lets every player answer its
turns with a random legal action after a short think time. When a game ends,
its host starts a new one at the same table.

It prints, for the measured window:
* actions per second (players' actions accepted by the server; bots' actions
  are counted apart);
* the latency from a player sending an action to the first event it caused
  reaching *every* seat of the table (p50, p90, p99, max);
* beside it, the reference measured in the same run on the same sockets: the
  round trip of a protocol ``ping`` (what the transport alone costs under the
  same load);
* the CPU time the server process used, to show what limits the figures,
  and the server's CPU per player action.

The same load (same seed, same size) first runs against a server made of the
code of ``REFERENCE_COMMIT`` (``--reference``; extracted with ``git archive``
into a temporary directory, put first on that server's path), then against
this tree's: the last lines set their CPU per action, actions/s and latencies
side by side. ``--rounds N`` alternates N pairs and keeps each side's best
(least CPU per action) round; ``--reference none`` runs this tree alone.
With 200 players at 60 tables, 2 rounds, on the 2-CPU machine shared with
other jobs (load average 11-13): 2.49 ms of server CPU per player action
for 0a9f166, 1.74 ms for this tree (ratio 0.70; the same pair measured over
45 s of steady load, load average 6-14: 2.54 and 1.61 ms, ratio 0.63).
docs/cluster.md says where the rest goes.

The players speak protocol version 2 (``--protocol 1`` for version 1; a server
that does not know version 2, such as an older reference, answers in version 1,
which they read too) and count the frames and messages they receive per player
action; ``--deflate`` has their sockets compress (permessage-deflate), as
browsers do. With 200 players at 60 tables: 13.3 frames per action from a
version-1 server, 4.8 from this tree, for the same 13.3 messages; the server's
CPU per action unchanged within the rounds' noise (docs/cluster.md, third round).

Loops are bounded by ``--duration`` and by the number of players; only
127.0.0.1 is ever contacted.

Several nodes (``scripts/cluster up N``): ``--servers URL,URL,...`` spreads
the tables over the nodes, round robin, each table's players on its node (a
table lives on the node that created it until the table router lands), and
``--cluster-dir D`` (the directory ``scripts/cluster`` keeps) finds the
processes to measure: the CPU of every node, of PostgreSQL (the postmaster,
its live backends and those that ended) and of redis-server, each per player
action, and how long each node's event loop waited for a CPU in the window
(its main thread's run-queue wait). With ``--slowest N`` too, the slowest
actions are grouped in holds (one node's actions sent close together) and
each hold is printed with what its node logged meanwhile at ``--log-level
info`` (event-loop stalls, with their wait for a CPU; changes that waited
over 100 ms for their commit). ``--server URL --cluster-dir D`` measures one node of a cluster.

The players are cheap on purpose: each socket is websockets' sans-I/O client
fed straight from the event loop (``PlayerSocket``), frames are parsed by
orjson, and each load process signs its players in through one HTTP client.
On the two-core machine the load generator competes with the servers it
measures, so its own CPU per player action is printed beside theirs.

The server, the load generator and anything else running share the
machine's CPUs: the last lines say how busy the machine was and how long
runnable tasks waited for a CPU. When that pressure is high, both the action
latency and the ping reference grow together; compare runs at low pressure.
Measured on the project's 2-CPU machine at low pressure (load average under 1;
1,000 players, 300 tables, 30 s, 2 load processes) at ``b7e2e3d``: 466
actions/s, action -> every seat p50 2.2 ms but p99 257-315 ms (max 0.5-0.9
s), beside a ping round trip of p50 1.0 ms, p99 143-201 ms; the server used
55-60% of one core. That tail was the event loop stopping now and then (long
garbage collections, the bot pool's start, the message catalogue's first
load: docs/cluster.md, "Latency"); the server now logs each stall over 100 ms
(``--log-level info``) and this bench prints those of the window. The fixed
code has not been measured on a quiet machine yet (the machine was at load
average 10-25 throughout).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import multiprocessing
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import orjson
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import OPEN
from websockets.typing import Subprotocol
from websockets.uri import parse_uri

from reference import discard, extract

#: The salon before issue 11's cheaper actions (main, 2026-11-25): "today's figure".
REFERENCE_COMMIT = "0a9f166"
#: The protocol version the players offer (``--protocol``); a server that does not
#: speak version 2 (a reference before it) answers in version 1, which is read too.
PROTOCOL = 2
#: Whether the players' sockets ask for permessage-deflate, as browsers do (``--deflate``).
DEFLATE = False
READY_PREFIX = "Zanzibar salon ready at "
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


# -- the simulated players ---------------------------------------------------------------------


def messages_of(frame: str | bytes) -> list[dict[str, Any]]:
    """The messages of one frame: a JSON array of them in protocol 2, one object in 1.

    Parsed by orjson: the load generator shares the machine with the servers it
    measures, and the standard library's parser was its largest cost (about 80 µs
    of a process's CPU per frame, a 421 view being a few kilobytes).
    """
    data = orjson.loads(frame)
    return data if isinstance(data, list) else [data]


def frame_of(message: dict[str, Any]) -> str:
    """One message as the text of a frame (orjson, as :func:`messages_of` reads)."""
    return orjson.dumps(message).decode()


@dataclass
class TablePlan:
    """One table: its players' names; the first one is the host."""

    names: list[str]
    bots: int = 1
    #: The node its players connect to (empty: the bench's one server).
    server: str = ""


@dataclass
class WorkerResult:
    """What one load process measured."""

    latencies: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    bot_events: int = 0
    #: Frames and messages the players received in the window.
    frames: int = 0
    messages: int = 0
    games_finished: int = 0
    connected: int = 0
    errors: list[str] = field(default_factory=list)
    window: float = 0.0
    window_start: float = 0.0
    window_end: float = 0.0
    client_cpu: float = 0.0
    close_seconds: float = 0.0
    setup_seconds: float = 0.0
    #: The slowest actions: (latency, Unix time sent, the table's node, table), worst first.
    slowest: list[tuple[float, float, str, Any]] = field(default_factory=list)


class PlayerSocket(asyncio.Protocol):
    """One player's WebSocket, websockets' sans-I/O client driven straight from the loop.

    The load generator shares the two cores with the servers it measures, so its own
    CPU per action is part of what the servers wait for. websockets' asyncio client
    passes every frame through an assembler, a future and an ``async for`` turn per
    message, and every send through a context manager; here the same protocol object
    (websockets' handshake, framing, masking, pongs and closing handshake) is fed the
    bytes as they arrive, and each whole text message goes straight to ``on_text`` in
    the same turn of the loop.
    """

    def __init__(self, url: str, on_text: Any, subprotocols: list[str] | None) -> None:
        uri = parse_uri(url)
        self.host, self.port = uri.host, uri.port
        self.protocol = ClientProtocol(
            uri,
            extensions=enable_client_permessage_deflate(None) if DEFLATE else None,
            subprotocols=[Subprotocol(p) for p in subprotocols] if subprotocols else None,
            max_size=4 * 1024 * 1024,
        )
        self.on_text = on_text
        self.transport: Any = None
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.lost: asyncio.Future[None] = loop.create_future()
        #: The parts of a fragmented text message so far (servers may fragment).
        self.parts: list[bytes] = []

    async def open(self, timeout: float) -> None:
        """Connect and finish the opening handshake (its refusal raises)."""
        loop = asyncio.get_running_loop()
        await asyncio.wait_for(loop.create_connection(lambda: self, self.host, self.port), timeout)
        await asyncio.wait_for(self.opened, timeout)

    def connection_made(self, transport: Any) -> None:
        self.transport = transport  # uvloop's transports are not asyncio.Transport's subclasses
        self.protocol.send_request(self.protocol.connect())
        self.flush()

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        protocol.receive_data(data)
        for event in protocol.events_received():
            if isinstance(event, Frame):
                if event.opcode is Opcode.TEXT or (event.opcode is Opcode.CONT and self.parts):
                    if event.fin and not self.parts:
                        self.on_text(event.data)
                    else:
                        self.parts.append(bytes(event.data))
                        if event.fin:
                            whole, self.parts = b"".join(self.parts), []
                            self.on_text(whole)
            elif isinstance(event, Response) and not self.opened.done():
                if protocol.handshake_exc is not None:
                    self.opened.set_exception(protocol.handshake_exc)
                else:
                    self.opened.set_result(None)
        self.flush()

    def eof_received(self) -> bool | None:
        self.protocol.receive_eof()
        self.flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.lost.done():
            self.lost.set_result(None)
        self.on_text(None)

    def flush(self) -> None:
        """Write what the protocol has to send; close the socket when it says so."""
        transport = self.transport
        if transport is None:
            return
        for data in self.protocol.data_to_send():
            if data:
                transport.write(data)
            elif transport.can_write_eof():
                transport.write_eof()
            else:
                transport.close()

    def send(self, text: str) -> None:
        """Send one text message (raises once the connection is closing or closed)."""
        if self.protocol.state is not OPEN:
            raise ConnectionError(f"the socket is {self.protocol.state.name.lower()}")
        self.protocol.send_text(text.encode())
        self.flush()

    async def close(self, timeout: float = 10) -> None:
        """The closing handshake; the TCP connection is aborted if it takes too long."""
        if self.protocol.state is OPEN:
            self.protocol.send_close(1000)
            self.flush()
        try:
            await asyncio.wait_for(asyncio.shield(self.lost), timeout)
        except TimeoutError:
            if self.transport is not None:
                self.transport.abort()


class Player:
    """One simulated player: one socket, plays its seat, measures what it sees."""

    def __init__(self, world: World, name: str, think: float, rng: random.Random) -> None:
        self.world = world
        self.name = name
        self.think = think
        self.rng = rng
        self.ws: PlayerSocket | None = None
        self.table: Any = None
        self.seat: int | None = None
        self.ids = itertools.count(1)
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.pings: dict[int, float] = {}
        self.acted_on: int = -1
        self.view: dict[str, Any] = {}
        self.log_length = 0
        #: The server's first message (its welcome), awaited by :meth:`connect`.
        self.welcome: asyncio.Future[dict[str, Any]] | None = None

    async def connect(self, server: str, http: Any) -> None:
        """Sign in as a guest through ``http`` (the load process's one HTTP client), then
        open the socket and say hello."""
        response = await http.post(server + "api/guest", json={"name": self.name, "lang": "en"})
        response.raise_for_status()
        token = response.json()["token"]
        self.welcome = asyncio.get_running_loop().create_future()
        self.ws = PlayerSocket(
            server.replace("http://", "ws://") + "ws",
            self.received,
            ["zanzibar.v2"] if PROTOCOL == 2 else None,
        )
        await self.ws.open(timeout=60)
        self.ws.send(frame_of({"v": 1, "type": "hello", "token": token}))
        welcome = await asyncio.wait_for(self.welcome, 60)
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"{self.name}: {welcome}")

    def send(self, message: dict[str, Any]) -> None:
        if self.ws is None:
            raise ConnectionError(f"{self.name} is not connected")
        self.ws.send(frame_of(message))

    async def request(self, type_name: str, **fields: Any) -> dict[str, Any]:
        request_id = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[request_id] = future
        self.send({"v": 1, "type": type_name, "id": request_id, **fields})
        return await asyncio.wait_for(future, 60)

    async def ping(self) -> None:
        request_id = next(self.ids)
        self.pings[request_id] = time.perf_counter()
        self.send({"v": 1, "type": "ping", "id": request_id})

    def received(self, frame: bytes | None) -> None:
        """One whole text message of the socket (``None``: the socket closed)."""
        world = self.world
        welcome = self.welcome
        if frame is None:
            if welcome is not None and not welcome.done():
                welcome.set_exception(ConnectionError(f"{self.name}: closed before the welcome"))
            elif not world.stopping:
                world.result.errors.append(f"{self.name}: the socket closed")
            return
        now = time.perf_counter()
        try:
            messages = messages_of(frame)
            if welcome is not None and not welcome.done():
                welcome.set_result(messages[0])
                return
            if world.measuring:
                world.result.frames += 1
                world.result.messages += len(messages)
            for message in messages:
                self.take(message, now)
        except Exception as exc:  # a message the bench cannot read: said, not hidden
            if not world.stopping:
                world.result.errors.append(f"{self.name}: reading a message failed: {exc!r}")

    def take(self, message: dict[str, Any], now: float) -> None:
        """One message from the server: a reply, a pong, an event or a view."""
        world = self.world
        kind = message["type"]
        if kind == "pong":
            sent = self.pings.pop(message.get("id"), None)
            if sent is not None and world.measuring:
                world.result.pings.append(now - sent)
            return
        if kind in {"ok", "error"}:
            future = self.replies.pop(message.get("id"), None)
            if future is not None and not future.done():
                future.set_result(message)
            return
        if kind == "game.event" and message.get("table") == self.table:
            world.arrived(self.table, message["seq"], self, now)
            if message["event"].get("seat") is not None and world.is_bot_seat(
                self.table, message["event"]["seat"]
            ):
                world.bot_event(self)
        elif kind == "game.view" and message.get("table") == self.table:
            self.view = message["view"]
            self.log_length = message["log_length"]
            world.last_seq_seen(self.table, message["seq"])
            if self.view.get("over"):
                world.game_over(self)
            elif (
                self.view.get("to_act") == self.seat
                and self.view.get("legal")
                and self.acted_on != self.log_length
            ):
                self.acted_on = self.log_length
                world.spawn(self.act(self.log_length, self.view["legal"]))

    async def act(self, log_length: int, legal: list[Any]) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(0.5 * self.think, 1.5 * self.think))
        if self.world.stopping:
            return
        action = self.rng.choice(legal)
        base_seq = self.world.table_seq.get(self.table, 0)
        started = time.perf_counter()
        reply = await self.request("game.action", table=self.table, action=action, seq=log_length)
        if reply["type"] == "ok":
            self.world.action_sent(self.table, base_seq, started)
        else:
            self.world.result.refused += 1


async def _seating(player: Player, kind: str, **fields: Any) -> dict[str, Any]:
    """A seating request, tried again (up to 5 times, 0.5 s apart) while refused with an
    error a client retries: on a cluster starved of CPU a table's lease may lapse and the
    table move to another node while it is being filled (``internal``, ``not_found``)."""
    reply: dict[str, Any] = {}
    for attempt in range(5):
        reply = await player.request(kind, **fields)
        if reply["type"] == "ok" or reply.get("code") not in {"internal", "not_found", "timeout"}:
            return reply
        await asyncio.sleep(0.5 * (attempt + 1))
    return reply


class World:
    """All players of one load process and the measurements they share."""

    def __init__(self, server: str, plans: list[TablePlan], think: float, seed: int) -> None:
        self.server = server
        self.plans = plans
        self.think = think
        self.rng = random.Random(seed)
        self.result = WorkerResult()
        self.measuring = False
        self.stopping = False
        self.players: list[Player] = []
        self.members: dict[Any, list[Player]] = {}
        self.bot_seats: dict[Any, set[int]] = {}
        self.table_seq: dict[Any, int] = {}
        #: (table, seq) -> arrival time per player
        self.arrivals: dict[tuple[Any, int], dict[int, float]] = {}
        #: (table, base_seq, sent_at) of accepted actions
        self.sent: list[tuple[Any, int, float]] = []
        self.hosts: dict[Any, Player] = {}
        self.restarting: set[Any] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        #: Each table's node (its plan's server), for the slowest actions' report.
        self.table_server: dict[Any, str] = {}
        #: Unix time less perf_counter time, to put the slowest actions on the Unix clock.
        self.unix_offset = time.time() - time.perf_counter()

    def spawn(self, coroutine: Any) -> None:
        """Run a task, keeping a reference until it is done."""
        task = asyncio.create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def arrived(self, table: Any, seq: int, player: Player, now: float) -> None:
        if self.table_seq.get(table, 0) < seq:
            self.table_seq[table] = seq
        if self.measuring:
            self.arrivals.setdefault((table, seq), {})[id(player)] = now

    def last_seq_seen(self, table: Any, seq: int) -> None:
        if self.table_seq.get(table, 0) < seq:
            self.table_seq[table] = seq

    def is_bot_seat(self, table: Any, seat: int) -> bool:
        return seat in self.bot_seats.get(table, set())

    def bot_event(self, player: Player) -> None:
        if self.measuring and self.hosts.get(player.table) is player:
            self.result.bot_events += 1

    def action_sent(self, table: Any, base_seq: int, started: float) -> None:
        if self.measuring:
            self.result.actions += 1
            self.sent.append((table, base_seq, started))

    def game_over(self, player: Player) -> None:
        table = player.table
        if self.hosts.get(table) is player and table not in self.restarting and not self.stopping:
            self.restarting.add(table)
            if self.measuring:
                self.result.games_finished += 1
            self.spawn(self.restart(player))

    async def restart(self, host: Player) -> None:
        await asyncio.sleep(0.2)
        try:
            reply = await host.request("table.start", table=host.table)
            if reply["type"] != "ok":
                self.result.errors.append(
                    f"restart refused: {reply.get('code')}: {reply.get('message')}"
                )
        finally:
            self.restarting.discard(host.table)

    async def set_up(self) -> None:
        homes: dict[int, str] = {}
        for plan in self.plans:
            group = [
                Player(self, name, self.think, random.Random(self.rng.random()))
                for name in plan.names
            ]
            for player in group:
                homes[id(player)] = plan.server or self.server
            self.players.extend(group)
        # sign in and connect in bounded batches, through one HTTP client: a client per
        # player loaded the CA bundle each time (about 80 ms of CPU per player, for
        # plain-HTTP loopback requests), which made seating a thousand players take minutes
        import httpx

        async with httpx.AsyncClient(timeout=60) as http:
            for start in range(0, len(self.players), 50):
                await asyncio.gather(
                    *(p.connect(homes[id(p)], http) for p in self.players[start : start + 50])
                )
        self.result.connected = len(self.players)
        groups = []
        index = 0
        for plan in self.plans:
            groups.append((self.players[index : index + len(plan.names)], plan))
            index += len(plan.names)
        for start in range(0, len(groups), 50):
            await asyncio.gather(*(self.seat_table(g, p) for g, p in groups[start : start + 50]))

    async def seat_table(self, group: list[Player], plan: TablePlan) -> None:
        """Create, fill and start one table (a refusal a client may retry is retried)."""
        host = group[0]
        seats = len(group) + plan.bots
        reply = await host.request("table.create", game=GAME, seats=seats)
        if reply["type"] != "ok":
            raise RuntimeError(f"table.create refused: {reply}")
        table = reply["table"]["id"]
        self.table_server[table] = plan.server or self.server
        host.table, host.seat = table, reply["table"]["you"]["seat"]
        self.hosts[table] = host
        self.members[table] = group
        for player in group[1:]:
            joined = await _seating(player, "table.join", table=table)
            if joined["type"] != "ok":
                raise RuntimeError(f"table.join refused: {joined}")
            player.table, player.seat = table, joined["seat"]
        taken = {p.seat for p in group}
        for _ in range(plan.bots):
            added = await _seating(host, "table.add_bot", table=table)
            if added["type"] != "ok":
                raise RuntimeError(f"table.add_bot refused: {added}")
        self.bot_seats[table] = set(range(seats)) - taken
        started = await _seating(host, "table.start", table=table)
        if started["type"] != "ok":
            raise RuntimeError(f"table.start refused: {started}")

    async def pinger(self, deadline: float) -> None:
        """Ping a few players every 50 ms: one player in 100 (at least one, at most 10).

        The pings scale with the load (200/s at 1,000 players), so that their
        share of the server's CPU per action is the same at any size.
        """
        players = list(self.players)
        per_tick = max(1, min(10, round(len(players) / 100)))
        for _ in range(1_000_000):
            if time.perf_counter() >= deadline:
                return
            for player in self.rng.sample(players, min(len(players), per_tick)):
                await player.ping()
            await asyncio.sleep(0.05)

    def latencies(self) -> tuple[list[float], int]:
        """Action -> first resulting event at every seat; and how many were incomplete.

        The slowest ones go to ``result.slowest`` with their time, node and table.
        """
        out: list[float] = []
        slow: list[tuple[float, float, str, Any]] = []
        incomplete = 0
        for table, base_seq, started in self.sent:
            members = self.members[table]
            found = None
            for seq in range(base_seq + 1, base_seq + 50):
                if (table, seq) in self.arrivals:
                    found = self.arrivals[(table, seq)]
                    if min(found.values()) >= started:
                        break
                    found = None
            if found is None or len(found) < len(members):
                incomplete += 1
                continue
            out.append(max(found.values()) - started)
            slow.append(
                (out[-1], started + self.unix_offset, self.table_server.get(table, ""), table)
            )
        self.result.slowest = sorted(slow, key=lambda x: -x[0])[:SLOWEST_KEPT]
        return out, incomplete

    async def run(
        self, warmup: float, duration: float, ready: Any = None, go: Any = None
    ) -> WorkerResult:
        """Set up, warm up, measure for ``duration`` seconds.

        ``ready.set()`` once everyone is seated; then, if ``go`` is given, wait for
        ``go`` (an Event, or the load processes' Barrier) before the warm-up, so that
        another process can line up.
        """
        setting_up = time.perf_counter()
        try:
            await self.set_up()
        except BaseException:
            if go is not None and hasattr(go, "abort"):
                go.abort()  # the other load processes' wait fails too, instead of for 900 s
            raise
        self.result.setup_seconds = time.perf_counter() - setting_up
        if ready is not None:
            ready.set()
        if go is not None:
            await asyncio.to_thread(go.wait, 900)
        # the measuring side must not pause for long collections either (as serve's tune_gc:
        # young collections kept small, full ones rare)
        gc.collect()
        gc.freeze()
        gc.set_threshold(2_000, 10, 1_000)
        await asyncio.sleep(warmup)
        self.measuring = True
        self.result.window_start = time.time()
        cpu_before = time.process_time()
        began = time.perf_counter()
        await self.pinger(began + duration)
        self.measuring = False
        self.result.window = time.perf_counter() - began
        self.result.window_end = time.time()
        self.result.client_cpu = time.process_time() - cpu_before
        self.stopping = True
        await asyncio.sleep(0.3)
        latencies, incomplete = self.latencies()
        self.result.latencies = latencies
        if incomplete:
            self.result.errors.append(
                f"{incomplete} actions whose event did not reach every seat in the window"
            )
        closing = time.perf_counter()
        tasks = [asyncio.create_task(player.ws.close()) for player in self.players if player.ws]
        _, pending = await asyncio.wait(tasks, timeout=30)
        for task in pending:
            task.cancel()
        self.result.close_seconds = time.perf_counter() - closing
        return self.result


GAME = "421"
#: The slowest actions each load process keeps for ``--slowest``.
SLOWEST_KEPT = 50


def worker(
    server: str,
    plans: list[TablePlan],
    think: float,
    seed: int,
    warmup: float,
    duration: float,
    game: str,
    ready: Any = None,
    go: Any = None,
    protocol: int = 2,
    deflate: bool = False,
) -> WorkerResult:
    """One load process: play its tables and return what it measured.

    ``ready`` (an Event, optional) is set once every player is seated; the warm-up
    then waits for ``go`` (an Event, optional): bench_soak.py starts its attackers then.
    """
    global GAME, PROTOCOL, DEFLATE
    GAME = game
    PROTOCOL = protocol
    DEFLATE = deflate
    try:
        import uvloop

        runner = asyncio.Runner(loop_factory=uvloop.new_event_loop)
    except ImportError:
        runner = asyncio.Runner()
    with runner:
        return runner.run(World(server, plans, think, seed).run(warmup, duration, ready, go))


def _worker_entry(args: tuple[Any, ...]) -> WorkerResult:
    return worker(*args)


# -- the server ---------------------------------------------------------------------------------


def start_server(
    data_dir: Path,
    bot_delay: float,
    extra_args: tuple[str, ...] = (),
    source: Path | None = None,
) -> tuple[subprocess.Popen[bytes], str, Path]:
    """``zanzibar serve --port 0`` on loopback; (process, url, log path).

    With ``source`` (a ``src`` directory, e.g. a reference commit's), that code
    is first on the server's path instead of this tree's.
    """
    log_path = data_dir.parent / "serve.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(source), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "zanzibar.cli.main",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--data-dir",
                str(data_dir),
                "--bot-delay",
                str(bot_delay),
                *extra_args,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            # in the caller's session, as scripts/cluster's nodes by default (where the kernel
            # shares CPU out by session, autogroup): the one-node and cluster figures alike
        )
    for _ in range(1200):
        for line in log_path.read_text(errors="replace").splitlines():
            if line.startswith(READY_PREFIX):
                return process, line[len(READY_PREFIX) :].strip(), log_path
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not start:\n" + log_path.read_text(errors="replace"))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    user, system = cpu_split(pid)
    return user + system


def run_queue_seconds(pid: int) -> float:
    """Seconds the main thread of a process has waited in the run queue for a CPU
    (Linux ``/proc/PID/task/PID/schedstat``, second field)."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9


def cpu_split(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / ticks, int(fields[12]) / ticks


def process_tree_cpu(pid: int) -> float:
    """CPU seconds of a process, its live children, and its children that ended.

    PostgreSQL runs one backend process per connection under the postmaster:
    the backends' CPU is the database's cost (fields 14-15 of /proc/PID/stat
    count the children the postmaster already reaped).
    """
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    total = (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / ticks
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            child = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(child[1]) == pid:
            total += (int(child[11]) + int(child[12])) / ticks
    return total


def descendants_cpu(pid: int) -> float:
    """CPU seconds of every live descendant of a process (and of the children they reaped).

    A server's bot moves that take long go to worker processes (``salon/bots.py``: the
    fork server and its workers, grandchildren of the server), started at the first such
    move: their CPU is the server's cost too. Printed apart, not in the CPU per action:
    in a window of seconds it is mostly the pool's start (the fork server importing the
    games, ~0.5 s of CPU, then each worker), once per process, not per action.
    """
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        child = int(entry.name)
        children.setdefault(int(fields[1]), []).append(child)
        cpu[child] = sum(int(f) for f in fields[11:15]) / ticks
    total, todo = 0.0, list(children.get(pid, ()))
    while todo:
        child = todo.pop()
        total += cpu.get(child, 0.0)
        todo.extend(children.get(child, ()))
    return total


def cluster_counters(directory: Path) -> dict[str, Any]:
    """PostgreSQL commits and Redis commands so far, read with their own clients.

    (The psql backend's CPU shows under PostgreSQL: read once a second only.)
    """
    settings: dict[str, str] = {}
    env = directory / "env"
    if not env.exists():
        return {}
    for line in env.read_text().splitlines():
        key, _, value = line.partition("=")
        settings[key] = value.strip("'")

    def commits() -> float:
        out = subprocess.run(
            [
                f"{settings['PG_BIN']}/psql",
                "-h", "127.0.0.1", "-p", settings["PG_PORT"], "-U", "zanzibar", "-d", "zanzibar",
                "-tAc", "SELECT xact_commit FROM pg_stat_database WHERE datname = 'zanzibar'",
            ],
            capture_output=True, text=True, timeout=5, check=True,
        )  # fmt: skip
        return float(out.stdout.strip())

    def redis_commands() -> float:
        out = subprocess.run(
            ["redis-cli", "-p", settings["REDIS_PORT"], "info", "stats"],
            capture_output=True, text=True, timeout=5, check=True,
        )  # fmt: skip
        for line in out.stdout.splitlines():
            if line.startswith("total_commands_processed:"):
                return float(line.split(":")[1])
        raise ValueError("no total_commands_processed")

    def redis_kinds() -> dict[str, float]:
        """Calls per command name so far (``INFO commandstats``: those run by scripts
        counted too, under their own names; ``evalsha`` is the script calls)."""
        out = subprocess.run(
            ["redis-cli", "-p", settings["REDIS_PORT"], "info", "commandstats"],
            capture_output=True, text=True, timeout=5, check=True,
        )  # fmt: skip
        kinds: dict[str, float] = {}
        for line in out.stdout.splitlines():
            if line.startswith("cmdstat_"):
                name, _, stats = line[len("cmdstat_") :].partition(":")
                fields = dict(part.split("=", 1) for part in stats.split(","))
                kinds[name] = float(fields["calls"])
        return kinds

    return {
        "PostgreSQL commits": commits,
        "Redis commands": redis_commands,
        KINDS: redis_kinds,
    }


#: The counter of Redis calls per command name (a dict, not a number).
KINDS = "Redis calls by command"


#: The name of a node's bot worker processes (printed, not summed: :func:`descendants_cpu`).
WORKERS = "  its bot workers"
#: The name under which a node's main thread's wait for a CPU is sampled (not CPU: apart).
WAITED = "  its event loop waited"


def cluster_processes(directory: Path) -> dict[str, Any]:
    """What ``scripts/cluster`` runs in ``directory``: name -> a function giving its CPU seconds."""
    found: dict[str, Any] = {}
    for pid_file in sorted(directory.glob("n*.pid")):
        pid = int(pid_file.read_text().split()[0])
        found[f"node {pid_file.stem}"] = lambda pid=pid: cpu_seconds(pid)
        found[f"{WORKERS} ({pid_file.stem})"] = lambda pid=pid: descendants_cpu(pid)
        found[f"{WAITED} ({pid_file.stem})"] = lambda pid=pid: run_queue_seconds(pid)
    postmaster = directory / "pg" / "data" / "postmaster.pid"
    if postmaster.exists():
        pid = int(postmaster.read_text().split()[0])
        found["postgres (all backends)"] = lambda pid=pid: process_tree_cpu(pid)
    redis_pid = directory / "redis.pid"
    if redis_pid.exists():
        pid = int(redis_pid.read_text().split()[0])
        found["redis-server"] = lambda pid=pid: cpu_seconds(pid)
    if not found:
        raise SystemExit(f"no cluster processes found in {directory} (scripts/cluster up?)")
    return found


class ClusterCpu:
    """Samples the CPU of several named processes every 0.2 s in a thread."""

    def __init__(self, processes: dict[str, Any], counters: dict[str, Any] | None = None) -> None:
        import threading

        self.processes = processes
        #: Counters read once a second (commits, commands), reported per action.
        self.counters = counters or {}
        self.samples: dict[str, list[tuple[float, Any]]] = {
            name: [] for name in [*processes, *self.counters]
        }
        #: (time, busy, total) jiffies of the whole machine, as :class:`CpuSampler` keeps.
        self.machine: list[tuple[float, float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        for round_ in itertools.count():
            every = self.processes if round_ % 5 else {**self.processes, **self.counters}
            for name, read in every.items():
                with contextlib.suppress(
                    OSError, IndexError, ValueError, subprocess.SubprocessError
                ):
                    self.samples[name].append((time.time(), read()))
            self.machine.append((time.time(), *machine_cpu()))
            if self._stop.wait(0.2):
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def between(self, name: str, start: float, end: float) -> Any:
        """What a process's CPU, or a counter, grew by between two times (NaN: unknown);
        for a counter of several values (:data:`KINDS`), a dict of each one's growth."""
        inside = [cpu for t, cpu in self.samples[name] if start <= t <= end]
        if len(inside) < 2:
            return float("nan")
        if isinstance(inside[0], dict):
            first, last = inside[0], inside[-1]
            return {k: v - first.get(k, 0.0) for k, v in last.items() if v != first.get(k, 0.0)}
        return inside[-1] - inside[0]

    def machine_busy(self, start: float, end: float) -> float:
        return busy_between(self.machine, start, end)


class CpuSampler:
    """Samples a process's CPU time every 0.2 s in a thread (to cut out a window later)."""

    def __init__(self, pid: int) -> None:
        import threading

        self.pid = pid
        self.samples: list[tuple[float, float]] = []
        #: (time, system CPU seconds): the kernel's share (sockets, files)
        self.system: list[tuple[float, float]] = []
        #: (time, CPU seconds of its descendants): the bot worker processes
        self.workers: list[tuple[float, float]] = []
        self.machine: list[tuple[float, float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        for _ in range(1_000_000):
            try:
                now = time.time()
                user, system = cpu_split(self.pid)
                self.samples.append((now, user + system))
                self.system.append((now, system))
                self.workers.append((now, descendants_cpu(self.pid)))
                self.machine.append((time.time(), *machine_cpu()))
            except (OSError, IndexError, ValueError):
                return
            if self._stop.wait(0.2):
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def between(
        self, start: float, end: float, system: bool = False, workers: bool = False
    ) -> float:
        """CPU seconds used between two wall-clock times (nearest samples); or system only;
        or its bot workers'."""
        samples = self.workers if workers else self.system if system else self.samples
        inside = [cpu for t, cpu in samples if start <= t <= end]
        return inside[-1] - inside[0] if len(inside) > 1 else float("nan")

    def machine_busy(self, start: float, end: float) -> float:
        return busy_between(self.machine, start, end)


def busy_between(machine: list[tuple[float, float, float]], start: float, end: float) -> float:
    """Fraction of all the machine's CPUs busy between two times (every process), from
    (time, busy, total) samples of :func:`machine_cpu`."""
    inside = [(busy, total) for t, busy, total in machine if start <= t <= end]
    if len(inside) < 2 or inside[-1][1] == inside[0][1]:
        return float("nan")
    return (inside[-1][0] - inside[0][0]) / (inside[-1][1] - inside[0][1])


def cpu_pressure() -> str:
    """The kernel's CPU pressure (share of time runnable tasks waited for a CPU), if known."""
    try:
        first = Path("/proc/pressure/cpu").read_text().splitlines()[0]
    except (OSError, IndexError):
        return ""
    fields = dict(item.split("=") for item in first.split()[1:])
    return f"; CPU pressure: tasks waited for a CPU {fields.get('avg10', '?')}% of the last 10 s"


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs since boot (Linux /proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return float(sum(values) - idle), float(sum(values))


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of the values lie (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


def plan_tables(players: int, tables: int, bots: int) -> list[TablePlan]:
    """Spread the players over the tables as evenly as possible."""
    if tables < 1 or players < tables:
        raise SystemExit("need at least one player per table")
    per, extra = divmod(players, tables)
    plans = []
    counter = itertools.count(1)
    for index in range(tables):
        size = per + (1 if index < extra else 0)
        plans.append(TablePlan([f"p{next(counter)}" for _ in range(size)], bots))
    return plans


@dataclass
class Side:
    """What one server (the reference's code or this tree's) did under the load."""

    label: str
    actions: int = 0
    window: float = float("nan")
    latencies: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    server_cpu: float = float("nan")
    server_window: float = float("nan")
    machine_busy: float = float("nan")
    pressure: str = ""

    @property
    def cpu_per_action(self) -> float:
        """Server CPU seconds per player action (NaN when unknown)."""
        return self.server_cpu / self.actions if self.actions else float("nan")


def run_side(args: argparse.Namespace, label: str, source: Path | None) -> Side:
    """Start a server (``source`` first on its path, if given), play the load, report it."""
    process = None
    sampler = None
    cluster = None
    server_log: Path | None = None
    stalls: list[tuple[float, str]] | None = None
    servers = [u.rstrip("/") + "/" for u in (args.servers or "").split(",") if u.strip()]
    if args.server:
        servers = [args.server.rstrip("/") + "/", *servers]
    if servers:
        if any(urlparse(u).hostname not in LOOPBACK for u in servers):
            raise SystemExit("only loopback servers may be targeted")
        url = servers[0]
        tmp = None
    else:
        tmp = tempfile.TemporaryDirectory(prefix="zanzibar-bench-")
        process, url, server_log = start_server(
            Path(tmp.name) / "data", args.bot_delay, ("--log-level", "info"), source
        )
    try:
        plans = plan_tables(args.players, args.tables, args.bots)
        for index, plan in enumerate(plans):
            plan.server = servers[index % len(servers)] if servers else ""
        chunks = [plans[i :: args.procs] for i in range(args.procs)]
        jobs = [
            (
                url,
                chunk,
                args.think,
                args.seed + i,
                args.warmup,
                args.duration,
                args.game,
                None,
                None,
                args.protocol,
                args.deflate,
            )
            for i, chunk in enumerate(chunks)
            if chunk
        ]
        sampler = CpuSampler(process.pid) if process else None
        cluster = (
            ClusterCpu(cluster_processes(args.cluster_dir), cluster_counters(args.cluster_dir))
            if args.cluster_dir
            else None
        )
        if len(jobs) == 1:
            results = [worker(*jobs[0])]
        else:
            context = multiprocessing.get_context("spawn")
            with context.Manager() as manager, context.Pool(len(jobs)) as pool:
                # every load process seats all its players before any starts its warm-up:
                # otherwise one measured while the other was still signing its players in
                # (a node's heaviest work), and the CPU window (their overlap) held fewer
                # actions than were counted
                lined_up = manager.Barrier(len(jobs))
                jobs = [(*job[:8], lined_up, *job[9:]) for job in jobs]
                results = pool.map(_worker_entry, jobs)
        if sampler is not None:
            sampler.stop()
        if cluster is not None:
            cluster.stop()
    finally:
        if process is not None:
            stopping = time.perf_counter()
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
            print(f"[{label}] the server stopped in {time.perf_counter() - stopping:.1f} s")
        if server_log is not None:
            stalls = logged_stalls(server_log)
        if tmp is not None:
            tmp.cleanup()
    side = Side(label)
    side.latencies = [x for r in results for x in r.latencies]
    side.pings = [x for r in results for x in r.pings]
    side.actions = sum(r.actions for r in results)
    side.window = max(r.window for r in results)
    start = max(r.window_start for r in results)
    end = min(r.window_end for r in results)
    print_side(args, side, results)
    if sampler is not None and end > start:
        side.server_cpu = sampler.between(start, end)
        side.server_window = end - start
        side.machine_busy = sampler.machine_busy(start, end)
        side.pressure = cpu_pressure()
        system = sampler.between(start, end, system=True)
        workers = sampler.between(start, end, workers=True)
        print(
            f"server CPU in the window: {side.server_cpu:.1f} s over {end - start:.1f} s "
            f"({100 * side.server_cpu / (end - start):.0f}% of one core; in the kernel "
            f"{system:.1f} s, sockets and files)"
        )
        if workers == workers:
            per = f", {workers / side.actions * 1000:.3f} ms per action" if side.actions else ""
            print(
                f"its bot worker processes: {workers:.1f} s{per} (not in the CPU per action "
                f"below: mostly their start, when it falls in the window)"
            )
        if side.actions and side.server_cpu == side.server_cpu:
            print(
                f"server CPU per player action (with the bot moves, broadcasts and storage it "
                f"causes): {side.cpu_per_action * 1000:.2f} ms, so one free core would serve "
                f"about {1 / side.cpu_per_action:.0f} player actions/s"
            )
        print(
            f"whole machine: {os.cpu_count()} CPUs, {100 * side.machine_busy:.0f}% busy "
            f"in the window (every process, ours and others'); load average "
            f"{os.getloadavg()[0]:.1f}{side.pressure}"
        )
    if cluster is not None and end > start:
        total = 0.0
        ms = 1000.0
        print(
            f"CPU per process in the window ({end - start:.1f} s, from {start:.1f} to {end:.1f} "
            f"on the Unix clock; {len(servers)} node(s) loaded):"
        )
        for name in cluster.processes:
            cpu = cluster.between(name, start, end)
            if name.startswith(WAITED):  # a wait, not CPU: how starved the node's loop was
                print(
                    f"  {name:26} {cpu:6.1f} s for a CPU ({100 * cpu / (end - start):4.0f}% of "
                    f"the window; its main thread runnable but not running)"
                )
                continue
            if cpu == cpu and not name.startswith(WORKERS):
                total += cpu
            per = f", {cpu / side.actions * ms:.3f} ms per player action" if side.actions else ""
            print(f"  {name:26} {cpu:6.1f} s ({100 * cpu / (end - start):4.0f}% of one core){per}")
        if side.actions and total:
            print(
                f"  {'all of them':26} {total:6.1f} s, {total / side.actions * ms:.3f} ms per "
                f"player action: {side.actions / total:.0f} player actions per CPU-second"
            )
        if sampler is None:  # the summary's "CPU/action": the whole cluster's
            side.server_cpu = total
            side.server_window = end - start
            side.machine_busy = cluster.machine_busy(start, end)
        for name in cluster.counters:
            count = cluster.between(name, start, end)
            if isinstance(count, dict):
                if side.actions and count:
                    per = sorted(count.items(), key=lambda kv: -kv[1])
                    print(
                        f"  {name}, per player action: "
                        + ", ".join(f"{k} {v / side.actions:.2f}" for k, v in per)
                    )
                continue
            if side.actions and count == count:
                print(
                    f"  {name}: {count:.0f} in the window, {count / side.actions:.2f} per player action"
                )
        if sampler is None:
            print(
                f"whole machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
                f"{cpu_pressure()}"
            )
    if stalls is not None and end > start:
        print_stalls(stalls, start, end)
    if args.cluster_dir and end > start:
        print_node_logs(args.cluster_dir, start, end)
    if args.slowest:
        print_slowest(args.slowest, results, start)
        if args.cluster_dir:
            print_holds(args.cluster_dir, results)
    for r in results:
        for error in r.errors[:5]:
            print(f"note: {error}")
    return side


STALL_LINE = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) \w+ zanzibar\.server\.stalls: "
    r"event loop stalled (\d+) ms(.*)$"
)


def logged_stalls(log_path: Path) -> list[tuple[float, str]] | None:
    """The event-loop stalls the server logged (``serve --log-level info``): (when, line).

    None when the server does not watch for them (a reference older than the watch).
    """
    if not log_path.exists():
        return None
    text = log_path.read_text(errors="replace")
    if "zanzibar.server.stalls: watching the event loop" not in text:
        return None
    out = []
    for line in text.splitlines():
        match = STALL_LINE.match(line)
        if match:
            when = time.mktime(time.strptime(match.group(1), "%Y-%m-%d %H:%M:%S"))
            out.append((when + int(match.group(2)) / 1000, line))
    return out


def print_stalls(stalls: list[tuple[float, str]], start: float, end: float) -> None:
    """How often the server's event loop stalled in the window, and the longest stall."""
    inside = []
    for when, line in stalls:
        match = STALL_LINE.match(line)
        if match and start <= when <= end + 1:
            inside.append((int(match.group(3)), line.split("zanzibar.server.stalls: ", 1)[1]))
    if not inside:
        print("server event-loop stalls over 100 ms in the window (its log): none")
        return
    print(
        f"server event-loop stalls over 100 ms in the window (its log): {len(inside)}, "
        f"{sum(lag for lag, _ in inside) / 1000:.1f} s in all; the longest:"
    )
    print("  " + max(inside)[1][:400])


LOG_LINE = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (\w+) (\S+): (.*)$")


def print_node_logs(directory: Path, start: float, end: float) -> None:
    """Per node of ``scripts/cluster``: its event-loop stalls over 100 ms in the window
    (logged at ``--log-level info``: ``ZANZIBAR_NODE_ARGS="--log-level info"``), and its
    warnings and errors (lost leases, failed renewals...), counted, the first few shown."""
    for log_path in sorted(directory.glob("n*.log")):
        stalls = logged_stalls(log_path)
        name = log_path.stem
        if stalls is None:
            print(f"node {name}: no stall watch in its log (run the nodes at --log-level info)")
        else:
            print(f"node {name}: ", end="")
            print_stalls(stalls, start, end)
        warnings = []
        for line in log_path.read_text(errors="replace").splitlines():
            match = LOG_LINE.match(line)
            if not match or match.group(3) not in {"WARNING", "ERROR", "CRITICAL"}:
                continue
            when = time.mktime(time.strptime(match.group(1), "%Y-%m-%d %H:%M:%S"))
            if start <= when + int(match.group(2)) / 1000 <= end + 1:
                warnings.append(line)
        if warnings:
            print(f"node {name}: {len(warnings)} warnings or errors in the window; the first:")
            for line in warnings[:3]:
                print("  " + line[:300])


def print_slowest(count: int, results: list[WorkerResult], start: float) -> None:
    """The ``count`` slowest actions: latency, when (seconds into the window and on the
    Unix clock, to match the nodes' logs), the table's node and the table."""
    slowest = sorted((x for r in results for x in r.slowest), key=lambda x: -x[0])[:count]
    if not slowest:
        return
    print(f"the {len(slowest)} slowest actions (action -> every seat):")
    for latency, when, server, table in slowest:
        stamp = time.strftime("%H:%M:%S", time.localtime(when)) + f".{int(when * 1000) % 1000:03d}"
        print(
            f"  {latency * 1000:8.1f} ms  at {when - start:6.2f} s ({stamp})  table {table} "
            f"on {server or 'the server'}"
        )


#: Slow actions of one node sent less than this apart belong to one hold of that node.
HOLD_GAP = 0.5


def print_holds(directory: Path, results: list[WorkerResult]) -> None:
    """The slowest actions as holds: per node, those sent close together (one stretch in
    which the node answered nothing in time), each with what the node logged meanwhile
    (``--log-level info``: its event-loop stalls, how long its loop waited for a CPU, the
    changes that waited over 100 ms for their commit)."""
    env = (directory / "env").read_text() if (directory / "env").exists() else ""
    base = re.search(r"^BASE_PORT=(\d+)$", env, re.M)
    if base is None:
        return
    slow = sorted(x for r in results for x in r.slowest)  # (latency, ...): by time below
    holds: list[list[tuple[float, float, str, Any]]] = []
    for action in sorted(slow, key=lambda x: (x[2], x[1])):
        last = holds[-1][-1] if holds else None
        if last is not None and last[2] == action[2] and action[1] - last[1] < HOLD_GAP:
            holds[-1].append(action)
        else:
            holds.append([action])
    holds.sort(key=lambda hold: -max(a[0] for a in hold))
    print("the slowest actions' holds, worst first (node, actions, what its log says meanwhile):")
    for hold in holds[:5]:
        port = urlparse(hold[0][2]).port or 0
        name = f"n{port - int(base.group(1))}"
        begin, until = hold[0][1], max(a[1] + a[0] for a in hold)
        print(
            f"  {name}: {len(hold)} of the slowest actions sent within "
            f"{(hold[-1][1] - begin) * 1000:.0f} ms, answered {min(a[0] for a in hold) * 1000:.0f}"
            f"-{max(a[0] for a in hold) * 1000:.0f} ms later"
        )
        log_path = directory / f"{name}.log"
        lines = log_path.read_text(errors="replace").splitlines() if log_path.exists() else []
        said = []
        for line in lines:
            match = LOG_LINE.match(line)
            if not match or not ("stalled" in line or "slow write" in line):
                continue
            when = time.mktime(time.strptime(match.group(1), "%Y-%m-%d %H:%M:%S"))
            when += int(match.group(2)) / 1000
            if begin - 0.2 <= when <= until + 0.2:
                said.append(f"    {when - begin:+6.2f} s  {match.group(5)[:220]}")
        print(
            "\n".join(said[:10]) if said else "    (nothing: no stall over 100 ms, no slow write)"
        )
        if len(said) > 10:
            print(f"    ... {len(said) - 10} more lines")


def print_side(args: argparse.Namespace, side: Side, results: list[WorkerResult]) -> None:
    """The load's own figures for one server."""
    ms = 1000.0
    print(f"== {side.label}")
    print(
        f"game {args.game}: {sum(r.connected for r in results)} players connected at {args.tables} tables "
        f"({args.bots} bot(s) each), think {args.think}s, bot delay {args.bot_delay}s, {args.procs} load process(es)"
    )
    print(
        f"measured window: {side.window:.1f} s; players' actions accepted: {side.actions} "
        f"({side.actions / side.window:.1f}/s), refused: {sum(r.refused for r in results)}, "
        f"bot events seen: {sum(r.bot_events for r in results)}, games finished: {sum(r.games_finished for r in results)}"
    )
    frames = sum(r.frames for r in results)
    messages = sum(r.messages for r in results)
    if side.actions:
        print(
            f"protocol {args.protocol} offered{', permessage-deflate' if args.deflate else ''}; the players received {frames / side.actions:.2f} "
            f"frames and {messages / side.actions:.2f} messages per player action"
        )
    print(f"{'':34}{'p50':>9}{'p90':>9}{'p99':>9}{'max':>9}{'n':>8}")
    for label, values in (
        ("action -> event at every seat (ms)", side.latencies),
        ("reference: ping round trip (ms)", side.pings),
    ):
        print(
            f"{label:34}"
            + "".join(f"{percentile(values, q) * ms:9.2f}" for q in (0.5, 0.9, 0.99))
            + f"{(max(values) if values else float('nan')) * ms:9.2f}{len(values):8d}"
        )
    client_cpu = sum(r.client_cpu for r in results)
    print(
        f"load generator CPU in the window: {client_cpu:.1f} s over {side.window:.1f} s "
        f"({100 * client_cpu / side.window:.0f}% of one core, {len(results)} process(es))"
        + (f", {client_cpu / side.actions * ms:.3f} ms per player action" if side.actions else "")
        + " (it shares the machine's CPUs with what it measures)"
    )
    if side.latencies:
        print(f"mean action latency {statistics.fmean(side.latencies) * ms:.2f} ms")
    print(
        f"signing in and seating everyone took {max(r.setup_seconds for r in results):.1f} s; "
        f"closing every socket {max(r.close_seconds for r in results):.1f} s"
    )


def print_comparison(sides: list[Side]) -> None:
    """Both servers' figures side by side: each label's best round (least CPU per action)."""
    best: dict[str, Side] = {}
    for side in sides:
        known = best.get(side.label)
        if known is None or side.cpu_per_action < known.cpu_per_action:
            best[side.label] = side
    ms = 1000.0
    print()
    print("== same load, same run (best round of each side: the least CPU per action)")
    print(
        f"{'':24}{'CPU/action':>11}{'actions/s':>10}{'p50':>10}{'p99':>10}"
        f"{'ping p99':>10}{'server CPU':>11}{'machine':>8}"
    )
    for side in best.values():
        print(
            f"{side.label:24}{side.cpu_per_action * ms:9.2f}ms{side.actions / side.window:10.1f}"
            f"{percentile(side.latencies, 0.5) * ms:8.1f}ms"
            f"{percentile(side.latencies, 0.99) * ms:8.1f}ms"
            f"{percentile(side.pings, 0.99) * ms:8.1f}ms"
            f"{100 * side.server_cpu / side.server_window:10.0f}%{100 * side.machine_busy:7.0f}%"
        )
    print(
        "every round, CPU per action: "
        + ", ".join(f"{s.label} {s.cpu_per_action * ms:.2f} ms" for s in sides)
    )
    values = list(best.values())
    if len(values) == 2 and values[0].cpu_per_action == values[0].cpu_per_action:
        ratio = values[1].cpu_per_action / values[0].cpu_per_action
        print(
            f"{values[1].label} spends {ratio:.2f}x the server CPU per action of "
            f"{values[0].label} ({values[0].cpu_per_action * ms:.2f} -> "
            f"{values[1].cpu_per_action * ms:.2f} ms)"
        )
    print(
        "(server CPU per action counts everything the server process did in the window: "
        "the player's action, the bot moves and broadcasts it causes, storage, and the "
        "load's pings; with --cluster-dir, every node, PostgreSQL and redis-server summed)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--bots", type=int, default=1, help="bots per table")
    parser.add_argument("--game", default="421")
    parser.add_argument("--duration", type=float, default=15.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds a player thinks")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="the server's bot delay")
    parser.add_argument("--procs", type=int, default=1, help="load-generating processes")
    parser.add_argument("--server", default=None, help="use a running server (loopback only)")
    parser.add_argument(
        "--servers",
        default=None,
        metavar="URL,URL,...",
        help="spread the tables over running nodes, round robin (loopback only)",
    )
    parser.add_argument(
        "--cluster-dir",
        type=Path,
        default=None,
        metavar="D",
        help="measure the CPU of the nodes, PostgreSQL and Redis that scripts/cluster runs in D",
    )
    parser.add_argument("--seed", type=int, default=421)
    parser.add_argument(
        "--slowest",
        type=int,
        default=0,
        metavar="N",
        help="print the N slowest actions (when, which node and table), to match the logs",
    )
    parser.add_argument(
        "--protocol",
        type=int,
        choices=(1, 2),
        default=2,
        help="the protocol the players offer (2: one frame per step; a server without it speaks 1)",
    )
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="the players' sockets ask for permessage-deflate, as browsers do",
    )
    parser.add_argument(
        "--reference",
        default=REFERENCE_COMMIT,
        help="commit whose server runs the same load first, for comparison ('none': skip)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="reference/current pairs, alternating (best kept)"
    )
    args = parser.parse_args(argv)
    if args.players > 5000 or args.tables > 2000 or args.duration > 600 or args.rounds > 5:
        raise SystemExit("bounded: at most 5000 players, 2000 tables, 600 s, 5 rounds")
    if args.server or args.servers:
        args.reference = "none"

    reference = None
    if args.reference.lower() != "none":
        reference = extract(args.reference)
        if reference is None:
            print(f"note: no reference: git could not extract commit {args.reference}")
    sides: list[Side] = []
    try:
        for round_index in range(args.rounds):
            order: list[tuple[str, Path | None]] = [("this tree", None)]
            if reference is not None:
                ref = (f"reference {args.reference[:10]}", reference)
                # alternate who goes first, so that a burst of other load hits both
                order = [ref, *order] if round_index % 2 == 0 else [*order, ref]
            for label, source in order:
                sides.append(run_side(args, label, source))
    finally:
        if reference is not None:
            discard(reference)
    if sides:
        print_comparison(sides)
    return 0


if __name__ == "__main__":
    sys.exit(main())
