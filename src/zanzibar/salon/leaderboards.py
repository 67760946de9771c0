"""Reading the standing: ratings, leaderboard pages and players' profiles.

Only reads (and a player's choice to hide their profile); what writes ratings is
:mod:`zanzibar.salon.rating_processor`. :class:`zanzibar.salon.standing.Standing`
is built on :class:`Leaderboards`, so the salon and the HTTP API find both in
one place.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from zanzibar.l10n.msg import Msg
from zanzibar.salon import models as m
from zanzibar.salon.errors import SalonError
from zanzibar.salon.names import name_key
from zanzibar.salon.persistence import Store
from zanzibar.salon.ratings import BOT_ANCHORS, FAMILIES, PROVISIONAL_GAMES, Skill
from zanzibar.salon.records import iso_time
from zanzibar.salon.stats import stats_from_rows

#: Largest leaderboard page; also the default.
LEADERBOARD_PAGE_MAX = 100
#: Games listed on a profile.
PROFILE_GAMES = 20
#: Points of rating history per family on a profile (the latest).
PROFILE_HISTORY = 200


class Leaderboards:
    """Ratings, leaderboards and profiles as read from one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

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
                    "date": iso_time(h.created),
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
            "stats": await self.stats(user_id),
            "provisional_games": PROVISIONAL_GAMES,
        }

    async def stats(self, user_id: int) -> dict[str, dict[str, int]]:
        """Games played, won, lost (and drawn) per game by one person (finished games)."""
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
                    "finished": iso_time(row.finished),
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
