"""The salon's Redis client writes commands with hiredis's packer, into redis-py's own bytes.

redis-py's asyncio client packs commands in Python (a growing buffer joined once per
argument): a node's lease renewals and rate-count syncs, hundreds of keys a call, spent
more CPU packing than on all their replies. ``connect`` gives its connections hiredis's
packer, as redis-py's synchronous client has.
"""

from __future__ import annotations

from typing import Any

import pytest

from zanzibar.cluster.redis_common import connect


def _python_packed(*args: Any) -> bytes:
    from redis.asyncio.connection import Connection

    return b"".join(Connection().pack_command(*args))


PACKED_CASES = [
    ("SET", "key", "value"),
    ("EVALSHA", "0" * 40, 3, "zc:chat:alice", "zc:chat:bob", b"zc:\xff", "n1", 120000, 1, 0),
    ("CONFIG GET", "maxmemory"),  # a command name of two words: sent as two arguments
    (b"CLIENT SETNAME", "n1"),
    ("ZADD", "z", 0.1, "m", 1.5e300, "n", -3, "o"),
    ("SET", "ключ", "é" * 7000),  # over redis-py's 6,000-byte chunks
    ("HSET", "h", *[f"f{i}" for i in range(1000)], *range(1000)),
    ("SET", bytearray(b"k"), memoryview(b"v")),  # hiredis refuses these: converted first
]


@pytest.mark.parametrize("args", PACKED_CASES, ids=lambda a: str(a[0]))
def test_connections_pack_commands_with_hiredis_into_redis_pys_bytes(args: tuple[Any, ...]) -> None:
    client = connect("redis://127.0.0.1:1/0")
    connection = client.connection_pool.make_connection()
    assert type(connection).pack_command is not _plain_connection_class().pack_command
    assert b"".join(connection.pack_command(*args)) == _python_packed(*args)


@pytest.mark.parametrize("bad", [None, True, object()])
def test_a_value_redis_cannot_take_is_refused_as_before(bad: Any) -> None:
    from redis.exceptions import DataError

    connection = connect("redis://127.0.0.1:1/0").connection_pool.make_connection()
    with pytest.raises(DataError):
        connection.pack_command("SET", "k", bad)
    with pytest.raises(DataError):
        _python_packed("SET", "k", bad)


def _plain_connection_class() -> Any:
    from redis.asyncio.connection import Connection

    return Connection
