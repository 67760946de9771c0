"""Who sits at or watches which open table, stored for every node: ``table_members``.

A socket's node answers ``hello`` with the user's places (the tables he sits
at or watches), whoever runs them. The tables run here are in memory; those
run by other nodes are read from ``table_members``, which each table's owner
keeps true in the same transaction as the change that seated, unseated,
added or removed someone (the actor adds these statements to the change),
and empties when the table is closed. A spectator is a row with no seat.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import delete, insert, select

from zanzibar.salon import models as m
from zanzibar.salon.persistence import Op, Store
from zanzibar.salon.seats import Seat

#: User id -> the seat held, or None for a spectator.
Members = dict[int, int | None]


def members_of(seats: Iterable[Seat], spectators: Iterable[int]) -> Members:
    """A table's members from its seats (people only) and spectators.

    >>> members_of([Seat(user=4), Seat(), Seat(user=9)], [7])
    {7: None, 4: 0, 9: 2}
    """
    found: Members = dict.fromkeys(spectators)
    for index, seat in enumerate(seats):
        if seat.user is not None:
            found[seat.user] = index
    return found


def member_ops(table_id: int, before: Members, after: Members, closing: bool) -> list[Op]:
    """The statements turning the stored ``before`` into ``after`` (none if equal).

    >>> len(member_ops(1, {4: 0}, {4: 0}, False)), len(member_ops(1, {4: 0}, {4: 1}, False))
    (0, 2)
    """
    rows = m.table_members
    if closing:
        return [(delete(rows).where(rows.c.table_id == table_id), None)] if before else []
    new = [
        {"table_id": table_id, "user_id": u, "seat": s}
        for u, s in after.items()
        if u not in before or before[u] != s
    ]
    # a new row's user is deleted first too: a spectator of an owner that died is still
    # stored (spectators are not restored), and watches again under the new owner
    gone = [u for u in before if u not in after] + [row["user_id"] for row in new]
    ops: list[Op] = []
    if gone:
        where = (rows.c.table_id == table_id) & rows.c.user_id.in_(gone)
        ops.append((delete(rows).where(where), None))
    if new:
        ops.append((insert(rows), new))
    return ops


async def places(store: Store, user_id: int) -> list[tuple[int, int | None, str]]:
    """(table, seat, game) of every open table the user sits at or watches, from the rows."""
    rows = m.table_members
    found = await store.read(
        select(rows.c.table_id, rows.c.seat, m.tables.c.game)
        .join(m.tables, m.tables.c.id == rows.c.table_id)
        .where((rows.c.user_id == user_id) & m.tables.c.closed.is_(None))
        .order_by(rows.c.table_id)
    )
    return [(int(r[0]), None if r[1] is None else int(r[1]), str(r[2])) for r in found]


class MemberIndex:
    """Which tables run here each user sits at or watches: user -> table ids.

    A user coming or going (``Gateway.went``) concerns only his own tables;
    walking every table of the node for him cost about a millisecond at 300
    tables, and a rush of sign-ins or departures stalled the event loop for
    hundreds of milliseconds. The actors keep it: a table's members are put
    when its actor starts and after each stored change that alters them, and
    dropped when it closes or moves. Readers still check the table itself
    (an entry may outlive its actor by a moment, never the reverse).
    """

    def __init__(self) -> None:
        self._of_table: dict[int, frozenset[int]] = {}
        self._of_user: dict[int, set[int]] = {}

    def put(self, table_id: int, users: Iterable[int]) -> None:
        """The table's members are now ``users`` (its seated people and spectators)."""
        now = frozenset(users)
        was = self._of_table.get(table_id, frozenset())
        if now == was:
            return
        for user in was - now:
            tables = self._of_user.get(user)
            if tables is not None:
                tables.discard(table_id)
                if not tables:
                    del self._of_user[user]
        for user in now - was:
            self._of_user.setdefault(user, set()).add(table_id)
        if now:
            self._of_table[table_id] = now
        else:
            self._of_table.pop(table_id, None)

    def drop(self, table_id: int) -> None:
        """The table is not run here any more."""
        self.put(table_id, ())

    def tables_of(self, user: int) -> list[int]:
        """The tables run here that ``user`` sits at or watches, by id.

        >>> index = MemberIndex()
        >>> index.put(3, [7, 8]); index.put(1, [7]); index.put(3, [8])
        >>> index.tables_of(7), index.tables_of(8), index.tables_of(9)
        ([1], [3], [])
        """
        return sorted(self._of_user.get(user, ()))
