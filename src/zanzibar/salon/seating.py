"""Who sits where: creating a table, joining, watching, leaving, the host's powers, chat.

Plain functions of a :class:`~zanzibar.salon.tables.Table`: each checks the
request completely first (a refusal raises and changes nothing), then changes
the table in memory, stages its history items and returns a
:class:`~zanzibar.salon.changes.Change`. Storing, publishing and answering are
the table actor's (:mod:`zanzibar.salon.actor`); nothing here awaits.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from sqlalchemy import update

from zanzibar.engine.errors import OptionError, ZanzibarError
from zanzibar.engine.rules import GameRules
from zanzibar.salon import models as m
from zanzibar.salon.accounts import User
from zanzibar.salon.changes import Change, Command, TableContext
from zanzibar.salon.chat import clean_text
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import bool_field, int_field, since_field
from zanzibar.salon.messages import bot_name
from zanzibar.salon.persistence import Op
from zanzibar.salon.seats import Seat
from zanzibar.salon.tables import Table

CLOCK_MIN, CLOCK_MAX = 5, 3600
MAX_SEATS = 16


# -- checks ---------------------------------------------------------------------------


def user_of(cmd: Command) -> User:
    """The signed-in user who sent ``cmd``."""
    if cmd.user is None:
        raise SalonError("unauthenticated", "say hello with your session token first")
    return cmd.user


def require_host(table: Table, user: User) -> None:
    """``forbidden`` unless ``user`` hosts the table."""
    if table.host != user.id:
        raise SalonError("forbidden", "only the host may do that")


def require_not_running(table: Table) -> None:
    """``conflict`` while a game runs."""
    if table.running:
        raise SalonError("conflict", "not while a game is running")


def require_access(table: Table, user: User, message: dict[str, Any]) -> None:
    """``forbidden`` for a banned user, or a stranger to a private table without its code."""
    if user.id in table.banned:
        raise SalonError("forbidden", "the host sent you away from this table")
    if table.private and not table.is_member(user.id) and table.host != user.id:
        invite = message.get("invite")
        if not isinstance(invite, str) or not secrets.compare_digest(invite, table.invite or ""):
            raise SalonError("forbidden", "this table is private: an invitation code is needed")


def resolve_options(
    rules: GameRules[Any, Any], preset: Any, overrides: Any, base: dict[str, Any] | None
) -> tuple[str | None, dict[str, Any]]:
    """The preset name (if the values match one) and the validated option values."""
    if preset is not None and not isinstance(preset, str):
        raise OptionError("the preset must be a name", option="preset")
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise OptionError("options must be an object of name: value", option="options")
    for key in overrides:
        if not isinstance(key, str):
            raise OptionError("option names are text", option=str(key))
    if preset is not None or base is None:
        values = rules.options.resolve(preset, overrides)
    else:
        merged = dict(base)
        for name, raw in overrides.items():
            merged[name] = rules.options.spec(name).coerce(raw)
        values = rules.options.validate(merged)
    return rules.options.matching_preset(values), values


def check_capacity(rules: GameRules[Any, Any], options: dict[str, Any], seats: int) -> None:
    """``invalid`` unless the game is played by ``seats`` players."""
    low, high = rules.seat_range(options)
    if not low <= seats <= min(high, MAX_SEATS):
        raise SalonError(
            "invalid", f"{rules.name} is played by {low} to {high} players, not {seats}"
        )


def free_seat(table: Table, wanted: int | None) -> int:
    """The seat ``wanted`` if free, else the first free one (refusals say why)."""
    if wanted is None:
        free = [i for i, s in enumerate(table.seats) if s.empty]
        if not free:
            raise SalonError("conflict", "the table is full")
        return free[0]
    if not 0 <= wanted < len(table.seats):
        raise SalonError("invalid", f"there is no seat {wanted}")
    if not table.seats[wanted].empty:
        raise SalonError("conflict", f"seat {wanted} is taken")
    return wanted


# -- creating --------------------------------------------------------------------------


def create(
    rules_for: Any, table_id: int, user: User, message: dict[str, Any]
) -> tuple[Table, Change]:
    """A new table hosted by ``user`` in seat 0 (checked first: a refusal makes nothing).

    The single place where a table comes to exist: what must happen when a
    table is created (a ``rated`` option, say) belongs here.
    """
    game = message.get("game")
    if not isinstance(game, str):
        raise SalonError("invalid", "say which game the table is for")
    try:
        rules = rules_for(game)
    except ZanzibarError as exc:
        raise SalonError("not_found", exc.message) from None
    preset, options = resolve_options(rules, message.get("preset"), message.get("options"), None)
    low, high = rules.seat_range(options)
    seats = int_field(message, "seats", required=False)
    if seats is None:
        seats = min(high, max(low, 4), MAX_SEATS)
    check_capacity(rules, options, seats)
    private = bool_field(message, "private", default=False)
    table = Table(
        id=table_id,
        rules=rules,
        preset=preset,
        options=options,
        capacity=seats,
        seats=[Seat() for _ in range(seats)],
        private=private,
        invite=secrets.token_urlsafe(6) if private else None,
        host=user.id,
        created=time.time(),
    )
    table.seats[0] = Seat(user.id, user.name)
    table.stage_system("joined", name=user.name, seat=1)
    # the creator follows it (and gets the table then); the lobby hears of it from the salon
    return table, Change(reply={"table": True}, follow=0)


# -- people ----------------------------------------------------------------------------


def join(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """Take a seat, or take one's own seat back (from the bot standing in)."""
    user = user_of(cmd)
    message = cmd.message
    wanted = int_field(message, "seat", required=False)
    since = since_field(message)
    require_access(table, user, message)
    seat = table.seat_of(user.id)
    if seat is not None:
        holder = table.seats[seat]
        holder.dropped_at = None
        if holder.away or holder.left:
            holder.away = holder.left = False
            if table.clock_seat == seat:
                table.clock_seat = None
                table.clock_key = None
            table.stage_system("returned", name=user.name)
    else:
        if table.running:
            raise SalonError("conflict", "the game has started: watch it, or wait for the next one")
        ctx.standing.check_seat(table.id, user.guest)
        seat = free_seat(table, wanted)
        table.seats[seat] = Seat(user.id, user.name)
        table.spectators.discard(user.id)
        table.stage_system("joined", name=user.name, seat=seat + 1)
        if table.host is None:
            table.host = user.id
            table.stage_system("host", name=user.name)
    changed = bool(table.staged)
    return Change(
        reply={"table": table.id, "seat": seat}, table=changed, views=changed, follow=since
    )


