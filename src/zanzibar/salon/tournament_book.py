"""Swiss tournaments: what is read and said about them (standings, summaries, events).

The stored facts of a tournament (its row, its entrants, its boards and their
results) read from the database, the standings computed from them, and the
sentences and messages that tell entrants about them, in each one's language.
:class:`TournamentBook` is the lowest layer of
:class:`zanzibar.salon.tournaments.Tournaments` (above it: the tables,
:mod:`~zanzibar.salon.tournament_tables`; the runner,
:mod:`~zanzibar.salon.tournament_runner`; the requests,
:mod:`~zanzibar.salon.tournaments`). :class:`Board` and :func:`game_points` say
what a finished tournament game is worth.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.rules import Outcome
from zanzibar.l10n import Msg, Voice
from zanzibar.salon import models as m
from zanzibar.salon.fields import PROTOCOL
from zanzibar.salon.messages import display_name
from zanzibar.salon.swiss import DRAW, LOSS, WIN, GameResult, Standing, standings
from zanzibar.salon.tournament_ports import TournamentPorts


@dataclass(frozen=True)
class Board:
    """Where a table of a tournament stands: its round, board and seats (entrants)."""

    tournament: int
    round: int
    board: int
    seats: tuple[int | None, ...]
    bots: frozenset[int]  # entrants that are bots (never absent)


def _points_key(points: dict[int, float]) -> dict[str, float]:
    return {str(k): float(v) for k, v in points.items()}


def _points_of(raw: Any) -> dict[int, float]:
    return {int(k): float(v) for k, v in (raw or {}).items()}


def game_points(board: Board, outcome: Outcome | None, absent: Sequence[bool]) -> dict[int, float]:
    """Points of each entrant at a finished (or abandoned: ``outcome`` None) table.

    A win 1, a draw ½, a loss 0; an absent person (a bot played for them) 0; at a
    table of two, the one present against an absent one wins by forfeit.

    >>> b = Board(1, 1, 1, (7, 8), frozenset())
    >>> game_points(b, Outcome((0,), (1,)), [False, False])
    {7: 1.0, 8: 0.0}
    >>> game_points(b, Outcome((0,), (1,)), [True, False])
    {7: 0.0, 8: 1.0}
    >>> game_points(b, None, [False, False])
    {7: 0.0, 8: 0.0}
    """
    points: dict[int, float] = {}
    for seat, entrant in enumerate(board.seats):
        if entrant is None:
            continue
        if outcome is None or absent[seat]:
            points[entrant] = LOSS
        elif outcome.draw:
            points[entrant] = DRAW
        else:
            points[entrant] = WIN if seat in outcome.winners else LOSS
    people = [(s, e) for s, e in enumerate(board.seats) if e is not None]
    if outcome is not None and len(board.seats) == 2 and len(people) == 2:
        gone = [absent[s] for s, _ in people]
        if gone.count(True) == 1:
            for s, e in people:
                points[e] = LOSS if absent[s] else WIN
    return points


class TournamentBook:
    """Reading and telling: the layer of :class:`~zanzibar.salon.tournaments.Tournaments`
    that never changes a tournament."""

    ports: TournamentPorts

    @staticmethod
    def _result_text(game: Any, names: dict[int, str], lang: str) -> str:
        points = _points_of(game.result)
        voice = Voice(lang)
        if game.board == 0:
            who = display_name(names.get(game.seats[0], "?"), lang)
            return voice.say(Msg("tournament-result-bye", name=who))
        parts = tuple(
            voice.say(
                Msg(
                    "tournament-result-part",
                    name=display_name(names.get(e, "?"), lang),
                    points=points.get(e, 0.0),
                )
            )
            for e in game.seats
            if e is not None
        )
        return voice.say(Msg("tournament-result", board=game.board, parts=parts))

    def standings_text(
        self, row: Any, table: list[Standing], names: dict[int, str], lang: str
    ) -> str:
        """The standings as sentences: "Standings after round 2 of 3: 1. Anna, ..." """
        voice = Voice(lang)
        head = voice.say(Msg("tournament-standings", round=row.round, rounds=row.rounds))
        lines = [
            voice.say(
                Msg(
                    "tournament-standing-line",
                    rank=s.rank,
                    name=display_name(names.get(s.id, "?"), lang),
                    points=s.score,
                    buchholz=s.buchholz,
                )
            )
            for s in table
        ]
        return " ".join([head, *lines])

    @staticmethod
    def standing_json(line: Standing, names: dict[int, str], lang: str) -> dict[str, Any]:
        """One line of the standings (a bot's name in ``lang``)."""
        return {
            "rank": line.rank,
            "entrant": line.id,
            "name": display_name(names.get(line.id, "?"), lang),
            "seed": line.seed,
            "points": line.score,
            "buchholz": line.buchholz,
            "buchholz_cut1": line.buchholz_cut1,
            "sonneborn_berger": line.sonneborn_berger,
            "games": line.games,
            "wins": line.wins,
            "byes": line.byes,
        }

    async def _standings(self, tid: int, players: list[Any], games: list[Any]) -> list[Standing]:
        seeds = {pl.entrant: pl.seed or pl.entrant for pl in players}
        rounds: dict[int, tuple[list[GameResult], int | None]] = {}
        for g in games:
            if g.result is None:
                continue
            results, _bye = rounds.setdefault(g.round, ([], None))
            if g.board == 0:
                rounds[g.round] = (results, g.seats[0])
            else:
                results.append(GameResult(_points_of(g.result)))
        return standings(seeds, [rounds[r] for r in sorted(rounds)])

    @staticmethod
    def _history(games: list[Any]) -> list[tuple[Any, list[GameResult], int | None]]:
        by_round: dict[int, tuple[list[tuple[int | None, ...]], list[GameResult], list[int]]] = {}
        for g in games:
            tables, results, byes = by_round.setdefault(g.round, ([], [], []))
            if g.board == 0:
                byes.append(g.seats[0])
                continue
            tables.append(tuple(g.seats))
            if g.result is not None:
                results.append(GameResult(_points_of(g.result)))
        return [
            (tuple(t), r, b[0] if b else None)
            for t, r, b in (by_round[k] for k in sorted(by_round))
        ]

    # -- reading -------------------------------------------------------------------

    async def _row(self, tid: int) -> Any:
        rows = await self.ports.store.read(select(m.tournaments).where(m.tournaments.c.id == tid))
        return rows[0] if rows else None

    async def _players(self, tid: int) -> list[Any]:
        return list(
            await self.ports.store.read(
                select(m.tournament_players)
                .where(m.tournament_players.c.tournament_id == tid)
                .order_by(m.tournament_players.c.entrant)
            )
        )

    async def _games(self, tid: int) -> list[Any]:
        return list(
            await self.ports.store.read(
                select(m.tournament_games)
                .where(m.tournament_games.c.tournament_id == tid)
                .order_by(m.tournament_games.c.round, m.tournament_games.c.board)
            )
        )

    async def summary(self, row: Any, lang: str) -> dict[str, Any]:
        """One tournament as the list shows it."""
        count = await self.ports.store.read(
            select(func.count()).where(m.tournament_players.c.tournament_id == row.id)
        )
        return {
            "id": row.id,
            "name": row.name,
            "game": row.game,
            "title": self._title(row.game, lang),
            "preset": row.preset,
            "seats": row.seats,
            "rounds": row.rounds,
            "round": row.round,
            "max_players": row.max_players,
            "players": int(count[0][0]),
            "starts_at": row.starts_at,
            "state": row.state,
            "host": self.ports.name_of(row.host_id),
            "note": row.note,
        }

    def _title(self, game: str, lang: str) -> str:
        try:
            titles = self.ports.rules_for(game).title
        except ZanzibarError:
            return game
        return titles.get(lang) or titles.get("en") or game

    async def list_json(self, lang: str = "en", limit: int = 50) -> list[dict[str, Any]]:
        """The newest tournaments first (``GET /api/tournaments``)."""
        rows = await self.ports.store.read(
            select(m.tournaments).order_by(m.tournaments.c.id.desc()).limit(limit)
        )
        return [await self.summary(row, lang) for row in rows]

    async def show_json(self, tid: int, lang: str = "en") -> dict[str, Any] | None:
        """A tournament with its players, rounds and standings (``GET /api/tournaments/{id}``)."""
        row = await self._row(tid)
        if row is None:
            return None
        players = await self._players(tid)
        games = await self._games(tid)
        names = {pl.entrant: pl.name for pl in players}
        done = [g for g in games if g.result is not None]
        table = await self._standings(tid, players, done)
        rounds: dict[int, list[dict[str, Any]]] = {}
        for g in games:
            rounds.setdefault(g.round, []).append(
                {
                    "board": g.board,
                    "table": g.table_id,
                    "game_id": g.game_id,
                    "players": [names.get(e) if e is not None else None for e in g.seats],
                    "entrants": list(g.seats),
                    "result": {names.get(k, "?"): v for k, v in _points_of(g.result).items()}
                    if g.result is not None
                    else None,
                }
            )
        return {
            **(await self.summary(row, lang)),
            "options": dict(row.options),
            "bot_level": row.bot_level,
            "entrants": [
                {
                    "entrant": pl.entrant,
                    "name": pl.name,
                    "user": pl.user_id,
                    "bot": pl.bot,
                    "seed": pl.seed,
                }
                for pl in players
            ],
            "rounds_played": [{"round": r, "boards": b} for r, b in sorted(rounds.items())],
            "standings": [self.standing_json(s, names, lang) for s in table],
            "standings_text": self.standings_text(row, table, names, lang) if done else "",
        }

    # -- telling people --------------------------------------------------------------

    def _send(self, user_id: int, build: Callable[[str], dict[str, Any]]) -> None:
        self._send_to([user_id], build)

    def _send_to(self, users: list[int], build: Callable[[str], dict[str, Any]]) -> None:
        """A frame to every socket of ``users``: here at once, on the other nodes through
        the salon (the runner is one node; its entrants are on any)."""

        def frame(lang: str) -> dict[str, Any]:
            return {"v": PROTOCOL, **build(lang)}

        for user_id in users:
            for conn in list(self.ports.conns_of(user_id)):
                conn.put(frame(conn.lang))
        self.ports.elsewhere(users, frame)

    def _send_all(
        self, tid: int, players: list[Any], build: Callable[[str], dict[str, Any]]
    ) -> None:
        cache: dict[str, dict[str, Any]] = {}

        def once(lang: str) -> dict[str, Any]:
            if lang not in cache:
                cache[lang] = build(lang)
            return cache[lang]

        self._send_to([pl.user_id for pl in players if pl.user_id is not None], once)

    def _tell(self, tid: int, players: list[Any], kind: str, values: dict[str, Any]) -> None:
        self._send_all(tid, players, self._event(tid, kind, values))

    def _tell_one(self, tid: int, player: Any, kind: str, values: dict[str, Any]) -> None:
        if player.user_id is not None:
            self._send(player.user_id, self._event(tid, kind, values))

    @staticmethod
    def _event(tid: int, kind: str, values: dict[str, Any]) -> Callable[[str], dict[str, Any]]:
        def build(lang: str) -> dict[str, Any]:
            return {
                "type": "tournament.event",
                "tournament": tid,
                "kind": kind,
                **values,
                "text": Voice(lang).say(Msg(f"tournament-{kind}", **values)),
            }

        return build
