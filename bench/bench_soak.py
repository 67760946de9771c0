"""Soak benchmark: honest players keep playing while hostile clients attack the salon.

    .venv/bin/python bench/bench_soak.py --quick      # 60 players, 20 tables, 16 attackers, ~1 min
    .venv/bin/python bench/bench_soak.py              # 1,000 players, 300 tables, 50 attackers

Two runs, each on a fresh ``zanzibar serve`` (loopback, temporary data):
the reference, with the honest players alone, then the same players with
``--attackers`` hostile clients running the attacks of issue 10 during the
whole measured window. The honest side is bench/bench_load.py's machinery
(its players, tables, measurements), imported, not copied. The attackers, in a
process of their own, share out these attacks (round robin):

* ``slow_reader``: a socket with a 4 KiB receive buffer asks for the game list
  and the lobby again and again and never reads (it should be cut off; it reconnects);
* ``big_body``: a 400 MiB declared body, and an endless chunked body;
* ``slowloris``: request headers one byte every half second (5 at a time);
* ``no_hello``: WebSockets that never say hello (5 at a time);
* ``chat_flood``: chat lines as fast as the socket takes them;
* ``table_flood``: new tables as fast as they are granted;
* ``password_storm``: wrong passwords for a real account, 4 at a time;
* ``poison_text``: lone surrogates, controls and bidi overrides in chat and names.

It prints the honest players' action latency (action -> the event at every
seat: p50, p99) beside the reference, the server's RSS when everyone is
seated (before the attack) and at the end, what each attack achieved, and
what the server logged. Only 127.0.0.1 is contacted; every loop is bounded
by the window and by counts.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import json
import multiprocessing
import os
import socket
import struct
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).parent))
import bench_load as load

ATTACKS = (
    "slow_reader",
    "big_body",
    "slowloris",
    "no_hello",
    "chat_flood",
    "table_flood",
    "password_storm",
    "poison_text",
)
#: Caps that keep every attack loop bounded even on a server that refuses nothing.
MAX_TABLES_PER_ATTACKER = 2000
MAX_FRAMES_PER_SOCKET = 20000


# -- the attackers -----------------------------------------------------------------------------


@dataclass
class AttackStats:
    """What one kind of attack did and what it was answered."""

    attempts: int = 0
    answers: collections.Counter[str] = field(default_factory=collections.Counter)
    seconds_held: list[float] = field(default_factory=list)
    bytes_sent: int = 0

    def line(self, name: str) -> str:
        answers = ", ".join(f"{k} x{v}" for k, v in self.answers.most_common(5)) or "-"
        held = ""
        if self.seconds_held:
            ordered = sorted(self.seconds_held)
            held = f"; held {ordered[len(ordered) // 2]:.1f} s median, {ordered[-1]:.1f} s max"
        sent = f"; {self.bytes_sent / 1e6:.0f} MB written" if self.bytes_sent else ""
        return f"  {name:15} {self.attempts:7d} tries; answers: {answers}{held}{sent}"


class Attack:
    """Shared state of the attacking process."""

    def __init__(self, url: str, seconds: float) -> None:
        parts = urlsplit(url)
        self.url = url
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.seconds = seconds
        self.deadline = 0.0
        self.prepared = 0
        self.failed = 0
        self.go = asyncio.Event()
        self.stats: dict[str, AttackStats] = {name: AttackStats() for name in ATTACKS}
        self.names = iter(range(1, 10**9))

    async def begin(self) -> None:
        """Prepared (signed in, seated...): wait for the attack window to open."""
        self.prepared += 1
        await self.go.wait()

    def start(self) -> None:
        """Open the attack window."""
        self.deadline = time.monotonic() + self.seconds
        self.go.set()

    def live(self) -> bool:
        return time.monotonic() < self.deadline

    def left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def name(self, kind: str) -> str:
        return f"{kind[:6]}{next(self.names)}"

    async def tcp(
        self, rcvbuf: int | None = None
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (self.host, self.port))
        return await asyncio.open_connection(sock=sock)

    async def guest(self, http: Any, kind: str) -> str:
        response = await http.post("api/guest", json={"name": self.name(kind)})
        response.raise_for_status()
        return str(response.json()["token"])


def ws_frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One masked client frame."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def ws_handshake(attack: Attack, rcvbuf: int | None = None) -> tuple[Any, Any]:
    reader, writer = await attack.tcp(rcvbuf)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: {attack.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    return reader, writer


async def until_closed(reader: asyncio.StreamReader, limit: float) -> float:
    """Seconds until the server closes the connection (at most ``limit``)."""
    started = time.monotonic()
    with contextlib.suppress(asyncio.TimeoutError, OSError):
        async with asyncio.timeout(limit):
            while await reader.read(65536):
                pass
    return time.monotonic() - started


async def slow_reader(attack: Attack, http: Any) -> None:
    stats = attack.stats["slow_reader"]
    token = await attack.guest(http, "slow")
    await attack.begin()
    while attack.live():
        stats.attempts += 1
        _reader, writer = await ws_handshake(attack, rcvbuf=4096)
        writer.write(ws_frame(json.dumps({"v": 1, "type": "hello", "token": token}).encode()))
        frames = [  # the two biggest replies: the game list, and the lobby's table list
            ws_frame(json.dumps({"v": 1, "type": "games.list"}).encode()),
            ws_frame(json.dumps({"v": 1, "type": "lobby.subscribe"}).encode()),
        ]
        started = time.monotonic()
        outcome = "still open at the end"
        try:
            for n in range(MAX_FRAMES_PER_SOCKET):
                if not attack.live():
                    break
                writer.write(frames[n % 2])
                async with asyncio.timeout(max(0.1, attack.left())):
                    await writer.drain()
                if n >= 2000:  # enough asked for: now just wait, still reading nothing
                    await asyncio.sleep(0.2)
        except (OSError, TimeoutError):
            outcome = "cut off" if attack.live() else "still open at the end"
        stats.answers[outcome] += 1
        stats.seconds_held.append(time.monotonic() - started)
        writer.close()


async def big_body(attack: Attack, http: Any) -> None:
    stats = attack.stats["big_body"]
    chunk = b"x" * 65536
    await attack.begin()
    while attack.live():
        stats.attempts += 1
        reader, writer = await attack.tcp()
        chunked = stats.attempts % 2 == 0
        head = "POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        head += (
            "Transfer-Encoding: chunked\r\n\r\n" if chunked else "Content-Length: 419430400\r\n\r\n"
        )
        writer.write(head.encode())
        status = "no answer"
        try:
            async with asyncio.timeout(max(0.1, min(10.0, attack.left()))):
                for _ in range(6400 if chunked else 0):  # at most 400 MiB
                    writer.write(b"10000\r\n" + chunk + b"\r\n")
                    await writer.drain()
                    stats.bytes_sent += len(chunk)
                line = await reader.readline()
                status = line.decode(errors="replace").split(" ", 2)[1] if line else "closed"
        except (OSError, TimeoutError, IndexError):
            status = "closed while sending"
        stats.answers[f"{'chunked' if chunked else 'declared'} {status}"] += 1
        writer.close()


async def slowloris(attack: Attack, http: Any) -> None:
    stats = attack.stats["slowloris"]

    async def one() -> None:
        while attack.live():
            stats.attempts += 1
            reader, writer = await attack.tcp()
            started = time.monotonic()
            answer = "held to the end"
            try:
                writer.write(b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                for _ in range(100_000):
                    if not attack.live():
                        break
                    writer.write(b"a")
                    await writer.drain()
                    with contextlib.suppress(asyncio.TimeoutError):
                        line = await asyncio.wait_for(reader.readline(), 0.5)
                        answer = ([*line.decode(errors="replace").split(" ", 2), "", ""])[
                            1
                        ] or "closed"
                        break
            except OSError:
                answer = "closed"
            stats.answers[answer] += 1
            stats.seconds_held.append(time.monotonic() - started)
            writer.close()

    await attack.begin()
    await asyncio.gather(*(one() for _ in range(5)))


async def no_hello(attack: Attack, http: Any) -> None:
    stats = attack.stats["no_hello"]

    async def one() -> None:
        while attack.live():
            stats.attempts += 1
            try:
                reader, writer = await ws_handshake(attack)
            except (OSError, TimeoutError):
                stats.answers["handshake failed"] += 1
                await asyncio.sleep(0.5)
                continue
            held = await until_closed(reader, attack.left())
            stats.answers["closed" if attack.live() else "held to the end"] += 1
            stats.seconds_held.append(held)
            writer.close()

    await attack.begin()
    await asyncio.gather(*(one() for _ in range(5)))


async def _socket(attack: Attack, http: Any, kind: str) -> Any:
    from websockets.asyncio.client import connect

    token = await attack.guest(http, kind)
    ws = await connect(
        attack.url.replace("http://", "ws://") + "ws",
        proxy=None,
        ping_interval=None,
        compression=None,
    )
    await ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
    return ws


async def _count_replies(ws: Any, stats: AttackStats) -> None:
    with contextlib.suppress(Exception):
        async for frame in ws:
            message = json.loads(frame)
            if message.get("type") == "ok":
                stats.answers["ok"] += 1
            elif message.get("type") == "error":
                stats.answers[str(message.get("code"))] += 1
    stats.answers["socket closed"] += 1


async def _own_table(ws: Any) -> int:
    await ws.send(
        json.dumps({"v": 1, "type": "table.create", "id": "t", "game": "421", "seats": 2})
    )
    for _ in range(50):
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message.get("id") == "t":
            return int(message["table"]["id"]) if message["type"] == "ok" else 0
    return 0


async def chat_flood(attack: Attack, http: Any) -> None:
    stats = attack.stats["chat_flood"]
    ws = await _socket(attack, http, "chat")
    table = await _own_table(ws)
    await attack.begin()
    counter = asyncio.create_task(_count_replies(ws, stats))
    with contextlib.suppress(Exception):
        for n in range(1_000_000):
            if not attack.live() or counter.done():
                break
            stats.attempts += 1
            await ws.send(
                json.dumps(
                    {"v": 1, "type": "chat.say", "id": n, "table": table, "text": "spam " * 20}
                )
            )
            if n % 50 == 0:
                await asyncio.sleep(0)
    await ws.close()
    counter.cancel()


async def table_flood(attack: Attack, http: Any) -> None:
    stats = attack.stats["table_flood"]
    ws = await _socket(attack, http, "tables")
    await attack.begin()
    counter = asyncio.create_task(_count_replies(ws, stats))
    with contextlib.suppress(Exception):
        for n in range(MAX_TABLES_PER_ATTACKER):
            if not attack.live() or counter.done():
                break
            stats.attempts += 1
            await ws.send(
                json.dumps({"v": 1, "type": "table.create", "id": n, "game": "421", "seats": 2})
            )
            await asyncio.sleep(0.001)
    await ws.close()
    counter.cancel()


async def password_storm(attack: Attack, http: Any) -> None:
    stats = attack.stats["password_storm"]
    name = attack.name("victim")
    await http.post("api/register", json={"name": name, "password": "right-password-1"})
    await attack.begin()

    async def one() -> None:
        while attack.live():
            stats.attempts += 1
            started = time.monotonic()
            try:
                response = await http.post(
                    "api/login", json={"name": name, "password": f"wrong-{stats.attempts}"}
                )
                stats.answers[str(response.status_code)] += 1
            except Exception as exc:
                stats.answers[type(exc).__name__] += 1
            stats.seconds_held.append(time.monotonic() - started)

    await asyncio.gather(*(one() for _ in range(4)))


POISON_TEXTS = (
    "x\\ud800y",
    "\\u202eevil\\u202c",
    "bell\\u0007\\u001b[2J",
    "zero\\u200bwidth\\u2066",
    "\\udfff",
)


async def poison_text(attack: Attack, http: Any) -> None:
    stats = attack.stats["poison_text"]
    ws = await _socket(attack, http, "poison")
    table = await _own_table(ws)
    await attack.begin()
    counter = asyncio.create_task(_count_replies(ws, stats))
    with contextlib.suppress(Exception):
        for n in range(100_000):
            if not attack.live() or counter.done():
                break
            stats.attempts += 1
            text = POISON_TEXTS[n % len(POISON_TEXTS)]
            await ws.send(
                '{"v":1,"type":"chat.say","id":%d,"table":%d,"text":"%s"}' % (n, table, text)  # noqa: UP031
            )
            if n % 10 == 0:
                name = '{"name":"%s"}' % POISON_TEXTS[n // 10 % len(POISON_TEXTS)]  # noqa: UP031
                response = await http.post(
                    "api/guest", content=name, headers={"content-type": "application/json"}
                )
                stats.answers[f"name {response.status_code}"] += 1
            await asyncio.sleep(0.01)
    await ws.close()
    counter.cancel()


ATTACKERS = {
    "slow_reader": slow_reader,
    "big_body": big_body,
    "slowloris": slowloris,
    "no_hello": no_hello,
    "chat_flood": chat_flood,
    "table_flood": table_flood,
    "password_storm": password_storm,
    "poison_text": poison_text,
}


async def attack_all(
    url: str,
    count: int,
    seconds: float,
    kinds: tuple[str, ...] = ATTACKS,
    prepared: Any = None,
    go: Any = None,
) -> dict[str, AttackStats]:
    """Prepare ``count`` attackers, tell ``prepared``, wait for ``go``, attack for ``seconds``."""
    import httpx

    attack = Attack(url, seconds)
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:

        async def guarded(kind: str) -> None:
            try:
                await ATTACKERS[kind](attack, http)
            except Exception as exc:
                if not attack.go.is_set():
                    attack.failed += 1
                attack.stats[kind].answers[f"attacker failed: {type(exc).__name__}"] += 1

        async def opener() -> None:
            for _ in range(6000):  # at most 10 minutes of preparation
                if attack.prepared + attack.failed >= count:
                    break
                await asyncio.sleep(0.1)
            if prepared is not None:
                prepared.set()
            if go is not None:
                await asyncio.to_thread(go.wait, 900)
            attack.start()

        await asyncio.gather(opener(), *(guarded(kinds[i % len(kinds)]) for i in range(count)))
    return {kind: attack.stats[kind] for kind in kinds}


def attack_process(
    url: str, count: int, seconds: float, kinds: tuple[str, ...], prepared: Any, go: Any, out: Any
) -> None:
    """The attackers' process: run them all, send back their statistics."""
    stats = asyncio.run(attack_all(url, count, seconds, kinds, prepared, go))
    out.put(
        {k: (v.attempts, dict(v.answers), v.seconds_held, v.bytes_sent) for k, v in stats.items()}
    )


