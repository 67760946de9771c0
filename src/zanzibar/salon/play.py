"""Playing: starting a game, actions (a person's or a bot's), rounds, the clock, the end.

Plain functions of a :class:`~zanzibar.salon.tables.Table`, like
:mod:`zanzibar.salon.seating`: they check, change the table and its game in
memory, stage the events and return a :class:`~zanzibar.salon.changes.Change`
with the rows to store (the game, its players, its log, its outcome). The
table actor stores it before anything is published or answered; if storing
fails it puts the table back from its :class:`~zanzibar.salon.snapshots.Snapshot`.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from sqlalchemy import insert, update

from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.match import Match
from zanzibar.salon import models as m
from zanzibar.salon.changes import Change, Command, TableContext
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import int_field, seconds_value
from zanzibar.salon.persistence import Op
from zanzibar.salon.seating import close_ops, require_host, require_not_running, should_close
from zanzibar.salon.seats import Seat
from zanzibar.salon.tables import GameInfo, Table, round_ended

log = logging.getLogger(__name__)

#: Built once (an immutable statement): every move stores its log entries with it.
INSERT_GAME_LOG = insert(m.game_log)


def start(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """The host starts a game with whoever is seated (renumbered from seat 0)."""
    user = cmd.user
    assert user is not None
    require_host(table, user)
    require_not_running(table)
    players = [s for s in table.seats if not s.empty]
    low, high = table.rules.seat_range(table.options)
    if not low <= len(players) <= high:
        raise SalonError(
            "conflict",
            f"{table.rules.name} needs {low} to {high} players; {len(players)} are seated",
        )
    table.seats = [Seat(s.user, s.name, s.bot) for s in players]
    change = begin_game(table, ctx)
    change.reply = {"table": table.id, "game_id": table.game_id}
    return change


def begin_game(table: Table, ctx: TableContext) -> Change:
    """A new game of the players seated at ``table`` (no empty seat): the change storing it.

    Shared by the host's start and by the tables a tournament opens.
    """
    players = table.seats
    seed = ctx.seed()
    try:
        match = Match(table.rules, len(players), table.options, seed)
    except ZanzibarError as exc:
        raise SalonError("conflict", exc.message) from None
    game_id = ctx.new_game_id()
    table.match = match
    table.game_id = game_id
    table.state = "playing"
    table.clock_seat = None
    table.bots.clear()
    table.games[game_id] = GameInfo(
        game_id, tuple(s.name or "" for s in players), tuple(s.user for s in players)
    )
    table.stage_system(
        "game_started", game=table.rules.name, players=[s.name or "" for s in players]
    )
    ops: list[Op] = [
        (
            insert(m.games),
            {
                "id": game_id,
                "table_id": table.id,
                "game": table.rules.name,
                "options": dict(table.options),
                "seats": len(players),
                "seed": seed,
                "outcome": None,
                "status": "running",
                "started": time.time(),
                "finished": None,
            },
        ),
        (
            insert(m.game_players),
            [
                {
                    "game_id": game_id,
                    "seat": i,
                    "user_id": s.user,
                    "name": s.name or "",
                    "bot": s.bot,
                    "result": None,
                }
                for i, s in enumerate(players)
            ],
        ),
    ]
    change = after_moves(table, ctx, 0, 0)
    change.ops[:0] = ops
    change.table = True
    change.undo.append(lambda: forget_game(table, game_id))
    return change


def forget_game(table: Table, game_id: int) -> None:
    """Storing a new game failed: its players are forgotten with it."""
    table.games.pop(game_id, None)


def action(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """A seated person plays one action of the game (their turn, their seat, the log's length)."""
    user = cmd.user
    assert user is not None
    message = cmd.message
    if "action" not in message:
        raise SalonError("invalid", "game.action needs an action")
    seq = int_field(message, "seq", required=False)
    claimed = int_field(message, "seat", required=False)
    seat = table.seat_of(user.id)
    if seat is None:
        raise SalonError("forbidden", "you do not sit at this table")
    if claimed is not None and claimed != seat:
        raise SalonError("forbidden", "you may only act for your own seat")
    match = table.match
    if match is None or table.state in ("waiting", "finished"):
        raise SalonError("conflict", "no game is running at this table")
    if table.state == "paused":
        raise SalonError("conflict", "the game is paused between rounds")
    if table.seats[seat].left:
        raise SalonError("forbidden", "you left this game; join the table again to play")
    if seq is not None and seq != len(match.log):
        raise SalonError("stale", f"the game has moved on: {len(match.log)} log entries, not {seq}")
    if match.to_act != seat:
        raise SalonError("not_your_turn", "it is not your turn")
    try:
        chosen = table.rules.action_from_json(message["action"])
    except ZanzibarError:
        raise
    except Exception:
        raise SalonError("illegal_action", "that is not an action of this game") from None
    change = apply(table, ctx, seat, chosen)
    change.reply = {"table": table.id, "log_length": len(match.log)}
    return change


def apply(table: Table, ctx: TableContext, seat: int, chosen: Any) -> Change:
    """Play ``chosen`` for ``seat``.

    A refused action raises; the actor then puts the table and its game
    back from the snapshot it took before the transition (state, log,
    events and dice).
    """
    match = table.match
    assert match is not None
    log_start, events_start = len(match.log), len(match.events)
    was_state = table.state
    try:
        match.act(seat, chosen)
        change = after_moves(table, ctx, log_start, events_start)
    except ZanzibarError:
        raise
    except Exception:
        log.exception("game %s failed on an action", table.rules.name)
        raise SalonError("illegal_action", "that action could not be applied") from None
    change.views = True
    change.table = change.table or table.state != was_state
    change.reply_at = "last"  # its events and the view, then the table, then the ok
    return change


def bot_move(
    table: Table, ctx: TableContext, game_id: int, log_length: int, seat: int, chosen: Any
) -> Change | None:
    """A bot's chosen action, if the game still waits for it (None: it came too late).

    A bot thinks outside the actor, so the game may have moved on meanwhile
    (the player came back, the host stopped the game). An action the game
    refuses raises: the actor then plays :func:`first_legal` instead, so a
    broken bot cannot stall the table.
    """
    if not bot_due(table, game_id, log_length, seat):
        return None
    return apply(table, ctx, seat, chosen)


def first_legal(
    table: Table, ctx: TableContext, game_id: int, log_length: int, seat: int
) -> Change | None:
    """The game's first legal action for a bot whose own choice was refused."""
    if not bot_due(table, game_id, log_length, seat):
        return None
    assert table.match is not None
    legal = table.rules.legal_actions(table.match.state)
    if not legal:
        return None
    return apply(table, ctx, seat, legal[0])


def bot_due(table: Table, game_id: int, log_length: int, seat: int) -> bool:
    """The game still waits for the bot of ``seat`` at this point of the log."""
    match = table.match
    return not (
        match is None
        or table.game_id != game_id
        or table.state != "playing"
        or len(match.log) != log_length
        or match.to_act != seat
        or table.bot_level(seat) is None
    )


def after_moves(table: Table, ctx: TableContext, log_start: int, events_start: int) -> Change:
    """Stage what moves caused (events, end of round or game); the storage ops in a change."""
    match = table.match
    assert match is not None and table.game_id is not None
    game_id = table.game_id
    change = Change(views=True)
    entries = match.log[log_start:]
    if entries:
        change.ops.append(
            (
                INSERT_GAME_LOG,
                [
                    {"game_id": game_id, "idx": log_start + i, "entry": entry.to_json()}
                    for i, entry in enumerate(entries)
                ],
            )
        )
    new_events = match.events[events_start:]
    for index, event in new_events:
        table.stage("game", {"game_id": game_id, "log": index, "event": event.to_json()})
    if table.clock_seat is not None and match.to_act != table.clock_seat:
        table.clock_seat = None
    if match.is_over:
        extra = ctx.finish_ops(table, table.rules.outcome(match.state))  # before finish()
        change.ops += finish(table) + extra
        change.finished = game_id
        change.table = True
        if should_close(table):
            change.ops += close_ops(table)
            change.close = True
    elif round_ended(table.rules, [e for _, e in new_events]) and (
        ctx.round_pause > 0 or table.hold
    ):
        table.state = "paused"
        change.table = True
        if table.hold:
            table.stage_system("round_hold")
        else:
            table.pause_until = time.time() + ctx.round_pause
            table.stage_system("round_pause", seconds=seconds_value(ctx.round_pause))
    return change


def finish(table: Table) -> list[Op]:
    """The game is over: stage its result, free the seats of those who left; the result rows."""
    match = table.match
    assert match is not None and table.game_id is not None
    outcome = table.rules.outcome(match.state)
    names = [s.name or "" for s in table.seats]
    if outcome.draw:
        table.stage_system("game_draw")
    else:
        table.stage_system(
            "game_over", winners=[names[w] for w in outcome.winners if w < len(names)]
        )
    ops: list[Op] = [
        (
            update(m.games).where(m.games.c.id == table.game_id),
            {"outcome": outcome.to_json(), "status": "finished", "finished": time.time()},
        )
    ]
    for seat in range(len(table.seats)):
        result = (
            "draw"
            if outcome.draw
            else "won"
            if seat in outcome.winners
            else "lost"
            if seat in outcome.losers
            else "none"
        )
        ops.append(
            (
                update(m.game_players).where(
                    (m.game_players.c.game_id == table.game_id) & (m.game_players.c.seat == seat)
                ),
                {"result": result},
            )
        )
    table.state = "finished"
    table.clock_seat = None
    table.pause_until = None
    kept: list[Seat] = []
    for holder in table.seats:
        if holder.left:
            kept.append(Seat())
        else:
            kept.append(Seat(holder.user, holder.name, holder.bot))
    kept += [Seat() for _ in range(table.capacity - len(kept))]
    table.seats = kept
    return ops


def clock_timeout(table: Table, ctx: TableContext) -> Change | None:
    """The turn clock ran out: a bot plays this one turn for the seat (None: not due any more)."""
    match = table.match
    if match is None or table.state != "playing" or table.clock_key is None:
        return None
    game_id, log_length, seat = table.clock_key
    if game_id != table.game_id or len(match.log) != log_length or match.to_act != seat:
        return None
    table.clock_deadline = None
    table.clock_seat = seat
    table.stage_system("clock_timeout", name=table.seats[seat].name or "?")
    return Change()


def resume(table: Table, ctx: TableContext) -> Change | None:
    """The pause between rounds is over (None if the table is held or no longer paused)."""
    if table.state != "paused" or table.hold:
        return None
    table.state = "playing"
    table.pause_until = None
    table.stage_system("round_resume")
    return Change(table=True, views=True, new_turn=True)


def ask(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """A question about the game (rules, help, or the game's own topics): answered, not stored."""
    user = cmd.user
    assert user is not None
    topic = cmd.message.get("topic")
    if not isinstance(topic, str) or not topic:
        raise SalonError("invalid", "say what to ask about")
    if not table.is_present(user.id):
        raise SalonError("forbidden", "join or watch the table first")
    if topic in ("rules", "help"):
        # The game's own texts in the asker's language (the web client's Ctrl+F1 and F1).
        text = (
            table.rules.rules_text(cmd.lang, table.options)
            if topic == "rules"
            else table.rules.help_text(cmd.lang)
        )
        return Change(reply={"table": table.id, "topic": topic, "text": text})
    match = table.match
    if match is None:
        raise SalonError("conflict", "no game has been played at this table yet")
    seat = table.seat_of(user.id)
    try:
        text = table.rules.describe(match.state, topic, cmd.lang, seat, table.current_names())
    except ZanzibarError as exc:
        raise SalonError("invalid", exc.message) from None
    except Exception:
        raise SalonError("invalid", f"no answer about {topic[:40]!r}") from None
    return Change(reply={"table": table.id, "topic": topic, "text": text})


TRANSITIONS = {
    "table.start": start,
    "game.action": action,
    "game.ask": ask,
}
