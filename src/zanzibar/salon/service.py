"""The salon service: accounts, lobby, tables, bots, chat and history, without a transport.

The server hands every incoming message (a dict already checked against its
JSON schema) to :meth:`Salon.handle` with the :class:`Connection` it came from;
the salon answers through the connection's ``send``. Nothing here knows about
sockets or HTTP.

This module only wires the parts together; each concern has its module:

- :mod:`~zanzibar.salon.gateway`: the sockets, sessions and message dispatch;
- :mod:`~zanzibar.salon.router`: which actor runs a table (leases);
- :mod:`~zanzibar.salon.actor`: one task per table applying its commands in order;
- :mod:`~zanzibar.salon.seating`, :mod:`~zanzibar.salon.play`: the transitions;
- :mod:`~zanzibar.salon.deadlines`: bot moves, turn clocks, pauses, takeovers;
- :mod:`~zanzibar.salon.tablestore`: storing a change, loading the open tables;
- :mod:`~zanzibar.salon.mirror`: the fan-out of committed changes to followers;
- :mod:`~zanzibar.salon.lobby`: the table list and the games offered.

The parts never import this module (they see the salon through small typed
protocols: ``gateway_host``, ``tournament_ports``): imports go one way.

Rules the whole salon keeps:

- one table's requests, bot moves and timers are applied one at a time by its
  actor, so a table's changes have a single order;
- every change is checked completely before anything is touched, and stored
  (committed) before it is acknowledged or broadcast; if storing fails the
  change is undone in memory too;
- a refused message changes nothing and gets an ``error`` reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from zanzibar.cluster.hub import LinkHub
from zanzibar.cluster.pg_ids import ids_for
from zanzibar.cluster.ports import IdKind, Leases, Link
from zanzibar.cluster.wiring import NodePorts, local_ports
from zanzibar.engine.events import Event
from zanzibar.engine.rules import GameRules
from zanzibar.games import _GAMES as REGISTERED_GAMES
from zanzibar.games import get_rules
from zanzibar.l10n.msg import Msg
from zanzibar.salon import deadlines, settling, tablestore
from zanzibar.salon.accounts import AccountBook, Session, User
from zanzibar.salon.actor import ActorServices, TableActor
from zanzibar.salon.bots import Thinker
from zanzibar.salon.changes import Change, Command, TableContext
from zanzibar.salon.chat import RateLimiter
from zanzibar.salon.connections import Connection, Send
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import end_tasks, log_failure
from zanzibar.salon.forwarding import Forwarder
from zanzibar.salon.friends import Friends, friend_handlers
from zanzibar.salon.gateway import Gateway
from zanzibar.salon.ids import SalonIds
from zanzibar.salon.janitor import sweep_idle_tables
from zanzibar.salon.limits import Limits, TokenBuckets
from zanzibar.salon.lobby import LobbyFeed
from zanzibar.salon.mailbox import Mailbox
from zanzibar.salon.mirror import Mirror
from zanzibar.salon.persistence import Store
from zanzibar.salon.presence_upkeep import NodePresence
from zanzibar.salon.quotas import TableQuotas, follow_counts, share_rates
from zanzibar.salon.reaper import LeaseKeeper, Reaper
from zanzibar.salon.records import read_record
from zanzibar.salon.remote import RemoteSockets
from zanzibar.salon.router import Router, TablesView
from zanzibar.salon.standing import Standing
from zanzibar.salon.tables import Table
from zanzibar.salon.tournament_ports import TournamentPorts
from zanzibar.salon.tournaments import Tournaments

log = logging.getLogger(__name__)

DEFAULT_DB = "sqlite+aiosqlite:///zanzibar.sqlite3"


class Salon:
    """Everything a salon does, behind ``handle(conn, message)``.

    ``bot_delay``: seconds a bot waits before moving (so people can follow).
    ``round_pause``: seconds of pause between rounds (0: no pause unless held).
    ``takeover_delay``: seconds after a seated player's last connection drops
    before a bot takes over their seat mid-game.
    ``lobby_delay``: lobby updates are coalesced over this many seconds.
    ``idle_close``: a table where no game runs, nobody watches and no seated
    person has been connected for this many seconds is closed.
    ``durable``: SQLite ``synchronous=FULL`` (survives power loss, slower).
    ``bot_threads``: a bot level whose moves take on average more than
    :data:`zanzibar.salon.bots.INLINE_BOT_SECONDS` thinks in a worker thread (a
    chess bot must not stall other tables); quick dice bots play inline.
    ``clock_scale``: real seconds per turn-clock second
    (tests shrink it); ``seeds``: where each new game's dice seed comes from
    (a secure random number by default; tests pass a counter to replay the same games).
    ``rules_for``/``games``: where games come from (the registry by default;
    tests may pass their own).
    ``limits``: quotas and rates against abuse (:class:`zanzibar.salon.limits.Limits`).
    ``ports``: the node's leases, link, bus, presence and lobby
    (:mod:`zanzibar.cluster.wiring`: in-process by default, where this salon
    owns every table; Redis for a node of several). ``leases``/``link``
    replace those two ports alone (tests of two salons on one database).
    """

    nodes: NodePresence  # presence and the lobby among nodes (built last in __init__)

    def __init__(
        self,
        db_url: str = DEFAULT_DB,
        *,
        bot_delay: float = 0.5,
        round_pause: float = 5.0,
        takeover_delay: float = 15.0,
        lobby_delay: float = 1.0,
        idle_close: float = 3600.0,
        durable: bool = False,
        bot_threads: bool = True,
        clock_scale: float = 1.0,
        limits: Limits | None = None,
        seeds: Callable[[], int] | None = None,
        rules_for: Callable[[str], GameRules[Any, Any]] = get_rules,
        games: Callable[[], list[str]] = lambda: list(REGISTERED_GAMES),
        leases: Leases | None = None,
        link: Link | None = None,
        ports: NodePorts | None = None,
    ) -> None:
        self.db_url = db_url
        self.bot_delay = bot_delay
        self.round_pause = round_pause
        self.takeover_delay = takeover_delay
        self.lobby_delay = lobby_delay
        self.bot_threads = bot_threads
        self.clock_scale = clock_scale
        self.idle_close = idle_close
        self._seeds = seeds or (lambda: secrets.randbits(63))
        self._rules_for = rules_for
        self._games = games
        self.store = Store(db_url, durable=durable)
        self.limits = limits or Limits()
        self.accounts = AccountBook(self.store, lambda: self.next_id("user"), self.limits)
        self.standing = Standing(self.store)  # ratings, leaderboards, profiles (issue 14)
        self.chat_limit = RateLimiter()
        self.message_rate_user = TokenBuckets(self.limits.message_rate_user)
        self.message_rate_address = TokenBuckets(self.limits.message_rate_address)
        self.ids: SalonIds | None = None
        self._janitor_task: asyncio.Task[None] | None = None
        self._releases: set[asyncio.Task[Any]] = set()
        self.thinker = Thinker(bot_threads)
        # One node alone loads every open table at start: a table it does not run does
        # not exist, and an unknown id costs no database write. Among several nodes, a
        # table nobody runs (its owner died) is claimed by the first node asked for it.
        self.ports = ports or local_ports()
        if leases is not None:
            self.ports.leases = leases
        if link is not None:
            self.ports.link = link
        shared = self.ports.shared or leases is not None
        if self.ports.limits is not None:  # every per-account limit counts salon-wide
            share_rates(
                self.ports.limits.counts,
                self.message_rate_user,
                self.message_rate_address,
                self.chat_limit,
            )
        #: Other nodes share this salon's database (their tables, accounts, members).
        self.shared = shared
        if shared:  # other nodes create accounts too, even on one SQLite file (tests)
            self.accounts.shared = True
        #: Messages to and from the other nodes, by kind (forwarded commands, frames, ...).
        self.hub = LinkHub(self.ports.link)
        self.router = Router(
            self.ports.leases,
            self.ports.link,
            self._load_claimed if shared else None,
            (lambda table_id: tablestore.is_open(self.store, table_id)) if shared else None,
        )
        self._renewing: asyncio.Task[None] | None = None
        self._reaping: asyncio.Task[None] | None = None
        #: Renews this node's leases; takes a lost one back (or lets the table go).
        self.keeper = LeaseKeeper(self.router, self._table_moved)
        #: Takes over the open tables nobody runs (their owner died): shared nodes only.
        self.reaper: Reaper | None = None
        if shared:
            self.reaper = Reaper(
                self.ports.leases,
                lambda: tablestore.open_table_ids(self.store),
                lambda: (
                    self.router.actors.keys() | self.router.lease_of.keys() | self.keeper.retaking
                ),
                self.ports.presence.live_nodes,
                self.router.adopt,
                grace=self.router.grace,
                # a killed node stops listening at once: its tables need not wait its ttl
                listening=lambda node: self.hub.send(node, "ping", {}),
            )
        self.tables = TablesView(self.router)
        #: Open tables per account and address, and their creation rates.
        self.quotas = TableQuotas(
            self.limits, self.store, self.tables, self.ports.limits, many_nodes=shared
        )
        self.gateway = Gateway(self)
        self.lobby = LobbyFeed(
            self.ports.lobby,
            self.gateway.connections,
            self.limits,
            self.gateway.connected,
            self._name_of,
            lobby_delay,
            rules_for,
            games,
            mark=self.standing.mark,
        )
        self.mirror = Mirror(
            self.gateway.connected,
            self._name_of,
            self.gateway.conns_of,
            self.lobby.changed,
            self.limits.history_page_max,
            mark=self.standing.mark,
        )
        #: Swiss tournaments (issue 14): their messages, a game's result, the runner.
        self.tournaments = Tournaments(
            TournamentPorts(
                store=self.store,
                leases=self.router.leases,
                rules_for=rules_for,
                next_id=self.next_id,
                context=lambda: self.ctx,
                open_table=self.open_table,
                actor_of=self.router.local,
                online=lambda user_id: self.online(user_id),
                conns_of=self.gateway.conns_of,
                elsewhere=lambda users, build: self.nodes.tell(users, build),
                followers=lambda table_id: self.mirror.subscribers.get(table_id, {}).values(),
                name_of=self._name_of,
                spawn=self.spawn,
                takeover_delay=lambda: self.takeover_delay,
            )
        )
        self.ctx: TableContext = TableContext(
            name_of=self._name_of,
            connected=self.gateway.connected,
            new_game_id=self._take_game_id,
            seed=self._seeds,
            chat_limit=self.chat_limit,
            round_pause=round_pause,
            standing=self.standing,
            finish_ops=lambda table, outcome: (
                self.standing.finish_ops_of(table, outcome)
                + self.tournaments.finish_ops(table, outcome)
            ),
        )
        self.services = ActorServices(
            ctx=self.ctx,
            timing=deadlines.Timing(bot_delay, round_pause, takeover_delay, clock_scale),
            commit=lambda table, change: tablestore.commit(self.store, table, change),
            mirror=self.mirror,
            thinker=self.thinker,
            closed=self._table_closed,
            committed=[self.standing.committed, self.tournaments.committed, self.lobby.committed],
            recall=lambda table_id, cmd_id: tablestore.recall(self.store, table_id, cmd_id),
            members=self.router.members,
        )
        #: Commands for tables run elsewhere, and frames for sockets held elsewhere.
        self.forwarder = Forwarder(self, RemoteSockets(self))
        self.services.stepped = self.forwarder.remote.stepped
        self.services.moved = self.forwarder.moved
        self.router.forward = self.forwarder.forward
        #: Private messages kept for accounts that are away; friends lists (issue 14).
        self.mailbox = Mailbox(
            self.store, self.limits, lambda: self.next_id("private"), self.online
        )
        self.friends = Friends(
            self.store,
            self.accounts,
            self.limits,
            self.online,
            self.lobby,
            lambda user_id: list(self.gateway.conns_of(user_id)),
            grace=takeover_delay,
            gate=self.quotas.gate,  # the table-creation rates' gate: Redis on shared nodes
        )
        self.nodes = NodePresence(self, self.gateway)  # presence and lobby among nodes
        self.gateway.add_handlers(friend_handlers(self.friends))
        self.gateway.add_handlers(self.tournaments.handlers())
        #: Called after each hello: ``await hook(conn, user)`` (e.g. deliver what waited).
        self.hello_hooks: list[Callable[[Connection, User], Awaitable[None]]] = []
        if self.ports.limits is not None:
            self.hello_hooks.append(self._follow_counts)
        self._started = False

    async def _follow_counts(self, conn: Connection, user: User) -> None:
        """A socket signed in here: its account's (and address's) events on every node
        count here from now on, not only from its first message here."""
        assert self.ports.limits is not None
        address = self.gateway.addresses.get(conn.id)
        exempt = self.limits.exempt(address)
        follow_counts(self.ports.limits.counts, user.id, None if exempt else address)

    @property
    def rules_for(self) -> Callable[[str], GameRules[Any, Any]]:
        """Where the salon's games come from."""
        return self._rules_for

    # =============================================================================
    # life cycle
    # =============================================================================

    async def start(self) -> None:
        """Apply migrations, load users, restore every open table and game."""
        await self.ports.start()
        await self.store.start()
        self.ids = SalonIds(await ids_for(self.store))
        await self.ids.fill()
        await self.accounts.load()
        await self.mailbox.load()
        await self.friends.load()
        await self.standing.start()  # before the tables: their timers start with them
        await self.tournaments.load()  # before the tables: their boards are known
        ids = await tablestore.open_table_ids(self.store)
        claimed = [tid for tid in ids if await self.router.claim(tid) is not None]
        if len(claimed) == len(ids):
            await tablestore.claim_all(self.store)  # one statement: the usual single node
        else:
            for table_id in claimed:
                await tablestore.claim(self.store, table_id)
        now = time.time()
        loaded = await tablestore.load_open_tables(self.store, self._rules_for, claimed)
        for table in loaded:
            self.router.run(self._actor_of(table, now))
        for table_id in set(claimed) - {t.id for t in loaded}:
            await self.router.release(table_id)
        self._started = True
        self.tournaments.resume()
        self._janitor_task = asyncio.ensure_future(
            sweep_idle_tables(self.router, self.store, self.gateway.connected, self.idle_close)
        )
        await self.forwarder.start()
        self._janitor_task.add_done_callback(log_failure)
        if self.ports.shared:
            self._renewing = asyncio.ensure_future(self.keeper.run())
            self._renewing.add_done_callback(log_failure)
        if self.reaper is not None:
            self._reaping = asyncio.ensure_future(self.reaper.run())
            self._reaping.add_done_callback(log_failure)

    def _table_moved(self, table: Table) -> None:
        """A table this node ran is run elsewhere now (its lease went): its followers here
        follow it on the new owner, and this node forgets it."""
        self.forwarder.moved(table)
        self.mirror.closed(table.id)
        self._table_closed(table)

    def _actor_of(self, table: Table, now: float) -> TableActor:
        """The actor of a table just loaded from the database, its stored deadlines armed."""
        online = {u for u in table.humans() if self.gateway.connected(u)}
        deadlines.restored(table, self.services.timing, now, online)
        deadlines.refresh(table, self.services.timing, now)
        self.lobby.publish(table)  # listed by its owner, whatever the lobby held before
        return TableActor(table, self.services)

    async def _load_claimed(self, table_id: int) -> TableActor | None:
        """A table this node just took the lease of (its owner died): a new epoch, then loaded."""
        claimed = await tablestore.claim(self.store, table_id)
        tables = await tablestore.load_open_tables(self.store, self._rules_for, [table_id])
        if claimed is None or not tables:
            return None
        tables[0].epoch = claimed[0]  # this claim's epoch (a later claim's row fences it)
        await self.standing.load_flags([table_id])
        log.info("table %s claimed and loaded (epoch %s)", table_id, tables[0].epoch)
        return self._actor_of(tables[0], time.time())

    async def open_table(self, table: Table, change: Change, cmd: Command) -> None:
        """Run a new table here; its creation is stored (or refused) as its first change."""
        if await self.router.claim(table.id) is None:
            raise SalonError("internal", Msg("error-table-not-claimed"))
        actor = TableActor(table, self.services)
        self.router.run(actor)
        try:
            await actor.call(lambda _t, _c, _cmd: change, cmd)
        except BaseException:
            await actor.stop()
            await self.router.release(table.id)
            raise
        self.lobby.changed()

    def online(self, user_id: int) -> bool:
        """Is this user connected on any node? The presence port's local view (no I/O)."""
        return self.ports.presence.online(user_id)

    def spawn(self, work: Awaitable[Any]) -> None:
        """Run ``work`` beside the caller (failures are logged; a stop waits 1 s, then cancels)."""
        self.start_task(work)

    def start_task(self, work: Awaitable[Any]) -> asyncio.Future[Any]:
        """:meth:`spawn`, returning the task (``settle`` waits for it; the caller may end it)."""
        task = asyncio.ensure_future(work)
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)
        task.add_done_callback(log_failure)
        return task

    def _table_closed(self, table: Table) -> None:
        """A table was stored as closed (or fenced): forget it here and give its lease up."""
        self.quotas.closed(table.id)
        self.lobby.disown(table.id)
        self.standing.table_flags.pop(table.id, None)
        self.router.actors.pop(table.id, None)
        self.spawn(self.router.release(table.id))

    async def stop(self) -> None:
        """Stop timers and bots, close connections, flush and close storage.

        Nothing needs saving here: everything was stored when it happened.
        """
        await self._halt()
        await self.nodes.leave()
        await self.tournaments.release_runner()  # another node takes over at once
        await self.standing.stop()
        if self.ids is not None:
            await self.ids.close()
        self.friends.close()
        self.accounts.close()
        for table_id in list(self.router.lease_of):  # a clean stop frees its tables at once
            with contextlib.suppress(Exception):
                await self.router.release(table_id)
        await end_tasks(self._releases, grace=1.0)
        await self.ports.close()
        await self.store.stop()
        await self.thinker.close()  # last: its workers may be finishing a search

    async def crash(self) -> None:
        """Test helper: stop like a killed process would, writing nothing more."""
        await self._halt()
        self.nodes.abandon()
        await self.standing.stop()
        await end_tasks(self._releases, grace=0.0)
        await self.ports.close()  # its leases are left to expire, as a killed process's
        await self.store.abandon()
        await self.thinker.close(wait=False)  # a killed process's workers exit with it

    async def _halt(self) -> None:
        self.lobby.stopping = True
        await self.tournaments.stop()
        await self.forwarder.stop()
        running = (self._janitor_task, self.lobby.task, self._renewing, self._reaping)
        await end_tasks([t for t in running if t is not None], grace=0.0)
        for actor in list(self.router.actors.values()):
            await actor.stop()
        self.gateway.close_all()
        self.gateway.connections.clear()

    async def settle(self, timeout: float = 30.0) -> None:
        """Test helper: wait until bots, lobby updates and outgoing queues are idle."""
        parts = (self.router.actors, self.lobby, self.gateway.connections, self._releases)
        await settling.settle(*parts, timeout)

    async def next_id(self, kind: IdKind) -> int:
        """A new row id, unique over every process on this database (salon/ids.py)."""
        assert self.ids is not None, "the salon is not started"
        return await self.ids.next(kind)

    def _take_game_id(self) -> int:
        assert self.ids is not None, "the salon is not started"
        return self.ids.take_game()

    # =============================================================================
    # connections (kept by the :class:`Gateway`)
    # =============================================================================

    async def connect(self, send: Send, address: str | None = None) -> Connection:
        """A new connection from ``address``; it must say ``hello`` before anything else.

        ``quota`` if the address already holds its share of sockets.
        """
        return await self.gateway.connect(send, address)

    async def handle(self, conn: Connection, message: dict[str, Any]) -> None:
        """Act on one message; every refusal becomes an ``error`` reply, never an exception."""
        await self.gateway.handle(conn, message)

    async def disconnect(self, conn: Connection) -> None:
        """The connection closed: forget it; a seated player's seat may go to a bot."""
        await self.gateway.disconnect(conn)

    # =============================================================================
    # accounts (kept by :class:`AccountBook`)
    # =============================================================================

    async def guest(self, name: str, lang: str = "en", address: str | None = None) -> Session:
        """Sign in as a guest; a name already taken gets a number ("Anna 2")."""
        return await self.accounts.guest(name, lang, address)

    async def register(
        self, name: str, password: str, lang: str = "en", address: str | None = None
    ) -> Session:
        """Create an account with a password (argon2id); ``conflict`` if the name is taken."""
        return await self.accounts.register(name, password, lang, address)

    async def login(self, name: str, password: str, address: str | None = None) -> Session:
        """Sign in with a password; ``unauthenticated`` if the name or password is wrong."""
        return await self.accounts.login(name, password, address)

    async def resume(self, token: str) -> User | None:
        """The user of a live session token, or None (unknown, expired or revoked)."""
        return await self.accounts.resume(token)

    async def logout(self, token: str) -> None:
        """Sign out: revoke the token; the sockets that said hello with it are signed out too."""
        _user, digest = await self.accounts.revoke(token)
        digests = self.gateway.digests
        self.gateway.drop_sessions(lambda conn: digests.get(conn.id) == digest, "you signed out")

    async def change_password(
        self, token: str, old: str, new: str, address: str | None = None
    ) -> User:
        """Set a new password; every other session of the account is revoked at once."""
        user, kept = await self.accounts.change_password(token, old, new, address)
        digests = self.gateway.digests
        self.gateway.drop_sessions(
            lambda conn: conn.user_id == user.id and digests.get(conn.id) != kept,
            "the password was changed; sign in again",
        )
        return user

    def _name_of(self, user_id: int) -> str:
        user = self.accounts.users.get(user_id)
        return user.name if user else f"#{user_id}"

    # =============================================================================
    # read-only queries (HTTP API)
    # =============================================================================

    def lobby_page(self, lang: str, cursor: int | None, limit: int | None) -> dict[str, Any]:
        """One page of the public tables (see :meth:`LobbyFeed.page`)."""
        return self.lobby.page(lang, cursor, limit)

    async def list_tables(self, lang: str = "en") -> list[dict[str, Any]]:
        """The first page of public tables (``GET /api/tables``; see :meth:`lobby_page`)."""
        tables: list[dict[str, Any]] = self.lobby.page(lang, None, None)["tables"]
        return tables

    def games_info(self, lang: str = "en") -> list[dict[str, Any]]:
        """Every available game with its options, presets, seats and bot levels."""
        return self.lobby.games_info(lang)

    async def game_record(self, game_id: int, viewer: int | None = None) -> dict[str, Any] | None:
        """A game with its full log (finished or running), or None if unknown.

        A running game's seed is withheld (see :func:`read_record`). A game of a
        private table exists only for the people who played in it (``viewer``, a
        user id): anyone else gets None, as for a game that does not exist.
        """
        record = await read_record(self.store, game_id)
        if record is None:
            return None
        if record["private"] and viewer not in {p["user"] for p in record["players"]} - {None}:
            return None
        return record

    async def user_stats(self, name: str) -> dict[str, Any] | None:
        """Games played, won, lost (and drawn) per game, or None for an unknown user."""
        found = await self.accounts.find(name)
        if found is None:
            return None
        return {"user": found.name, "id": found.id, "games": await self.standing.stats(found.id)}

    # -- for tests and tools ------------------------------------------------------------

    def snapshot(self, table_id: int) -> dict[str, Any]:
        """Everything restorable about a table, as plain data (to compare after a restart)."""
        table = self.tables[table_id]
        match = table.match
        return {
            "row": table.row(),
            "history": [(i.seq, i.channel, i.data) for i in table.history.items],
            "record": match.record().to_json() if match is not None else None,
            "state": table.rules.state_to_json(match.state) if match is not None else None,
            "games": {gid: (info.names, info.users) for gid, info in table.games.items()},
        }

    def state_of_everything(self) -> dict[str, Any]:
        """Every table's snapshot with its spectators, and the users (for tests)."""
        return {
            "tables": {
                tid: {**self.snapshot(tid), "spectators": sorted(t.spectators)}
                for tid, t in self.tables.items()
            },
            "users": sorted(self.accounts.users),
        }


__all__ = ["Connection", "Event", "Salon", "Session", "User"]
