"""Before pytest-timeout ends a hung test, print where its asyncio tasks wait.

pytest-timeout's thread method dumps every thread's stack, but a hung asyncio test
shows there only as its event loop sleeping in ``select``: the coroutine that
waits for ever is not on any thread's stack. A few seconds before the timeout,
this prints every unfinished :class:`asyncio.Task` with the frames it is
suspended in, and every thread's stack, so a hang seen once in CI says where it
hung. Nothing runs unless a test nears its timeout.

Under xdist a worker's stderr is lost when pytest-timeout ends it (its own dump
too: a CI run showed only "worker crashed"), so the text also goes to a file in
the directory :data:`DIR_VARIABLE` names, which the controlling process created
and reads back into its terminal summary (tests/conftest.py).
"""

from __future__ import annotations

import asyncio
import gc
import io
import os
import sys
import threading
import traceback
from collections.abc import Callable
from types import FrameType
from typing import Any

#: seconds before pytest-timeout's limit at which the tasks are printed
MARGIN = 5.0
#: environment variable naming the directory of the dumps (set by the controlling process)
DIR_VARIABLE = "ZANZIBAR_HANG_DUMPS"


def timeout_of(marker_args: tuple[object, ...], ini_value: str) -> float:
    """The test's timeout in seconds: its ``timeout`` marker's, else the ini's (0: none)."""
    raw = marker_args[0] if marker_args else ini_value
    try:
        return float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0.0


def pending_tasks() -> list[asyncio.Task[object]]:
    """Every unfinished task of every loop in this process (read from another thread).

    The test is on ``type(obj)``: ``isinstance`` asks a weak proxy among the objects for
    its ``__class__``, which raises once its referent is gone (seen in CI).
    """
    return [
        obj for obj in gc.get_objects() if issubclass(type(obj), asyncio.Task) and not obj.done()
    ]


def await_chain(task: asyncio.Task[object]) -> list[FrameType]:
    """The frames of the task's coroutine and of everything it awaits, outermost first.

    (``Task.get_stack`` gives only the outermost coroutine's frame.)
    """
    frames: list[FrameType] = []
    awaited: Any = task.get_coro()
    while awaited is not None and len(frames) < 100:
        frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)
        if frame is None:
            break
        frames.append(frame)
        awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    return frames


def describe_tasks(tasks: list[asyncio.Task[object]]) -> str:
    """Each task's name and the frames it waits in, innermost last."""
    out = io.StringIO()
    out.write(f"{len(tasks)} unfinished asyncio task(s)\n")
    for task in tasks:
        out.write(f"--- task {task.get_name()}\n")
        for frame in await_chain(task):
            where = traceback.FrameSummary(
                frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name
            )
            out.write("".join(traceback.format_list([where])))
    return out.getvalue()


def describe_threads() -> str:
    """Every thread's stack, as pytest-timeout prints them."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    out = io.StringIO()
    for ident, frame in sys._current_frames().items():
        out.write(f"--- thread {names.get(ident, ident)}\n")
        out.write("".join(traceback.format_stack(frame)))
    return out.getvalue()


def report(nodeid: str, timeout: float) -> str:
    """The whole text printed for a test about to time out."""
    return (
        f"\n+++ {nodeid} is {MARGIN:.0f} s from its {timeout:.0f} s timeout; "
        f"{describe_tasks(pending_tasks())}{describe_threads()}"
    )


def write_report(text: str) -> None:
    """To the real stderr, and to a file the controlling process shows (under xdist)."""
    sys.__stderr__.write(text)  # type: ignore[union-attr]
    folder = os.environ.get(DIR_VARIABLE)
    if folder:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(os.path.join(folder, f"{worker}-{os.getpid()}.txt"), "a") as out:
            out.write(text)


def collected_reports(folder: str) -> list[str]:
    """The texts the workers wrote in ``folder``, by file name."""
    if not os.path.isdir(folder):
        return []
    texts = []
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name)) as source:
            texts.append(source.read())
    return texts


def arm(
    nodeid: str, timeout: float, write: Callable[[str], object] = write_report
) -> threading.Timer | None:
    """Start the timer for one test; the caller cancels it when the test ends."""
    if timeout <= 0:
        return None

    def dump() -> None:
        write(report(nodeid, timeout))

    timer = threading.Timer(max(timeout - MARGIN, 1.0), dump)
    timer.daemon = True
    timer.start()
    return timer
