"""Standing in the salon: rated tables, the rating processor, leaderboards, profiles.

How ratings stay consistent with the games, in one process or several:

1. When a game finishes, the salon stores its finishing order (``game_standings``:
   place by seat, leavers last) in the same transaction as the result
   (:meth:`Standing.finish_ops`).
2. After that commit, and at every start, the *processor* rates the finished games
   not rated yet, oldest finish first (:meth:`Standing.process`). Rating one game
   is one transaction: the marker row ``rated_games`` (keyed by game id, with a
   unique sequence number), the players' new ``ratings`` and their
   ``rating_history``. A game is therefore rated exactly once, and two processes
   racing on the same game or on the same sequence number cannot both commit:
   the loser's transaction fails and it reads again.
3. ``zanzibar ratings rebuild`` (:func:`rebuild`) replays the marker rows in
   sequence order from the stored finishing orders and recomputes every rating
   and history row: the same numbers as the live updates, since both go through
   :func:`rate_game`.

A game counts for a rating when its options match a rated family
(:func:`zanzibar.salon.ratings.family_of`), its table is not unrated, at least
one account plays and no guest does. Abandoned games never count.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from zanzibar.l10n.msg import Msg
from zanzibar.salon import models as m
from zanzibar.salon.accounts import name_key
from zanzibar.salon.changes import TableHooks
from zanzibar.salon.errors import SalonError
from zanzibar.salon.persistence import Op, Store
from zanzibar.salon.ratings import (
    BOT_ANCHORS,
    FAMILIES,
    PROVISIONAL_GAMES,
    Skill,
    bot_anchor,
    family_of,
    placings,
    rate,
    with_leavers,
)
from zanzibar.salon.stats import stats_from_rows

log = logging.getLogger(__name__)

#: Largest leaderboard page; also the default.
LEADERBOARD_PAGE_MAX = 100
#: Games listed on a profile.
PROFILE_GAMES = 20
#: Points of rating history per family on a profile (the latest).
PROFILE_HISTORY = 200


@dataclass(frozen=True)
class Player:
    """One seat of a stored game, as rating needs it."""

    seat: int
    user_id: int | None
    bot: str | None
    guest: bool


@dataclass(frozen=True)
class Change:
    """One person's rating change in one game."""

    user_id: int
    place: int
    before: Skill
    after: Skill


def rate_game(
    family: str,
    players: Sequence[Player],
    places: Sequence[int],
    current: Mapping[int, Skill],
) -> list[Change]:
    """The rating changes of one game: people move, bots are fixed anchors.

    ``current`` holds the skill of each person who has one (others are newcomers).
    """
    skills = [
        bot_anchor(family, p.bot or "")
        if p.bot is not None or p.user_id is None
        else current.get(p.user_id, Skill())
        for p in players
    ]
    after = rate(skills, places)
    return [
        Change(p.user_id, places[i], skills[i], after[i])
        for i, p in enumerate(players)
        if p.bot is None and p.user_id is not None
    ]


def counts(flag: bool | None, family: str | None, players: Sequence[Player]) -> bool:
    """Whether a finished game counts for the ratings (see the module's rules)."""
    humans = [p for p in players if p.bot is None]
    return (
        family is not None
        and flag is not False
        and len(players) >= 2
        and bool(humans)
        and all(p.user_id is not None and not p.guest for p in humans)
    )


def rated_flag(message: Mapping[str, Any]) -> bool | None:
    """The ``rated`` field of ``table.create``: true, false or absent (None).

    >>> rated_flag({}), rated_flag({"rated": False})
    (None, False)
    """
    value = message.get("rated")
    if value is None or isinstance(value, bool):
        return value
    raise SalonError("invalid", Msg("error-rated-flag"))


