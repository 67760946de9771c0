"""Game ids taken inside a synchronous transition (``salon/ids.py``), never refused by a burst."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from _salonkit import Client, make_salon

from zanzibar.cluster.local import LocalIds
from zanzibar.cluster.pg_ids import PgIds
from zanzibar.salon.errors import SalonError
from zanzibar.salon.ids import SalonIds
from zanzibar.salon.persistence import Store

pytestmark = pytest.mark.anyio


async def test_one_process_counts_game_ids_at_once_however_many() -> None:
    ids = SalonIds(LocalIds({"game": 10}), reserve=4)
    await ids.fill()
    taken = [ids.take_game() for _ in range(500)]  # no await between: a burst
    assert taken == list(range(10, 510))


@pytest.mark.live
async def test_a_shared_database_serves_a_burst_from_its_reserve(pg_url: str) -> None:
    store = Store(pg_url)
    await store.start()
    try:
        ids = SalonIds(PgIds(store.engine), reserve=16)
        await ids.fill()
        burst = [ids.take_game() for _ in range(16)]
        assert len(set(burst)) == 16
        with pytest.raises(SalonError) as dry:
            ids.take_game()  # 17 starts within one round trip: refused, nothing changed
        assert dry.value.code == "internal"
        await ids.close()  # the top-up asked for when half was gone
        more = [ids.take_game() for _ in range(8)]
        assert not set(more) & set(burst)
        assert len(set(more)) == 8
        other = await PgIds(store.engine).many("game", 3)  # another node's ids never repeat
        assert not set(other) & set(burst + more)
        await ids.close()
    finally:
        await store.stop()


async def test_many_tables_start_at_once(db_url: str) -> None:
    """What the load bench does: dozens of tables started in the same instant."""
    salon = make_salon(db_url)
    await salon.start()
    try:
        hosts = [await Client(salon, f"h{i}").sign_in() for i in range(40)]
        tables = []
        for host in hosts:
            reply = await host.ok("table.create", game="race", seats=2)
            tables.append(reply["table"]["id"])
            await host.ok("table.add_bot", table=tables[-1])

        async def start(host: Client, table: int) -> dict[str, Any]:
            assert host.conn is not None
            await salon.handle(
                host.conn, {"v": 1, "type": "table.start", "id": "go", "table": table}
            )
            return {}

        await asyncio.gather(*(start(h, t) for h, t in zip(hosts, tables, strict=True)))
        await salon.settle()
        replies = [next(m for m in h.inbox if m.get("id") == "go") for h in hosts]
        assert [r["type"] for r in replies] == ["ok"] * 40, [
            r for r in replies if r["type"] != "ok"
        ]
        game_ids = {salon.tables[t].game_id for t in tables}
        assert len(game_ids) == 40 and None not in game_ids
    finally:
        await salon.stop()
