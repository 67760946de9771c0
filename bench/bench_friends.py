"""In-process cost of ``friends.list`` (a full list, everyone online and seated), beside ``lobby.list``.

    .venv/bin/python bench/bench_friends.py --tables 1000 --friends 200 --rounds 50

A salon on a temporary SQLite file gets ``--tables`` accounts, each hosting
one open table of 421; one more account keeps ``--friends`` of them in its
friends list. Printed: milliseconds per ``friends.list`` request through
``Salon.handle`` (the places of every friend found in one pass over the
tables, one sentence per friend in the listener's language), and, as the
same-run reference, per ``lobby.list`` of a full page (100 table summaries)
and per ``ping``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from zanzibar.salon import Salon
from zanzibar.salon.limits import Limits


class Sink:
    """A connection's ``send`` that keeps nothing."""

    async def __call__(self, message: dict[str, Any]) -> None:
        return None


async def signed_in(salon: Salon, name: str) -> Any:
    session = await salon.register(name, "bench-password")
    conn = await salon.connect(Sink())
    await salon.handle(conn, {"v": 1, "type": "hello", "token": session.token})
    return conn


async def per_request(salon: Salon, conn: Any, message: dict[str, Any], rounds: int) -> float:
    """Milliseconds per handled request (best of three runs of ``rounds``)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(rounds):
            await salon.handle(conn, message)
        best = min(best, (time.perf_counter() - start) / rounds * 1000)
        await salon.settle()
    return best


async def main(args: argparse.Namespace) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="zanzibar-bench-"))
    limits = Limits(
        message_rate_user="1000000/second",
        table_create_rate_user="1000000/second",
        friends_max=max(args.friends, 1),
        friends_change_rate="1000000/second",
        hash_workers=2,
        hash_queue=100000,
    )
    salon = Salon(
        f"sqlite+aiosqlite:///{workdir / 'bench.sqlite3'}",
        lobby_delay=0.01,
        bot_threads=False,
        limits=limits,
    )
    await salon.start()
    try:
        # argon2 makes accounts slow to create: a cheap hasher for the bench
        from argon2 import PasswordHasher

        salon.accounts.hashes.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        hosts = []
        for n in range(args.tables):
            conn = await signed_in(salon, f"Host{n}")
            await salon.handle(conn, {"v": 1, "type": "table.create", "game": "421", "seats": 2})
            hosts.append(conn)
        me = await signed_in(salon, "Listener")
        for n in range(min(args.friends, args.tables)):
            await salon.handle(me, {"v": 1, "type": "friends.add", "name": f"Host{n}"})
        await salon.settle()
        friends = len(salon.friends.lists.get(me.user.id, ()))
        listing = await per_request(salon, me, {"v": 1, "type": "friends.list"}, args.rounds)
        lobby = await per_request(
            salon, me, {"v": 1, "type": "lobby.list", "limit": 100}, args.rounds
        )
        ping = await per_request(salon, me, {"v": 1, "type": "ping"}, args.rounds)
        print(f"{len(salon.tables)} open tables, {friends} friends, all online and seated")
        print(f"friends.list            {listing:8.3f} ms per request")
        print(f"lobby.list (100 tables) {lobby:8.3f} ms per request   (reference, same run)")
        print(f"ping                    {ping:8.3f} ms per request   (reference, same run)")
    finally:
        await salon.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--friends", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=50)
    asyncio.run(main(parser.parse_args()))