class Standing(TableHooks):
    """The salon's ratings, leaderboards and profiles over one store.

    Tables reach it through :attr:`TableContext.standing` (seat checks, kicks, the
    finishing order); the salon calls :meth:`committed` after each stored change.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        #: The ``rated`` choice of open tables (True, False or None: by default).
        self.table_flags: dict[int, bool | None] = {}
        #: Seats whose player the host sent away, per running game.
        self._kicked: dict[int, set[int]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        #: Games rated by this process (for tests and logs).
        self.rated_count = 0

    # -- life cycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Load the open tables' choices and rate what a stop or a crash left unrated."""
        rows = await self.store.read(
            select(m.table_rated.c.table_id, m.table_rated.c.rated)
            .join(m.tables, m.tables.c.id == m.table_rated.c.table_id)
            .where(m.tables.c.closed.is_(None))
        )
        self.table_flags = {int(r[0]): r[1] for r in rows}
        self._task = asyncio.create_task(self._run(), name="salon-ratings")
        self.kick()

    async def load_flags(self, table_ids: Sequence[int]) -> None:
        """Read the ``rated`` choice of tables loaded later (claimed from a node that died)."""
        rows = await self.store.read(
            select(m.table_rated.c.table_id, m.table_rated.c.rated).where(
                m.table_rated.c.table_id.in_(list(table_ids))
            )
        )
        for table_id, flag in rows:
            self.table_flags[int(table_id)] = flag

    def committed(self, _table: Any, change: Any) -> None:
        """An actor stored a change: rate the game it finished, if any."""
        if change.finished is not None:
            self.kick()

    async def stop(self) -> None:
        """Stop the processor (whatever it did not rate is rated at the next start)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def kick(self) -> None:
        """Ask the processor to look for finished games to rate."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self.process()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("rating finished games failed; retried at the next game")

    # -- hooks called by the salon ---------------------------------------------------

    def on_create(self, table_id: int, guest: bool, message: Mapping[str, Any]) -> list[Op]:
        """Check ``table.create``'s ``rated`` field; the op storing it (with the table)."""
        flag = rated_flag(message)
        if flag is True and guest:
            raise SalonError("forbidden", Msg("error-rated-table-guest"))
        self.table_flags[table_id] = flag
        return [(insert(m.table_rated), {"table_id": table_id, "rated": flag})]

    def check_seat(self, table_id: int, guest: bool) -> None:
        """A guest may not sit at a table created rated (``forbidden``)."""
        if guest and self.table_flags.get(table_id) is True:
            raise SalonError("forbidden", Msg("error-rated-table-guest"))

    def mark(self, table_json: dict[str, Any]) -> dict[str, Any]:
        """Add ``rated`` (true, false or null: rated when every player has an account)
        to a table as the protocol sends it."""
        table_json["rated"] = self.table_flags.get(int(table_json["id"]))
        return table_json

    def kicked(self, game_id: int | None, seat: int) -> None:
        """The host sent the player of ``seat`` away during game ``game_id``.

        Unlike a player who leaves, they do not lose the game for it (a host must not
        be able to sink someone's rating): the bot that plays on decides their place.
        Kept in memory: after a restart mid-game they count as having left.
        """
        if game_id is not None:
            self._kicked.setdefault(game_id, set()).add(seat)

    def rated_of(self, table_id: int) -> bool | None:
        """The ``rated`` choice of an open table (None: by default)."""
        return self.table_flags.get(table_id)

    def finish_ops_of(self, table: Any, outcome: Any) -> list[Op]:
        """:meth:`finish_ops` for a table whose game just ended (before its seats are reset).

        Reads ``table.game_id``, ``table.rules.name``, ``table.match.events`` and
        which seats ``left``; ``outcome`` is the rules' :class:`Outcome`.
        """
        match = table.match
        kicked = self._kicked.pop(int(table.game_id), set())
        return self.finish_ops(
            int(table.game_id),
            str(table.rules.name),
            outcome.to_json(),
            match.events if match is not None else [],
            [i for i, seat in enumerate(table.seats) if seat.left and i not in kicked],
            len(table.seats),
        )

    def finish_ops(
        self,
        game_id: int,
        game: str,
        outcome: Mapping[str, Any],
        events: Iterable[tuple[int, Any]],
        left: Sequence[int],
        seats: int,
    ) -> list[Op]:
        """The op storing a finished game's order, in the transaction of its result."""
        places = with_leavers(placings(game, seats, outcome, events), left)
        return [
            (
                insert(m.game_standings),
                {"game_id": game_id, "places": places, "left": sorted(set(left))},
            )
        ]

    # -- the processor ---------------------------------------------------------------

    async def process(self) -> int:
        """Rate every finished game not rated yet, oldest finish first; how many."""
        done = 0
        async with self._lock:
            while True:
                pending = await self.store.read(
                    select(m.games.c.id)
                    .join(m.game_standings, m.game_standings.c.game_id == m.games.c.id)
                    .outerjoin(m.rated_games, m.rated_games.c.game_id == m.games.c.id)
                    .where((m.games.c.status == "finished") & m.rated_games.c.game_id.is_(None))
                    .order_by(m.games.c.finished, m.games.c.id)
                    .limit(100)
                )
                if not pending:
                    return done
                for (game_id,) in pending:
                    for attempt in range(5):
                        try:
                            await self._rate_stored(int(game_id))
                            break
                        except IntegrityError:
                            # another process rated it, or took this sequence number
                            log.info(
                                "game %s: rating raced (attempt %d); reading again",
                                game_id,
                                attempt,
                            )
                    else:
                        raise RuntimeError(f"game {game_id} could not be rated")
                    done += 1

    async def _rate_stored(self, game_id: int) -> None:
        """Rate one stored game in one transaction (or mark it as not counting)."""
        seq_rows = await self.store.read(select(func.max(m.rated_games.c.seq)))
        seq = int(seq_rows[0][0] or 0) + 1
        already = await self.store.read(
            select(m.rated_games.c.game_id).where(m.rated_games.c.game_id == game_id)
        )
        if already:
            return
        game, places, players, flag = await self._game_facts(game_id)
        family = family_of(game.game, dict(game.options))
        ok = counts(flag, family, players)
        ops: list[Op] = [
            (
                insert(m.rated_games),
                {"game_id": game_id, "seq": seq, "family": family, "rated": ok},
            )
        ]
        if ok:
            assert family is not None
            humans = [p.user_id for p in players if p.bot is None and p.user_id is not None]
            current = await self._current(family, humans)
            changes = rate_game(family, players, places, {u: s for u, (s, _) in current.items()})
            when = float(game.finished or time.time())
            for change in changes:
                ops += _change_ops(family, game_id, change, current.get(change.user_id), when)
        await self.store.write(ops)
        if ok:
            self.rated_count += 1

    async def _game_facts(self, game_id: int) -> tuple[Any, list[int], list[Player], bool | None]:
        game = (await self.store.read(select(m.games).where(m.games.c.id == game_id)))[0]
        standing = await self.store.read(
            select(m.game_standings.c.places).where(m.game_standings.c.game_id == game_id)
        )
        places = [int(p) for p in standing[0][0]]
        players = await _players(self.store, [game_id])
        flags = await self.store.read(
            select(m.table_rated.c.rated).where(m.table_rated.c.table_id == game.table_id)
        )
        flag = flags[0][0] if flags else None
        return game, places, players.get(game_id, []), flag

    async def _current(self, family: str, users: Sequence[int]) -> dict[int, tuple[Skill, int]]:
        if not users:
            return {}
        rows = await self.store.read(
            select(m.ratings.c.user_id, m.ratings.c.mu, m.ratings.c.sigma, m.ratings.c.games).where(
                (m.ratings.c.family == family) & m.ratings.c.user_id.in_(list(users))
            )
        )
        return {int(r[0]): (Skill(float(r[1]), float(r[2])), int(r[3])) for r in rows}

    # -- reading -----------------------------------------------------------------------

    async def rating_of(self, user_id: int, family: str) -> dict[str, Any] | None:
        """One player's rating in a family (for seeding tournaments, say), or None."""
        rows = await self.store.read(
            select(m.ratings).where(
                (m.ratings.c.family == family) & (m.ratings.c.user_id == user_id)
            )
        )
        if not rows:
            return None
        row = rows[0]
        return {
            "family": family,
            "rating": int(row.rating),
            "mu": float(row.mu),
            "sigma": float(row.sigma),
            "games": int(row.games),
            "provisional": int(row.games) < PROVISIONAL_GAMES,
            "rank": await self._rank(family, int(row.rating)),
        }

    async def _rank(self, family: str, rating: int) -> int:
        rows = await self.store.read(
            select(func.count())
            .select_from(m.ratings)
            .where((m.ratings.c.family == family) & (m.ratings.c.rating > rating))
        )
        return int(rows[0][0]) + 1

    async def leaderboard(
        self,
        family: str,
        cursor: int = 0,
        limit: int | None = None,
        viewer: int | None = None,
    ) -> dict[str, Any]:
        """One page of a family's leaderboard, best first, with the viewer's own place.

        ``cursor`` counts the players before the page; ``next`` is the cursor of
        the following page (None on the last). Players who share a rating share
        a rank.
        """
        if family not in FAMILIES:
            raise SalonError(
                "not_found", Msg("error-no-family", family=family[:32], known=", ".join(FAMILIES))
            )
        size = LEADERBOARD_PAGE_MAX if limit is None else limit
        if not 1 <= size <= LEADERBOARD_PAGE_MAX or cursor < 0:
            raise SalonError("invalid", Msg("error-page", largest=LEADERBOARD_PAGE_MAX))
        total = int(
            (
                await self.store.read(
                    select(func.count()).select_from(m.ratings).where(m.ratings.c.family == family)
                )
            )[0][0]
        )
        rows = await self.store.read(
            select(m.ratings, m.users.c.name, m.profile_settings.c.hidden)
            .join(m.users, m.users.c.id == m.ratings.c.user_id)
            .outerjoin(m.profile_settings, m.profile_settings.c.user_id == m.ratings.c.user_id)
            .where(m.ratings.c.family == family)
            .order_by(m.ratings.c.rating.desc(), m.ratings.c.games.desc(), m.ratings.c.user_id)
            .offset(cursor)
            .limit(size)
        )
        players = []
        rank = 0
        previous: int | None = None
        for index, row in enumerate(rows):
            rating = int(row.rating)
            if previous is None:
                rank = await self._rank(family, rating)  # ties may start on an earlier page
            elif rating != previous:
                rank = cursor + index + 1  # sorted best first: everyone above is better
            previous = rating
            players.append(
                {
                    "rank": rank,
                    "user": int(row.user_id),
                    "name": row.name,
                    "rating": rating,
                    "games": int(row.games),
                    "provisional": int(row.games) < PROVISIONAL_GAMES,
                    "profile": not bool(row.hidden),
                }
            )
        you = await self.rating_of(viewer, family) if viewer is not None else None
        return {
            "family": family,
            "players": players,
            "total": total,
            "next": cursor + size if cursor + size < total else None,
            "provisional_games": PROVISIONAL_GAMES,
            "you": you,
            "bots": [
                {"level": level, "rating": Skill(mu, sigma).rating}
                for level, (mu, sigma) in sorted(
                    BOT_ANCHORS.get(family, {}).items(), key=lambda kv: -kv[1][0]
                )
            ],
        }

    async def user_id_of(self, name: str) -> int | None:
        """The account named ``name`` (found as at sign-in: NFKC, case-folded), or None."""
        key = name_key(" ".join(str(name).split()))
        rows = await self.store.read(select(m.users.c.id).where(m.users.c.name_key == key))
        return int(rows[0][0]) if rows else None

    async def hidden(self, user_id: int) -> bool:
        """Whether a player hid their profile."""
        rows = await self.store.read(
            select(m.profile_settings.c.hidden).where(m.profile_settings.c.user_id == user_id)
        )
        return bool(rows and rows[0][0])

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        """Hide or show one's profile (stored with the account)."""
        exists = await self.store.read(
            select(m.profile_settings.c.user_id).where(m.profile_settings.c.user_id == user_id)
        )
        row = {"hidden": bool(hidden)}
        where = m.profile_settings.c.user_id == user_id
        try:
            if exists:
                await self.store.write([(update(m.profile_settings).where(where), row)])
            else:
                await self.store.write([(insert(m.profile_settings), {"user_id": user_id, **row})])
        except IntegrityError:
            await self.store.write([(update(m.profile_settings).where(where), row)])

    async def profile(self, user_id: int, viewer: int) -> dict[str, Any] | None:
        """A player's profile as ``viewer`` sees it; None if unknown, a guest or hidden.

        Ratings per family with their history (the rating after each rated game),
        the last games (a game of a private table only if ``viewer`` played in
        it) and statistics per game.
        """
        users = await self.store.read(select(m.users).where(m.users.c.id == user_id))
        if not users or users[0].guest:
            return None
        user = users[0]
        is_hidden = await self.hidden(user_id)
        if is_hidden and viewer != user_id:
            return None
        ratings = []
        for family in FAMILIES:
            mine = await self.rating_of(user_id, family)
            if mine is None:
                continue
            history = await self.store.read(
                select(
                    m.rating_history.c.game_id,
                    m.rating_history.c.rating,
                    m.rating_history.c.before,
                    m.rating_history.c.place,
                    m.rating_history.c.created,
                )
                .where(
                    (m.rating_history.c.user_id == user_id) & (m.rating_history.c.family == family)
                )
                .order_by(m.rating_history.c.created.desc(), m.rating_history.c.game_id.desc())
                .limit(PROFILE_HISTORY)
            )
            mine["history"] = [
                {
                    "game": int(h.game_id),
                    "rating": int(h.rating),
                    "change": int(h.rating) - int(h.before),
                    "place": int(h.place),
                    "date": _iso(h.created),
                }
                for h in reversed(history)
            ]
            ratings.append(mine)
        return {
            "user": user.name,
            "id": user_id,
            "hidden": is_hidden if viewer == user_id else False,
            "ratings": ratings,
            "games": await self._last_games(user_id, viewer),
            "stats": await self._stats(user_id),
            "provisional_games": PROVISIONAL_GAMES,
        }

    async def _stats(self, user_id: int) -> dict[str, dict[str, int]]:
        rows = await self.store.read(
            select(m.games.c.game, m.game_players.c.result)
            .join(m.games, m.games.c.id == m.game_players.c.game_id)
            .where((m.game_players.c.user_id == user_id) & (m.games.c.status == "finished"))
        )
        return stats_from_rows((r[0], r[1]) for r in rows)

    async def _last_games(self, user_id: int, viewer: int) -> list[dict[str, Any]]:
        mine = select(m.game_players.c.game_id).where(m.game_players.c.user_id == user_id)
        rows = await self.store.read(
            select(m.games, m.tables.c.private, m.rated_games.c.family, m.rated_games.c.rated)
            .join(m.tables, m.tables.c.id == m.games.c.table_id)
            .outerjoin(m.rated_games, m.rated_games.c.game_id == m.games.c.id)
            .where(m.games.c.id.in_(mine) & (m.games.c.status == "finished"))
            .order_by(m.games.c.finished.desc(), m.games.c.id.desc())
            .limit(PROFILE_GAMES * 3)
        )
        ids = [int(r.id) for r in rows]
        seated = await self.store.read(
            select(
                m.game_players.c.game_id,
                m.game_players.c.seat,
                m.game_players.c.user_id,
                m.game_players.c.name,
                m.game_players.c.bot,
                m.game_players.c.result,
            )
            .where(m.game_players.c.game_id.in_(ids))
            .order_by(m.game_players.c.game_id, m.game_players.c.seat)
        )
        by_game: dict[int, list[Any]] = {}
        for p in seated:
            by_game.setdefault(int(p.game_id), []).append(p)
        changes = {
            int(h.game_id): (int(h.rating) - int(h.before), int(h.place))
            for h in await self.store.read(
                select(
                    m.rating_history.c.game_id,
                    m.rating_history.c.rating,
                    m.rating_history.c.before,
                    m.rating_history.c.place,
                ).where(
                    (m.rating_history.c.user_id == user_id) & m.rating_history.c.game_id.in_(ids)
                )
            )
        }
        out: list[dict[str, Any]] = []
        for row in rows:
            plist = by_game.get(int(row.id), [])
            if row.private and viewer not in {p.user_id for p in plist}:
                continue
            me = next((p for p in plist if p.user_id == user_id), None)
            change = changes.get(int(row.id))
            out.append(
                {
                    "id": int(row.id),
                    "game": row.game,
                    "family": row.family if row.rated else None,
                    "finished": _iso(row.finished),
                    "result": me.result if me is not None else None,
                    "place": change[1] if change else None,
                    "change": change[0] if change else None,
                    "players": [p.name for p in plist],
                    "replay": f"/api/games/{int(row.id)}",
                }
            )
            if len(out) >= PROFILE_GAMES:
                break
        return out


