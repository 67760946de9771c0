"""Rating finished games from their stored finishing order, exactly once, live or replayed.

How ratings stay consistent with the games, in one process or several:

1. When a game finishes, the salon stores its finishing order (``game_standings``:
   place by seat, leavers last) in the same transaction as the result
   (:meth:`zanzibar.salon.standing.Standing.finish_ops`).
2. After that commit, and at every start, the processor rates the finished games
   not rated yet, oldest finish first (:meth:`RatingProcessor.process`). Rating one
   game is one transaction: the marker row ``rated_games`` (keyed by game id, with
   a unique sequence number), the players' new ``ratings`` and their
   ``rating_history``. The processes of one salon rate one game at a time
   (:func:`one_rater`: on PostgreSQL a transaction-level advisory lock held from
   the first read to the commit, on SQLite, one process by design, a lock of the
   process), so a game ending while its table changes owner, rated by the old
   owner and by the new one (or by a node that just started), is rated once and
   nobody's write fails: the second finds the marker and does nothing. Should two
   writers still meet (the marker's keys refuse the second), the loser reads again.
3. ``zanzibar ratings rebuild`` (:func:`rebuild`) replays the marker rows in
   sequence order from the stored finishing orders and recomputes every rating
   and history row: the same numbers as the live updates, since both go through
   :func:`rate_game`.

A game counts for a rating when its options match a rated family
(:func:`zanzibar.salon.ratings.family_of`), its table is not unrated, at least
one account plays and no guest does. Abandoned games never count.

The pure arithmetic is :mod:`zanzibar.salon.ratings`; this module is its storage.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, exists, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from zanzibar.salon import models as m
from zanzibar.salon.fields import end_tasks
from zanzibar.salon.persistence import Op, Store
from zanzibar.salon.ratings import Skill, bot_anchor, family_of, rate

log = logging.getLogger(__name__)

#: Finished games looked up at once by :meth:`RatingProcessor.process`.
PENDING_PAGE = 100

#: Any constant: the PostgreSQL advisory lock held while one game is rated.
RATING_LOCK = 0x7A726174

#: Reads rows for the rating of one game (the store's reads, or a transaction's).
Read = Callable[[Any], Awaitable[list[Any]]]
#: Stores the rating of one game in one transaction.
Write = Callable[[list[Op]], Awaitable[None]]

#: Per event loop and SQLite file: the lock of the processors of this process.
_SQLITE_LOCKS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


@contextlib.asynccontextmanager
async def one_rater(store: Store) -> AsyncIterator[tuple[Read, Write]]:
    """The reads and the write of one game's rating, no other rater of the salon between.

    Read-then-write is a race between processes (the last rating sequence number,
    whether the game is rated, the players' ratings), and losing it used to show as
    a failed write of the database writer, which also rolled back the table changes
    batched with it. On PostgreSQL the reads and the write run in one transaction
    holding an advisory lock; a SQLite salon is one process, whose processors (one
    per store on the file) take one lock.
    """
    engine = store.engine
    if engine.dialect.name == "postgresql":
        async with engine.begin() as conn:
            await conn.execute(select(func.pg_advisory_xact_lock(RATING_LOCK)))

            async def read(statement: Any) -> list[Any]:
                return list((await conn.execute(statement)).fetchall())

            async def write(ops: list[Op]) -> None:
                for statement, params in ops:
                    await conn.execute(statement, params)

            yield read, write
        return
    locks = _SQLITE_LOCKS.setdefault(asyncio.get_running_loop(), {})
    async with locks.setdefault(str(engine.url), asyncio.Lock()):
        yield reads_of(store), store.write


def reads_of(store: Store) -> Read:
    """How the processor reads: with SQLite's inline writer (``Store.inline``), on a plain
    connection in the loop's thread, as that writer does. aiosqlite hands every step of
    a statement (cursor, execute, fetch, close, the pool's rollback) to its thread and
    back; a finished game's few indexed one-row reads cost far less here."""
    engine = store.sync_engine
    if not store.inline or engine is None:
        return store.read

    async def read(statement: Any) -> list[Any]:
        with engine.connect() as conn:
            return list(conn.execute(statement).fetchall())

    return read


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


class RatingProcessor:
    """Rates the stored finished games not rated yet, in a task woken by :meth:`kick`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        #: Games rated by this process (for tests and logs).
        self.rated_count = 0

    def start(self) -> None:
        """Start the task, and rate at once what a stop or a crash left unrated."""
        self._task = asyncio.create_task(self._run(), name="salon-ratings")
        self.kick()

    async def stop(self) -> None:
        """Stop the task (whatever it did not rate is rated at the next start)."""
        if self._task is not None:
            await end_tasks([self._task], grace=0.0)  # bounded (fields.STOP_WAIT_S)
            self._task = None

    def kick(self) -> None:
        """Ask the task to look for finished games to rate."""
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

    async def process(self) -> int:
        """Rate every finished game not rated yet, oldest finish first; how many this
        process rated or marked as not counting."""
        done = 0
        async with self._lock:
            while True:
                pending = await reads_of(self.store)(
                    select(m.games.c.id)
                    .join(m.game_standings, m.game_standings.c.game_id == m.games.c.id)
                    .outerjoin(m.rated_games, m.rated_games.c.game_id == m.games.c.id)
                    .where((m.games.c.status == "finished") & m.rated_games.c.game_id.is_(None))
                    .order_by(m.games.c.finished, m.games.c.id)
                    .limit(PENDING_PAGE)
                )
                for (game_id,) in pending:
                    for attempt in range(5):
                        try:
                            marked = await self._rate_stored(int(game_id))
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
                    done += marked
                if len(pending) < PENDING_PAGE:
                    # all of them: a game finished since has woken the task again (kick)
                    return done

    async def _rate_stored(self, game_id: int) -> bool:
        """Rate one stored game in one transaction (or mark it as not counting); False if
        another process did it first."""
        async with one_rater(self.store) as (read, write):
            ((already, last),) = await read(
                select(
                    exists().where(m.rated_games.c.game_id == game_id),
                    select(func.max(m.rated_games.c.seq)).scalar_subquery(),
                )
            )
            if already:
                return False  # rated by another process meanwhile (its table changed owner)
            seq = int(last or 0) + 1
            game, places, players, flag = await self._game_facts(read, game_id)
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
                current = await self._current(read, family, humans)
                changes = rate_game(
                    family, players, places, {u: s for u, (s, _) in current.items()}
                )
                when = float(game.finished or time.time())
                for change in changes:
                    ops += change_ops(family, game_id, change, current.get(change.user_id), when)
            await write(ops)
        if ok:
            self.rated_count += 1
        return True

    async def _game_facts(
        self, read: Read, game_id: int
    ) -> tuple[Any, list[int], list[Player], bool | None]:
        # the game, its finishing order and its table's choice in one read (each one row)
        game = (
            await read(
                select(m.games, m.game_standings.c.places, m.table_rated.c.rated)
                .join(m.game_standings, m.game_standings.c.game_id == m.games.c.id)
                .outerjoin(m.table_rated, m.table_rated.c.table_id == m.games.c.table_id)
                .where(m.games.c.id == game_id)
            )
        )[0]
        places = [int(p) for p in game.places]
        players = await load_players(read, [game_id])
        return game, places, players.get(game_id, []), game.rated

    async def _current(
        self, read: Read, family: str, users: Sequence[int]
    ) -> dict[int, tuple[Skill, int]]:
        if not users:
            return {}
        rows = await read(
            select(m.ratings.c.user_id, m.ratings.c.mu, m.ratings.c.sigma, m.ratings.c.games).where(
                (m.ratings.c.family == family) & m.ratings.c.user_id.in_(list(users))
            )
        )
        return {int(r[0]): (Skill(float(r[1]), float(r[2])), int(r[3])) for r in rows}


def change_ops(
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


async def load_players(read: Read, game_ids: Sequence[int]) -> dict[int, list[Player]]:
    out: dict[int, list[Player]] = {}
    for start in range(0, len(game_ids), 500):
        chunk = list(game_ids[start : start + 500])
        rows = await read(
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
    players = await load_players(store.read, ids)
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
