"""What must hold after any crash, restart or failover: the clients' logs against the database.

:func:`read_stored` reads what PostgreSQL holds of some tables (history,
games, game logs); :func:`problems` compares it with what the scripted
players (tests/live/_scripted.py) were acknowledged and received, and returns
every breach as a sentence (an empty list: all holds):

- every acknowledged action is in its game's log at the position it was made
  for, and no two acknowledgements name one position; every acknowledged chat
  line is the stored item of the ``seq`` its ``ok`` gave, and is stored once;
- each table's history and each game's log are numbered without a hole;
- every item a client received is the stored item of that ``seq`` (two
  owners applying one version would show here: two clients, or a client and
  the database, would disagree about it);
- every game replays from its log (:meth:`Match.from_record`, every action and
  die checked against the rules) to exactly the game events stored in the
  history, finished games to their stored outcome; no game was abandoned and
  no table closed (nobody left).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from _scripted import Player
from sqlalchemy import bindparam, text
from sqlalchemy.ext.asyncio import create_async_engine

from zanzibar.engine.match import LogEntry, Match, MatchRecord
from zanzibar.games import get_rules


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


@dataclass
class Stored:
    """What the database holds of some tables."""

    #: table -> seq -> (channel, item JSON)
    history: dict[int, dict[int, tuple[str, dict[str, Any]]]] = field(default_factory=dict)
    #: game id -> its row
    games: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: game id -> idx -> entry JSON
    logs: dict[int, dict[int, dict[str, Any]]] = field(default_factory=dict)
    #: table id -> its row
    tables: dict[int, dict[str, Any]] = field(default_factory=dict)


async def read_stored(pg_url: str, tables: Iterable[int]) -> Stored:
    """Read the rows of ``tables`` (and of their games) from the salon's database."""
    ids = sorted(set(tables))
    stored = Stored()
    # One snapshot for every read: a bot may still move while they run, and the log must
    # not be read after a change whose history items were read before it.
    engine = create_async_engine(pg_url, isolation_level="REPEATABLE READ")
    try:
        async with engine.connect() as conn, conn.begin():
            rows = await conn.execute(
                text(
                    "SELECT id, state, closed, epoch, version, game_id FROM tables WHERE id IN :ids"
                ).bindparams(bindparam("ids", expanding=True)),
                {"ids": ids},
            )
            for row in rows.mappings():
                stored.tables[row["id"]] = dict(row)
            rows = await conn.execute(
                text(
                    "SELECT table_id, seq, channel, item FROM history WHERE table_id IN :ids"
                ).bindparams(bindparam("ids", expanding=True)),
                {"ids": ids},
            )
            for table_id, seq, channel, item in rows:
                stored.history.setdefault(table_id, {})[seq] = (channel, _json(item))
            rows = await conn.execute(
                text(
                    "SELECT id, table_id, game, options, seats, seed, outcome, status"
                    " FROM games WHERE table_id IN :ids"
                ).bindparams(bindparam("ids", expanding=True)),
                {"ids": ids},
            )
            for row in rows.mappings():
                game = dict(row)
                game["options"] = _json(game["options"])
                game["outcome"] = _json(game["outcome"])
                stored.games[game["id"]] = game
            if stored.games:
                rows = await conn.execute(
                    text(
                        "SELECT game_id, idx, entry FROM game_log WHERE game_id IN :ids"
                    ).bindparams(bindparam("ids", expanding=True)),
                    {"ids": sorted(stored.games)},
                )
                for game_id, idx, entry in rows:
                    stored.logs.setdefault(game_id, {})[idx] = _json(entry)
    finally:
        await engine.dispose()
    return stored


def stored_key(channel: str, item: dict[str, Any]) -> tuple[Any, ...]:
    """:func:`_scripted.item_key` of a stored history item."""
    if channel == "game":
        return ("game", item.get("game_id"), json.dumps(item.get("event"), sort_keys=True))
    if channel == "chat":
        return ("chat", item.get("user"), item.get("text"), bool(item.get("me")))
    return ("system", item.get("kind"))


def problems(stored: Stored, players: Sequence[Player], tables: Iterable[int]) -> list[str]:
    """Every breach of the invariants above, as sentences."""
    found: list[str] = []
    ours = sorted(set(tables))
    for table in ours:
        found += _table_problems(stored, table)
    found += _received_problems(stored, players)
    found += _ack_problems(stored, players)
    for game_id in sorted(stored.games):
        found += _game_problems(stored, game_id)
    return found


def _table_problems(stored: Stored, table: int) -> list[str]:
    found = []
    row = stored.tables.get(table)
    if row is None:
        return [f"table {table} is not stored"]
    if row["closed"] is not None:
        found.append(f"table {table} was closed (state {row['state']}) though nobody left")
    seqs = sorted(stored.history.get(table, {}))
    if seqs != list(range(1, len(seqs) + 1)):
        missing = sorted(set(range(1, (seqs[-1] if seqs else 0) + 1)) - set(seqs))
        found.append(f"table {table}'s history has holes: missing seqs {missing[:20]}")
    return found


