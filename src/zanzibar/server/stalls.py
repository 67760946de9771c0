"""Event-loop stalls in production: how long, whether the collector caused them, what ran.

One process serves every socket from one event loop, so anything that holds the
loop (a long callback, a garbage collection over a large heap, a blocking call)
delays every player at once; the load bench sees it only as a latency tail.
:class:`StallWatch` makes each stall visible in the log as it happens:

* a heartbeat task sleeps :attr:`StallWatch.period` at a time and measures how
  late it wakes: the loop's lag. A lag over :attr:`StallWatch.threshold` is
  logged at info (at warning from :data:`WARN_SECONDS`) with the main thread's
  CPU time during the stall (near the lag: this process was busy; far below it:
  it waited, for the disk or for a CPU on a crowded machine) and, where Linux
  tells it (``/proc/thread-self/schedstat``), how long the main thread waited
  in the run queue for a CPU: lag ~ CPU + that wait is a loop that was runnable
  throughout (starved by other processes), a lag well above both is a loop that
  slept (nothing to do, or a blocking call that waits for I/O);
* ``gc.callbacks`` time every collection, so the line says how much of the stall
  the cyclic collector took (wall clock, and the thread's CPU: a collection that
  was preempted takes longer than it works), in how many collections of which
  generation;
* a watchdog thread, waking every :attr:`StallWatch.period`, samples the main
  thread's stack once the heartbeat is overdue, so the line names the code that
  held the loop (a collection holds the GIL: the collector's share then shows
  instead).

The cost is one timer a period, one thread wake-up a period, two reads of the
schedstat file a period (a few microseconds each) and two calls per collection;
nothing is sampled while the loop keeps time.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import re
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)

#: A lag above this is logged (seconds).
DEFAULT_THRESHOLD = 0.1
#: The heartbeat's and the watchdog's period (seconds).
DEFAULT_PERIOD = 0.05
#: A lag above this is logged at warning rather than info (seconds).
WARN_SECONDS = 1.0
#: Frames of the stalled stack named in the log line, innermost first.
STACK_DEPTH = 6


@dataclass
class Stall:
    """One stall of the event loop, as logged."""

    lag: float
    cpu: float
    gc_seconds: float
    gc_generations: dict[int, int]
    stack: list[str] = field(default_factory=list)
    #: Seconds the main thread waited for a CPU in the run queue (None: not known here).
    waited: float | None = None
    #: The collections' CPU time (of the threads that ran them).
    gc_cpu: float = 0.0

    def describe(self) -> str:
        """The log line's text."""
        text = (
            f"event loop stalled {self.lag * 1000:.0f} ms (main thread CPU {self.cpu * 1000:.0f} ms"
        )
        if self.waited is not None:
            text += f", waited for a CPU {self.waited * 1000:.0f} ms"
        if self.gc_generations:
            runs = ", ".join(
                f"{count} of generation {gen}" for gen, count in sorted(self.gc_generations.items())
            )
            text += (
                f"; garbage collection {self.gc_seconds * 1000:.0f} ms"
                f" (CPU {self.gc_cpu * 1000:.0f} ms) in {runs}"
            )
        text += ")"
        if self.stack:
            text += "; running: " + " <- ".join(self.stack)
        return text