def watch(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """Watch the table (a seated player just follows it again)."""
    user = user_of(cmd)
    since = since_field(cmd.message)
    require_access(table, user, cmd.message)
    newly = table.seat_of(user.id) is None and user.id not in table.spectators
    if newly:
        table.spectators.add(user.id)
        table.stage_system("watching", name=user.name)
    return Change(
        reply={"table": table.id, "seat": table.seat_of(user.id)}, table=newly, follow=since
    )


def leave(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """Leave one's seat (a bot plays it mid-game) or stop watching."""
    user = user_of(cmd)
    seat = table.seat_of(user.id)
    if seat is None and user.id not in table.spectators:
        raise SalonError("forbidden", "you are not at this table")
    if seat is None:
        table.spectators.discard(user.id)
        table.stage_system("stopped_watching", name=user.name)
    else:
        vacate(table, ctx, seat, "left")
    return closing_change(table, {"table": table.id}, unfollow=user.id)


def kick(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """The host sends someone away for good (seated: a bot plays on mid-game)."""
    user = user_of(cmd)
    target = int_field(cmd.message, "user")
    require_host(table, user)
    assert target is not None
    if target == user.id:
        raise SalonError("invalid", "you cannot send yourself away")
    seat = table.seat_of(target)
    if seat is None and target not in table.spectators:
        raise SalonError("not_found", "that user is not at this table")
    table.banned.add(target)
    if seat is None:
        table.spectators.discard(target)
        table.stage_system("kicked", name=ctx.name_of(target))
    else:
        ctx.standing.kicked(table.game_id if table.running else None, seat)
        vacate(table, ctx, seat, "kicked")
    return closing_change(table, {"table": table.id}, unfollow=target)


def closing_change(table: Table, reply: dict[str, Any] | None, unfollow: int | None) -> Change:
    """After someone went: close the table if nobody is left, else publish it."""
    closing = should_close(table)
    return Change(
        reply=reply,
        ops=close_ops(table) if closing else [],
        table=not closing,
        unfollow=unfollow,
        close=closing,
    )


def vacate(table: Table, ctx: TableContext, seat: int, why: str) -> None:
    """A person leaves ``seat`` (left, or kicked): a bot takes it over mid-game."""
    holder = table.seats[seat]
    user_id = holder.user
    name = holder.name or "?"
    table.stage_system(why, name=name)
    if table.running:
        if not holder.left:
            holder.away = holder.left = True
            holder.dropped_at = None
            table.stage_system("takeover", name=name)
    else:
        holder.clear()
    if user_id is not None and table.host == user_id:
        next_host(table, ctx, exclude=user_id)


def next_host(table: Table, ctx: TableContext, exclude: int) -> None:
    """Hand the host's role on, to a connected player first."""
    candidates: list[int | None] = [
        s.user for s in table.seats if s.user is not None and s.user != exclude and not s.left
    ]
    connected = [u for u in candidates if u is not None and ctx.connected(u)]
    chosen = (connected or candidates or [None])[0]
    table.host = chosen
    if chosen is not None:
        table.stage_system("host", name=ctx.name_of(chosen))


def should_close(table: Table) -> bool:
    """Nobody is left: no person seated (who has not left) and nobody watching."""
    return not table.present_humans() and not table.spectators


def close_ops(table: Table) -> list[Op]:
    """Mark the table closed (and its running game abandoned)."""
    now = time.time()
    ops: list[Op] = []
    if table.running and table.game_id is not None:
        ops.append(
            (
                update(m.games).where(m.games.c.id == table.game_id),
                {"status": "abandoned", "finished": now},
            )
        )
    ops.append((update(m.tables).where(m.tables.c.id == table.id), {"closed": now}))
    return ops


def seen(table: Table, ctx: TableContext, user_id: int, online: bool) -> Change | None:
    """A user's first socket opened (``online``) or last one closed; None: nothing to do here.

    Gone offline: a spectator stops watching; a seated player mid-game is
    marked dropped (a bot takes the seat over once ``takeover_delay`` has
    passed, see :mod:`zanzibar.salon.deadlines`). Back online: the pending
    takeover is off. Either way the seat's ``connected`` flag changed.
    """
    seat = table.seat_of(user_id)
    if online != ctx.connected(user_id):
        return None  # came back (or went again) since: a later message says so
    if online:
        if seat is None:
            return None
        table.seats[seat].dropped_at = None
        return Change(table=True)
    if user_id in table.spectators and seat is None:
        table.spectators.discard(user_id)
        table.stage_system("stopped_watching", name=ctx.name_of(user_id))
        return Change(table=True)
    if seat is None:
        return None
    holder = table.seats[seat]
    if table.running and not holder.away and holder.dropped_at is None:
        holder.dropped_at = time.time()
    return Change(table=True)


def takeover(table: Table, ctx: TableContext, user_id: int) -> Change | None:
    """The grace period of a dropped player ran out: a bot plays the seat (None: not due)."""
    seat = table.seat_of(user_id)
    if seat is None or not table.running or ctx.connected(user_id):
        return None
    holder = table.seats[seat]
    if holder.away:
        return None
    holder.away = True
    holder.dropped_at = None
    table.stage_system("takeover", name=ctx.name_of(user_id))
    return Change(table=True)


def close_idle(table: Table, ctx: TableContext) -> Change | None:
    """The janitor found the table idle: close it (None if a game started meanwhile)."""
    if table.running:
        return None
    return Change(ops=close_ops(table), close=True)


# -- the host's powers -----------------------------------------------------------------


def options(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """The host changes the options, preset or number of seats between games."""
    user = user_of(cmd)
    message = cmd.message
    require_host(table, user)
    require_not_running(table)
    preset, values = resolve_options(
        table.rules, message.get("preset"), message.get("options"), table.options
    )
    seats = int_field(message, "seats", required=False)
    capacity = table.capacity if seats is None else seats
    check_capacity(table.rules, values, capacity)
    occupied = [i for i, s in enumerate(table.seats) if not s.empty]
    if occupied and occupied[-1] >= capacity:
        raise SalonError("conflict", "people or bots sit in the seats to remove")
    changes = [f"{k}={v}" for k, v in values.items() if table.options.get(k) != v]
    table.preset, table.options = preset, values
    table.seats = table.seats[:capacity] + [Seat() for _ in range(capacity - len(table.seats))]
    table.capacity = capacity
    table.stage_system("options_changed", options=changes or [preset or "-"])
    return Change(reply={"table": table.id}, table=True)


def add_bot(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """The host seats a bot of some level."""
    user = user_of(cmd)
    require_host(table, user)
    require_not_running(table)
    levels = list(table.rules.bot_levels())
    level = cmd.message.get("level")
    if level is None:
        level = levels[0] if levels else None
    if not isinstance(level, str) or level not in levels:
        raise SalonError("invalid", f"bot levels: {', '.join(levels)}")
    seat = free_seat(table, int_field(cmd.message, "seat", required=False))
    name = bot_name(seat, level)
    table.seats[seat] = Seat(None, name, level)
    table.stage_system("bot_added", name=name, seat=seat + 1)
    return Change(reply={"table": table.id, "seat": seat}, table=True)


def remove_bot(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """The host takes a bot off its seat."""
    user = user_of(cmd)
    seat = int_field(cmd.message, "seat")
    require_host(table, user)
    require_not_running(table)
    assert seat is not None
    if not 0 <= seat < len(table.seats) or table.seats[seat].bot is None:
        raise SalonError("invalid", f"no bot sits at seat {seat}")
    name = table.seats[seat].name or "?"
    table.seats[seat].clear()
    table.stage_system("bot_removed", name=name, seat=seat + 1)
    return Change(reply={"table": table.id}, table=True)


def hand_host(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """The host hands the role to another seated player."""
    user = user_of(cmd)
    target = int_field(cmd.message, "user")
    require_host(table, user)
    seat = table.seat_of(target)
    if target is None or seat is None or table.seats[seat].left or target == user.id:
        raise SalonError("invalid", "the new host must be another player seated here")
    table.host = target
    table.stage_system("host", name=ctx.name_of(target))
    return Change(reply={"table": table.id}, table=True)


def hold(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """The host holds the table between rounds (or releases it: a held pause ends at once)."""
    user = user_of(cmd)
    wanted = bool_field(cmd.message, "hold")
    require_host(table, user)
    resume = table.state == "paused" and not wanted
    if wanted != table.hold:
        table.hold = wanted
        table.stage_system("held" if wanted else "released")
    if resume:
        table.state = "playing"
        table.pause_until = None
        table.stage_system("round_resume")
    return Change(reply={"table": table.id}, table=True, views=resume, new_turn=resume)


def clock(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """The host sets the turn clock (or turns it off); the turn now playing starts afresh."""
    user = user_of(cmd)
    seconds = int_field(cmd.message, "seconds", required=False)
    require_host(table, user)
    if seconds is not None and not CLOCK_MIN <= seconds <= CLOCK_MAX:
        raise SalonError("invalid", f"a turn clock runs {CLOCK_MIN} to {CLOCK_MAX} seconds")
    table.clock = seconds
    table.clock_key = None
    if seconds:
        table.stage_system("clock_set", seconds=seconds)
    else:
        table.stage_system("clock_off")
    return Change(reply={"table": table.id}, table=True)


# -- chat ------------------------------------------------------------------------------


def chat(table: Table, ctx: TableContext, cmd: Command) -> Change:
    """A line said at the table (``chat.me``: an action, "Anna waves")."""
    user = user_of(cmd)
    text, me = clean_text(cmd.message.get("text"))
    me = me or cmd.type == "chat.me"
    if not table.is_present(user.id):
        raise SalonError("forbidden", "join or watch the table to talk there")
    ctx.chat_limit.check(user.id)
    # counted before waiting for storage: lines sent at once on several
    # sockets (or to several tables) cannot all pass the check together
    ctx.chat_limit.record(user.id)
    item = table.stage("chat", {"user": user.id, "from": user.name, "text": text, "me": me})
    return Change(
        reply={"table": table.id, "seq": item.seq},
        undo=[lambda: ctx.chat_limit.forget_last(user.id)],
        reply_at="first",
    )


TRANSITIONS = {
    "table.join": join,
    "table.watch": watch,
    "table.leave": leave,
    "table.kick": kick,
    "table.options": options,
    "table.add_bot": add_bot,
    "table.remove_bot": remove_bot,
    "table.hand_host": hand_host,
    "table.hold": hold,
    "table.clock": clock,
    "chat.say": chat,
    "chat.me": chat,
}