def _received_problems(stored: Stored, players: Sequence[Player]) -> list[str]:
    found = []
    for player in players:
        found += player.violations
        for table, follow in player.follows.items():
            rows = stored.history.get(table, {})
            for seq, key in follow.items.items():
                row = rows.get(seq)
                if row is None:
                    found.append(f"{player.name} received seq {seq} of table {table}: not stored")
                elif stored_key(*row) != key:
                    found.append(
                        f"{player.name} received seq {seq} of table {table} as {key}, "
                        f"stored {stored_key(*row)}"
                    )
    return found


def _ack_problems(stored: Stored, players: Sequence[Player]) -> list[str]:
    found = []
    positions: Counter[tuple[int | None, int | None]] = Counter()
    lines: dict[int, Counter[str]] = defaultdict(Counter)
    for table, rows in stored.history.items():
        for channel, item in rows.values():
            if channel == "chat":
                lines[table][str(item.get("text"))] += 1
    for player in players:
        for ack in player.acks:
            if ack.kind == "action":
                positions[(ack.game_id, ack.at)] += 1
                log = stored.logs.get(ack.game_id or -1, {})
                expected = {"kind": "action", "seat": ack.seat, "value": ack.value}
                if log.get(ack.at or 0) != expected:
                    found.append(
                        f"{player.name}'s acknowledged action {ack.value} (game {ack.game_id}, "
                        f"log {ack.at}, seat {ack.seat}) is not stored there: "
                        f"{log.get(ack.at or 0)}"
                    )
                if len(log) < ack.result:
                    found.append(
                        f"{player.name}: ok said log length {ack.result} for game {ack.game_id}, "
                        f"{len(log)} stored"
                    )
            else:
                row = stored.history.get(ack.table, {}).get(ack.result)
                if row is None or stored_key(*row) != ("chat", ack.user, ack.value, False):
                    found.append(
                        f"{player.name}'s acknowledged line {ack.value!r} is not item "
                        f"{ack.result} of table {ack.table}: {row}"
                    )
                if lines[ack.table][ack.value] != 1:
                    found.append(
                        f"{player.name}'s line {ack.value!r} is stored "
                        f"{lines[ack.table][ack.value]} times at table {ack.table}"
                    )
    for (game_id, at), count in positions.items():
        if count > 1:
            found.append(f"{count} acknowledged actions for one position: game {game_id}, log {at}")
    return found


def replay(stored: Stored, game_id: int) -> Match[Any, Any]:
    """The game rebuilt from its stored log (CorruptDataError if it does not replay)."""
    game = stored.games[game_id]
    log = stored.logs.get(game_id, {})
    record = MatchRecord(
        game["game"],
        int(game["seats"]),
        dict(game["options"]),
        int(game["seed"]),
        [LogEntry.from_json(log[i]) for i in sorted(log)],
    )
    return Match.from_record(get_rules(record.game), record)


def _game_problems(stored: Stored, game_id: int) -> list[str]:
    game = stored.games[game_id]
    log = stored.logs.get(game_id, {})
    if sorted(log) != list(range(len(log))):
        return [f"game {game_id}'s log has holes: {sorted(log)[:30]}"]
    try:
        match = replay(stored, game_id)
    except Exception as exc:
        return [f"game {game_id} ({game['game']}) does not replay from its log: {exc}"]
    found = []
    events = [
        json.dumps(item["event"], sort_keys=True)
        for seq, (channel, item) in sorted(stored.history.get(game["table_id"], {}).items())
        if channel == "game" and item.get("game_id") == game_id
    ]
    replayed = [json.dumps(event.to_json(), sort_keys=True) for _, event in match.events]
    if events != replayed:
        first = next(
            (i for i, (a, b) in enumerate(zip(events, replayed, strict=False)) if a != b),
            min(len(events), len(replayed)),
        )
        found.append(
            f"game {game_id}: the history's {len(events)} events are not the replay's "
            f"{len(replayed)} (first difference at event {first})"
        )
    status = game["status"]
    if status == "finished":
        outcome = json.loads(json.dumps(match.rules.outcome(match.state).to_json()))
        if not match.is_over or outcome != game["outcome"]:
            found.append(
                f"game {game_id} is stored finished ({game['outcome']}), replays to {outcome}"
            )
    elif status == "running":
        if match.is_over:
            found.append(f"game {game_id} is stored running but its log ends the game")
        table = stored.tables.get(game["table_id"], {})
        if table.get("game_id") != game_id:
            found.append(f"game {game_id} runs but its table plays game {table.get('game_id')}")
    else:
        found.append(f"game {game_id} at table {game['table_id']} was {status}")
    return found


def digest(found: Sequence[str], first: int = 25) -> str:
    """A long list of breaches made readable: how many of each shape (numbers left out),
    then the first ones in full."""
    shapes = Counter(re.sub(r"\d+", "#", line) for line in found)
    lines = [f"{count} x {shape}" for shape, count in shapes.most_common(15)]
    return "\n".join([f"{len(found)} breaches:", *lines, "first ones:", *found[:first]])


def replay_with_cli(pg_url: str, game_id: int) -> str:
    """``zanzibar replay ID --db URL``: the command a person would use; its output."""
    done = subprocess.run(
        [sys.executable, "-m", "zanzibar.cli.main", "replay", str(game_id), "--db", pg_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, f"zanzibar replay {game_id}: {done.stderr}"
    return done.stdout