def _change_ops(
    family: str, game_id: int, change: Change, before: tuple[Skill, int] | None, when: float
) -> list[Op]:
    after = change.after
    row = {
        "mu": after.mu,
        "sigma": after.sigma,
        "rating": after.rating,
        "games": (before[1] if before else 0) + 1,
        "updated": when,
    }
    where = (m.ratings.c.family == family) & (m.ratings.c.user_id == change.user_id)
    ops: list[Op] = [
        (update(m.ratings).where(where), row)
        if before is not None
        else (insert(m.ratings), {"family": family, "user_id": change.user_id, **row})
    ]
    ops.append(
        (
            insert(m.rating_history),
            {
                "game_id": game_id,
                "user_id": change.user_id,
                "family": family,
                "place": change.place,
                "mu": after.mu,
                "sigma": after.sigma,
                "rating": after.rating,
                "before": change.before.rating,
                "created": when,
            },
        )
    )
    return ops


async def _players(store: Store, game_ids: Sequence[int]) -> dict[int, list[Player]]:
    out: dict[int, list[Player]] = {}
    for start in range(0, len(game_ids), 500):
        chunk = list(game_ids[start : start + 500])
        rows = await store.read(
            select(
                m.game_players.c.game_id,
                m.game_players.c.seat,
                m.game_players.c.user_id,
                m.game_players.c.bot,
                m.users.c.guest,
            )
            .outerjoin(m.users, m.users.c.id == m.game_players.c.user_id)
            .where(m.game_players.c.game_id.in_(chunk))
            .order_by(m.game_players.c.game_id, m.game_players.c.seat)
        )
        for r in rows:
            out.setdefault(int(r.game_id), []).append(
                Player(int(r.seat), r.user_id, r.bot, bool(r.guest))
            )
    return out


