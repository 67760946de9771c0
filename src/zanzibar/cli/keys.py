"""Single keystrokes from a real terminal, as key names.

Used by the line-oriented terminal clients: in a terminal, one key acts at
once (``1`` selects die 1, ``F1`` gives help); when standard input is not a
terminal the clients read whole typed commands instead. Key names:
``"1"``..``"6"``, ``"shift+1"``..``"shift+6"``, ``"space"``, ``"enter"``,
``"f1"``, ``"ctrl+f1"``, ``"backspace"``, ``"escape"``, or the character.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: What Shift+digit types on a US (QWERTY) layout.
_US_SHIFTED = {
    "!": "shift+1",
    "@": "shift+2",
    "#": "shift+3",
    "$": "shift+4",
    "%": "shift+5",
    "^": "shift+6",
}
#: The unshifted digit row of a French AZERTY layout (its digits need Shift).
_AZERTY_ROW = {"&": "1", "é": "2", '"': "3", "'": "4", "(": "5", "-": "6"}

_ESCAPES = {
    "\x1bOP": "f1",
    "\x1b[11~": "f1",
    "\x1b[[A": "f1",
    "\x1b[1;5P": "ctrl+f1",
    "\x1bO5P": "ctrl+f1",
    "\x1b[11;5~": "ctrl+f1",
    "\x1b[1;2P": "shift+f1",
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[C": "right",
    "\x1b[D": "left",
}


def key_name(sequence: str, layout: str = "qwerty") -> str:
    """Name the key a terminal byte sequence stands for.

    On AZERTY the digit keys typed without Shift give ``& é " ' ( -``: they
    select dice, and the shifted digits unselect.

    >>> key_name("!")
    'shift+1'
    >>> key_name("\\x1bOP")
    'f1'
    >>> key_name("é", layout="azerty"), key_name("2", layout="azerty")
    ('2', 'shift+2')
    """
    if sequence in _ESCAPES:
        return _ESCAPES[sequence]
    if sequence == " ":
        return "space"
    if sequence in {"\r", "\n"}:
        return "enter"
    if sequence in {"\x7f", "\b"}:
        return "backspace"
    if sequence == "\x1b":
        return "escape"
    if sequence == "\x03":
        return "ctrl+c"
    if sequence == "\x04":
        return "ctrl+d"
    if layout == "azerty":
        if sequence in _AZERTY_ROW:
            return _AZERTY_ROW[sequence]
        if sequence in "123456" and len(sequence) == 1:
            return f"shift+{sequence}"
    if sequence in _US_SHIFTED:
        return _US_SHIFTED[sequence]
    return sequence.lower() if len(sequence) == 1 else sequence


@contextmanager
def raw_terminal(fd: int) -> Iterator[None]:
    """Put the terminal in cbreak mode (keys arrive at once, Ctrl+C still works)."""
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_key(fd: int | None = None, layout: str = "qwerty") -> str:
    """Block for one key press and return its name (call inside raw_terminal)."""
    import select

    fd = sys.stdin.fileno() if fd is None else fd
    data = os.read(fd, 1)
    if data == b"\x1b":
        # Gather the rest of an escape sequence, if one follows quickly.
        while select.select([fd], [], [], 0.03)[0]:
            data += os.read(fd, 1)
            # The letter right after ESC ("O" of SS3, as in F1 = ESC O P) does not end it.
            if (len(data) > 2 and data[-1:].isalpha()) or data.endswith(b"~"):
                break
    elif data and data[0] >= 0xC0:
        # A multi-byte UTF-8 character (é on AZERTY).
        need = 1 if data[0] < 0xE0 else 2 if data[0] < 0xF0 else 3
        data += os.read(fd, need)
    return key_name(data.decode("utf-8", errors="replace"), layout)
