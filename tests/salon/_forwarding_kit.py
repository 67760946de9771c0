"""Three salon nodes in one process for the forwarding tests, and what they read.

Shared by ``test_forwarding.py``, ``test_forwarding_resends.py``, ``test_forwarding_holes.py`` and
``test_forgotten_leases.py`` (a helper module, not a test module: ``tests/live``
has a ``test_forwarding`` of its own, and importing by that name could pick it).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from _local_nodes import Cluster
from _salonkit import Client, make_salon

from zanzibar.salon import Salon

ITEMS = ("game.event", "chat", "system")


@pytest.fixture
async def nodes(db_url: str) -> AsyncIterator[tuple[Cluster, dict[str, Salon]]]:
    cluster = Cluster()
    salons = {n: make_salon(db_url, ports=cluster.ports(n), takeover_delay=60) for n in "abc"}
    for salon in salons.values():
        await salon.start()
        salon.forwarder.watch_period = 0.02
        # SQLite counts ids in the process: the nodes of one process share the counter
        salon.ids = salons["a"].ids
    yield cluster, salons
    for name, salon in salons.items():
        if name not in cluster.crashed:
            await salon.stop()


async def settle(salons: dict[str, Salon]) -> None:
    for _ in range(2):
        for salon in salons.values():
            await salon.settle()


def owner(salons: dict[str, Salon], table_id: int) -> Salon:
    (running,) = [s for s in salons.values() if table_id in s.tables]
    return running


def seqs(client: Client, table_id: int) -> list[int]:
    """Every history seq the client was sent for the table, in arrival order."""
    out: list[int] = []
    for message in client.inbox:
        if message.get("table") != table_id:
            continue
        if message.get("type") == "history" and "channel" not in message:
            out.extend(item["seq"] for item in message["items"])
        elif message.get("type") in ITEMS:
            out.append(message["seq"])
    return out


def contiguous(values: list[int]) -> bool:
    return values == list(range(values[0], values[0] + len(values))) if values else True


async def play(
    salons: dict[str, Salon], table_id: int, players: dict[int, Client], actions: int
) -> int:
    """The seats to act roll until 8 points, then stop; at most ``actions`` actions."""
    sent = 0
    while sent < actions:
        await settle(salons)
        table = owner(salons, table_id).tables[table_id]
        match = table.match
        assert match is not None
        if match.is_over:
            break
        seat = match.to_act
        assert seat is not None
        action = "roll" if match.state.total < 8 else "stop"
        await players[seat].ok("game.action", table=table_id, action={"type": action})
        sent += 1
    await settle(salons)
    return sent


def chat_lines(client: Client, table_id: int) -> list[str]:
    """Every chat line the client was sent for the table, live or in a history, in order."""
    lines: list[str] = []
    for message in client.inbox:
        if message.get("table") != table_id:
            continue
        if message.get("type") == "chat":
            lines.append(message["text"])
        elif message.get("type") == "history" and "channel" not in message:
            lines.extend(i["text"] for i in message["items"] if i.get("type") == "chat")
    return lines


def lose_next_envelope(salon: Salon) -> list[Any]:
    """Make ``salon``'s bus lose the next envelope it publishes (as an owner dying between
    storing a change and publishing it); later ones go through. The list gets the lost one."""
    publish = salon.ports.bus.publish
    lost: list[Any] = []

    async def loses_one(envelope: Any) -> None:
        if not lost:
            lost.append(envelope)
            return
        await publish(envelope)

    salon.ports.bus.publish = loses_one  # type: ignore[method-assign]
    return lost


def hold_first_answer(
    salon: Salon,
) -> tuple[list[tuple[str, Any]], asyncio.Event, Callable[[str, str, Any], Awaitable[bool]]]:
    """Make ``salon`` keep back the first answer it sends another node: the kept
    ``(node, body)`` pairs, an event set once one is kept, and the real send (to send it late)."""
    send = salon.hub.send
    late: list[tuple[str, Any]] = []
    answered = asyncio.Event()

    async def slow_answer(node: str, kind: str, body: Any) -> bool:
        if kind == "ans" and not late:
            late.append((node, body))
            answered.set()
            return True  # kept, and sent later by the test
        return await send(node, kind, body)

    salon.hub.send = slow_answer  # type: ignore[method-assign]
    return late, answered, send
