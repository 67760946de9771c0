"""The stall watch: a blocked event loop is logged with its length, the collector's share and what ran."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time

import pytest

from zanzibar.server.stalls import Stall, StallWatch, describe_stack


def _hold_the_loop(seconds: float) -> None:
    """Busy for ``seconds`` without yielding (what a slow callback does)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_a_blocked_loop_is_logged_with_the_code_that_held_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="zanzibar.server.stalls")
    watch = asyncio.run(_blocked_loop())
    assert watch.count == 1
    assert 0.3 <= watch.worst < 2.0
    stall = watch.last
    assert stall is not None
    # the main thread was busy, not waiting (however few CPU cycles a crowded machine gave it)
    assert 0 < stall.cpu <= stall.lag + 0.1
    assert stall.stack[0].startswith("server/test_stalls.py:")
    assert stall.stack[0].endswith(" _hold_the_loop")
    assert stall.stack[1].endswith(" _blocked_loop")
    lines = [r.getMessage() for r in caplog.records if r.name == "zanzibar.server.stalls"]
    assert lines[0] == "watching the event loop for stalls over 100 ms"
    assert len(lines) == 2
    assert lines[1].startswith("event loop stalled ")
    assert "_hold_the_loop" in lines[1]
    assert caplog.records[-1].levelno == logging.INFO


async def _blocked_loop() -> StallWatch:
    watch = StallWatch(threshold=0.1, period=0.02)
    watch.start()
    try:
        await asyncio.sleep(0.1)  # the heartbeat runs: no stall yet
        assert watch.count == 0
        _hold_the_loop(0.4)
        await asyncio.sleep(0.1)
    finally:
        await watch.stop()
    return watch


def test_a_loop_that_keeps_time_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="zanzibar.server.stalls")
    watch = StallWatch(threshold=0.2, period=0.01)

    async def scenario() -> None:
        watch.start()
        try:
            for _ in range(10):
                _hold_the_loop(0.01)
                await asyncio.sleep(0.01)
        finally:
            await watch.stop()

    asyncio.run(scenario())
    assert watch.count == 0
    lines = [r.getMessage() for r in caplog.records if r.name == "zanzibar.server.stalls"]
    assert lines == ["watching the event loop for stalls over 200 ms"]


def test_collections_during_a_stall_are_counted_by_generation() -> None:
    watch = StallWatch(threshold=0.1, period=0.02)

    async def scenario() -> None:
        watch.start()
        try:
            await asyncio.sleep(0.03)
            watch._on_gc("start", {"generation": 2})
            _hold_the_loop(0.15)  # a collection that took 150 ms, as the callbacks see it
            watch._on_gc("stop", {"generation": 2, "collected": 0, "uncollectable": 0})
            await asyncio.sleep(0.05)
        finally:
            await watch.stop()

    asyncio.run(scenario())
    stall = watch.last
    assert stall is not None
    assert stall.gc_generations == {2: 1}
    assert 0.14 <= stall.gc_seconds < 1.0
    # the collection's CPU time too: a busy loop, so some of it (a crowded machine gives less)
    assert 0 < stall.gc_cpu <= stall.gc_seconds + 0.05
    assert "garbage collection" in stall.describe()
    assert "1 of generation 2" in stall.describe()


def test_stop_removes_the_collector_callback() -> None:
    import gc

    watch = StallWatch()

    async def scenario() -> None:
        watch.start()
        assert watch._on_gc in gc.callbacks
        await watch.stop()
        assert watch._on_gc not in gc.callbacks
        await watch.stop()  # twice is harmless

    asyncio.run(scenario())


def test_a_long_stall_is_a_warning() -> None:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger("test.stalls.warning")
    logger.addHandler(Keep())
    logger.setLevel(logging.INFO)
    watch = StallWatch(logger=logger)
    watch._report(1.5, 1.4)
    watch._report(0.2, 0.01)
    assert [r.levelno for r in records] == [logging.WARNING, logging.INFO]
    assert "stalled 1500 ms (main thread CPU 1400 ms)" in records[0].getMessage()
    assert watch.count == 2 and watch.worst == 1.5


def test_the_description_of_a_stall() -> None:
    stall = Stall(0.3456, 0.02, 0.0, {}, ["zanzibar/salon/lobby.py:214 summaries"])
    assert stall.describe() == (
        "event loop stalled 346 ms (main thread CPU 20 ms);"
        " running: zanzibar/salon/lobby.py:214 summaries"
    )
    stall = Stall(0.3, 0.03, 0.2, {1: 1}, [], waited=0.26, gc_cpu=0.025)
    assert stall.describe() == (
        "event loop stalled 300 ms (main thread CPU 30 ms, waited for a CPU 260 ms;"
        " garbage collection 200 ms (CPU 25 ms) in 1 of generation 1)"
    )


def test_the_time_spent_waiting_for_a_cpu_is_told_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # what the kernel counts of the main thread's time in the run queue: 0.25 s more at each read
    # (a loop held 0.4 s, 0.25 s of it waiting for a CPU, as on an oversubscribed machine)
    reads = iter(x * 0.25 for x in range(1000))
    monkeypatch.setattr("zanzibar.server.stalls.run_queue_wait", lambda fd: next(reads))
    watch = asyncio.run(_blocked_loop())
    stall = watch.last
    assert stall is not None and stall.waited is not None
    assert stall.waited == pytest.approx(0.25)
    assert ", waited for a CPU 250 ms" in stall.describe()


def test_where_the_kernel_says_nothing_the_wait_is_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("zanzibar.server.stalls.run_queue_wait", lambda fd: None)
    watch = asyncio.run(_blocked_loop())
    stall = watch.last
    assert stall is not None and stall.waited is None
    assert "waited" not in stall.describe()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="schedstat is Linux's")
def test_the_run_queue_wait_is_read_from_the_threads_schedstat() -> None:
    from zanzibar.server.stalls import open_schedstat, run_queue_wait

    fd = open_schedstat()
    if fd is None:
        pytest.skip("no /proc/thread-self/schedstat here")
    try:
        first = run_queue_wait(fd)
        assert first is not None and first >= 0
        second = run_queue_wait(fd)  # read again from the start: a counter that never falls
        assert second is not None and second >= first
    finally:
        os.close(fd)
    assert run_queue_wait(None) is None
    assert run_queue_wait(fd) is None  # closed: unreadable, not an error


def test_describe_stack_names_the_innermost_frames_first() -> None:
    import sys

    def inner() -> list[str]:
        return describe_stack(sys._getframe(), depth=2)

    frames = inner()
    assert len(frames) == 2
    assert frames[0].endswith(" inner")
    assert frames[1].endswith(" test_describe_stack_names_the_innermost_frames_first")


def test_paths_are_shortened() -> None:
    from zanzibar.server.stalls import _short

    assert _short("/x/.venv/lib/python3.11/site-packages/uvicorn/main.py") == "uvicorn/main.py"
    assert _short("/work/src/zanzibar/salon/lobby.py") == "zanzibar/salon/lobby.py"
    assert _short("/usr/lib/python3.11/asyncio/events.py") == "asyncio/events.py"
    assert _short("/somewhere/tests/server/test_stalls.py") == "server/test_stalls.py"


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        StallWatch(threshold=0)
    with pytest.raises(ValueError):
        StallWatch(period=-1)