def _iso(seconds: float | None) -> str | None:
    from zanzibar.salon.records import iso_time

    return iso_time(seconds)


async def rebuild(store: Store) -> dict[str, int]:
    """Recompute every rating and history row from the stored games, in rating order.

    The store must be started (migrated). Runs as one transaction of its own
    (deleting, then inserting), outside the salon's batching writer; the
    numbers equal the live updates because both go through :func:`rate_game`
    with the same inputs in the same order. Returns counts for the report.
    """
    marks = await store.read(
        select(m.rated_games.c.game_id, m.rated_games.c.family, m.games.c.finished)
        .join(m.games, m.games.c.id == m.rated_games.c.game_id)
        .where(m.rated_games.c.rated.is_(True))
        .order_by(m.rated_games.c.seq)
    )
    ids = [int(r.game_id) for r in marks]
    places: dict[int, list[int]] = {}
    for start in range(0, len(ids), 500):
        for r in await store.read(
            select(m.game_standings.c.game_id, m.game_standings.c.places).where(
                m.game_standings.c.game_id.in_(ids[start : start + 500])
            )
        ):
            places[int(r.game_id)] = [int(p) for p in r.places]
    players = await _players(store, ids)
    current: dict[tuple[str, int], tuple[Skill, int]] = {}
    updated: dict[tuple[str, int], float] = {}
    history: list[dict[str, Any]] = []
    skills: dict[str, dict[int, Skill]] = {}
    for mark in marks:
        game_id, family = int(mark.game_id), str(mark.family)
        when = float(mark.finished or 0.0)
        known = skills.setdefault(family, {})
        changes = rate_game(family, players.get(game_id, []), places[game_id], known)
        for change in changes:
            key = (family, change.user_id)
            games = current[key][1] if key in current else 0
            current[key] = (change.after, games + 1)
            known[change.user_id] = change.after
            updated[key] = when
            history.append(
                {
                    "game_id": game_id,
                    "user_id": change.user_id,
                    "family": family,
                    "place": change.place,
                    "mu": change.after.mu,
                    "sigma": change.after.sigma,
                    "rating": change.after.rating,
                    "before": change.before.rating,
                    "created": when,
                }
            )
    rows = [
        {
            "family": family,
            "user_id": user_id,
            "mu": skill.mu,
            "sigma": skill.sigma,
            "rating": skill.rating,
            "games": games,
            "updated": updated[(family, user_id)],
        }
        for (family, user_id), (skill, games) in sorted(current.items())
    ]
    async with store.engine.begin() as conn:
        await conn.execute(delete(m.rating_history))
        await conn.execute(delete(m.ratings))
        if rows:
            await conn.execute(insert(m.ratings), rows)
        if history:
            await conn.execute(insert(m.rating_history), history)
    return {"games": len(marks), "players": len(rows), "history": len(history)}
