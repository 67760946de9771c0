"""A deliberately rude WebSocket client on a plain TCP socket, for hostile-client tests.

Unlike a WebSocket library it reads only when told to (or never), answers no
pings, may keep its receive buffer tiny, and sends whatever bytes it is given,
which is what a slow reader, a silent socket or a slowloris client does.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
import time
from typing import Any
from urllib.parse import urlsplit

TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA


def connect_tcp(url: str, rcvbuf: int | None = None, timeout: float = 10.0) -> socket.socket:
    """A TCP connection to the server of ``url`` (``rcvbuf``: a small receive buffer)."""
    parts = urlsplit(url)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(timeout)
    sock.connect((parts.hostname or "127.0.0.1", parts.port or 80))
    return sock


class RawWs:
    """One WebSocket over a raw socket: frames are built and parsed by hand."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    @classmethod
    def open(cls, server_url: str, rcvbuf: int | None = None) -> RawWs:
        """Connect and complete the opening handshake (no extensions)."""
        sock = connect_tcp(server_url, rcvbuf)
        key = base64.b64encode(os.urandom(16)).decode()
        host = urlsplit(server_url).netloc
        sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        ws = cls(sock)
        head = ws._read_until(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        return ws

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def send_frame(self, payload: bytes, opcode: int = TEXT) -> None:
        """One masked frame (clients must mask)."""
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send_json(self, message: dict[str, Any]) -> None:
        """One protocol message (``v`` added)."""
        self.send_frame(json.dumps({"v": 1, **message}).encode())

    def send_text(self, text: str) -> None:
        """A text frame as is (may hold JSON escapes such as ``\\ud800``)."""
        self.send_frame(text.encode())

    def _fill(self, size: int) -> None:
        while len(self.buffer) < size:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed by the server")
            self.buffer += chunk

    def read_frame(self) -> tuple[int, bytes]:
        """The next frame from the server: ``(opcode, payload)``; ConnectionError at EOF."""
        self._fill(2)
        first, second = self.buffer[0], self.buffer[1]
        length = second & 0x7F
        offset = 2
        if length == 126:
            self._fill(4)
            length = struct.unpack("!H", self.buffer[2:4])[0]
            offset = 4
        elif length == 127:
            self._fill(10)
            length = struct.unpack("!Q", self.buffer[2:10])[0]
            offset = 10
        self._fill(offset + length)
        payload = self.buffer[offset : offset + length]
        self.buffer = self.buffer[offset + length :]
        return first & 0x0F, payload

    def read_message(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next protocol message (pings answered, close raises ConnectionError)."""
        deadline = time.monotonic() + timeout
        while True:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            opcode, payload = self.read_frame()
            if opcode == TEXT:
                message: dict[str, Any] = json.loads(payload)
                return message
            if opcode == PING:
                self.send_frame(payload, PONG)
            elif opcode == CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise ConnectionClosed(code, payload[2:].decode(errors="replace"))

    def wait_for(self, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The first message matching ``predicate``."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.read_message(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def close(self) -> None:
        """Drop the TCP connection."""
        with contextlib.suppress(OSError):
            self.sock.close()


class ConnectionClosed(ConnectionError):
    """The server sent a close frame."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(f"closed by the server: {code} {reason}")
        self.code = code
        self.reason = reason


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (whatever it sends first)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            if not sock.recv(65536):
                return True
        except TimeoutError:
            return False
        except OSError:
            return True
    return False
