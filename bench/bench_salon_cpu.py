"""The salon's CPU per player action, without sockets, beside a reference commit's.

    .venv/bin/python bench/bench_salon_cpu.py                       # 30 tables, 3 rounds
    .venv/bin/python bench/bench_salon_cpu.py --reference 773ed4c --actions 4000

``bench_load.py`` measures the whole server under a realistic load, but on a
shared machine its rounds of one side spread by 10-15 %, more than most single
steps of work on the hot path save. This one runs the salon alone, in one
process and in CPU time (``time.thread_time`` of the event loop's thread): it
seats three players and a bot at each of ``--tables`` tables of 421, and the
players answer each turn at once (a random legal action), through
``Salon.handle`` and the transport's own encoding of every message put to
their connections (``encode_message``, a broadcast encoded once per audience).
Every command waits for its commit, as a player's socket does, so storage is a
commit per change (the load bench groups them). The first fifth of the actions
warms up; the rest are measured.

The same load runs against the code of ``--reference`` (extracted with ``git
archive``) and against this tree's, in child processes, alternating for
``--rounds`` pairs; each side keeps its best round. Not measured here: the
WebSocket layer (uvicorn, framing, the socket writes), which ``bench_load.py``
measures with the rest.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference import alternate

#: main at the start of the fifth round of "Cheaper actions" (docs/cluster.md).
REFERENCE_COMMIT = "773ed4c"


class _Player:
    """One seat's socket: encodes what it is sent, answers its turns at once."""

    protocol = 2

    def __init__(self, todo: list[tuple[_Player, int, list[Any]]], over: set[int]) -> None:
        from zanzibar.salon.connections import Shared
        from zanzibar.server.app import encode_message

        self._shared, self._encode = Shared, encode_message
        self.todo, self.over = todo, over
        self.conn: Any = None
        self.seat = 0
        self.table = 0
        self.acted = -1
        self.ids = itertools.count(1)
        self.messages = 0

    def put_message(self, message: dict[str, Any]) -> None:
        """What the transport does with each message (``Outbox.put_message``), then play."""
        shared = message if type(message) is self._shared else None
        if shared is None or getattr(shared, "encoded", None) is None:
            text = self._encode(message)
            if shared is not None:
                shared.encoded = text
        self.messages += 1
        if message.get("type") != "game.view" or message.get("table") != self.table:
            return
        view = message["view"]
        if view.get("over"):
            self.over.add(self.table)
        elif (
            view.get("to_act") == self.seat
            and view.get("legal")
            and self.acted != message["log_length"]
        ):
            self.acted = message["log_length"]
            self.todo.append((self, message["log_length"], view["legal"]))

    async def __call__(self, message: dict[str, Any]) -> None:
        self.put_message(message)


async def _measure(tables: int, actions: int, seed: int) -> dict[str, Any]:
    """Play until ``actions`` player actions; CPU per action of the last four fifths."""
    from zanzibar.salon import Salon
    from zanzibar.salon.limits import Limits

    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="zanzibar-salon-cpu-"))
    salon = Salon(
        f"sqlite+aiosqlite:///{workdir / 'bench.sqlite3'}",
        bot_delay=0,
        round_pause=0,
        takeover_delay=0,
        lobby_delay=0,
        bot_threads=False,
        seeds=itertools.count(seed).__next__,
        # the players answer at machine speed, far above any person's message rate
        limits=Limits(message_rate_user="100000/second"),
    )
    await salon.start()
    todo: list[tuple[_Player, int, list[Any]]] = []
    over: set[int] = set()
    hosts: dict[int, _Player] = {}
    players: list[_Player] = []

    async def send(player: _Player, kind: str, **fields: Any) -> None:
        message = {"v": 1, "type": kind, "id": next(player.ids), **fields}
        await salon.handle(player.conn, message)

    for index in range(tables):
        group = []
        for seat in range(3):
            player = _Player(todo, over)
            session = await salon.guest(f"P{index}x{seat}", "en")
            player.conn = await salon.connect(player)
            player.seat = seat
            await send(player, "hello", token=session.token, lang="en")
            group.append(player)
        await send(group[0], "table.create", game="421", seats=4)
        await salon.settle()
        table_id = max(salon.tables)
        for player in group:
            player.table = table_id
        for player in group[1:]:
            await send(player, "table.join", table=table_id)
        await send(group[0], "table.add_bot", table=table_id)
        hosts[table_id] = group[0]
        players += group
    await salon.settle()
    for table_id, host in hosts.items():
        await send(host, "table.start", table=table_id)
    await salon.settle()
    gc.collect()
    gc.freeze()  # as ``zanzibar serve`` does once started (cli/serve.py, tune_gc)

    done = 0
    start_cpu = start_messages = start_done = None
    warm = actions // 5
    while done < actions:
        if start_cpu is None and done >= warm:
            start_cpu, start_done = time.thread_time(), done
            start_messages = sum(p.messages for p in players)
        batch = todo[:]
        todo.clear()
        for player, log_length, legal in batch:
            action = rng.choice(legal)
            await send(player, "game.action", table=player.table, action=action, seq=log_length)
            done += 1
        for table_id in sorted(over):
            await send(hosts[table_id], "table.start", table=table_id)
        over.clear()
        await asyncio.sleep(0 if batch else 0.001)
    assert start_cpu is not None and start_done is not None and start_messages is not None
    cpu = time.thread_time() - start_cpu
    measured = done - start_done
    messages = sum(p.messages for p in players) - start_messages
    await salon.stop()
    return {
        "us_per_action": cpu * 1e6 / measured,
        "actions": measured,
        "all_actions": done,  # warm-up included: for instruction counts of a whole run
        "messages_per_action": messages / measured,
    }


def _worker(argv: list[str]) -> None:
    tables, actions, seed = (int(a) for a in argv)
    print(json.dumps(asyncio.run(_measure(tables, actions, seed))))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--worker":
        _worker(argv[1:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--actions", type=int, default=3000, help="player actions per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=421)
    parser.add_argument("--reference", default=REFERENCE_COMMIT, help="commit, or 'none'")
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 500 and 100 <= args.actions <= 100_000 and 1 <= args.rounds <= 9):
        raise SystemExit("bounded: 1-500 tables, 100-100,000 actions, 1-9 rounds")
    worker_args = [str(args.tables), str(args.actions), str(args.seed)]
    sides = alternate(args.reference, Path(__file__).resolve(), worker_args, args.rounds)
    print(
        f"421, {args.tables} tables of 3 players and a bot, {args.actions} player actions a round"
        f" (the first fifth warms up), {args.rounds} round(s) alternating"
    )
    best: dict[str, float] = {}
    for name, results in sides.items():
        figures = [r["us_per_action"] for r in results]
        best[name] = min(figures)
        every = ", ".join(f"{f:.0f}" for f in figures)
        print(
            f"{name:24} {best[name]:6.0f} us CPU per player action (best; every round: {every}),"
            f" {results[0]['messages_per_action']:.1f} messages put per action"
        )
    if len(best) == 2:
        ref, this = best[f"reference {args.reference}"], best["this tree"]
        print(f"this tree spends {this / ref:.2f}x the salon CPU per action of {args.reference}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
