"""Bytes from a terminal to key names, and key names to words a player hears.

Terminals do not agree on what F1 sends: xterm, VTE, kitty and tmux send
``ESC O P``, VT220 mode, rxvt and PuTTY ``ESC [11~``, the Linux console
``ESC [[A``; Ctrl+F1 is ``ESC [1;5P`` (xterm), ``ESC O5P`` (old xterm),
``ESC [11^`` (rxvt) or ``ESC [11;5~``; the console's keymap sends nothing for
Ctrl+F1, so Shift+F1 (``ESC [1;2P``, rxvt ``ESC [23~``, console ``ESC [25~``)
gives the rules too. :class:`KeyDecoder` reads escape sequences by their
grammar (a CSI ends at a byte 0x40-0x7E, ``~`` and ``^`` included; SS3 takes
an optional digit and one letter) rather than by a timeout, so a sequence
split across two reads is still one key, and an unknown sequence is one
unknown key, never a burst of letters.

Key names: ``"a"`` .. ``"z"`` and other printable characters as typed,
``"1"``..``"6"`` for the digit keys *by position* and ``"shift+1"``..
``"shift+6"`` for the same keys shifted, ``"space"``, ``"enter"``, ``"tab"``,
``"backspace"``, ``"escape"``, ``"f1"``..``"f12"``, ``"ctrl+f1"``,
``"shift+f1"``, ``"up"`` .. ``"left"``, ``"ctrl+c"``, ``"alt+x"`` ...
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable

#: SS3 (``ESC O x``) finals.
_SS3 = {"P": "f1", "Q": "f2", "R": "f3", "S": "f4", "A": "up", "B": "down", "C": "right"}
_SS3 |= {"D": "left", "H": "home", "F": "end", "M": "enter"}
#: CSI final letters without a number.
_CSI_LETTER = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end"}
_CSI_LETTER |= {"P": "f1", "Q": "f2", "R": "f3", "S": "f4", "Z": "shift+tab"}
#: ``ESC [ n ~`` by number.
_CSI_TILDE = {
    1: "home",
    2: "insert",
    3: "delete",
    4: "end",
    5: "pageup",
    6: "pagedown",
    7: "home",
    8: "end",
    11: "f1",
    12: "f2",
    13: "f3",
    14: "f4",
    15: "f5",
    17: "f6",
    18: "f7",
    19: "f8",
    20: "f9",
    21: "f10",
    23: "shift+f1",  # rxvt's Shift+F1 (F11 on xterm, which terminals usually keep)
    24: "f12",
    25: "shift+f1",  # the Linux console's Shift+F1
}
#: Linux console: ``ESC [ [ A`` .. ``E`` are F1 .. F5.
_CONSOLE = {"A": "f1", "B": "f2", "C": "f3", "D": "f4", "E": "f5"}
#: xterm modifier parameter -> prefix.
_MODIFIERS = {2: "shift+", 3: "alt+", 4: "alt+shift+", 5: "ctrl+", 6: "ctrl+shift+", 7: "ctrl+alt+"}
_CONTROL = {
    "\r": "enter",
    "\n": "enter",
    "\t": "tab",
    "\x7f": "backspace",
    "\b": "backspace",
    "\x03": "ctrl+c",
    "\x04": "ctrl+d",
    " ": "space",
}


def csi_key(params: str, final: str) -> str:
    """The key of ``ESC [ params final``.

    >>> csi_key("1;5", "P"), csi_key("11", "^"), csi_key("11;5", "~"), csi_key("", "A")
    ('ctrl+f1', 'ctrl+f1', 'ctrl+f1', 'up')
    """
    numbers = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []
    modifier = _MODIFIERS.get(numbers[1], "") if len(numbers) > 1 else ""
    if final in {"~", "^", "$", "@"}:
        base = _CSI_TILDE.get(numbers[0] if numbers else 0)
        if base is None:
            return f"unknown:ESC[{params}{final}"
        rxvt = {"^": "ctrl+", "$": "shift+", "@": "ctrl+shift+"}.get(final, "")
        prefix = modifier or rxvt
        return prefix + base if "+" not in base or not prefix else base
    if final in _CSI_LETTER:
        return modifier + _CSI_LETTER[final]
    return f"unknown:ESC[{params}{final}"


class KeyDecoder:
    """Turn terminal bytes into key names, one read at a time.

    A lone ESC waits for what follows; the caller calls :meth:`flush` when
    nothing came for a moment (50 ms), which makes it the Escape key.

    >>> d = KeyDecoder()
    >>> d.feed(b"\\x1bOPa\\x1b[11~\\x1b[[A\\x1b[1;5P\\x1bO5P\\x1b[11^\\x1b[25~")
    ['f1', 'a', 'f1', 'f1', 'ctrl+f1', 'ctrl+f1', 'ctrl+f1', 'shift+f1']
    >>> d.feed(b"\\x1b[1"), d.feed(b";5P")
    ([], ['ctrl+f1'])
    >>> d.feed("é!".encode()), d.feed(b"\\x1b"), d.flush()
    (['é', '!'], [], ['escape'])
    """

    def __init__(self, extra: dict[str, str] | None = None) -> None:
        self._pending = ""
        self._utf8 = codecs.getincrementaldecoder("utf-8")("replace")
        #: Sequences from terminfo (``kf1`` ...) that the grammar would not name.
        self.extra = dict(extra or {})

    def feed(self, data: bytes) -> list[str]:
        """The complete keys in ``data`` (with what an earlier read left over)."""
        self._pending += self._utf8.decode(data)
        keys: list[str] = []
        while self._pending:
            key, used = self._one(self._pending)
            if used == 0:
                break  # an escape sequence not finished yet
            keys.append(key)
            self._pending = self._pending[used:]
        return keys

    def flush(self) -> list[str]:
        """Nothing more came: what is pending is Escape (and Alt-less keys after it)."""
        if not self._pending:
            return []
        rest, self._pending = self._pending, ""
        keys = ["escape"]
        for char in rest[1:]:
            keys.extend(self.feed(char.encode()))
        return keys

    def _one(self, text: str) -> tuple[str, int]:
        for sequence, name in self.extra.items():
            if text.startswith(sequence):
                return name, len(sequence)
        first = text[0]
        if first != "\x1b":
            return _CONTROL.get(first, first), 1
        if len(text) == 1:
            return "", 0
        second = text[1]
        if second == "O":
            if len(text) < 3:
                return "", 0
            if text[2].isdigit():
                if len(text) < 4:
                    return "", 0
                modifier = _MODIFIERS.get(int(text[2]), "")
                return modifier + _SS3.get(text[3], f"unknown:ESCO{text[2:4]}"), 4
            return _SS3.get(text[2], f"unknown:ESCO{text[2]}"), 3
        if second == "[":
            if len(text) < 3:
                return "", 0
            if text[2] == "[":
                if len(text) < 4:
                    return "", 0
                return _CONSOLE.get(text[3], f"unknown:ESC[[{text[3]}"), 4
            for index in range(2, len(text)):
                code = ord(text[index])
                if 0x40 <= code <= 0x7E or text[index] in "~^$@":
                    return csi_key(text[2:index], text[index]), index + 1
                if not (0x20 <= code <= 0x3F):
                    return f"unknown:ESC[{text[2:index]}", index
            return "", 0
        if second == "\x1b":
            return "escape", 1
        name = _CONTROL.get(second, second)
        return f"alt+{name}", 2


def terminfo_keys() -> dict[str, str]:
    """F1, Shift+F1 and Ctrl+F1 of ``$TERM`` as terminfo knows them (empty if unknown)."""
    try:
        import curses

        curses.setupterm()
    except Exception:  # no terminfo entry, no terminal: the grammar is enough
        return {}
    found: dict[str, str] = {}
    for capability, name in (("kf1", "f1"), ("kf13", "shift+f1"), ("kf25", "ctrl+f1")):
        value = curses.tigetstr(capability)
        if value:
            found[value.decode("latin-1")] = name
    return found


# -- layouts ------------------------------------------------------------------------------

#: What the shifted digit keys 1-6 type on a US (QWERTY) layout.
QWERTY_SHIFTED = {"!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "^": "6"}
#: What the digit keys 1-6 type unshifted on a French AZERTY layout (digits need Shift).
AZERTY_ROW = {"&": "1", "é": "2", '"': "3", "'": "4", "(": "5", "-": "6"}
#: The rest of the AZERTY digit row (7-0), for typed chess squares.
AZERTY_ROW_REST = {"è": "7", "_": "8", "ç": "9", "à": "0"}
#: Characters only an AZERTY keyboard types on the digit row: the first one switches ``auto``.
AZERTY_TELLS = frozenset("&é")


class Layout:
    """Read the digit keys by position: ``qwerty``, ``azerty`` or ``auto``.

    ``auto`` starts as QWERTY and becomes AZERTY at the first key only an
    AZERTY digit row types (``&`` or ``é``); :attr:`switched` says so once.

    >>> layout = Layout("auto")
    >>> layout.digit_key("1"), layout.digit_key("@")
    ('1', 'shift+2')
    >>> layout.digit_key("é"), layout.switched, layout.digit_key("2"), layout.name
    ('2', True, 'shift+2', 'azerty')
    """

    def __init__(self, name: str = "auto") -> None:
        self.auto = name == "auto"
        self.name = "qwerty" if self.auto else name
        self.switched = False

    def digit_key(self, key: str) -> str:
        """The key name of a printable key, digits read by their position."""
        if self.auto and self.name == "qwerty" and key in AZERTY_TELLS:
            self.name = "azerty"
            self.switched = True
        if self.name == "azerty":
            if key in AZERTY_ROW:
                return AZERTY_ROW[key]
            if len(key) == 1 and key.isdigit():
                return f"shift+{key}"
            return key
        if key in QWERTY_SHIFTED:
            return f"shift+{QWERTY_SHIFTED[key]}"
        return key

    def typed_digits(self, text: str) -> str:
        """A typed line with AZERTY's unshifted digit row read as digits (``eée'`` -> ``e2e4``).

        The minus sign stays (``O-O``, ``e2-e4``); only on an AZERTY layout.
        """
        if self.auto and self.name == "qwerty" and any(c in AZERTY_TELLS for c in text):
            self.name = "azerty"
            self.switched = True
        if self.name != "azerty":
            return text
        table = {k: v for k, v in {**AZERTY_ROW, **AZERTY_ROW_REST}.items() if k != "-"}
        return "".join(table.get(c, c) for c in text)


def normalise(keys: Iterable[str]) -> list[str]:
    """Lower-case single letters (a key is a key whatever Caps Lock says)."""
    return [k.lower() if len(k) == 1 and k.isalpha() else k for k in keys]
