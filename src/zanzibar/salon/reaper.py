"""Ownership that heals itself: the reaper takes over tables no node runs; leases kept.

A table's owner holds its lease (:class:`~zanzibar.cluster.ports.Leases`) and
renews it every third of its ttl. When the owner dies (``kill -9``, a lost
machine) or hangs, the lease lapses and the table is run nowhere: its bots do
not move and its clocks do not tick until someone claims it. On a node of a
shared salon the reaper looks every :attr:`Reaper.period` seconds for open
tables (from the database, the only truth) that no node holds, and claims
them: lease, a new epoch in the database (which fences the old owner, should
it wake up), then the table is loaded with its stored deadlines re-armed.

Which node takes which table is decided by rendezvous hashing of the table id
over the live nodes (:func:`rank`): every node computes the same order
without talking to the others, a dead node's tables spread evenly over the
survivors, and when a node joins or leaves only its share moves. The first
node in a table's order claims it as soon as it sees it vacant; the next one
waits :attr:`Reaper.step` seconds more, and so on, so a table whose first
choice is itself dead (its heartbeat outlives its leases by a second or so)
or slow is still taken over a moment later. Two nodes racing for one table
is harmless: the lease grants it to one of them. So a node asks the leases
of only the tables it is first or second to take; every fifth sweep asks
them all (a table whose first two nodes both died). Asking every open table
from every node each second would cost the salon nodes × tables look-ups a
second.

A node killed (``kill -9``, a lost machine) stops listening on its link at once,
while its leases live out their ttl (5 s) and its heartbeat a second more. So
each sweep also asks whether each live node listens (one ``PUBLISH`` each: the
link says how many heard it); a node silent for :attr:`Reaper.silence` seconds
over two sweeps or more, while this node hears itself, is taken for gone: its
leases are ended at once (:meth:`~zanzibar.cluster.ports.Leases.expire`, only
the very lease seen) and its tables taken over as after a lapse, ranked over
the nodes that listen. Not two owners: the claim fences the old owner in the
database whatever it believes, as after a lapse. A node that merely hangs
still listens (Redis keeps its subscription): it keeps its tables.

A table whose lease the store does not remember at all (Redis restarted and
forgot every key) may still run on its owner, which re-acquires it at its
next renewal (:class:`LeaseKeeper`). Those tables wait :attr:`Reaper.grace`
seconds more (one renewal period and a margin) so that the owner keeps them
instead of every table of the salon moving at once.

:class:`LeaseKeeper` renews the leases of the tables this node runs and
takes a lost one back. docs/cluster.md, "Ownership that heals itself".
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from zanzibar.cluster.ports import Leases

if TYPE_CHECKING:
    from zanzibar.salon.actor import TableActor, Transition
    from zanzibar.salon.router import Router
    from zanzibar.salon.tables import Table

log = logging.getLogger(__name__)

#: Tables reloaded at once after their leases were lost (Redis restarted empty).
RETAKE_TOGETHER = 16
#: Seconds a live node may not listen on its link before its leases are ended.
SILENCE = 1.0


def weight(node: str, table: int) -> int:
    """A node's score for a table: the same on every node, spread evenly (64-bit BLAKE2b)."""
    digest = hashlib.blake2b(f"{table}\0{node}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def rank(node: str, table: int, nodes: Sequence[str]) -> int:
    """``node``'s place (0: first) in the order the nodes take ``table`` over.

    >>> nodes = ["n1", "n2", "n3"]
    >>> sorted(rank(n, 7, nodes) for n in nodes)
    [0, 1, 2]
    >>> rank("n9", 7, nodes) in (0, 1, 2, 3)  # a node not in the list counts itself in
    True
    """
    everyone = set(nodes) | {node}
    mine = (weight(node, table), node)
    return sum(1 for other in everyone if (weight(other, table), other) > mine)


class Reaper:
    """Finds open tables no node holds and claims those that fall to this node.

    ``open_tables``: the ids of every open table (the database); ``running``:
    the tables this node runs or is loading (never claimed again here);
    ``live_nodes``: the nodes whose heartbeat is fresh; ``adopt``: claims and
    loads one table (None or False if another node got it first).
    """

    def __init__(
        self,
        leases: Leases,
        open_tables: Callable[[], Awaitable[list[int]]],
        running: Callable[[], Collection[int]],
        live_nodes: Callable[[], Awaitable[list[str]]],
        adopt: Callable[[int], Awaitable[Any]],
        *,
        period: float = 1.0,
        step: float = 1.0,
        grace: float = 3.0,
        together: int = 16,
        listening: Callable[[str], Awaitable[bool]] | None = None,
        silence: float = SILENCE,
    ) -> None:
        self.leases = leases
        self.open_tables = open_tables
        self.running = running
        self.live_nodes = live_nodes
        self.adopt = adopt
        #: Seconds between two sweeps.
        self.period = period
        #: Extra seconds each later node in a table's order waits before stepping in.
        self.step = step
        #: Extra seconds for a table the lease store forgot (its owner may take it back).
        self.grace = grace
        #: Tables claimed and loaded at once (each is a few queries: a dead node's hundreds
        #: of tables are not loaded one after the other).
        self.together = together
        #: When each vacant table was first seen vacant (monotonic seconds).
        self._vacant_since: dict[int, float] = {}
        #: Tables this node took over, with the seconds each stayed vacant (for logs, tests).
        self.taken: dict[int, float] = {}
        #: Whether a node's process listens on its link now (None: never asked; the
        #: leases of a dead node then lapse by their ttl).
        self.listening = listening
        #: Seconds a live node may not listen before its leases are ended.
        self.silence = silence
        #: Node -> when it was first found not listening (monotonic seconds).
        self._silent_since: dict[str, float] = {}
        #: Leases this node ended, by table (for logs, tests).
        self.expired: dict[int, str] = {}
        self._failing = False
        #: Between full sweeps (every :attr:`full_every`-th, the first included) only the
        #: tables this node is among the first :attr:`near` of are asked for their lease.
        self.near = 2
        self.full_every = 5
        self._sweeps = 0
        self._near_of: dict[int, bool] = {}
        self._near_nodes: tuple[str, ...] = ()

    @property
    def node(self) -> str:
        return self.leases.node

    async def sweep(self) -> list[int]:
        """One look: claim the vacant tables that are this node's to take now; their ids."""
        running = set(self.running())
        candidates = [t for t in await self.open_tables() if t not in running]
        self._sweeps += 1
        nodes: list[str] | None = None
        if self.listening is not None:
            nodes = await self.live_nodes()
            gone = await self._gone(nodes)
            if gone:
                nodes = [n for n in nodes if n not in gone]
                if candidates:
                    await self._expire(gone, candidates)
        asked = candidates
        if candidates and self._sweeps % self.full_every != 1 % self.full_every:
            if nodes is None:
                nodes = await self.live_nodes()
            asked = [t for t in candidates if self._is_near(t, nodes)]
        vacant = await self.leases.vacant(asked) if asked else {}
        kept, looked = set(candidates), set(asked)
        for table in list(self._vacant_since):
            if table not in kept or (table in looked and table not in vacant):
                del self._vacant_since[table]
        if not vacant:
            return []
        if nodes is None:
            nodes = await self.live_nodes()
        now = time.monotonic()
        due: list[tuple[int, float]] = []
        for table, remembered in sorted(vacant.items()):
            since = self._vacant_since.setdefault(table, now)
            wait = rank(self.node, table, nodes) * self.step + (0.0 if remembered else self.grace)
            if now - since >= wait:
                due.append((table, now - since))
        taken: list[int] = []
        for start in range(0, len(due), self.together):  # a dead node's many tables: in parallel
            batch = due[start : start + self.together]
            results = await asyncio.gather(
                *(self.adopt(table) for table, _ in batch), return_exceptions=True
            )
            for (table, waited), actor in zip(batch, results, strict=True):
                if isinstance(actor, BaseException):
                    log.error(
                        "taking over table %s failed (%s); trying again at the next sweep",
                        table,
                        actor,
                    )
                elif actor:
                    self._vacant_since.pop(table, None)
                    self.taken[table] = waited
                    taken.append(table)
                    log.warning(
                        "node %s took over table %s (vacant for %.1f s)", self.node, table, waited
                    )
        return taken

    async def _gone(self, nodes: list[str]) -> set[str]:
        """The live nodes (heartbeat fresh) that have not listened on their link for
        :attr:`silence` seconds: their process died. None while this node does not hear
        itself (its own subscriber is reconnecting: Redis restarted, say)."""
        assert self.listening is not None
        if not await self.listening(self.node):
            self._silent_since.clear()
            return set()
        now = time.monotonic()
        for node in list(self._silent_since):
            if node not in nodes:
                del self._silent_since[node]
        gone: set[str] = set()
        for node in nodes:
            if node == self.node:
                continue
            if await self.listening(node):
                self._silent_since.pop(node, None)
                continue
            if now - self._silent_since.setdefault(node, now) >= self.silence:
                gone.add(node)
        return gone

    async def _expire(self, gone: set[str], candidates: list[int]) -> None:
        """End the leases the ``gone`` nodes hold among ``candidates`` (the very lease seen:
        one a node took since is left alone); the tables are then vacant."""
        owners = await self.leases.owners(candidates)
        for table, lease in sorted(owners.items()):
            if lease.node in gone and await self.leases.expire(lease):
                self.expired[table] = lease.node
                log.warning(
                    "table %s: node %s no longer listens; its lease (epoch %s) ended",
                    table,
                    lease.node,
                    lease.epoch,
                )

    def _is_near(self, table: int, nodes: list[str]) -> bool:
        """Whether this node is among the first :attr:`near` to take ``table`` over.

        A table is taken by the first live node in its order, or the next one a
        step later: asking the leases of only those tables (a few per node,
        rather than every open table from every node each second) covers every
        takeover but that of a table whose first two nodes are both dead or hung,
        which the full sweep every :attr:`full_every` sweeps still finds. The
        answers are kept while the live nodes stay the same (a hash per node and
        table each second would cost more than the look-up it saves)."""
        key = tuple(sorted(set(nodes) | {self.node}))
        if key != self._near_nodes:
            self._near_nodes, self._near_of = key, {}
        near = self._near_of.get(table)
        if near is None:
            if len(self._near_of) > 100_000:
                self._near_of.clear()
            near = self._near_of[table] = rank(self.node, table, key) < self.near
        return near

    async def run(self) -> None:
        """Sweep every :attr:`period` seconds until cancelled; a failing sweep is retried."""
        while True:
            await asyncio.sleep(self.period)
            try:
                await self.sweep()
                stop_if_cancelled()
            except Exception as exc:
                if not self._failing:
                    log.warning(
                        "the reaper's sweep failed (%s); retrying every %.1f s", exc, self.period
                    )
                self._failing = True
                continue
            if self._failing:
                log.warning("the reaper's sweep works again")
            self._failing = False


def stop_if_cancelled() -> None:
    """Raise ``CancelledError`` if this task was asked to stop.

    A cancellation that lands inside a driver's call (claiming and loading a
    table, a Redis round trip) was seen swallowed there, once in dozens of
    stops: the loop then went on and the salon's stop waited for it forever.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def _keep_watching(spectators: set[int]) -> Transition:
    """The spectators of a table reloaded in place watch it still: a change of its own,
    so their ``table_members`` rows (dropped by the claim, as a restored table has no
    spectators) are stored again and the lobby counts them."""
    from zanzibar.salon.changes import Change  # the actor's: imported with it, at run time

    def keep(table: Table, _ctx: Any, _cmd: Any) -> Change | None:
        new = spectators - table.spectators - {s.user for s in table.seats}
        if not new:
            return None
        table.spectators |= new
        return Change(table=True)

    return keep


class LeaseKeeper:
    """Renews this node's leases every third of their ttl; a lost one is taken back or let go.

    The fence in the database is what makes a lost lease safe (the next write
    of a stale owner fails). A lease is lost when this node could not renew it
    in time (it hung) or when Redis forgot every key (it restarted): the table
    is then taken again at once through the router's claim (:meth:`retake`);
    if another node was quicker the table stops here (``closed``).
    """

    def __init__(self, router: Router, closed: Callable[[Table], None]) -> None:
        self.router = router
        self.closed = closed
        #: Tables whose lost lease is being taken back (the reaper leaves them alone).
        self.retaking: set[int] = set()

    async def run(self) -> None:
        """Renew until cancelled; while Redis is down keep running (failures logged once)."""
        leases = self.router.leases
        period = float(getattr(leases, "ttl_ms", 5000)) / 3000
        failing = False
        while True:
            await asyncio.sleep(period)
            try:
                lost = await leases.renew()
                stop_if_cancelled()
            except Exception as exc:
                if not failing:  # the database fence keeps the tables safe meanwhile
                    log.warning("renewing the table leases failed (%s); retrying", exc)
                failing = True
                continue
            failing = False
            await self.take_back(lost)

    async def take_back(self, lost: Collection[int]) -> None:
        """Tables whose leases were lost: every lease taken again first (one round trip
        each, before any reload: other nodes wait for them only so long), then each
        table reloaded in place, a few at once (:meth:`retake`)."""
        actors: list[TableActor] = []
        for table_id in sorted(lost):
            if table_id < 0:  # not a table (the tournament runner's lease): its owner checks
                continue
            self.router.lease_of.pop(table_id, None)
            actor = self.router.actors.get(table_id)
            if actor is not None:
                actors.append(actor)
                self.retaking.add(table_id)
        for actor in actors:
            await self._claim_again(actor.table.id)
        for start in range(0, len(actors), RETAKE_TOGETHER):
            batch = actors[start : start + RETAKE_TOGETHER]
            await asyncio.gather(*(self.retake(actor) for actor in batch))

    async def _claim_again(self, table_id: int) -> None:
        """Take a lost lease again at once: until it is held, the other nodes wait for it
        (:meth:`Router.locate`) for a renewal period, then claim the table themselves."""
        try:
            lease = await self.router.claim(table_id)
        except Exception as exc:
            log.warning("table %s: taking its lost lease back failed (%s)", table_id, exc)
            return
        if lease is None:
            log.warning("table %s: its lost lease is held by another node", table_id)
        else:
            log.info("table %s: its lost lease taken back (epoch %s)", table_id, lease.epoch)

    async def _not_ours(self, table_id: int) -> str:
        """Why a claim of a table whose lease this node lost found nothing to run, in words."""
        try:
            lease = await self.router.leases.owner(table_id)
        except Exception as exc:
            return f"not claimed here, and its lease cannot be read ({exc})"
        if lease is not None and lease.node != self.router.node:
            return f"node {lease.node} holds its lease (epoch {lease.epoch})"
        return "no node holds its lease: the table is closed in the database"

    async def retake(self, actor: TableActor) -> None:
        """The lease of a table running here was lost: take it again, or let it go.

        The actor finishes the change it is storing, then stops. The table goes
        through the router's claim (:meth:`Router.adopt`, as for the reaper and
        a command for a vacant table: lease, new epoch, load), so a command
        arriving meanwhile waits, then finds the new actor. The table keeps its
        spectators; every acknowledged change is in the database; a command
        that was queued on the old actor is refused (the client resends it).
        """
        table = actor.table
        self.retaking.add(table.id)
        try:
            if table.id not in self.router.lease_of:
                await self._claim_again(table.id)
            for _ in range(200):  # never cancel a change halfway through its commit
                if not actor.processing:
                    break
                await asyncio.sleep(0.01)
            queued = await actor.stop(keep_queued=True)
            if self.router.actors.get(table.id) is actor:
                del self.router.actors[table.id]
            try:
                again = await self.router.adopt(table.id)
                why = "" if again is not None else await self._not_ours(table.id)
            except Exception as exc:  # the claim or the reload (the database restarting)
                again = None
                why = (
                    f"taking it back failed ({type(exc).__name__}: {exc}); its lease is let go"
                    " and a reaper takes it again once the database answers"
                )
            if again is None:
                log.warning("table %s: its lease was lost; it stops here: %s", table.id, why)
                actor.take_queued(queued)  # refused: the table is not run here any more
                self.closed(table)
                return
            again.post(_keep_watching(set(table.spectators)))
            again.take_queued(queued)  # commands that were waiting: applied, not refused
            log.warning(
                "table %s: its lease was lost and taken again (epoch %s)",
                table.id,
                again.table.epoch,
            )
        finally:
            self.retaking.discard(table.id)
