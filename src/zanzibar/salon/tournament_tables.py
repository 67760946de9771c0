"""Tournament tables: opening a round's tables, telling entrants where to go, no-shows.

A round's tables are opened through the salon's ``open_table`` (a port, see
:mod:`~zanzibar.salon.tournament_ports`) with one change that starts the game
with the players seated (bots in the empty seats). A person who is not
connected when the table opens, who does not come to it in time
(:meth:`TournamentTables.no_show_delay`), or who leaves, is played for by a bot
(the salon's takeover) and loses the game by forfeit unless back at the table
before its end (:func:`zanzibar.salon.tournament_book.game_points`).

**No-show deadlines are stored**, not kept in memory: the board's row gets the
instant (``tournament_games.no_show_at``) in the very change that opens the
table. The node that runs the table arms a timer for it; every node's tick
(:meth:`TournamentTables.resume_no_shows`) arms the deadlines of the tournament
tables it runs that have no timer yet, so a table restored after a restart, or
taken over from a dead node (its owner, the runner, or both), still replaces
its no-shows at the stored instant. When it is due, the table's actor marks
every seated person who does not follow the table (from a socket on any node)
as away, then the deadline is cleared (a crash in between only runs the same
check again).

The layer above the book (:mod:`~zanzibar.salon.tournament_book`) and below the
runner (:mod:`~zanzibar.salon.tournament_runner`), which decides when a round opens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import select, update

from zanzibar.l10n import Msg, Voice
from zanzibar.salon import models as m
from zanzibar.salon import play
from zanzibar.salon.changes import Change, Command, TableContext
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import log_failure
from zanzibar.salon.messages import bot_name, display_name
from zanzibar.salon.persistence import Fenced, fenced
from zanzibar.salon.seats import Seat
from zanzibar.salon.tables import Table
from zanzibar.salon.tournament_book import Board, TournamentBook
from zanzibar.salon.tournament_ports import TournamentPorts

log = logging.getLogger(__name__)


def _started(table: Table, ctx: TableContext, board_row: Any, no_show_at: float | None) -> Change:
    """Start the game of a new tournament table (players already seated): the change
    storing the game, its players, the board's table and game ids and its no-show deadline."""
    change = play.begin_game(table, ctx)
    values = {"table_id": table.id, "game_id": table.game_id, "no_show_at": no_show_at}
    change.ops.append((board_row, values))
    return change


