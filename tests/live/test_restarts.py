"""Issue 11: Redis restarted mid-game, then PostgreSQL restarted mid-game; the salon recovers
without losing an acknowledged action (clients may see an error and retry).

Four tables (421 salon and bar, Zilch with bots, chess) play on through a restart of
redis-server without persistence (every lease, heartbeat, presence and stream key is gone)
and then a ``pg_ctl restart -m fast`` (every database connection drops). After each one,
every table must go on acknowledging actions within the recovery time; at the end the
invariants of tests/live/_invariants.py hold (each acknowledged action and chat line stored
once, every client's items contiguous and as stored, every game replaying from its log).

With everyone on node 1 this checks what runs today; with each table's host, second player
and spectator on three different nodes it needs commands forwarded between nodes.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable

import pytest
from _invariants import digest
from _livekit import Cluster
from _scene import Scene, where_they_stand

pytestmark = pytest.mark.live

TABLES = 4
#: Seconds each table has, after a restart, to have acknowledged actions again.
RECOVERY = 45.0
#: Actions each table must have acknowledged after each stage.
PROGRESS = 3


def acted(scene: Scene) -> Counter[int]:
    """Acknowledged actions per table so far."""
    return Counter(a.table for p in scene.players for a in p.acks if a.kind == "action")


async def progress(scene: Scene, stage: str) -> None:
    """Until every table has acknowledged ``PROGRESS`` more actions (AssertionError after
    ``RECOVERY`` seconds, naming the stage, the tables that did not, where each person at
    them stands, and what the nodes logged)."""
    before = acted(scene)
    deadline = time.monotonic() + RECOVERY
    while True:
        now = acted(scene)
        behind = [t for t in scene.tables if now[t] - before[t] < PROGRESS]
        if not behind:
            return
        if time.monotonic() > deadline:
            stands = [
                f"table {s.table} ({s.plan.game}): "
                + "; ".join(where_they_stand(person, s.table) for person in s.people)
                for s in scene.seated
                if s.table in behind
            ]
            raise AssertionError(
                f"{stage}: tables {behind} acknowledged no {PROGRESS} actions in {RECOVERY} s "
                f"({scene.summary()})\n" + "\n".join(stands) + "\n" + scene.cluster.logs(6000)
            )
        await asyncio.sleep(0.2)


async def restarts(cluster: Cluster, spread: bool) -> None:
    def place(index: int, role: int) -> Callable[[], str]:
        node = 1 + (index + role) % cluster.nodes if spread else 1
        return lambda: cluster.node(node)

    scene = Scene(cluster, place)
    try:
        await scene.open_tables(TABLES)
        scene.play(seed=11)
        await progress(scene, "before any restart")
        await asyncio.to_thread(cluster.restart_redis)
        await progress(scene, "after Redis restarted")
        await asyncio.to_thread(cluster.restart_pg)
        await progress(scene, "after PostgreSQL restarted")
    finally:
        await scene.stop()
    _, found = await scene.verdict()
    assert found == [], f"({scene.summary()})\n{digest(found)}"
    print(f"restarts, spread {spread}: {scene.summary()}")


def test_redis_then_postgresql_restart_mid_game_on_one_node(cluster: Cluster) -> None:
    asyncio.run(restarts(cluster, spread=False))


def test_redis_then_postgresql_restart_mid_game_across_nodes(cluster: Cluster) -> None:
    asyncio.run(restarts(cluster, spread=True))
