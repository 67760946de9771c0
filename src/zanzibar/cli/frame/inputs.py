"""Where inputs come from: a terminal's keys, a pipe's lines, or a script.

* :class:`TerminalKeys`: the terminal in cbreak mode, read by the asyncio
  loop (``loop.add_reader``), bytes decoded into keys by
  :class:`~zanzibar.cli.frame.keys.KeyDecoder`; a lone ESC becomes Escape
  after 50 ms of silence.
* :class:`PipeLines`: one typed command a line (``printf 'roll\\n' | zanzibar play 421``).
* :class:`Script`: the golden transcripts' ``.in`` files: ``key s``, ``tick``,
  ``tick 3``, ``tick *``, or a typed line.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO

from zanzibar.cli.frame.keys import KeyDecoder, terminfo_keys
from zanzibar.cli.frame.loop import Input

#: Seconds of silence after ESC before it is the Escape key.
ESCAPE_WAIT_S = 0.05


class Script:
    """Inputs from lines: ``key NAME``, ``tick [N|*]``, ``# comment``, or a typed line."""

    def __init__(self, lines: Iterable[str], echo: Callable[[str], None] | None = None) -> None:
        self._items: Iterator[Input] = (item for item in map(parse_input, lines) if item)
        self.echo = echo

    async def next(self) -> Input | None:
        """The next input (shown as ``> key s`` when echoing); None at the end."""
        item = next(self._items, None)
        if item is not None and self.echo is not None:
            shown = item.value if item.kind == "line" else f"{item.kind} {item.value}".strip()
            self.echo(f"> {shown}")
        return item


def parse_input(line: str) -> Input | None:
    """One script line as an input (None for blanks and comments).

    >>> parse_input("key ctrl+f1"), parse_input("tick 3"), parse_input("roll 1 2")
    (Input(kind='key', value='ctrl+f1'), Input(kind='tick', value='3'), Input(kind='line', value='roll 1 2'))
    """
    text = line.rstrip("\n")
    if not text.strip() or text.lstrip().startswith("#"):
        return None
    word, _, rest = text.strip().partition(" ")
    if word == "key":
        return Input("key", rest.strip())
    if word == "tick":
        return Input("tick", rest.strip())
    return Input("line", text.strip())


class PipeLines:
    """Typed commands from a stream, one a line, read without blocking the loop."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream or sys.stdin
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._started = False
        self._buffer = b""

    def _start(self) -> bool:
        """Read through the loop when the stream is a pipe; False for plain files."""
        try:
            fd = self.stream.fileno()
            mode = os.fstat(fd).st_mode
        except (OSError, ValueError, AttributeError):
            return False
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)):
            return False
        try:
            asyncio.get_running_loop().add_reader(fd, self._readable, fd)
        except OSError:  # /dev/null and other devices the selector cannot watch
            return False
        return True

    def _readable(self, fd: int) -> None:
        data = os.read(fd, 65536)
        if not data:
            asyncio.get_running_loop().remove_reader(fd)
            if self._buffer:
                self._queue.put_nowait(self._buffer.decode("utf-8", errors="replace"))
            self._queue.put_nowait(None)
            return
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            self._queue.put_nowait(line.decode("utf-8", errors="replace"))

    async def next(self) -> Input | None:
        """The next typed line; None at the end of the input."""
        if not self._started:
            self._started = True
            self._through_loop = self._start()
        if not self._through_loop:
            line = self.stream.readline()
            return Input("line", line.rstrip("\n")) if line else None
        line_or_end = await self._queue.get()
        return None if line_or_end is None else Input("line", line_or_end)


class TerminalKeys:
    """Keys from a terminal in cbreak mode (inside :func:`cbreak`)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.decoder = KeyDecoder(terminfo_keys())
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._timer: asyncio.TimerHandle | None = None
        self._started = False

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, 1024)
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.fd)
            self._queue.put_nowait(None)
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for key in self.decoder.feed(data):
            self._queue.put_nowait(key)
        if self.decoder._pending:
            self._timer = asyncio.get_running_loop().call_later(ESCAPE_WAIT_S, self._flush)

    def _flush(self) -> None:
        self._timer = None
        for key in self.decoder.flush():
            self._queue.put_nowait(key)

    async def next(self) -> Input | None:
        """The next key; None if the terminal closed."""
        if not self._started:
            self._started = True
            asyncio.get_running_loop().add_reader(self.fd, self._readable)
        key = await self._queue.get()
        return None if key is None else Input("key", key)


@contextlib.contextmanager
def cbreak(fd: int) -> Iterator[None]:
    """Keys arrive one by one, unechoed (Ctrl+C still interrupts); restored on exit."""
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)  # keys typed ahead are kept, not flushed
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
