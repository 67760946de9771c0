"""Swiss tournaments in the salon: registration, rounds, tables, results, standings.

Everything is stored as it happens (tables ``tournaments``, ``tournament_players``,
``tournament_games``), and the runner decides what to do next only from what is
stored: :meth:`Tournaments.advance` reads a tournament and does the next step
(start it, pair the next round and open its tables, or finish it). So a salon
restarted mid-tournament carries on from the database: the tables of the
round are restored by the salon like any table, and the runner resumes.

What is read and said (standings, summaries, events) is in
:mod:`zanzibar.salon.tournament_book`, the base class; here are the runner and the requests.

Touch points in the salon (``service.py`` and the table actors), kept tiny:

- ``Salon.__init__``: ``self.tournaments = Tournaments(self)``, its handlers added to
  the gateway, :meth:`Tournaments.finish_ops` as the ``finish_ops`` of the
  :class:`~zanzibar.salon.changes.TableContext` (so :func:`zanzibar.salon.play.after_moves`
  stores a tournament game's result in the same transaction as the game's end), and
  :meth:`Tournaments.committed` among the actors' ``committed`` hooks;
- ``Salon.start``: ``await self.tournaments.load()`` before the tables are restored,
  ``self.tournaments.resume()`` after; ``Salon._halt``: ``self.tournaments.stop()``.

Salon parts used here: ``store``, ``rules_for``, ``next_id``, ``ctx`` (seeds, game ids),
``open_table``, ``router.actors`` (to post a no-show to a table's actor), ``tables``,
``spawn``, ``online``, ``gateway.conns_of``, ``_name_of`` and ``takeover_delay``.

A round's tables are opened through ``Salon.open_table`` with one change that
starts the game with the players seated (bots in the empty seats).
A person who is not connected when the
table opens, who does not come to it in time (:meth:`Tournaments.no_show_delay`),
or who leaves, is played for by a bot (the salon's takeover) and loses the game by
forfeit unless back at the table before its end; the opponent at a table of two then wins it. A game abandoned (the table
closed with nobody left) counts as lost for every entrant at it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, insert, select, update

from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.rules import Outcome
from zanzibar.l10n import Msg, Voice
from zanzibar.salon import models as m
from zanzibar.salon import play
from zanzibar.salon.changes import Change, Command, TableContext
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import int_field, log_failure
from zanzibar.salon.gateway import Gateway
from zanzibar.salon.messages import bot_name, display_name
from zanzibar.salon.persistence import Op, fenced
from zanzibar.salon.seating import check_capacity, resolve_options
from zanzibar.salon.seats import Seat
from zanzibar.salon.swiss import (
    DRAW,
    LOSS,
    WIN,
    PairingImpossible,
    entrants_after,
    pair_round,
)
from zanzibar.salon.tables import Table
from zanzibar.salon.text import strip_invisible
from zanzibar.salon.tournament_book import (
    Board,
    TournamentBook,
    _points_key,
    game_points,
)

if TYPE_CHECKING:
    from zanzibar.salon.accounts import User
    from zanzibar.salon.connections import Connection
    from zanzibar.salon.service import Salon

log = logging.getLogger(__name__)

MAX_ROUNDS = 20
MAX_PLAYERS = 128
MAX_OPEN_PER_HOST = 3
NAME_MAX = 48
#: Seconds between checks of every open tournament (start times, abandoned games).
TICK = 5.0

Handler = Callable[["Connection", dict[str, Any]], Awaitable[None]]


def _user(conn: Connection) -> User:
    if conn.user is None:
        raise SalonError("unauthenticated", "say hello with your session token first")
    return conn.user


def _started(table: Table, ctx: TableContext, board_row: Any) -> Change:
    """Start the game of a new tournament table (players already seated): the change
    storing the game, its players and the board's table and game ids."""
    change = play.begin_game(table, ctx)
    change.ops.append((board_row, {"table_id": table.id, "game_id": table.game_id}))
    return change


