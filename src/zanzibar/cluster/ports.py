"""The ports of a salon spread over several processes: small typed interfaces.

Each port has an in-process implementation (:mod:`zanzibar.cluster.local`,
for ``./salon`` on SQLite and the fast tests) and a shared one (Redis, or
PostgreSQL for ids), and the salon's table logic is meant to run the same on
both. The rules every implementation keeps, and the contract tests in
``tests/cluster`` check:

* PostgreSQL is the only truth. What a Redis implementation holds may vanish
  (Redis runs without persistence); each port says how it notices and what
  the caller rebuilds.
* Ownership is decided by a :class:`Leases` lease, but *safety* comes from
  the database: every write of an owner is fenced by the table's epoch and
  version in PostgreSQL (``UPDATE ... WHERE epoch = e AND version = v``), so a
  lease that lapsed during a slow write cannot let two owners apply anything.
  The lease's own epoch only orders grants while Redis keeps its keys; after
  a Redis restart the claimer raises it above the stored one (``floor``).

Changes from the design sketch (docs/cluster.md says more):

* :meth:`TableBus.follow` takes the version the follower already has, and the
  bus itself fills a hole from its log before reporting a gap, so every
  follower sees each table's versions in order, none twice, and a hole it
  cannot fill is reported once (:meth:`Follower.gap`) instead of each
  follower re-implementing the check.
* :meth:`Leases.acquire` returns a :class:`Lease` (node, epoch) rather than a
  bool: release and renew compare the whole value, so an old actor of a node
  cannot drop the lease its node took again since.
* :meth:`Leases.watch` pushes each grant and release to every node, so a
  socket's node follows a table to its new owner without polling its lease.
* :class:`Link` (node to node) is as the sketch's, with ``send`` telling
  whether the node listened: a dead owner shows at once, not at the deadline.
* Node liveness (heartbeats, reaping a dead node's sockets) sits with
  :class:`Presence`, whose counts it must correct, not with the leases.
* :class:`RateLimits` keeps the two steps of ``salon/chat.py`` (check before,
  record after success) because a refused line must not count.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

#: What a node name may hold: it goes into Redis keys and log lines.
NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")

#: What :class:`Ids` hands out: one sequence per kind of row.
IdKind = Literal["user", "table", "game", "private"]
ID_KINDS: tuple[IdKind, ...] = ("user", "table", "game", "private")


class StaleVersion(Exception):
    """A table's envelope was published with a version not above the last one."""


@dataclass(frozen=True)
class Envelope:
    """One committed change of a table, as the nodes following it receive it.

    ``version`` counts the table's commits from 1 and never repeats; ``epoch``
    is the owner's claim under which it was committed. ``data`` is the change
    itself, JSON-able; the bus neither reads nor changes it.
    """

    table: int
    epoch: int
    version: int
    data: Mapping[str, Any]


@runtime_checkable
class Follower(Protocol):
    """Receives a table's envelopes from a :class:`TableBus`."""

    async def deliver(self, envelope: Envelope) -> None:
        """The next envelope: its version is one above the previous one delivered or reported."""

    async def gap(self, table: int, after: int, before: int | None) -> None:
        """Versions strictly between ``after`` and ``before`` are lost: resync from the owner.

        ``before`` is None when the bus cannot tell how far the loss goes (its log
        is gone): then the next envelope delivered starts the sequence afresh.
        """


class TableBus(Protocol):
    """Committed changes of each table, in version order, to every node that follows it."""

    async def publish(self, envelope: Envelope) -> None:
        """Send ``envelope`` to the table's followers; raise :class:`StaleVersion` if not newer."""

    async def follow(self, table: int, follower: Follower, after: int) -> None:
        """Deliver the table's envelopes above version ``after`` to ``follower`` from now on."""

    async def unfollow(self, table: int, follower: Follower) -> None:
        """Stop delivering to ``follower`` (nothing happens if it did not follow)."""

    async def since(self, table: int, after: int) -> list[Envelope] | None:
        """Every envelope above ``after`` in order, or None if the bus no longer holds them all."""

    async def close(self) -> None:
        """Stop delivering and free connections."""


@dataclass(frozen=True)
class Lease:
    """A node's right to run a table, granted with an epoch that grows at each grant."""

    table: int
    node: str
    epoch: int


@runtime_checkable
class LeaseWatcher(Protocol):
    """Hears of every lease granted or released, on any node (:meth:`Leases.watch`).

    A lease that lapses (its owner died) is not announced: the next grant is,
    within a ttl and the reaper's step. Announcements may be lost (a dropped
    connection to Redis): :meth:`missed` then says to look again.
    """

    async def granted(self, lease: Lease) -> None:
        """``lease`` was just granted (a new owner, or its owner's new epoch)."""

    async def released(self, lease: Lease) -> None:
        """``lease`` was given up by its holder (a clean stop, a closed table)."""

    async def missed(self) -> None:
        """Announcements may have been lost: ask :meth:`Leases.owners` again."""


