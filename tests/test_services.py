"""The private services of the live tests start, answer, restart and stop."""

from __future__ import annotations

import asyncio

import pytest

from _services import PostgresServer, RedisServer

pytestmark = pytest.mark.live


def test_postgres_answers_and_hands_out_empty_databases(
    postgres_server: PostgresServer, pg_url: str
) -> None:
    import asyncpg

    async def query() -> list[str]:
        conn = await asyncpg.connect(pg_url.replace("postgresql+asyncpg", "postgresql"))
        try:
            tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            return [row[0] for row in tables]
        finally:
            await conn.close()

    assert asyncio.run(query()) == []
    assert f":{postgres_server.port}/" in pg_url


def test_redis_answers_and_starts_empty(redis_server: RedisServer, redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        assert client.dbsize() == 0
        client.set("k", "v")
        assert client.get("k") == b"v"
    finally:
        client.close()