class StallWatch:
    """Logs every stall of the running event loop longer than ``threshold`` seconds."""

    def __init__(
        self,
        threshold: float = DEFAULT_THRESHOLD,
        period: float = DEFAULT_PERIOD,
        logger: logging.Logger = log,
    ) -> None:
        if threshold <= 0 or period <= 0:
            raise ValueError("the threshold and the period are positive")
        self.threshold = threshold
        self.period = period
        self.logger = logger
        #: Stalls seen (for tests and benchmarks) and the longest lag.
        self.count = 0
        self.worst = 0.0
        self.last: Stall | None = None
        self._task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._main_ident: int | None = None
        #: When the heartbeat last ran (perf_counter), read by the watchdog thread.
        self._beat = time.perf_counter()
        self._stack: list[str] = []
        self._gc_started = 0.0
        self._gc_started_cpu = 0.0
        self._gc_seconds = 0.0
        self._gc_cpu = 0.0
        self._gc_generations: dict[int, int] = {}
        #: The main thread's schedstat file (None: not Linux, or not readable).
        self._schedstat: int | None = None

    # -- life --------------------------------------------------------------------------------

    def start(self) -> None:
        """Watch the running loop (call from inside it)."""
        if self._task is not None:
            return
        self._main_ident = threading.get_ident()
        self._schedstat = open_schedstat()
        self._beat = time.perf_counter()
        self._stop.clear()
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._heartbeat(), name="stall-watch")
        self._thread = threading.Thread(target=self._watchdog, name="stall-watch", daemon=True)
        self._thread.start()
        self.logger.info("watching the event loop for stalls over %.0f ms", self.threshold * 1000)

    async def stop(self) -> None:
        """Stop watching."""
        self._stop.set()
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        thread, self._thread = self._thread, None
        if thread is not None:
            await asyncio.to_thread(thread.join, 1.0)
        fd, self._schedstat = self._schedstat, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    # -- the loop's side ---------------------------------------------------------------------

    async def _heartbeat(self) -> None:
        while True:
            before = time.perf_counter()
            cpu_before = time.thread_time()
            waited_before = run_queue_wait(self._schedstat)
            self._reset()
            await asyncio.sleep(self.period)
            now = time.perf_counter()
            lag = now - before - self.period
            cpu = time.thread_time() - cpu_before
            self._beat = now
            if lag >= self.threshold:
                waited_after = run_queue_wait(self._schedstat)
                waited = None
                if waited_before is not None and waited_after is not None:
                    waited = waited_after - waited_before
                self._report(lag, cpu, waited)

    def _reset(self) -> None:
        self._stack = []
        self._gc_seconds = 0.0
        self._gc_cpu = 0.0
        self._gc_generations = {}

    def _report(self, lag: float, cpu: float, waited: float | None = None) -> None:
        stall = Stall(
            lag,
            cpu,
            self._gc_seconds,
            dict(self._gc_generations),
            list(self._stack),
            waited,
            self._gc_cpu,
        )
        self.count += 1
        self.worst = max(self.worst, lag)
        self.last = stall
        level = logging.WARNING if lag >= WARN_SECONDS else logging.INFO
        self.logger.log(level, "%s", stall.describe())

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            self._gc_started_cpu = time.thread_time()
            return
        self._gc_seconds += time.perf_counter() - self._gc_started
        self._gc_cpu += time.thread_time() - self._gc_started_cpu
        generation = int(info.get("generation", 0))
        self._gc_generations[generation] = self._gc_generations.get(generation, 0) + 1

    # -- the watchdog thread -----------------------------------------------------------------

    def _watchdog(self) -> None:
        sampled_beat = -1.0
        while not self._stop.wait(self.period):
            beat = self._beat
            if beat == sampled_beat or time.perf_counter() - beat < self.threshold:
                continue
            sampled_beat = beat  # one sample per stall: where the loop is stuck
            frame = sys._current_frames().get(self._main_ident or 0)
            if frame is not None:
                self._stack = describe_stack(frame)


def open_schedstat() -> int | None:
    """A descriptor of the calling thread's ``schedstat`` (None where there is none)."""
    try:
        fd = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
    except OSError:
        return None
    if run_queue_wait(fd) is None:
        os.close(fd)
        return None
    return fd


def run_queue_wait(fd: int | None) -> float | None:
    """Seconds the thread of ``fd`` (from :func:`open_schedstat`) has waited in the run
    queue since it started (the second field of ``schedstat``); None if unreadable."""
    if fd is None:
        return None
    try:
        fields = os.pread(fd, 128, 0).split()
        return int(fields[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def describe_stack(frame: FrameType, depth: int = STACK_DEPTH) -> list[str]:
    """The innermost ``depth`` frames as ``path:line function``, paths from the package root."""
    frames = traceback.StackSummary.extract(
        traceback.walk_stack(frame), limit=depth, lookup_lines=False
    )
    return [f"{_short(summary.filename)}:{summary.lineno} {summary.name}" for summary in frames]


def _short(path: str) -> str:
    """``.../site-packages/x/y.py`` -> ``x/y.py``, ``.../src/zanzibar/a.py`` -> ``zanzibar/a.py``,
    ``.../lib/python3.11/asyncio/e.py`` -> ``asyncio/e.py``; other paths keep their last two parts."""
    for marker in ("/site-packages/", "/src/"):
        index = path.rfind(marker)
        if index >= 0:
            return path[index + len(marker) :]
    stdlib = _STDLIB.search(path)
    if stdlib is not None:
        return path[stdlib.end() :]
    return "/".join(path.split("/")[-2:])


_STDLIB = re.compile(r"/lib/python\d+\.\d+/")
