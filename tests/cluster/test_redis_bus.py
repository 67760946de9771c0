"""RedisBus specifics: envelopes published at once go in one script call, each refused or
taken on its own; the encoding reads back what any table change holds."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _clusterkit import Recorder, env, eventually

from zanzibar.cluster.ports import Envelope, StaleVersion
from zanzibar.cluster.redis_bus import decode, encode

pytestmark = pytest.mark.anyio


def test_an_envelope_reads_back_as_it_was() -> None:
    for data in ({"text": "été ☃", "n": [1, 2]}, {"line": "a\ud800"}, {"big": 2**70}):
        envelope = Envelope(7, 2, 3, data)
        assert decode(encode(envelope)) == envelope


@pytest.mark.live
async def test_envelopes_published_at_once_share_a_call_and_fail_alone(redis_url: str) -> None:
    from zanzibar.cluster.redis_bus import RedisBus

    owner, node_b = RedisBus(redis_url), RedisBus(redis_url)
    calls: list[int] = []
    real = owner._publish

    async def counting(**kwargs: Any) -> Any:
        calls.append(len(kwargs["keys"]) // 2)
        return await real(**kwargs)

    owner._publish = counting  # type: ignore[assignment]
    try:
        followers = {t: Recorder() for t in (7, 8)}
        for table, follower in followers.items():
            await node_b.follow(table, follower, after=0)
        await owner.publish(env(1, table=7))
        # table 7's version 1 again (stale) amid new versions of both tables
        batch = [env(2, table=7), env(1, table=7), env(1, table=8), env(3, table=7)]
        results = await asyncio.gather(*(owner.publish(e) for e in batch), return_exceptions=True)
        assert [type(r).__name__ for r in results] == [
            "NoneType",
            "StaleVersion",
            "NoneType",
            "NoneType",
        ]
        assert isinstance(results[1], StaleVersion)
        assert calls == [1, 4]  # the four in one call
        await eventually(lambda: followers[7].versions() == [1, 2, 3])
        await eventually(lambda: followers[8].versions() == [1])
        assert followers[7].data[3] == env(3).data
        assert await node_b.since(7, 1) == [env(2, table=7), env(3, table=7)]
    finally:
        await owner.close()
        await node_b.close()
