"""Tables in and out of the database: one change's rows, and the open tables at start.

:func:`commit` turns a table's change into ONE transaction: the table row
(inserted the first time, else updated when it changed), the staged history
items and the change's own ops. :func:`load_open_tables` rebuilds every open
table with one query per kind of row, linear in what is read.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Text, bindparam, cast, delete, insert, select, update

from zanzibar.engine.errors import CorruptDataError
from zanzibar.engine.match import Match
from zanzibar.engine.rules import GameRules
from zanzibar.salon import models as m
from zanzibar.salon.batching import returning
from zanzibar.salon.changes import Change
from zanzibar.salon.history import History, Item, JSONText
from zanzibar.salon.persistence import Op, Store, built_once, fenced
from zanzibar.salon.records import read_match_record
from zanzibar.salon.seats import Seat
from zanzibar.salon.tables import GameInfo, Table

log = logging.getLogger(__name__)


#: The fenced write of a table: its changed columns and ``version = v + 1`` are the
#: parameters (built once: building a statement per commit cost more than running it).
FENCE = built_once(
    fenced(
        update(m.tables).where(
            (m.tables.c.id == bindparam("fence_id"))
            & (m.tables.c.epoch == bindparam("fence_epoch"))
            & (m.tables.c.version == bindparam("fence_version"))
        )
    )
)
INSERT_TABLE = insert(m.tables)
INSERT_HISTORY = insert(m.history)


def change_ops(table: Table, change: Change, now: float, row: dict[str, Any]) -> list[Op]:
    """The statements storing ``change`` (``row``: the table's stored columns after it).

    The first change of a table inserts its row (version 1); every later one
    goes through the fence: ``UPDATE tables SET version = v + 1, <changed
    columns> WHERE id = t AND epoch = e AND version = v``, which raises
    :class:`~zanzibar.salon.persistence.Fenced` (and stores nothing of the
    change) if another process claimed the table since.
    """
    ops: list[Op] = []
    if not table.stored_row:
        ops.append(
            (
                INSERT_TABLE,
                {
                    **row,
                    "id": table.id,
                    "created": table.created,
                    "closed": None,
                    "epoch": table.epoch,
                    "version": table.version + 1,
                },
            )
        )
    else:
        stored = table.stored_row
        # most changes (a move) leave the row as it was: one comparison of the two dicts
        values = {} if row == stored else {k: v for k, v in row.items() if stored.get(k) != v}
        values["version"] = table.version + 1
        values["fence_id"] = table.id
        values["fence_epoch"] = table.epoch
        values["fence_version"] = table.version
        ops.append((FENCE, values))
    if table.staged:
        ops.append(
            (
                INSERT_HISTORY,
                [
                    {
                        "table_id": table.id,
                        "seq": item.seq,
                        "channel": item.channel,
                        "item": JSONText(item.raw),
                        "created": now,
                    }
                    for item in table.staged
                ],
            )
        )
    ops += change.ops
    return ops


def stored_columns(table: Table) -> dict[str, Any]:
    """The table's columns as stored (row and deadlines)."""
    return {**table.row(), **table.deadline_row()}


async def commit(store: Store, table: Table, change: Change) -> None:
    """Store the change in one fenced transaction (nothing at all if nothing changed).

    Raises :class:`~zanzibar.salon.persistence.Fenced` if the table was
    claimed by another process: nothing of the change is stored.
    """
    row = stored_columns(table)
    if not (change.ops or table.staged or not table.stored_row or row != table.stored_row):
        return  # a question answered, say: nothing to store
    await store.write(change_ops(table, change, time.time(), row))
    table.version += 1
    table.stored_row = row


#: Seconds a forwarded command's reply is kept (a resend comes within seconds).
APPLIED_KEPT = 3600.0


async def recall(store: Store, table_id: int, cmd_id: str) -> dict[str, Any] | None:
    """The stored reply of a command id applied to the table, or None if it never was."""
    rows = await store.read(
        select(m.applied_commands.c.reply).where(
            (m.applied_commands.c.table_id == table_id)
            & (m.applied_commands.c.cmd_id == cmd_id)
            & (m.applied_commands.c.status == "applied")
        )
    )
    return dict(rows[0].reply or {}) if rows else None


async def prune_applied(store: Store, now: float) -> None:
    """Forget the replies of commands older than :data:`APPLIED_KEPT`."""
    await store.write(
        [
            (
                delete(m.applied_commands).where(m.applied_commands.c.created < now - APPLIED_KEPT),
                None,
            )
        ]
    )


async def claim_all(store: Store) -> None:
    """This process claims every open table: their epochs move on (at start).

    Any other process still running one of them is fenced from now on. The stored
    spectators go, as in :func:`claim`.
    """
    await store.write(
        [
            (
                update(m.tables)
                .where(m.tables.c.closed.is_(None))
                .values(epoch=m.tables.c.epoch + 1),
                None,
            ),
            (delete(m.table_members).where(m.table_members.c.seat.is_(None)), None),
        ]
    )


async def claim(store: Store, table_id: int) -> tuple[int, int] | None:
    """Claim one open table: its (new epoch, version), or None if it is closed or unknown.

    One statement bumps the epoch and reads it back (``UPDATE ... RETURNING``,
    SQLite 3.35 and later, PostgreSQL): two claims at once, even in one group
    commit, get two epochs, and only the later one can write. (The epoch read in
    a second step was the last claim's, not this one's: two actors of one node
    both loaded epoch 3, and both believed they could write.)

    Its stored spectators go with the claim (a table is restored without any; those
    still watching watch again, and are stored again): ``table_members`` then says
    exactly who is at the table, for ``hello``.
    """
    members = m.table_members.c
    tables = m.tables.c
    bump, claimed = returning(
        update(m.tables)
        .where((tables.id == table_id) & tables.closed.is_(None))
        .values(epoch=tables.epoch + 1)
        .returning(tables.epoch, tables.version)
    )
    await store.write(
        [
            (bump, None),
            (
                delete(m.table_members).where(
                    (members.table_id == table_id) & members.seat.is_(None)
                ),
                None,
            ),
        ]
    )
    if not claimed.rows:
        return None
    epoch, version = claimed.rows[0]
    return int(epoch), int(version)


async def is_open(store: Store, table_id: int) -> bool:
    """Whether ``table_id`` is an open table (one indexed look-up)."""
    rows = await store.read(
        select(m.tables.c.id).where((m.tables.c.id == table_id) & m.tables.c.closed.is_(None))
    )
    return bool(rows)


async def open_table_ids(store: Store) -> list[int]:
    """The ids of every open table."""
    rows = await store.read(select(m.tables.c.id).where(m.tables.c.closed.is_(None)))
    return [int(row.id) for row in rows]


async def load_open_tables(
    store: Store,
    rules_for: Callable[[str], GameRules[Any, Any]],
    only: list[int] | None = None,
) -> list[Table]:
    """Every open table from its row, its history and the players of its games.

    Read: the open tables' rows, their history, the players of the games
    played at them (to render those games' events) and the log of each
    running game. Finished games' logs, and everything of closed tables,
    stay in the database until asked for (``GET /api/games/{id}``). A table
    that cannot be rebuilt is logged and left out. ``only``: just these tables
    (those this process claimed).
    """
    query = select(m.tables).where(m.tables.c.closed.is_(None))
    if only is not None:
        if not only:
            return []
        query = query.where(m.tables.c.id.in_(only))
    rows = await store.read(query)
    if not rows:
        return []
    open_ids = [row.id for row in rows]
    items_by_table: dict[int, list[Item]] = {tid: [] for tid in open_ids}
    # the stored JSON text is kept as the item's text: decoding it here (and
    # encoding it again) was most of the cost of a restart
    raw = cast(m.history.c.item, Text).label("raw")
    for h in await store.read(
        select(m.history.c.table_id, m.history.c.seq, m.history.c.channel, raw)
        .where(m.history.c.table_id.in_(open_ids))
        .order_by(m.history.c.table_id, m.history.c.seq)
    ):
        items_by_table[h.table_id].append(Item(h.seq, h.channel, h.raw))
    players = await players_by_table(store, open_ids)
    tables = []
    for row in rows:
        try:
            table = await load_table(
                store, rules_for, row, items_by_table[row.id], players.get(row.id, {})
            )
        except Exception:
            log.exception("table %s could not be restored; it stays closed in memory", row.id)
            continue
        tables.append(table)
    return tables


async def players_by_table(store: Store, table_ids: list[int]) -> dict[int, dict[int, list[Any]]]:
    """The players of every game of these tables: table id -> game id -> rows by seat.

    One query joined on ``games.table_id``, in chunks so that no statement
    carries too many parameters; each row is read once.
    """
    out: dict[int, dict[int, list[Any]]] = {}
    for start in range(0, len(table_ids), 500):
        chunk = table_ids[start : start + 500]
        for p in await store.read(
            select(m.games.c.table_id, m.game_players)
            .join(m.games, m.games.c.id == m.game_players.c.game_id)
            .where(m.games.c.table_id.in_(chunk))
            .order_by(m.game_players.c.game_id, m.game_players.c.seat)
        ):
            out.setdefault(p.table_id, {}).setdefault(p.game_id, []).append(p)
    return out


async def load_table(
    store: Store,
    rules_for: Callable[[str], GameRules[Any, Any]],
    row: Any,
    items: list[Item],
    players: dict[int, list[Any]],
) -> Table:
    """One open table from its row, its history and the players of its games."""
    rules = rules_for(row.game)
    table = Table(
        id=row.id,
        rules=rules,
        preset=row.preset,
        options=rules.options.validate(dict(row.options)),
        capacity=row.capacity,
        seats=[Seat.from_json(s) for s in row.seats],
        private=bool(row.private),
        invite=row.invite,
        host=row.host_id,
        state=row.state,
        hold=bool(row.hold),
        clock=row.clock,
        game_id=row.game_id,
        banned=set(row.banned or []),
        created=row.created,
        history=History(items),
        epoch=row.epoch,
        version=row.version,
        clock_seat=row.clock_seat,
        clock_deadline=row.clock_deadline,
        pause_until=row.pause_until,
    )
    for seat, instant in (row.dropped or {}).items():
        if 0 <= int(seat) < len(table.seats):
            table.seats[int(seat)].dropped_at = float(instant)
    for game_id, plist in players.items():
        table.games[game_id] = GameInfo(
            game_id, tuple(p.name for p in plist), tuple(p.user_id for p in plist)
        )
    if row.game_id is not None:
        table.match = await load_match(store, rules, row.game_id)
    table.stored_row = stored_columns(table)
    return table


async def load_match(store: Store, rules: GameRules[Any, Any], game_id: int) -> Match[Any, Any]:
    """A running game, replayed from its stored record (same seed, same dice)."""
    record = await read_match_record(store, game_id)
    if record is None:
        raise CorruptDataError(f"game {game_id} is missing")
    return Match.from_record(rules, record)
