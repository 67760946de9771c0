"""The in-order delivery every bus shares (cluster/delivery.py), with a log under the test's control."""

from __future__ import annotations

from typing import Any

import pytest
from _clusterkit import Recorder, env

from zanzibar.cluster.delivery import Deliveries
from zanzibar.cluster.ports import Envelope

pytestmark = pytest.mark.anyio


class Log:
    """A bus log that holds versions from ``first`` on, or fails when ``broken``."""

    def __init__(self, versions: range) -> None:
        self.versions = versions
        self.broken = False

    async def fill(self, table: int, after: int) -> list[Envelope] | None:
        if self.broken:
            raise ConnectionError("the log is out of reach")
        if after + 1 < self.versions.start:
            return None
        return [env(v, table) for v in self.versions if v > after]


async def test_a_hole_is_filled_from_the_log_in_order() -> None:
    log = Log(range(1, 10))
    deliveries = Deliveries(log.fill)
    follower = Recorder()
    await deliveries.add(7, follower, after=0)
    assert follower.versions() == list(range(1, 10))
    log.versions = range(1, 15)
    await deliveries.offer(env(14))  # 10..13 never came by pub/sub
    assert follower.versions() == list(range(1, 15))
    await deliveries.offer(env(12))  # late and repeated: dropped
    assert follower.versions() == list(range(1, 15))


async def test_what_the_log_lacks_is_reported_once_then_delivery_goes_on() -> None:
    log = Log(range(1, 4))
    deliveries = Deliveries(log.fill)
    follower = Recorder()
    await deliveries.add(7, follower, after=3)
    log.versions = range(8, 10)  # trimmed: 4..7 are gone, so the log cannot fill the hole
    await deliveries.offer(env(9))
    assert follower.events == [("gap", 3, 9), ("v", 9)]
    log.broken = True
    await deliveries.offer(env(11))  # 10 missing and the log unreachable: a gap, then 11
    assert follower.events[-2:] == [("gap", 9, 11), ("v", 11)]


async def test_a_follower_behind_a_lost_log_restarts_from_the_next_envelope() -> None:
    log = Log(range(20, 30))
    deliveries = Deliveries(log.fill)
    follower = Recorder()
    await deliveries.add(7, follower, after=5)
    assert follower.events == [("gap", 5, None)]
    await deliveries.offer(env(31))  # the next one starts the sequence afresh
    await deliveries.offer(env(32))
    assert follower.events[1:] == [("v", 31), ("v", 32)]


async def test_a_catch_up_delivers_what_was_missed_and_reports_what_the_log_lost() -> None:
    """After a lost pub/sub connection: a version published meanwhile (the last one of
    its table for a while: no later envelope would reveal the hole) is delivered from
    the log; after Redis forgot the log, the loss is reported at once."""
    log = Log(range(1, 4))
    deliveries = Deliveries(log.fill)
    follower = Recorder()
    await deliveries.add(7, follower, after=0)
    log.versions = range(1, 6)  # 4 and 5 were published while the connection was down
    await deliveries.catch_up()
    assert follower.versions() == [1, 2, 3, 4, 5]
    await deliveries.catch_up()  # nothing new: nothing delivered, nothing reported
    assert len(follower.events) == 5
    log.versions = range(9, 10)  # Redis restarted empty; the owner went on to 9
    await deliveries.catch_up()
    assert follower.events[5:] == [("gap", 5, None)]
    await deliveries.offer(env(9))  # the next envelope is taken as it comes
    assert follower.events[6:] == [("v", 9)]
    log.broken = True  # the log out of reach during a catch-up: counted as lost
    await deliveries.catch_up()
    assert follower.events[7:] == [("gap", 9, None)]


async def test_one_failing_follower_does_not_stop_the_others() -> None:
    class Broken(Recorder):
        async def deliver(self, envelope: Envelope) -> None:
            raise RuntimeError("a bug in one follower")

    deliveries = Deliveries(Log(range(1, 1)).fill)
    broken, fine = Broken(), Recorder()
    await deliveries.add(7, broken, after=0)
    await deliveries.add(7, fine, after=0)
    for v in (1, 2):
        await deliveries.offer(env(v))
    assert fine.versions() == [1, 2]
    assert deliveries.remove(7, broken) is False
    assert deliveries.remove(7, fine) is True
    assert not deliveries.following(7)
    await deliveries.offer(env(3))  # nobody follows: nothing happens
    assert fine.versions() == [1, 2]


def test_envelopes_compare_by_value() -> None:
    data: dict[str, Any] = {"n": 1}
    assert env(1) == Envelope(7, 1, 1, {"n": 1, "text": "été 1"})
    assert Envelope(1, 1, 1, data) != Envelope(1, 2, 1, data)
