"""The print of a hung test's asyncio tasks (tests/_hang_dump.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import _hang_dump


async def inner_wait(event: asyncio.Event) -> None:
    await event.wait()


async def outer_wait(event: asyncio.Event) -> None:
    await inner_wait(event)


def test_a_waiting_task_is_described_down_to_the_innermost_await() -> None:
    async def scene() -> str:
        event = asyncio.Event()
        task = asyncio.create_task(outer_wait(event), name="the-waiter")
        await asyncio.sleep(0)
        text = _hang_dump.describe_tasks([task])
        event.set()
        await task
        return text

    text = asyncio.run(scene())
    assert "--- task the-waiter" in text
    assert text.index("in outer_wait") < text.index("in inner_wait") < text.index("in wait")


def test_only_unfinished_tasks_are_found() -> None:
    async def scene() -> tuple[bool, bool]:
        event = asyncio.Event()
        waiting = asyncio.create_task(outer_wait(event))
        finished = asyncio.create_task(asyncio.sleep(0))
        await asyncio.sleep(0.01)
        found = _hang_dump.pending_tasks()
        event.set()
        await waiting
        return waiting in found, finished in found

    assert asyncio.run(scene()) == (True, False)


@pytest.mark.parametrize(
    ("marker_args", "ini", "expected"),
    [((), "300", 300.0), ((12,), "300", 12.0), ((), "", 0.0), (("soon",), "300", 0.0)],
)
def test_the_timeout_is_the_markers_else_the_ini(
    marker_args: tuple[object, ...], ini: str, expected: float
) -> None:
    assert _hang_dump.timeout_of(marker_args, ini) == expected


def test_no_timeout_arms_nothing() -> None:
    assert _hang_dump.arm("t", 0.0) is None


def test_a_report_goes_to_the_folder_the_controller_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(_hang_dump.DIR_VARIABLE, str(tmp_path))
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw7")
    _hang_dump.write_report("+++ hung here\n")
    (written,) = tmp_path.iterdir()
    assert written.name.startswith("gw7-")
    assert _hang_dump.collected_reports(str(tmp_path)) == ["+++ hung here\n"]
    assert _hang_dump.collected_reports(str(tmp_path / "none")) == []


def test_a_dead_weak_proxy_among_the_objects_is_passed_over() -> None:
    import weakref

    class Referent:
        pass

    referent = Referent()
    proxy = weakref.proxy(referent)
    del referent  # the proxy stays, its referent is gone: isinstance(proxy, ...) raises
    with pytest.raises(ReferenceError):
        isinstance(proxy, asyncio.Task)
    assert _hang_dump.pending_tasks() == []
    assert proxy is not None
