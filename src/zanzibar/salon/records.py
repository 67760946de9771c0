"""Saved games read back from storage: the record behind ``GET /api/games/{id}``
and ``zanzibar replay``.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import inspect, select

from zanzibar.engine.match import LogEntry, MatchRecord
from zanzibar.salon import models as m
from zanzibar.salon.persistence import Store


async def read_match_record(store: Store, game_id: int) -> MatchRecord | None:
    """The MatchRecord of a stored game (seed, options and every log entry)."""
    rows = await store.read(select(m.games).where(m.games.c.id == game_id))
    if not rows:
        return None
    game = rows[0]
    entries = await store.read(
        select(m.game_log.c.entry).where(m.game_log.c.game_id == game_id).order_by(m.game_log.c.idx)
    )
    return MatchRecord(
        game.game,
        game.seats,
        dict(game.options),
        int(game.seed),
        [LogEntry.from_json(e[0]) for e in entries],
    )


def seed_digest(seed: int) -> str:
    """The published commitment to a game's dice seed: SHA-256 of its decimal text.

    Shown while the game runs (the seed itself is not), so that once the seed is
    published at the end anyone can check it is the one the game started with.

    >>> seed_digest(1)[:16]
    '6b86b273ff34fce1'
    """
    return hashlib.sha256(str(int(seed)).encode("ascii")).hexdigest()


async def read_record(store: Store, game_id: int) -> dict[str, Any] | None:
    """A stored game as the HTTP API returns it, or None if there is no such game.

    While the game runs, its dice seed is withheld (``record.seed`` is null: with
    it, every future throw could be predicted); ``seed_sha256`` commits to it, and
    the seed itself is published once the game has ended (finished or abandoned).
    ``private`` says whether it was played at a private table (the caller checks
    who may read it).
    """
    rows = await store.read(select(m.games).where(m.games.c.id == game_id))
    if not rows:
        return None
    game = rows[0]
    record = await read_match_record(store, game_id)
    assert record is not None
    players = await store.read(
        select(m.game_players)
        .where(m.game_players.c.game_id == game_id)
        .order_by(m.game_players.c.seat)
    )
    record_json = record.to_json()
    if game.status == "running":
        record_json["seed"] = None
    table = await store.read(select(m.tables.c.private).where(m.tables.c.id == game.table_id))
    return {
        "id": game.id,
        "table": game.table_id,
        "game": game.game,
        "options": dict(game.options),
        "seats": [p.name for p in players],
        "players": [
            {"seat": p.seat, "user": p.user_id, "name": p.name, "bot": p.bot, "result": p.result}
            for p in players
        ],
        "record": record_json,
        "seed_sha256": seed_digest(int(game.seed)),
        "private": bool(table and table[0][0]),
        "outcome": game.outcome,
        "status": game.status,
        "started": iso_time(game.started),
        "finished": iso_time(game.finished),
    }


def iso_time(seconds: float | None) -> str | None:
    """A stored time (seconds since the epoch) as ISO 8601 in UTC.

    >>> iso_time(0.0)
    '1970-01-01T00:00:00Z'
    >>> iso_time(None) is None
    True
    """
    if seconds is None:
        return None
    moment = datetime.fromtimestamp(seconds, tz=UTC).replace(microsecond=0)
    return moment.isoformat().replace("+00:00", "Z")


async def read_game_record(db_url: str, game_id: int) -> dict[str, Any] | None:
    """Read one game straight from a salon database (no running salon needed).

    Does not migrate or write anything; a database without the salon's
    tables has no games.
    """
    store = Store(db_url)
    try:
        async with store.engine.connect() as conn:
            has_games = await conn.run_sync(lambda c: inspect(c).has_table("games"))
        if not has_games:
            return None
        return await read_record(store, game_id)
    finally:
        await store.engine.dispose()