class TournamentTables(TournamentBook):
    """The tables of running tournament games, and the timers around them."""

    #: Seconds between the runner's checks (:class:`~.tournament_runner.TournamentRunner`);
    #: a no-show timer reads the clock again at least that often.
    tick: float

    def __init__(self, ports: TournamentPorts) -> None:
        self.ports = ports
        #: Tables of running tournament games: table id -> board.
        self.boards: dict[int, Board] = {}
        #: The runner and the no-show timers (not waited for by ``settle``; cancelled at stop).
        self._timers: set[asyncio.Task[Any]] = set()
        #: Tables run here whose stored no-show deadline has a timer: table id -> instant.
        self._no_show_armed: dict[int, float] = {}
        #: Wall-clock time (``time.time``): start times and no-show deadlines are read on it.
        self.clock: Callable[[], float] = time.time

    def _timer(self, work: Awaitable[Any], name: str) -> None:
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)
        task.add_done_callback(log_failure)

    @staticmethod
    def _game_row(board: Board) -> Any:
        g = m.tournament_games.c
        return update(m.tournament_games).where(
            (g.tournament_id == board.tournament)
            & (g.round == board.round)
            & (g.board == board.board)
        )

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
        ports = self.ports
        rules = ports.rules_for(row.game)
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
        now = time.time()  # the salon's clock: the table's own deadlines are read on it
        table = Table(
            id=await ports.next_id("table"),
            rules=rules,
            preset=row.preset,
            options=options,
            capacity=len(seats),
            seats=seats,
            host=None,
            created=now,
        )
        for seat in seats:
            if seat.user is not None and not ports.online(seat.user):
                seat.dropped_at = now  # not here: a bot takes over after the usual delay
        board = Board(row.id, game.round, game.board, tuple(game.seats), bots)
        table.stage_system("tournament_table", tournament=row.name, round=game.round)
        people = any(seat.user is not None for seat in seats)
        no_show_at = self.clock() + self.no_show_delay() if people else None
        # Fenced: a board another process opened meanwhile is not opened twice.
        opened = fenced(self._game_row(board).where(m.tournament_games.c.table_id.is_(None)))
        change = _started(table, ports.context(), opened, no_show_at)
        self.boards[table.id] = board
        try:
            await ports.open_table(table, change, Command("tournament.table"))
        except SalonError:
            self.boards.pop(table.id, None)
            raise
        if no_show_at is not None:
            self._arm_no_show(board, table.id, no_show_at)
        names = [s.name or "" for s in seats]
        for seat_no, seat in enumerate(seats):
            if seat.user is not None:
                self._send(seat.user, self._go_to_table(row, game, table.id, seat_no, names))

    def no_show_delay(self) -> float:
        """Seconds a connected player has to come to the table before a bot plays for them
        (four times the salon's takeover delay, two seconds at least)."""
        return max(2.0, 4 * self.ports.takeover_delay())

    # -- no-shows: a stored deadline, armed by whichever node runs the table -----------------

    async def resume_no_shows(self) -> None:
        """Arm the stored no-show deadlines of the tournament tables run here that have
        no timer yet (after a restart, or a table taken over from another node)."""
        g = m.tournament_games.c
        rows = await self.ports.store.read(
            select(g.tournament_id, g.round, g.board, g.table_id, g.no_show_at, g.result).where(
                g.no_show_at.is_not(None) & g.table_id.is_not(None)
            )
        )
        # (a JSON column stores None as JSON null, not SQL NULL: the result is read here)
        for tid, round_no, board_no, table_id, at, result in rows:
            if result is not None or table_id in self._no_show_armed:
                continue
            if self.ports.actor_of(table_id) is None:
                continue
            self._arm_no_show(Board(tid, round_no, board_no, (), frozenset()), table_id, at)

    def _arm_no_show(self, board: Board, table_id: int, at: float) -> None:
        self._no_show_armed[table_id] = at
        self._timer(self._no_show_at(board, table_id, at), f"no-show-{table_id}")

    async def _no_show_at(self, board: Board, table_id: int, at: float) -> None:
        """At the stored instant ``at`` (read on :attr:`clock`), the table's actor marks who
        did not come as away; then the deadline is cleared. Not run here any more: left
        to the table's next owner (its tick arms it again)."""
        try:
            while (left := at - self.clock()) > 0:
                await asyncio.sleep(min(left, max(self.tick, 0.01)))
            actor = self.ports.actor_of(table_id)
            if actor is None:
                return
            try:
                await actor.call(self._no_shows(), Command("tournament.no_show"))
            except SalonError as exc:  # closed or moved meanwhile: its next owner checks
                log.info("table %s: no-shows not checked here (%s)", table_id, exc.code)
                return
            done = fenced(self._game_row(board).where(m.tournament_games.c.no_show_at == at))
            with contextlib.suppress(Fenced):  # cleared already: it ran twice, the same check
                await self.ports.store.write([(done, {"no_show_at": None})])
        finally:
            if self._no_show_armed.get(table_id) == at:
                del self._no_show_armed[table_id]

    def _following(self, table_id: int, user_id: int) -> bool:
        """Whether the player follows the table (run here) from a socket on any node."""
        return any(c.user_id == user_id for c in self.ports.followers(table_id)) or any(
            table_id in conn.tables for conn in self.ports.conns_of(user_id)
        )

    def _no_shows(self) -> Callable[[Table, TableContext, Command], Change | None]:
        """The transition marking as away every seated person who never came (None: all came)."""

        def transition(table: Table, ctx: TableContext, _cmd: Command) -> Change | None:
            if not table.running:
                return None
            marked = False
            for holder in table.seats:
                user_id = holder.user
                if user_id is None or holder.away or self._following(table.id, user_id):
                    continue
                holder.away = True
                holder.dropped_at = None
                table.stage_system("takeover", name=ctx.name_of(user_id))
                marked = True
            return Change(table=True) if marked else None

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
