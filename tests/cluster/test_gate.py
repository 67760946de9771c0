"""Sign-in rates shared by every node (``cluster/redis_gate.py``) behave as the in-memory gate."""

from __future__ import annotations

from typing import Any

import pytest

from zanzibar.cluster.redis_gate import RedisGate
from zanzibar.salon.errors import SalonError
from zanzibar.salon.limits import LocalGate, rates

pytestmark = [pytest.mark.anyio, pytest.mark.live]


async def test_two_nodes_share_one_budget(redis_url: str) -> None:
    one, two = RedisGate(redis_url), RedisGate(redis_url)
    rule = rates("3/minute;5/hour")
    try:
        await one.take([(rule, "name:anna")], "sign-in attempts")
        await two.take([(rule, "name:anna")], "sign-in attempts")
        await one.take([(rule, "name:anna")], "sign-in attempts")
        with pytest.raises(SalonError) as refused:
            await two.take([(rule, "name:anna")], "sign-in attempts")
        assert refused.value.code == "rate_limited"
        assert 1 <= refused.value.details["retry_after"] <= 60
        await two.take([(rule, "name:bea")], "sign-in attempts")  # another key has room
        await one.clear(rule, "name:anna")
        await two.take([(rule, "name:anna")], "sign-in attempts")
    finally:
        await one.close()
        await two.close()


async def test_a_refused_event_counts_nowhere(redis_url: str) -> None:
    for gate in (RedisGate(redis_url), LocalGate()):
        full, roomy = rates("1/minute"), rates("2/minute")
        await gate.take([(full, "a")], "new accounts")
        for _ in range(3):  # refused by "a": "b" must not be counted
            with pytest.raises(SalonError):
                await gate.take([(roomy, "b"), (full, "a")], "new accounts")
        await gate.take([(roomy, "b")], "new accounts")
        await gate.take([(roomy, "b")], "new accounts")
        with pytest.raises(SalonError):
            await gate.take([(roomy, "b")], "new accounts")
        if isinstance(gate, RedisGate):
            await gate.close()


async def test_without_redis_a_sign_in_is_refused_not_let_through(
    redis_url: str, redis_server: Any
) -> None:
    gate = RedisGate(redis_url)
    redis_server.stop()
    try:
        with pytest.raises(SalonError) as refused:
            await gate.take([(rates("5/minute"), "name:anna")], "sign-in attempts")
        assert refused.value.code == "rate_limited"
    finally:
        redis_server.start()
        await gate.close()
