"""Protocol version 2's framing: what a socket is sent in one step goes out as one frame.

Version 1 sends each message as its own WebSocket text frame: a player's
action reaches each seat as three or four frames (the history item, the
view, often ``your_turn``, the ``ok``), each framed, written and parsed
apart. A client that offers the WebSocket subprotocol :data:`SUBPROTOCOL`
(``zanzibar.v2``) when it connects speaks version 2: every frame the server
sends it is a JSON array of messages, the messages the salon queued for that
socket since its last write (one command applied, one fan-out of a table
version, a history page), in their order. The messages themselves are those
of version 1. A client that offers nothing (or only names we do not know)
speaks version 1, unchanged; what clients send is one message per frame in
both versions.

The array is made of the messages' JSON texts, each already encoded (a
message put to a whole audience is encoded once, see
:class:`zanzibar.salon.connections.Shared`): joining them costs a copy, not
an encoding. When every message of a bundle was put to a whole audience,
the bundle is an audience's too (the sockets of the seats that did not act
and the spectators are sent the same item and view): it is joined, encoded
and framed once and written as is by each plain socket
(:meth:`SharedText.bundled_with`).

A frame holds at most :data:`MAX_BUNDLE_CHARS` characters of messages
unless one message alone is longer: a client's frame size limit is never
reached by bundling (a reconnecting client's history page, the table and
the view, or a backlog after a slow read, may take a few frames, each whole
messages in order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from zanzibar.server.guards import SharedText

#: The WebSocket subprotocol a client offers to speak version 2.
SUBPROTOCOL = "zanzibar.v2"
#: The subprotocol naming version 1 (offering it is the same as offering nothing).
SUBPROTOCOL_V1 = "zanzibar.v1"
#: The highest protocol version this server speaks.
LATEST = 2

#: The most characters of messages bundled in one frame (a lone longer message goes alone).
MAX_BUNDLE_CHARS = 256 * 1024


def negotiate(offered: Iterable[str]) -> tuple[int, str | None]:
    """The protocol version a socket speaks and the subprotocol to accept it with.

    >>> negotiate(["zanzibar.v2"])
    (2, 'zanzibar.v2')
    >>> negotiate(["chat", "zanzibar.v1"])
    (1, 'zanzibar.v1')
    >>> negotiate([])
    (1, None)
    """
    names = list(offered)
    if SUBPROTOCOL in names:
        return 2, SUBPROTOCOL
    if SUBPROTOCOL_V1 in names:
        return 1, SUBPROTOCOL_V1
    return 1, None


def bundles(texts: Sequence[str], limit: int = MAX_BUNDLE_CHARS) -> list[str]:
    """The frames carrying ``texts`` (each one message's JSON) in version 2, in order.

    >>> bundles(['{"a":1}', '{"b":2}'])
    ['[{"a":1},{"b":2}]']
    >>> bundles(['{"a":1}', '{"b":22}', '{"c":3}'], limit=16)
    ['[{"a":1},{"b":22}]', '[{"c":3}]']
    """
    if len(texts) == 1:
        return [_alone(texts[0])]
    if sum(map(len, texts)) <= limit:
        return [_together(texts)]
    frames: list[str] = []
    start, size = 0, 0
    for index, text in enumerate(texts):
        if index > start and size + len(text) > limit:
            frames.append(_together(texts[start:index]))
            start, size = index, 0
        size += len(text)
    frames.append(_together(texts[start:]))
    return frames


def _alone(text: str) -> str:
    """One message in its array (an audience's message: its array is the audience's too)."""
    if type(text) is SharedText:
        return text.bundled_with(())
    return f"[{text}]"


def _together(texts: Sequence[str]) -> str:
    """Several messages in one array; an audience's when every one of them is."""
    first = texts[0]
    if type(first) is SharedText:
        for text in texts:  # a loop, not all() over a generator: two or three texts a step
            if type(text) is not SharedText:
                break
        else:
            return first.bundled_with(tuple(texts[1:]))
    return "[" + ",".join(texts) + "]"


__all__ = ["LATEST", "MAX_BUNDLE_CHARS", "SUBPROTOCOL", "SUBPROTOCOL_V1", "bundles", "negotiate"]