class Leases(Protocol):
    """Who owns each table: at most one node at a time, for a limited time unless renewed."""

    node: str

    async def acquire(self, table: int, floor: int = 0) -> Lease | None:
        """Take the table if nobody holds it: the lease, with an epoch above ``floor``; else None."""

    async def owner(self, table: int) -> Lease | None:
        """The table's current lease, whoever holds it."""

    async def owners(self, tables: Sequence[int]) -> dict[int, Lease]:
        """The current leases of ``tables`` (those nobody holds left out): one round trip
        per few hundred tables (the socket nodes' safety check of who runs what)."""

    async def watch(self, watcher: LeaseWatcher) -> None:
        """Tell ``watcher`` of every lease granted or released from now on, by any node.

        Pushed, so a node following tables run elsewhere hears of a new owner at
        once instead of asking for each table's lease every half second.
        """

    async def renew(self) -> set[int]:
        """Extend every lease this node holds; return the tables whose lease was lost."""

    async def vacant(self, tables: Sequence[int]) -> dict[int, bool]:
        """Of ``tables``, those no node holds now, each with whether a grant is remembered.

        True: a lease was granted and lapsed or was released (its owner died or
        left). False: this store knows nothing of the table (never leased, or it
        forgot, as Redis does when it restarts): its owner may still be running
        and about to take it back. One round trip for the lot (the reaper's sweep).
        """

    async def release(self, table: int) -> bool:
        """Give the table up if this node still holds that very lease; True if it did."""

    async def expire(self, lease: Lease) -> bool:
        """End another node's ``lease`` now if it is still that very lease (announced as a
        release); True if it did. For a node whose process is gone (it no longer listens
        on its link): its tables need not wait out the ttl. Safe even if it was alive:
        the claim that follows fences it in the database, as after a lapse."""

    def held(self) -> dict[int, Lease]:
        """The leases this node believes it holds (as of the last renew)."""

    async def close(self) -> None:
        """Free connections (leases are left to expire; release them first on a clean stop)."""


class Presence(Protocol):
    """Who is online anywhere, counted by sockets per node; and which nodes are alive."""

    node: str

    async def attach(self, user: int) -> bool:
        """One more socket of ``user`` on this node; True if it is his first anywhere."""

    async def detach(self, user: int) -> bool:
        """One socket of ``user`` on this node closed; True if it was his last anywhere."""

    async def refresh(self) -> None:
        """Reload the local view of who is online (after a start or a lost connection)."""

    async def where(self, user: int) -> dict[str, int]:
        """``user``'s sockets per node (nodes without any left out): quotas, private lines."""

    async def sync(self, counts: Mapping[int, int]) -> None:
        """Make this node's counted sockets exactly ``counts`` (user -> sockets here).

        Heals what a Redis that forgot its keys, or a reap of this node while it
        was only slow, left wrong; users whose total changes come or go as usual.
        """

    def online(self, user: int) -> bool:
        """Whether ``user`` has a socket anywhere, from the local view: no I/O."""

    def watch(self, callback: Callable[[int, bool], Awaitable[None]]) -> None:
        """Call ``callback(user, online)`` whenever a user comes online or goes offline."""

    async def heartbeat(self) -> None:
        """Say this node is alive (call every few seconds)."""

    async def live_nodes(self) -> list[str]:
        """The nodes whose heartbeat has not expired, sorted."""

    async def reap(self) -> list[str]:
        """Forget the sockets of nodes whose heartbeat expired; return those nodes."""

    async def close(self) -> None:
        """Free connections (this node's sockets stay counted until reaped or detached)."""


class Lobby(Protocol):
    """The open tables' summaries, language-free, as every node lists them."""

    async def put(self, table: int, summary: Mapping[str, Any] | None) -> None:
        """Set a table's summary, or remove the table with None."""

    async def refresh(self) -> None:
        """Reload the local view of every summary."""

    def summaries(self) -> dict[int, Mapping[str, Any]]:
        """Every table's summary from the local view: no I/O."""

    def watch(self, callback: Callable[[int], Awaitable[None]]) -> None:
        """Call ``callback(table)`` whenever a table's summary changes or goes."""

    async def close(self) -> None:
        """Free connections."""


class Link(Protocol):
    """Messages from node to node (commands to a table's owner, replies back): at most once.

    A message is a JSON-able mapping. Delivery is not guaranteed (a node may
    die, Redis may restart): the router gives each command an id and a
    deadline, resends the same id, and the owner answers a repeat from its
    stored reply. :meth:`send` says whether any node was listening, so a dead
    owner is noticed at once rather than at the deadline.
    """

    node: str

    def serve(self, handler: Callable[[str, Mapping[str, Any]], Awaitable[None]]) -> None:
        """Hand every message for this node to ``handler(sender, message)``, in arrival order."""

    async def start(self) -> None:
        """Start listening (after :meth:`serve`)."""

    async def send(self, node: str, message: Mapping[str, Any]) -> bool:
        """Send ``message`` to ``node``; False if that node was not listening."""

    async def close(self) -> None:
        """Stop listening and free connections."""


class Ids(Protocol):
    """Unique row ids for the whole salon, whatever node asks."""

    async def next(self, kind: IdKind) -> int:
        """A new id of ``kind``, never handed out before."""


class RateLimits(Protocol):
    """At most ``count`` events per ``window`` seconds per key, summed over every node."""

    async def check(self, key: int) -> None:
        """Raise ``SalonError('rate_limited')`` if ``key`` is over the limit (records nothing)."""

    async def record(self, key: int) -> None:
        """Count one event of ``key`` (after it succeeded: a refused one does not count)."""


def check_node_name(name: str) -> str:
    """``name`` if it is a usable node name, else ``ValueError`` saying why.

    >>> check_node_name("n1")
    'n1'
    >>> check_node_name("a b")
    Traceback (most recent call last):
    ...
    ValueError: a node name is 1 to 64 letters, digits, dots, dashes or underscores: 'a b'
    """
    if not NODE_NAME.fullmatch(name):
        raise ValueError(
            f"a node name is 1 to 64 letters, digits, dots, dashes or underscores: {name!r}"
        )
    return name
