"""A signed-in WebSocket to one node that keeps everything it receives (live tests)."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import connect

#: The frames that carry a table's history items.
ITEMS = ("game.event", "chat", "system")


class Socket:
    """One signed-in WebSocket to one node, keeping everything it receives."""

    def __init__(self, url: str, token: str) -> None:
        self._opened = connect(url.replace("http://", "ws://") + "ws", open_timeout=20)
        self.ws = self._opened.__enter__()
        self.inbox: list[dict[str, Any]] = []
        self.ids = 0
        self.welcome = self.request("hello", token=token)

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.ids += 1
        self.ws.send(json.dumps({"v": 1, "type": kind, "id": self.ids, **fields}))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            message = json.loads(self.ws.recv(timeout=30))
            self.inbox.append(message)
            if message.get("id") == self.ids:
                return message  # type: ignore[no-any-return]
        raise AssertionError(f"no reply to {kind}")

    def ok(self, kind: str, **fields: Any) -> dict[str, Any]:
        reply = self.request(kind, **fields)
        assert reply["type"] in ("ok", "history"), reply
        return reply

    def drain(self, quiet: float = 0.5) -> None:
        """Read what arrives until nothing did for ``quiet`` seconds."""
        while True:
            try:
                self.inbox.append(json.loads(self.ws.recv(timeout=quiet)))
            except TimeoutError:
                return

    def seqs(self, table: int) -> list[int]:
        out: list[int] = []
        for message in self.inbox:
            if message.get("table") != table:
                continue
            if message.get("type") == "history" and "channel" not in message:
                out.extend(item["seq"] for item in message["items"])
            elif message.get("type") in ITEMS:
                out.append(message["seq"])
        return out

    def view(self, table: int) -> dict[str, Any]:
        views = [m for m in self.inbox if m.get("type") == "game.view" and m["table"] == table]
        assert views, "no game.view"
        return views[-1]

    def close(self) -> None:
        self._opened.__exit__(None, None, None)
