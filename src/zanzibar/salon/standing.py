"""Standing in the salon: what tables tell the ratings, and the ratings' life cycle.

A table reaches its standing through :attr:`TableContext.standing` (may this
guest sit, who was kicked, the finishing order stored with a game's end); the
salon calls :meth:`Standing.committed` after each stored change, which wakes the
:class:`~zanzibar.salon.rating_processor.RatingProcessor` when a game finished.
Reading (leaderboards, profiles) is inherited from
:class:`~zanzibar.salon.leaderboards.Leaderboards`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import insert, select

from zanzibar.l10n.msg import Msg
from zanzibar.salon import models as m
from zanzibar.salon.changes import TableHooks
from zanzibar.salon.errors import SalonError
from zanzibar.salon.leaderboards import Leaderboards
from zanzibar.salon.persistence import Op, Store
from zanzibar.salon.rating_processor import RatingProcessor
from zanzibar.salon.ratings import placings, with_leavers


def rated_flag(message: Mapping[str, Any]) -> bool | None:
    """The ``rated`` field of ``table.create``: true, false or absent (None).

    >>> rated_flag({}), rated_flag({"rated": False})
    (None, False)
    """
    value = message.get("rated")
    if value is None or isinstance(value, bool):
        return value
    raise SalonError("invalid", Msg("error-rated-flag"))


class Standing(Leaderboards, TableHooks):
    """The salon's ratings, leaderboards and profiles over one store.

    Tables reach it through :attr:`TableContext.standing` (seat checks, kicks, the
    finishing order); the salon calls :meth:`committed` after each stored change.
    """

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        #: The ``rated`` choice of open tables (True, False or None: by default).
        self.table_flags: dict[int, bool | None] = {}
        #: Seats whose player the host sent away, per running game.
        self._kicked: dict[int, set[int]] = {}
        self.processor = RatingProcessor(store)

    # -- life cycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Load the open tables' choices and rate what a stop or a crash left unrated."""
        rows = await self.store.read(
            select(m.table_rated.c.table_id, m.table_rated.c.rated)
            .join(m.tables, m.tables.c.id == m.table_rated.c.table_id)
            .where(m.tables.c.closed.is_(None))
        )
        self.table_flags = {int(r[0]): r[1] for r in rows}
        self.processor.start()

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
        await self.processor.stop()

    def kick(self) -> None:
        """Ask the processor to look for finished games to rate."""
        self.processor.kick()

    async def process(self) -> int:
        """Rate every finished game not rated yet, now; how many (see the processor)."""
        return await self.processor.process()

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