# -- one run -----------------------------------------------------------------------------------


def rss_mib(pid: int) -> float:
    """Resident memory of a process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class Phase:
    """What one run measured."""

    label: str
    latencies: list[float]
    incomplete: list[str]
    actions: int
    window: float
    rss_before: float
    rss_after: float
    rss_peak: float
    alive: bool
    attacks: dict[str, AttackStats]
    logged: collections.Counter[str]


def _log_kinds(text: str) -> collections.Counter[str]:
    kinds: collections.Counter[str] = collections.Counter()
    for line in text.splitlines():
        for marker in (
            "too slow to read",
            "no hello in time",
            "request headers did not arrive",
            "request headers are larger",
            "refused a",
            "request body did not arrive",
            "could not be sent",
            "lone surrogates",
            "no answer to a WebSocket ping",
            "Traceback",
        ):
            if marker in line:
                kinds[marker] += 1
    return kinds


def run_phase(args: argparse.Namespace, attackers: int, label: str) -> Phase:
    tmp = tempfile.TemporaryDirectory(prefix="zanzibar-soak-")
    process, url, log_path = load.start_server(Path(tmp.name) / "data", args.bot_delay)
    ctx = multiprocessing.get_context("spawn")
    try:
        with ctx.Manager() as manager:
            plans = load.plan_tables(args.players, args.tables, args.bots)
            chunks = [plans[i :: args.procs] for i in range(args.procs)]
            readies = [manager.Event() for _ in chunks]
            go = manager.Event()
            prepared = manager.Event()
            jobs = [
                (
                    url,
                    chunk,
                    args.think,
                    args.seed + i,
                    args.warmup,
                    args.duration,
                    "421",
                    ready,
                    go,
                )
                for i, (chunk, ready) in enumerate(zip(chunks, readies, strict=True))
                if chunk
            ]
            peak = [0.0]
            stop = threading.Event()

            def sample() -> None:
                while not stop.wait(0.2):
                    with contextlib.suppress(OSError):
                        peak[0] = max(peak[0], rss_mib(process.pid))

            sampler = threading.Thread(target=sample, daemon=True)
            out = ctx.Queue()
            attacker = None
            if attackers:
                # The attackers sign in and sit down meanwhile; they strike at ``go``.
                attacker = ctx.Process(
                    target=attack_process,
                    args=(
                        url,
                        attackers,
                        args.warmup + args.duration,
                        args.kinds,
                        prepared,
                        go,
                        out,
                    ),
                )
                attacker.start()
            else:
                prepared.set()
            with ctx.Pool(len(jobs)) as pool:
                pending = pool.map_async(load._worker_entry, jobs)
                for ready in readies[: len(jobs)]:
                    ready.wait(900)
                prepared.wait(900)
                rss_before = rss_mib(process.pid)
                sampler.start()
                go.set()
                results = pending.get(timeout=args.warmup + args.duration + 600)
                raw = out.get(timeout=120) if attacker is not None else {}
                if attacker is not None:
                    attacker.join(30)
            rss_after = rss_mib(process.pid)
            stop.set()
            alive = _answers(url)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except Exception:
            process.kill()
        logged = _log_kinds(log_path.read_text(errors="replace"))
        tmp.cleanup()
    attacks = {}
    for kind, (attempts, answers, held, sent) in raw.items():
        stats = AttackStats(attempts, collections.Counter(answers), held, sent)
        attacks[kind] = stats
    return Phase(
        label,
        [x for r in results for x in r.latencies],
        [e for r in results for e in r.errors],
        sum(r.actions for r in results),
        max(r.window for r in results),
        rss_before,
        rss_after,
        max(peak[0], rss_after),
        alive,
        attacks,
        logged,
    )


def _answers(url: str) -> bool:
    import httpx

    try:
        return httpx.get(url + "api/games", timeout=10).status_code == 200
    except httpx.HTTPError:
        return False


# -- main ----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--attackers", type=int, default=50)
    parser.add_argument("--bots", type=int, default=1, help="bots per table")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--procs", type=int, default=2, help="honest load processes")
    parser.add_argument("--seed", type=int, default=421)
    parser.add_argument(
        "--quick", action="store_true", help="60 players, 20 tables, 16 attackers, 12 s"
    )
    parser.add_argument(
        "--attacks",
        default=",".join(ATTACKS),
        help="comma-separated attacks to run (default: all of " + ", ".join(ATTACKS) + ")",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.tables, args.attackers = 60, 20, 16
        args.duration, args.warmup, args.procs = 12.0, 3.0, 1
    if args.players > 5000 or args.attackers > 500 or args.duration > 600:
        raise SystemExit("bounded: at most 5000 players, 500 attackers, 600 s")
    kinds = tuple(k.strip() for k in args.attacks.split(",") if k.strip())
    unknown = set(kinds) - set(ATTACKS)
    if unknown or not kinds:
        raise SystemExit(f"unknown attacks: {', '.join(sorted(unknown)) or '(none)'}")
    args.kinds = kinds

    phases = [run_phase(args, 0, "reference (no attackers)")]
    phases.append(run_phase(args, args.attackers, f"under attack ({args.attackers} attackers)"))
    if args.kinds != ATTACKS:
        print("attacks run: " + ", ".join(args.kinds))

    ms = 1000.0
    print(
        f"{args.players} honest players at {args.tables} tables ({args.bots} bot each), think "
        f"{args.think} s, bot delay {args.bot_delay} s; {args.duration:g} s measured per run"
    )
    print(f"{'':34}{'p50 ms':>9}{'p99 ms':>9}{'actions':>9}{'RSS MiB':>22}")
    for phase in phases:
        print(
            f"{phase.label:34}"
            f"{load.percentile(phase.latencies, 0.5) * ms:9.1f}"
            f"{load.percentile(phase.latencies, 0.99) * ms:9.1f}"
            f"{phase.actions:9d}"
            f"{phase.rss_before:8.0f} -> {phase.rss_after:4.0f} (peak {phase.rss_peak:4.0f})"
        )
    attacked = phases[-1]
    print(f"the server still answered at the end: {'yes' if attacked.alive else 'NO'}")
    for phase in phases:
        for note in phase.incomplete[:3]:
            print(f"note ({phase.label}): {note}")
    if attacked.attacks:
        print("attacks (tries; the server's answers):")
        for kind in ATTACKS:
            if kind in attacked.attacks:
                print(attacked.attacks[kind].line(kind))
    if attacked.logged:
        print(
            "server log lines: " + ", ".join(f"{k} x{v}" for k, v in attacked.logged.most_common())
        )
    print(
        f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}{load.cpu_pressure()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
