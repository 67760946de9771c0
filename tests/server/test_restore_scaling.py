"""Restoring after a restart is linear in the stored games (issue 10, point 3).

A table that has seen many finished games used to cost, at start, one pass
over its whole history per game (millions of ``json.loads``: 1.3 s grew to
38 s). Here one real game is played, copied many times into the database by
direct inserts, and the salon is started on it: the work counted (history
items decoded, queries made) must not grow faster than the data, and a real
server restarted on the big database serves the table at once.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from _games import play_until_over, wait_for_view
from _server import start_server
from _wsclient import WsClient

from zanzibar.games import game_names
from zanzibar.salon import history as history_module
from zanzibar.salon.service import Salon

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")


async def _one_played_game(data_dir: Path) -> tuple[str, int]:
    server = start_server(data_dir)
    try:
        anna = await WsClient.guest(server.url, "Anna")
        try:
            table = (await anna.ok("table.create", game="421", seats=2))["table"]["id"]
            await anna.ok("table.add_bot", table=table)
            await anna.ok("table.start", table=table)
            await wait_for_view(anna, table)
            await play_until_over(table, [anna], seed=7)
            return anna.token, table
        finally:
            await anna.close()
    finally:
        server.stop()


def _copy_games(db: Path, table: int, copies: int) -> int:
    """Add ``copies`` finished games (rows, players, history) like game 1; return items."""
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        game = dict(conn.execute("SELECT * FROM games WHERE id = 1").fetchone())
        assert game["status"] == "finished"
        players = [dict(r) for r in conn.execute("SELECT * FROM game_players WHERE game_id = 1")]
        items = [
            dict(r)
            for r in conn.execute(
                "SELECT * FROM history WHERE table_id = ? AND channel = 'game' ORDER BY seq",
                (table,),
            )
        ]
        assert items
        seq = conn.execute("SELECT max(seq) FROM history WHERE table_id = ?", (table,)).fetchone()[
            0
        ]
        for game_id in range(2, copies + 2):
            conn.execute(
                f"INSERT INTO games ({', '.join(game)}) VALUES ({', '.join('?' * len(game))})",
                [game_id if k == "id" else v for k, v in game.items()],
            )
            for player in players:
                row = {**player, "game_id": game_id}
                conn.execute(
                    f"INSERT INTO game_players ({', '.join(row)}) VALUES"
                    f" ({', '.join('?' * len(row))})",
                    list(row.values()),
                )
            for item in items:
                seq += 1
                data = json.loads(item["item"])
                data["game_id"] = game_id
                conn.execute(
                    "INSERT INTO history (table_id, seq, channel, item, created)"
                    " VALUES (?, ?, 'game', ?, ?)",
                    (table, seq, json.dumps(data), item["created"]),
                )
        conn.commit()
        total: int = conn.execute("SELECT count(*) FROM history").fetchone()[0]
        return total
    finally:
        conn.close()


class _Counted:
    """``json`` for the history module, counting ``loads`` (each decoded history item)."""

    def __init__(self) -> None:
        self.loads_calls = 0

    def loads(self, text: Any) -> Any:
        self.loads_calls += 1
        return json.loads(text)

    dumps = staticmethod(json.dumps)


async def _restore_work(db: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int]:
    """(items decoded, queries, games known to the table) for one start of a salon."""
    counted = _Counted()
    monkeypatch.setattr(history_module, "json", counted)
    salon = Salon(f"sqlite+aiosqlite:///{db}", bot_threads=False)
    reads = 0
    original = salon.store.read

    async def read(statement: Any) -> Any:
        nonlocal reads
        reads += 1
        return await original(statement)

    monkeypatch.setattr(salon.store, "read", read)
    await salon.start()
    try:
        (table,) = salon.tables.values()
        return counted.loads_calls, reads, len(table.games)
    finally:
        await salon.stop()
        monkeypatch.setattr(history_module, "json", json)


def test_restore_work_grows_linearly_with_stored_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token, table = asyncio.run(_one_played_game(tmp_path / "data"))
    db = tmp_path / "data" / "zanzibar.sqlite3"
    sizes = {}
    for copies in (100, 400):
        copy = tmp_path / f"x{copies}" / "zanzibar.sqlite3"
        copy.parent.mkdir()
        shutil.copy(db, copy)
        items = _copy_games(copy, table, copies)
        decoded, reads, games = asyncio.run(_restore_work(copy, monkeypatch))
        assert games == copies + 1
        sizes[copies] = (items, decoded, reads)
    (items1, decoded1, reads1), (items4, decoded4, reads4) = sizes[100], sizes[400]
    assert items4 > 3.5 * items1
    # linear: at most one decoding per stored item (quadratic code decoded
    # every game item once per game), and a number of queries that does not grow
    assert decoded1 <= items1 and decoded4 <= items4, sizes
    assert decoded4 <= 5 * decoded1 + 10, sizes
    assert reads4 == reads1, sizes

    # a real server restarted on the big database serves the table and its history
    big = tmp_path / "x400"
    server = start_server(big)
    try:

        async def check() -> None:
            anna = await WsClient.with_token(server.url, token, "Anna")
            try:
                await anna.ok("table.join", table=table, since=0)
                history = await anna.wait_for(lambda m: m["type"] == "history")
                assert len(history["items"]) == 500  # the newest page, not everything
                assert history["last_seq"] == items4  # one table: seqs 1..items
                events = [i for i in history["items"] if i["type"] == "game.event"]
                assert events and all(e["text"] for e in events)
                await anna.ok("chat.say", table=table, text="after the restart")
            finally:
                await anna.close()
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                listed = (await http.get("/api/tables")).json()
                assert [t["id"] for t in listed["tables"]] == [table]

        asyncio.run(check())
    finally:
        server.stop()
