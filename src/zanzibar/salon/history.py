"""A table's history: one ordered stream of game, chat and system items.

Items are numbered by ``seq`` from 1 and stored as data; each becomes a
protocol message only when sent, rendered in the receiver's language and from
the receiver's seat. A client passing the last ``seq`` it showed as ``since``
gets exactly the items it has not seen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

Channel = Literal["game", "chat", "system"]
CHANNELS: tuple[str, ...] = ("game", "chat", "system")

#: Renders a game or system item for (lang, user id); returns the sentence.
Renderer = Callable[["Item", str, "int | None"], str]


@dataclass
class Item:
    """One history item: ``data`` is what is stored.

    - game: ``{"game_id", "log", "event": Event JSON}``
    - chat: ``{"user", "from", "text", "me"}``
    - system: ``{"kind", "values"}``
    """

    seq: int
    channel: Channel
    data: dict[str, Any]
    #: Rendered sentences by (language, viewer seat): rendering happens once per view.
    texts: dict[tuple[str, int | None], str] = field(default_factory=dict, compare=False)


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
        self.items: list[Item] = sorted(items or [], key=lambda i: i.seq)
        #: seq of the last item (0 when empty).
        self.last_seq = self.items[-1].seq if self.items else 0

    def make(self, channel: Channel, data: dict[str, Any], pending: int = 0) -> Item:
        """The item after ``pending`` items not yet appended (appended once stored)."""
        return Item(self.last_seq + 1 + pending, channel, data)

    def append(self, channel: Channel, data: dict[str, Any]) -> Item:
        """Make and append the next item."""
        item = self.make(channel, data)
        self.add(item)
        return item

    def add(self, item: Item) -> None:
        """Append an item made by :meth:`make` (its seq must follow)."""
        if item.seq != self.last_seq + 1:
            raise ValueError(f"history item {item.seq} does not follow {self.last_seq}")
        self.items.append(item)
        self.last_seq = item.seq

    def since(self, since: int = 0, channel: str | None = None) -> Iterator[Item]:
        """Items after ``since``, optionally of one channel."""
        start = self._index_after(since)
        for item in self.items[start:]:
            if channel is None or item.channel == channel:
                yield item

    def _index_after(self, since: int) -> int:
        # seqs are contiguous from the first stored item
        if not self.items or since < self.items[0].seq:
            return 0
        return min(len(self.items), since - self.items[0].seq + 1)