class Tournaments(TournamentBook):
    """The salon's Swiss tournaments (one per salon; see the module's docstring)."""

    def __init__(self, salon: Salon, tick: float = TICK) -> None:
        self.salon = salon
        self.tick = tick
        #: Tables of running tournament games: table id -> board.
        self.boards: dict[int, Board] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._next_id = 1
        #: The runner and the no-show timers (not waited for by ``settle``; cancelled at stop).
        self._timers: set[asyncio.Task[Any]] = set()
        #: Steps of the runner under way (``settle`` waits for them; cancelled at stop).
        self._steps: set[asyncio.Task[Any]] = set()

    def handlers(self) -> dict[str, Handler]:
        """The WebSocket messages this module answers."""
        return {
            "tournament.create": self._create,
            "tournament.register": self._register,
            "tournament.unregister": self._unregister,
            "tournament.add_bot": self._add_bot,
            "tournament.start": self._start_now,
            "tournament.cancel": self._cancel,
            "tournament.list": self._list,
            "tournament.show": self._show,
        }

    # -- life cycle ----------------------------------------------------------------

    async def load(self) -> None:
        """Load the next id and the boards of the games being played (before the salon
        restores its tables, so that nothing waits between restoring and resuming)."""
        store = self.salon.store
        rows = await store.read(select(func.max(m.tournaments.c.id)))
        self._next_id = int(rows[0][0] or 0) + 1
        open_games = await store.read(
            select(m.tournament_games, m.tournaments.c.state)
            .join(m.tournaments, m.tournaments.c.id == m.tournament_games.c.tournament_id)
            .where(m.tournament_games.c.result.is_(None) & (m.tournaments.c.state == "running"))
        )
        bots = await self._bot_entrants([r.tournament_id for r in open_games])
        for row in open_games:
            if row.table_id is not None:
                self.boards[row.table_id] = Board(
                    row.tournament_id,
                    row.round,
                    row.board,
                    tuple(row.seats),
                    bots.get(row.tournament_id, frozenset()),
                )

    def resume(self) -> None:
        """Start the runner: every open tournament is advanced soon, then every ``tick``."""
        self._timer(self._ticker(), "tournaments")

    def stop(self) -> None:
        """The salon stops: the runner, its steps under way and the no-show timers end."""
        for task in (*self._timers, *self._steps):
            task.cancel()

    def _timer(self, work: Awaitable[Any], name: str) -> None:
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)
        task.add_done_callback(log_failure)

    async def _bot_entrants(self, ids: Sequence[int]) -> dict[int, frozenset[int]]:
        if not ids:
            return {}
        rows = await self.salon.store.read(
            select(m.tournament_players.c.tournament_id, m.tournament_players.c.entrant).where(
                m.tournament_players.c.tournament_id.in_(sorted(set(ids)))
                & m.tournament_players.c.bot.is_not(None)
            )
        )
        out: dict[int, set[int]] = {}
        for tid, entrant in rows:
            out.setdefault(tid, set()).add(entrant)
        return {tid: frozenset(v) for tid, v in out.items()}

    async def _ticker(self) -> None:
        """Advance every open tournament soon after the start, then every ``tick``
        seconds (start times, games abandoned, anything a crash left half done).

        The first pass waits a moment (at most a second) so that the salon's own
        restored timers get the database first."""
        await asyncio.sleep(min(self.tick, 1.0))
        while True:
            rows = await self.salon.store.read(
                select(m.tournaments.c.id).where(
                    m.tournaments.c.state.in_(("registering", "running"))
                )
            )
            for (tid,) in rows:
                try:
                    await self.advance(tid)
                except Exception:
                    log.exception("tournament %s could not advance", tid)
            await asyncio.sleep(self.tick)

    def _poke(self, tid: int) -> None:
        """Advance ``tid`` beside the caller (the salon's ``settle`` waits for it)."""
        task = asyncio.ensure_future(self.advance(tid))
        task.set_name(f"tournament-{tid}")
        self._steps.add(task)
        task.add_done_callback(self._steps.discard)
        self.salon.spawn(task)

    # -- hooks called by the salon -------------------------------------------------

    def finish_ops(self, table: Table, outcome: Outcome) -> list[Op]:
        """The storage of a tournament game's result, in the game's own transaction."""
        board = self.boards.get(table.id)
        if board is None:
            return []
        absent = [
            s.user is not None and (s.away or s.left) and e not in board.bots
            for s, e in zip(table.seats, board.seats, strict=False)
        ]
        absent += [False] * (len(board.seats) - len(absent))
        points = game_points(board, outcome, absent)
        return [(self._game_row(board), {"result": _points_key(points)})]

    def committed(self, table: Table, change: Change) -> None:
        """A table's change is stored (an actor's hook): a finished game may end a round."""
        if change.finished is not None:
            self.table_finished(table)

    def table_finished(self, table: Table) -> None:
        """A game finished and is stored: the runner may start the next round."""
        board = self.boards.pop(table.id, None)
        if board is not None:
            self._poke(board.tournament)

    @staticmethod
    def _game_row(board: Board) -> Any:
        g = m.tournament_games.c
        return update(m.tournament_games).where(
            (g.tournament_id == board.tournament)
            & (g.round == board.round)
            & (g.board == board.board)
        )

    # -- the runner ----------------------------------------------------------------

    async def advance(self, tid: int, force: bool = False) -> None:
        """Do the next step of tournament ``tid``, from what is stored."""
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            row = await self._row(tid)
            if row is None:
                return
            if row.state == "registering":
                players = await self._players(tid)
                due = row.starts_at is not None and time.time() >= row.starts_at
                full = len(players) >= row.max_players
                if not (force or due or full):
                    return
                if len(players) < 2:
                    await self._end(row, "cancelled", "too_few")
                    return
                await self._begin(row, players)
                row = await self._row(tid)
                assert row is not None
            if row.state != "running":
                return
            games = await self._games(tid)
            current = [g for g in games if g.round == row.round]
            if any(g.board and g.table_id is None for g in current):
                await self._open_round(row, current, await self._players(tid))
                return
            if row.round > 0:
                await self._reconcile([g for g in current if g.result is None])
                games = await self._games(tid)
                current = [g for g in games if g.round == row.round]
                if any(g.result is None for g in current):
                    return
                await self._announce_round(row, games)
            if row.round >= row.rounds:
                await self._end(row, "finished", None)
                return
            await self._next_round(row, games)

    async def _begin(self, row: Any, players: list[Any]) -> None:
        """Registration closes: seeds by registration order, the state is running."""
        p = m.tournament_players.c
        ops: list[Op] = [
            (
                update(m.tournament_players).where(
                    (p.tournament_id == row.id) & (p.entrant == player.entrant)
                ),
                {"seed": seed},
            )
            for seed, player in enumerate(players, start=1)
        ]
        ops.append(
            (update(m.tournaments).where(m.tournaments.c.id == row.id), {"state": "running"})
        )
        await self.salon.store.write(ops)
        self._tell(row.id, players, "started", {"count": len(players), "rounds": row.rounds})

    async def _next_round(self, row: Any, games: list[Any]) -> None:
        """Pair the next round, store it, then open and start its tables."""
        tid = row.id
        players = await self._players(tid)
        number = row.round + 1
        if not any(g.round == number for g in games):
            seeds = {pl.entrant: pl.seed for pl in players}
            entrants = entrants_after(seeds, self._history(games))
            try:
                pairing = await asyncio.to_thread(
                    pair_round, entrants, number, row.seats, row.rounds
                )
            except PairingImpossible:
                await self._end(row, "finished", "no_pairing")
                return
            new: list[dict[str, Any]] = [
                {
                    "tournament_id": tid,
                    "round": number,
                    "board": board,
                    "table_id": None,
                    "game_id": None,
                    "seats": list(seats),
                    "result": None,
                }
                for board, seats in enumerate(pairing.tables, start=1)
            ]
            if pairing.bye is not None:
                new.append(
                    {
                        "tournament_id": tid,
                        "round": number,
                        "board": 0,
                        "table_id": None,
                        "game_id": None,
                        "seats": [pairing.bye],
                        "result": _points_key({pairing.bye: WIN}),
                    }
                )
            await self.salon.store.write(
                [
                    (insert(m.tournament_games), new),
                    (update(m.tournaments).where(m.tournaments.c.id == tid), {"round": number}),
                ]
            )
            games = await self._games(tid)
        row = await self._row(tid)
        assert row is not None
        await self._open_round(row, [g for g in games if g.round == number], players)
        self._tell(tid, players, "round", {"round": number, "rounds": row.rounds})

    async def _open_round(self, row: Any, boards: list[Any], players: list[Any]) -> None:
        """Open the tables of a stored round not opened yet (also after a crash between
        storing the pairing and opening its tables); tell the bye."""
        by_entrant = {pl.entrant: pl for pl in players}
        bots = frozenset(pl.entrant for pl in players if pl.bot is not None)
        for game in boards:
            if game.board == 0:
                if game.table_id is None:
                    self._tell_one(row.id, by_entrant[game.seats[0]], "bye", {"round": game.round})
                continue
            if game.table_id is None:
                await self._open_table(row, game, by_entrant, bots)
            elif game.result is None:
                self.boards.setdefault(
                    game.table_id, Board(row.id, game.round, game.board, tuple(game.seats), bots)
                )

    async def _open_table(
        self, row: Any, game: Any, by_entrant: dict[int, Any], bots: frozenset[int]
    ) -> None:
        """A table already started with its players seated (bots in the empty seats),
        stored with the board's table and game ids as the table's first change."""
        salon = self.salon
        rules = salon.rules_for(row.game)
        options = rules.options.validate(dict(row.options))
        seats: list[Seat] = []
        for index, entrant in enumerate(game.seats):
            player = by_entrant.get(entrant) if entrant is not None else None
            if player is None:
                seats.append(Seat(None, bot_name(index, row.bot_level), row.bot_level))
            elif player.bot is not None:
                seats.append(Seat(None, player.name, player.bot))
            else:
                seats.append(Seat(player.user_id, player.name))
        now = time.time()
        table = Table(
            id=await salon.next_id("table"),
            rules=rules,
            preset=row.preset,
            options=options,
            capacity=len(seats),
            seats=seats,
            host=None,
            created=now,
        )
        for seat in seats:
            if seat.user is not None and not salon.online(seat.user):
                seat.dropped_at = now  # not here: a bot takes over after the usual delay
        board = Board(row.id, game.round, game.board, tuple(game.seats), bots)
        table.stage_system("tournament_table", tournament=row.name, round=game.round)
        # Fenced: a board another process opened meanwhile is not opened twice.
        opened = fenced(self._game_row(board).where(m.tournament_games.c.table_id.is_(None)))
        change = _started(table, salon.ctx, opened)
        self.boards[table.id] = board
        try:
            await salon.open_table(table, change, Command("tournament.table"))
        except SalonError:
            self.boards.pop(table.id, None)
            raise
        names = [s.name or "" for s in seats]
        for seat_no, seat in enumerate(seats):
            if seat.user is None:
                continue
            if salon.online(seat.user):
                self._timer(
                    self._no_show_after(table.id, seat.user), f"no-show-{table.id}-{seat.user}"
                )
            self._send(seat.user, self._go_to_table(row, game, table.id, seat_no, names))

    def no_show_delay(self) -> float:
        """Seconds a connected player has to come to the table before a bot plays for them
        (four times the salon's takeover delay, two seconds at least)."""
        return max(2.0, 4 * self.salon.takeover_delay)

    async def _no_show_after(self, table_id: int, user_id: int) -> None:
        """A player told where to go who does not come: a bot plays for them (and they
        lose by forfeit unless they come back before the end)."""
        await asyncio.sleep(self.no_show_delay())
        actor = self.salon.router.actors.get(table_id)
        if actor is not None and not self._following(table_id, user_id):
            actor.post(self._no_show(user_id))

    def _following(self, table_id: int, user_id: int) -> bool:
        return any(table_id in conn.tables for conn in self.salon.gateway.conns_of(user_id))

    def _no_show(self, user_id: int) -> Callable[[Table, TableContext, Command], Change | None]:
        """The transition marking a player who never came as away (None: they came)."""

        def transition(table: Table, ctx: TableContext, _cmd: Command) -> Change | None:
            seat = table.seat_of(user_id)
            if seat is None or not table.running or self._following(table.id, user_id):
                return None
            holder = table.seats[seat]
            if holder.away:
                return None
            holder.away = True
            holder.dropped_at = None
            table.stage_system("takeover", name=ctx.name_of(user_id))
            return Change(table=True)

        return transition

    @staticmethod
    def _go_to_table(
        row: Any, game: Any, table_id: int, seat: int, names: list[str]
    ) -> Callable[[str], dict[str, Any]]:
        """The ``tournament.table`` event: where to go, in the receiver's language."""

        def build(lang: str) -> dict[str, Any]:
            opponents = tuple(display_name(n, lang) for i, n in enumerate(names) if i != seat)
            text = Voice(lang).say(
                Msg(
                    "tournament-go-to-table",
                    name=row.name,
                    round=game.round,
                    table=str(table_id),
                    opponents=opponents,
                )
            )
            return {
                "type": "tournament.table",
                "tournament": row.id,
                "round": game.round,
                "board": game.board,
                "table": table_id,
                "seat": seat,
                "text": text,
            }

        return build

    async def _reconcile(self, open_games: list[Any]) -> None:
        """Results of games that ended without the hook (abandoned, or lost in a crash)."""
        ids = [g.game_id for g in open_games if g.game_id is not None]
        if not ids:
            return
        rows = await self.salon.store.read(
            select(m.games.c.id, m.games.c.status).where(m.games.c.id.in_(ids))
        )
        status = dict(rows)
        players = await self.salon.store.read(
            select(m.game_players.c.game_id, m.game_players.c.seat, m.game_players.c.result).where(
                m.game_players.c.game_id.in_(ids)
            )
        )
        by_game: dict[int, dict[int, str | None]] = {}
        for game_id, seat, result in players:
            by_game.setdefault(game_id, {})[seat] = result
        ops: list[Op] = []
        for game in open_games:
            state = status.get(game.game_id)
            board = Board(
                game.tournament_id, game.round, game.board, tuple(game.seats), frozenset()
            )
            if state == "abandoned" or (state is None and game.table_id not in self.salon.tables):
                points = game_points(board, None, [False] * len(board.seats))
            elif state == "finished":
                results = by_game.get(game.game_id, {})
                value = {"won": WIN, "draw": DRAW}
                points = {
                    e: value.get(results.get(s) or "", LOSS)
                    for s, e in enumerate(board.seats)
                    if e is not None
                }
            else:
                continue
            self.boards.pop(game.table_id, None)
            ops.append((self._game_row(board), {"result": _points_key(points)}))
        if ops:
            await self.salon.store.write(ops)

    async def _end(self, row: Any, state: str, note: str | None) -> None:
        await self.salon.store.write(
            [
                (
                    update(m.tournaments).where(m.tournaments.c.id == row.id),
                    {"state": state, "finished": time.time(), "note": note},
                )
            ]
        )
        players = await self._players(row.id)
        if state == "cancelled":
            self._tell(row.id, players, "cancelled", {})
            return
        games = await self._games(row.id)
        table = await self._standings(row.id, players, games)
        winners = [line for line in table if line.rank == 1]
        names = {pl.entrant: pl.name for pl in players}
        self._send_all(
            row.id,
            players,
            lambda lang: {
                "type": "tournament.finished",
                "tournament": row.id,
                "note": note,
                "text": Voice(lang).say(
                    Msg(
                        "tournament-finished",
                        name=row.name,
                        winners=tuple(display_name(names[w.id], lang) for w in winners),
                        count=len(winners),
                    )
                )
                + " "
                + self.standings_text(row, table, names, lang),
            },
        )

    async def _announce_round(self, row: Any, games: list[Any]) -> None:
        """The results and the standings of the round just over, to every entrant."""
        players = await self._players(row.id)
        names = {pl.entrant: pl.name for pl in players}
        played = [g for g in games if g.round <= row.round]
        table = await self._standings(row.id, players, played)
        current = [g for g in games if g.round == row.round]

        def message(lang: str) -> dict[str, Any]:
            results = " ".join(self._result_text(g, names, lang) for g in current)
            return {
                "type": "tournament.standings",
                "tournament": row.id,
                "round": row.round,
                "standings": [self.standing_json(s, names, lang) for s in table],
                "text": results + " " + self.standings_text(row, table, names, lang),
            }

        self._send_all(row.id, players, message)

    # -- requests ----------------------------------------------------------------------

    def _tournament_id(self, message: dict[str, Any]) -> int:
        tid = int_field(message, "tournament")
        assert tid is not None
        return tid

    async def _open_row(self, message: dict[str, Any]) -> Any:
        row = await self._row(self._tournament_id(message))
        if row is None:
            raise SalonError("not_found", f"there is no tournament {message.get('tournament')}")
        return row

    async def _create(self, conn: Connection, message: dict[str, Any]) -> None:
        salon = self.salon
        user = _user(conn)
        game = message.get("game")
        if not isinstance(game, str):
            raise SalonError("invalid", "say which game the table is for")
        try:
            rules = salon.rules_for(game)
        except ZanzibarError as exc:
            raise SalonError("not_found", exc.message) from None
        preset, options = resolve_options(
            rules, message.get("preset"), message.get("options"), None
        )
        low, high = rules.seat_range(options)
        seats = int_field(message, "seats", required=False)
        if seats is None:
            seats = max(low, min(high, 2))
        check_capacity(rules, options, seats)
        rounds = int_field(message, "rounds")
        assert rounds is not None
        if not 1 <= rounds <= MAX_ROUNDS:
            raise SalonError("invalid", f"a tournament has 1 to {MAX_ROUNDS} rounds")
        most = int_field(message, "max_players", required=False) or 16
        if not 2 <= most <= MAX_PLAYERS:
            raise SalonError("invalid", f"a tournament takes 2 to {MAX_PLAYERS} players")
        if seats == 2 and rounds >= most:
            raise SalonError("invalid", "with that many rounds some players would meet twice")
        start_in = int_field(message, "start_in", required=False)
        if start_in is not None and not 0 <= start_in <= 7 * 24 * 3600:
            raise SalonError("invalid", "a tournament starts within a week")
        levels = list(rules.bot_levels())
        level = message.get("bot_level", levels[0] if levels else None)
        if not isinstance(level, str) or level not in levels:
            raise SalonError("invalid", f"bot levels: {', '.join(levels)}")
        name = message.get("name")
        if name is None:
            name = f"{self._title(rules.name, 'en')} Swiss"
        if not isinstance(name, str):
            raise SalonError("invalid", "the name is text")
        name = " ".join(strip_invisible(name).split())[:NAME_MAX]
        if not name:
            raise SalonError("invalid", "the name is text")
        held = await salon.store.read(
            select(func.count()).where(
                (m.tournaments.c.host_id == user.id)
                & m.tournaments.c.state.in_(("registering", "running"))
            )
        )
        if int(held[0][0]) >= MAX_OPEN_PER_HOST:
            raise SalonError(
                "quota", f"you already host {MAX_OPEN_PER_HOST} open tournaments, the most allowed"
            )
        tid = self._next_id
        self._next_id += 1
        now = time.time()
        row = {
            "id": tid,
            "name": name,
            "game": rules.name,
            "preset": preset,
            "options": dict(options),
            "seats": seats,
            "rounds": rounds,
            "max_players": most,
            "starts_at": now + start_in if start_in is not None else None,
            "bot_level": level,
            "host_id": user.id,
            "state": "registering",
            "round": 0,
            "created": now,
            "finished": None,
            "note": None,
        }
        try:
            await salon.store.write([(insert(m.tournaments), row)])
        except Exception:
            raise SalonError(
                "internal", "the change could not be stored; nothing was changed"
            ) from None
        stored = await self._row(tid)
        Gateway.ok(conn, message, tournament=await self.summary(stored, conn.lang))

    async def _entry_change(self, conn: Connection, message: dict[str, Any], change: str) -> None:
        salon = self.salon
        user = _user(conn)
        tid = self._tournament_id(message)
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            row = await self._open_row(message)
            if row.state != "registering":
                raise SalonError("conflict", "registration is closed: the tournament has started")
            players = await self._players(tid)
            p = m.tournament_players.c
            if change == "register":
                if any(pl.user_id == user.id for pl in players):
                    raise SalonError("conflict", "you are already registered")
                if len(players) >= row.max_players:
                    raise SalonError("conflict", "the tournament is full")
                entrant = max((pl.entrant for pl in players), default=0) + 1
                op: Op = (
                    insert(m.tournament_players),
                    {
                        "tournament_id": tid,
                        "entrant": entrant,
                        "user_id": user.id,
                        "name": user.name,
                        "bot": None,
                        "seed": None,
                        "registered": time.time(),
                    },
                )
            elif change == "add_bot":
                if row.host_id != user.id:
                    raise SalonError("forbidden", "only the host may do that")
                if len(players) >= row.max_players:
                    raise SalonError("conflict", "the tournament is full")
                levels = list(salon.rules_for(row.game).bot_levels())
                level = message.get("level", row.bot_level)
                if not isinstance(level, str) or level not in levels:
                    raise SalonError("invalid", f"bot levels: {', '.join(levels)}")
                entrant = max((pl.entrant for pl in players), default=0) + 1
                op = (
                    insert(m.tournament_players),
                    {
                        "tournament_id": tid,
                        "entrant": entrant,
                        "user_id": None,
                        "name": bot_name(entrant - 1, level),
                        "bot": level,
                        "seed": None,
                        "registered": time.time(),
                    },
                )
            else:
                mine = [pl for pl in players if pl.user_id == user.id]
                if not mine:
                    raise SalonError("conflict", "you are not registered")
                op = (
                    m.tournament_players.delete().where(
                        (p.tournament_id == tid) & (p.entrant == mine[0].entrant)
                    ),
                    None,
                )
            await salon.store.write([op])
        count = len(players) + (-1 if change == "unregister" else 1)
        Gateway.ok(conn, message, tournament=tid, players=count)
        if count >= row.max_players:
            self._poke(tid)

    async def _register(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._entry_change(conn, message, "register")

    async def _unregister(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._entry_change(conn, message, "unregister")

    async def _add_bot(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._entry_change(conn, message, "add_bot")

    async def _start_now(self, conn: Connection, message: dict[str, Any]) -> None:
        user = _user(conn)
        row = await self._open_row(message)
        if row.host_id != user.id:
            raise SalonError("forbidden", "only the host may do that")
        if row.state != "registering":
            raise SalonError("conflict", "registration is closed: the tournament has started")
        if len(await self._players(row.id)) < 2:
            raise SalonError("conflict", "a tournament needs at least two players")
        await self.advance(row.id, force=True)
        Gateway.ok(conn, message, tournament=row.id)

    async def _cancel(self, conn: Connection, message: dict[str, Any]) -> None:
        user = _user(conn)
        row = await self._open_row(message)
        if row.host_id != user.id:
            raise SalonError("forbidden", "only the host may do that")
        if row.state != "registering":
            raise SalonError("conflict", "registration is closed: the tournament has started")
        async with self._locks.setdefault(row.id, asyncio.Lock()):
            await self._end(row, "cancelled", "host")
        Gateway.ok(conn, message, tournament=row.id)

    async def _list(self, conn: Connection, message: dict[str, Any]) -> None:
        Gateway.ok(conn, message, tournaments=await self.list_json(conn.lang))

    async def _show(self, conn: Connection, message: dict[str, Any]) -> None:
        found = await self.show_json(self._tournament_id(message), conn.lang)
        if found is None:
            raise SalonError("not_found", f"there is no tournament {message.get('tournament')}")
        Gateway.ok(conn, message, tournament=found)
