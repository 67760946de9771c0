"""CPU to write one Redis command, redis-py's asyncio packer against the one ``connect`` gives.

The commands a cluster node sends most are script calls carrying many keys: the rate
counts' sync (up to 500 keys and their counts a call, every 0.25 s, all keys every 10 s)
the lease renewals (every table held, every 1.67 s) and the reaper's look at the
leases of the open tables (every second). redis-py's asyncio connection
packs them in Python; ``zanzibar.cluster.redis_common.connect`` gives its connections
hiredis's packer (C), which redis-py's synchronous client uses. Both are timed here on the
same commands in the same run, alternating, best of ``--rounds``::

    .venv/bin/python bench/bench_redis_pack.py [--rounds 5]

No Redis is contacted: only the bytes of the commands are made.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from redis.asyncio.connection import Connection

from zanzibar.cluster.redis_common import connect

#: (what, the command's arguments, how many times a round packs it)
COMMANDS: list[tuple[str, tuple[Any, ...], int]] = [
    (
        "rate-count sync, 500 keys",
        (
            "EVALSHA",
            "0" * 40,
            500,
            *[f"zc:chat:player{i}" for i in range(500)],
            "n1",
            120000,
            1,
            500,
            *range(500),
        ),
        200,
    ),
    (
        "rate-count sync, 20 keys",
        (
            "EVALSHA",
            "0" * 40,
            20,
            *[f"zc:chat:player{i}" for i in range(20)],
            "n1",
            120000,
            0,
            20,
            *range(20),
        ),
        2000,
    ),
    (
        "lease renewal, 100 tables",
        (
            "EVALSHA",
            "0" * 40,
            100,
            *[f"zl:{t}" for t in range(100)],
            5000,
            *[f"n1:{t}" for t in range(100)],
        ),
        500,
    ),
    (
        "reaper's MGET, 250 tables",
        ("MGET", *[k for t in range(250) for k in (f"zl:{t}", f"zl:{t}:e")]),
        400,
    ),
    ("GET", ("GET", "zl:t:17"), 20000),
]


def _best(pack: Callable[..., Any], args: tuple[Any, ...], times: int, rounds: int) -> float:
    """Best CPU seconds per command over ``rounds`` rounds of ``times`` packings."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(times):
            pack(*args)
        best = min(best, (time.process_time() - start) / times)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args(argv).rounds
    python = Connection().pack_command
    ours = connect("redis://127.0.0.1:1/0").connection_pool.make_connection().pack_command
    print(f"{'command':30s} {'redis-py (Python)':>18s} {'connect (hiredis)':>18s} {'ratio':>7s}")
    for what, args, times in COMMANDS:
        assert b"".join(python(*args)) == b"".join(ours(*args))
        before = _best(python, args, times, rounds)
        after = _best(ours, args, times, rounds)
        print(f"{what:30s} {before * 1e6:15.1f} us {after * 1e6:15.1f} us {after / before:6.2f}x")


if __name__ == "__main__":
    main()
