"""A table's history: one ordered stream of game, chat and system items.

Items are numbered by ``seq`` from 1 and stored as data; each becomes a
protocol message only when sent, rendered in the receiver's language and from
the receiver's seat. A client passing the last ``seq`` it showed as ``since``
gets exactly the items it has not seen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Literal, NamedTuple

import orjson

Channel = Literal["game", "chat", "system"]
CHANNELS: tuple[str, ...] = ("game", "chat", "system")


#: A run of digits orjson may read otherwise than ``json`` (see :attr:`Item.data`).
_LONG_NUMBER = re.compile(r"[0-9]{19}")


class JSONText(str):
    """A JSON column's value already written as JSON text: stored as it is.

    A history item is JSON text from its staging on (:attr:`Item.raw`); its row
    stores that text instead of decoding it for SQLAlchemy's JSON type to encode
    again (:func:`dump_json` passes it through).
    """


def dump_json(value: Any) -> str:
    r"""A JSON column's text, written by orjson (compact, UTF-8; several times faster).

    What orjson refuses (a lone surrogate in an old chat line, an integer
    beyond 64 bits, a key that is not a string) is written by ``json`` as
    before. Either text reads back as the same value.

    >>> dump_json({"dice": [4, 2, 1], "text": "é"})
    '{"dice":[4,2,1],"text":"é"}'
    >>> dump_json({"text": "a\ud800"})
    '{"text": "a\\ud800"}'

    A :class:`JSONText` (a history item's text, made once at
    staging) is written as it is:

    >>> dump_json(JSONText('{"seq":1}'))
    '{"seq":1}'
    """
    if type(value) is JSONText:
        return str(value)
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value)


class Item(NamedTuple):
    """One history item; ``raw`` is its data as compact JSON text.

    - game: ``{"game_id", "log", "event": Event JSON}``
    - chat: ``{"user", "from", "text", "me"}``
    - system: ``{"kind", "values"}``

    Why text: a busy salon keeps hundreds of thousands of items, and a tuple of
    plain values is invisible to Python's cycle collector, whereas nested dicts
    would make every full collection scan millions of objects (seconds of pause).

    >>> item = Item.of(3, "chat", {"user": 1, "from": "Anna", "text": "hi", "me": False})
    >>> item.data["text"], item.seq
    ('hi', 3)
    """

    seq: int
    channel: str
    raw: str

    @classmethod
    def of(cls, seq: int, channel: str, data: dict[str, Any]) -> Item:
        """An item from its data.

        orjson writes the same compact UTF-8 text as ``json.dumps`` several times
        faster (every stored action makes items); what it refuses (a lone
        surrogate, an integer beyond 64 bits, a key that is not a string) goes
        through ``json.dumps``.

        >>> Item.of(1, "chat", {"text": "é", "n": 2**70}).raw
        '{"text":"é","n":1180591620717411303424}'
        """
        try:
            raw = orjson.dumps(data).decode()
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
            return cls(seq, channel, raw)
        return _Written(seq, channel, raw)

    @property
    def data(self) -> dict[str, Any]:
        """The item's data (decoded on each access: keep the result if used twice).

        Read by orjson (several times faster; every stored item is read for its
        fan-out and for its row), except a text with a run of 19 digits or more
        (an integer beyond 64 bits, which orjson would read as a float) or one
        orjson refuses (a lone surrogate, ``NaN``): ``json.loads`` reads those.

        >>> Item.of(1, "chat", {"n": 2**70, "x": 1.5}).data
        {'n': 1180591620717411303424, 'x': 1.5}
        """
        raw = self.raw
        if type(self) is _Written or _LONG_NUMBER.search(raw) is None:
            try:
                fast: dict[str, Any] = orjson.loads(raw)
                return fast
            except orjson.JSONDecodeError:
                pass
        decoded: dict[str, Any] = json.loads(raw)
        return decoded


class _Written(Item):
    """An item whose text orjson wrote here (:meth:`Item.of`), read by orjson as written.

    orjson writes no integer beyond 64 bits (it refuses them: ``json.dumps`` writes
    those items, plain :class:`Item`) and reads back every integer it writes, so such
    a text needs no look for long numbers (:attr:`Item.data`): a staged item is read
    once for its fan-out. Stored and replayed items are plain :class:`Item` again.

    >>> item = Item.of(1, "chat", {"n": 2**64 - 1, "m": -(2**63), "t": "1234567890123456789"})
    >>> type(item).__name__, item.data == {"n": 2**64 - 1, "m": -(2**63), "t": "1234567890123456789"}
    ('_Written', True)
    >>> type(Item.of(1, "chat", {"n": 2**70})).__name__
    'Item'
    """

    __slots__ = ()


class History:
    """The items of one table, in order.

    >>> h = History()
    >>> h.append("system", {"kind": "held", "values": {}}).seq
    1
    >>> h.append("chat", {"user": 1, "from": "Anna", "text": "hi", "me": False}).seq
    2
    >>> [i.seq for i in h.since(1)]
    [2]
    >>> [i.seq for i in h.since(0, "system")]
    [1]
    """

    def __init__(self, items: list[Item] | None = None) -> None:
        # Plain tuples: the cycle collector stops tracking a tuple of plain values
        # (not a NamedTuple), so a long history costs full collections nothing.
        self._rows: list[tuple[int, str, str]] = sorted(
            (tuple(item) for item in items or []),  # type: ignore[misc]
            key=lambda row: row[0],
        )
        #: seq of the last item (0 when empty).
        self.last_seq = self._rows[-1][0] if self._rows else 0

    @property
    def items(self) -> list[Item]:
        """Every item, in order (a new list)."""
        return [Item._make(row) for row in self._rows]

    def __len__(self) -> int:
        return len(self._rows)

    def make(self, channel: Channel, data: dict[str, Any], pending: int = 0) -> Item:
        """The item after ``pending`` items not yet appended (appended once stored)."""
        return Item.of(self.last_seq + 1 + pending, channel, data)

    def append(self, channel: Channel, data: dict[str, Any]) -> Item:
        """Make and append the next item."""
        item = self.make(channel, data)
        self.add(item)
        return item

    def add(self, item: Item) -> None:
        """Append an item made by :meth:`make` (its seq must follow)."""
        if item.seq != self.last_seq + 1:
            raise ValueError(f"history item {item.seq} does not follow {self.last_seq}")
        self._rows.append((item.seq, item.channel, item.raw))
        self.last_seq = item.seq

    def since(self, since: int = 0, channel: str | None = None) -> Iterator[Item]:
        """Items after ``since``, optionally of one channel."""
        rows = self._rows
        start = self._index_after(since)
        for index in range(start, len(rows)):
            row = rows[index]
            if channel is None or row[1] == channel:
                yield Item._make(row)

    def _index_after(self, since: int) -> int:
        # seqs are contiguous from the first stored item
        rows = self._rows
        if not rows or since < rows[0][0]:
            return 0
        return min(len(rows), since - rows[0][0] + 1)
