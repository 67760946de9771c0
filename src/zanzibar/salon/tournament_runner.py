"""The tournaments' runner: one node at a time decides and does each tournament's next step.

Everything is stored as it happens (tables ``tournaments``, ``tournament_players``,
``tournament_games``), and the runner decides what to do next only from what is
stored: :meth:`TournamentRunner.advance` reads a tournament and does the next
step (start it, pair the next round and open its tables, or finish it). So a
salon restarted mid-tournament carries on from the database: the tables of the
round are restored by the salon like any table, and the runner resumes.

**One runner for the whole salon.** Of several salon processes on one database,
only the holder of the lease on the pseudo-table :data:`RUNNER_LEASE` (a
negative id: no table has it) advances tournaments; the others' pokes (a game
finished on their table, a tournament full) do nothing, since the runner's tick
sees the same facts in the database within ``tick`` seconds. The lease is taken
at load, tried again at every tick and at every poke, and renewed with every
other lease of the node (``Salon._renew_leases``); when its node dies it lapses
and the next node to try takes it over. Two runners at
once (a node paused past its lease) still cannot both start, pair or end a
tournament: those writes are fenced on the state or round they were decided
from (:func:`zanzibar.salon.persistence.fenced`), and the loser says nothing.
With the in-process leases of a single salon the one process is the runner.

Hooks the salon calls (``service.py``): :meth:`~TournamentRunner.finish_ops` as
the table context's ``finish_ops`` (a game's result stored in the same
transaction as its end), :meth:`~TournamentRunner.committed` among the actors'
hooks, :meth:`~TournamentRunner.load` before the tables are restored,
:meth:`~TournamentRunner.resume` after, :meth:`~TournamentRunner.stop` when it
stops. A game abandoned (the table closed with nobody left) counts as lost for
every entrant at it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from zanzibar.engine.rules import Outcome
from zanzibar.l10n import Msg, Voice
from zanzibar.salon import models as m
from zanzibar.salon.changes import Change
from zanzibar.salon.fields import end_tasks
from zanzibar.salon.messages import display_name
from zanzibar.salon.persistence import Fenced, Op, fenced
from zanzibar.salon.swiss import DRAW, LOSS, WIN, PairingImpossible, entrants_after, pair_round
from zanzibar.salon.tables import Table
from zanzibar.salon.tournament_book import Board, _points_key, game_points
from zanzibar.salon.tournament_ports import TournamentPorts
from zanzibar.salon.tournament_tables import TournamentTables

log = logging.getLogger(__name__)

#: Seconds between checks of every open tournament (start times, abandoned games).
TICK = 5.0
#: The pseudo-table whose lease makes a node the tournaments' runner (tables have ids > 0).
RUNNER_LEASE = -1


class TournamentRunner(TournamentTables):
    """Advances every open tournament, on the node holding :data:`RUNNER_LEASE`."""

    def __init__(self, ports: TournamentPorts, tick: float = TICK) -> None:
        super().__init__(ports)
        self.tick = tick
        self._locks: dict[int, asyncio.Lock] = {}
        self._next_id = 1
        #: Steps of the runner under way (``settle`` waits for them; cancelled at stop).
        self._steps: set[asyncio.Task[Any]] = set()

    # -- life cycle ----------------------------------------------------------------

    async def load(self) -> None:
        """Load the next id and the boards of the games being played (before the salon
        restores its tables, so that nothing waits between restoring and resuming);
        take the runner's lease if it is free."""
        store = self.ports.store
        self._next_id = await self._largest_id() + 1
        running = await store.read(
            select(m.tournament_games, m.tournaments.c.state)
            .join(m.tournaments, m.tournaments.c.id == m.tournament_games.c.tournament_id)
            .where(m.tournaments.c.state == "running")
        )
        # read here, not in SQL: a JSON column stores None as JSON null, which IS NULL misses
        # (the boards were never loaded: a forfeit after a restart went uncounted)
        open_games = [row for row in running if row.result is None]
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
        await self.take_runner()

    async def _largest_id(self) -> int:
        rows = await self.ports.store.read(select(func.max(m.tournaments.c.id)))
        return int(rows[0][0] or 0)

    def resume(self) -> None:
        """Start the runner: every open tournament is advanced soon, then every ``tick``."""
        self._timer(self._ticker(), "tournaments")

    async def stop(self) -> None:
        """The salon stops: the runner, its steps under way and the no-show timers end.

        They are awaited, not only cancelled: a step cancelled in the middle of a database
        call must give its connection back before the salon closes the database. Left
        running, such a step outlived the salon, and at the end of the event loop the
        database driver's close waited for a worker thread that had already ended: the
        process hung for good (seen in the test suite). At most ``STOP_WAIT_S`` seconds.
        The runner's lease is left to lapse (or to :meth:`release_runner` on a clean stop)."""
        await end_tasks([*self._timers, *self._steps], grace=0.0)

    async def release_runner(self) -> None:
        """Give the runner's lease up (a clean stop: another node takes over at once;
        if the leases cannot be reached, it lapses instead)."""
        if self.is_runner:
            try:
                await self.ports.leases.release(RUNNER_LEASE)
            except Exception:
                log.warning("the tournaments' runner lease could not be released; it will lapse")

    @property
    def is_runner(self) -> bool:
        """Whether this node holds the runner's lease (as of its last renewal)."""
        return RUNNER_LEASE in self.ports.leases.held()

    async def take_runner(self) -> bool:
        """Whether this node is the runner, taking the lease if nobody holds it."""
        if self.is_runner:
            return True
        try:
            lease = await self.ports.leases.acquire(RUNNER_LEASE)
        except Exception:
            log.exception("the tournaments' runner lease could not be asked for")
            return False
        if lease is not None:
            log.info("node %s runs the tournaments (epoch %s)", lease.node, lease.epoch)
        return lease is not None

    async def _bot_entrants(self, ids: Sequence[int]) -> dict[int, frozenset[int]]:
        if not ids:
            return {}
        rows = await self.ports.store.read(
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
        seconds (start times, games abandoned, anything a crash left half done),
        if this node is the runner (else try to become it); on every node, arm the
        stored no-show deadlines of the tournament tables it runs.

        The first pass waits a moment (at most a second) so that the salon's own
        restored timers get the database first. A pass that fails (the database or
        Redis restarting) is logged and the next one tries again: the ticker never
        ends before the salon stops, and a runner's lease lost meanwhile (Redis
        forgot it) is taken again by the first node to tick."""
        await asyncio.sleep(min(self.tick, 1.0))
        failing = False
        while True:
            try:
                await self._tick_once()
            except Exception as exc:
                if not failing:  # once per outage, not every tick
                    log.warning("the tournaments' tick failed (%s); trying again", exc)
                failing = True
            else:
                if failing:
                    log.info("the tournaments' tick works again")
                failing = False
            await asyncio.sleep(self.tick)

    async def _tick_once(self) -> None:
        await self.resume_no_shows()
        if not await self.take_runner():
            return
        rows = await self.ports.store.read(
            select(m.tournaments.c.id).where(m.tournaments.c.state.in_(("registering", "running")))
        )
        for (tid,) in rows:
            try:
                await self.advance(tid)
            except Exception:
                log.exception("tournament %s could not advance", tid)

    def _poke(self, tid: int) -> None:
        """Advance ``tid`` beside the caller (the salon's ``settle`` waits for it)."""
        task = asyncio.ensure_future(self.advance(tid))
        task.set_name(f"tournament-{tid}")
        self._steps.add(task)
        task.add_done_callback(self._steps.discard)
        self.ports.spawn(task)

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
        done = {"result": _points_key(points), "no_show_at": None}  # nobody to wait for now
        return [(self._game_row(board), done)]

    def committed(self, table: Table, change: Change) -> None:
        """A table's change is stored (an actor's hook): a finished game may end a round."""
        if change.finished is not None:
            self.table_finished(table)

    def table_finished(self, table: Table) -> None:
        """A game finished and is stored: the runner may start the next round."""
        board = self.boards.pop(table.id, None)
        if board is not None:
            self._poke(board.tournament)

    # -- the steps -----------------------------------------------------------------

    async def advance(self, tid: int, force: bool = False) -> None:
        """Do the next step of tournament ``tid``, from what is stored (on the runner only)."""
        if not await self.take_runner():
            return
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            row = await self._row(tid)
            if row is None:
                return
            if row.state == "registering":
                players = await self._players(tid)
                due = row.starts_at is not None and self.clock() >= row.starts_at
                full = len(players) >= row.max_players
                if not (force or due or full):
                    return
                if len(players) < 2:
                    await self._end(row, "cancelled", "too_few")
                    return
                if not await self._begin(row, players):
                    return
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

    @staticmethod
    def _tournament_row(row: Any, *where: Any) -> Any:
        """The fenced update of a tournament's row as it was read (``where``: what must
        still hold), so that of two runners only one moves it on."""
        t = m.tournaments.c
        condition = t.id == row.id
        for clause in where:
            condition = condition & clause
        return fenced(update(m.tournaments).where(condition))

    async def _begin(self, row: Any, players: list[Any]) -> bool:
        """Registration closes: seeds by registration order, the state is running.
        False if another runner began it (or the host cancelled it) meanwhile."""
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
        state = m.tournaments.c.state == "registering"
        ops.append((self._tournament_row(row, state), {"state": "running"}))
        try:
            await self.ports.store.write(ops)
        except Fenced:
            log.info("tournament %s: begun elsewhere", row.id)
            return False
        self._tell(row.id, players, "started", {"count": len(players), "rounds": row.rounds})
        return True

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
            moved = self._tournament_row(row, m.tournaments.c.round == row.round)
            try:
                await self.ports.store.write(
                    [(moved, {"round": number}), (insert(m.tournament_games), new)]
                )
            except (Fenced, IntegrityError):
                log.info("tournament %s: round %s paired elsewhere", tid, number)
                return
            games = await self._games(tid)
        row = await self._row(tid)
        assert row is not None
        await self._open_round(row, [g for g in games if g.round == number], players)
        self._tell(tid, players, "round", {"round": number, "rounds": row.rounds})

    async def _reconcile(self, open_games: list[Any]) -> None:
        """Results of games that ended without the hook (abandoned, or lost in a crash).

        ``open_games`` were read before: a game may have ended since, its result stored
        by the hook in the same transaction as its end (counting a forfeit). So the
        results are read again *after* the games' states: a game seen ended whose result
        is still unset really ended without the hook, and nothing overwrites the hook's."""
        ids = [g.game_id for g in open_games if g.game_id is not None]
        if not ids:
            return
        rows = await self.ports.store.read(
            select(m.games.c.id, m.games.c.status).where(m.games.c.id.in_(ids))
        )
        status = dict(rows)
        g = m.tournament_games.c
        again = await self.ports.store.read(select(g.game_id, g.result).where(g.game_id.in_(ids)))
        settled = {game_id for game_id, result in again if result is not None}
        open_games = [game for game in open_games if game.game_id not in settled]
        players = await self.ports.store.read(
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
            if state == "abandoned" or (
                state is None and self.ports.actor_of(game.table_id) is None
            ):
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
            done = {"result": _points_key(points), "no_show_at": None}
            ops.append((self._game_row(board), done))
        if ops:
            await self.ports.store.write(ops)

    async def _end(self, row: Any, state: str, note: str | None) -> bool:
        """Cancel or finish a tournament and tell its entrants; False if its state
        changed since ``row`` was read (another runner, or the host, came first)."""
        ended = self._tournament_row(row, m.tournaments.c.state == row.state)
        try:
            await self.ports.store.write(
                [(ended, {"state": state, "finished": time.time(), "note": note})]
            )
        except Fenced:
            log.info("tournament %s: already %s elsewhere", row.id, row.state)
            return False
        players = await self._players(row.id)
        if state == "cancelled":
            self._tell(row.id, players, "cancelled", {})
            return True
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
        return True

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
