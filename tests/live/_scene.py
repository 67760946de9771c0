"""A salon full of scripted tables, for the chaos and restart tests.

:class:`Scene` opens tables (a host, a second player, a bot where the game has
room for one, and a spectator), lets the players play random legal actions and
chat until told to stop, with each person's socket on the node their
``url`` names (a fixed node, or the proxy, which spreads reconnections over
every node), and checks at the end that every running game went on.
Disturbances (``kill -9`` of nodes, Redis or PostgreSQL restarts) are run by
the tests beside it.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from _invariants import Stored, problems, read_stored
from _livekit import Cluster
from _scripted import GaveUp, Player, Unknown, guest_session


@dataclass(frozen=True)
class Plan:
    """What one table plays."""

    game: str
    preset: str
    bot: str | None  # a bot's level in a third seat, or none (games of two)

    @property
    def seats(self) -> int:
        return 3 if self.bot else 2


#: The kinds of game the tables cycle through: both 421 rule sets, Zilch, and chess
#: (random legal moves: a long game, still running at the end of most tests).
PLANS = (
    Plan("421", "salon", "random"),
    Plan("zilch", "zilch5000", "simple"),
    Plan("421", "bar", "random"),
    Plan("chess", "standard", None),
)

#: Where each person of table ``i`` connects: role 0 host, 1 second player, 2 spectator.
Placement = Callable[[int, int], Callable[[], str]]


@dataclass
class Seated:
    """One table of the scene and its people."""

    table: int
    plan: Plan
    host: Player
    guest: Player
    spectator: Player
    #: (game id, log length, over) when the disturbances stopped
    at_calm: tuple[int | None, int, bool] = (None, 0, False)

    @property
    def people(self) -> tuple[Player, Player, Player]:
        return (self.host, self.guest, self.spectator)


def where_they_stand(person: Player, table: int) -> str:
    """What one person at a stalled table has seen of it (for the failure's message)."""
    follow = person.follows.get(table)
    if follow is None:
        return f"{person.name}: follows nothing"
    view = follow.view or {}
    body = view.get("view") or {}
    return (
        f"{person.name} (seat {follow.seat}, connected {person.connected}, syncing "
        f"{follow.syncing}): last seq {follow.last_seq} ({follow.last_how}), view at log "
        f"{view.get('log_length')} to act {body.get('to_act')} legal {len(body.get('legal') or [])}"
        f" over {bool(body.get('over'))}, errors {dict(person.errors)}"
    )


@dataclass
class Scene:
    cluster: Cluster
    place: Placement
    think: tuple[float, float] = (0.15, 0.5)
    chat_every: float = 6.0
    seated: list[Seated] = field(default_factory=list)
    #: Every person made, seated or not (all are closed at the end).
    everyone: list[Player] = field(default_factory=list)
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    _stop: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def players(self) -> list[Player]:
        return [p for s in self.seated for p in s.people]

    @property
    def tables(self) -> list[int]:
        return [s.table for s in self.seated]

    # -- setting up ------------------------------------------------------------------

    async def open_tables(self, count: int, at_once: int = 4) -> None:
        """Open ``count`` tables, each started with its players seated and a spectator."""
        gate = asyncio.Semaphore(at_once)

        async def one(index: int) -> Seated:
            async with gate:
                return await self._open(index)

        tasks = [asyncio.create_task(one(i)) for i in range(count)]
        try:
            self.seated = list(await asyncio.gather(*tasks))
        except BaseException:  # one table failed: the others are not waited for
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise

    async def _open(self, index: int) -> Seated:
        plan = PLANS[index % len(PLANS)]
        people = []
        for role, name in enumerate(("Host", "Guest", "Watcher")):
            url = self.place(index, role)
            session = await guest_session(url(), f"{name} {index}")
            people.append(Player(f"{name.lower()}{index}", session, url))
            self.everyone.append(people[-1])
        host, guest, spectator = people
        table = await host.create(game=plan.game, preset=plan.preset, seats=plan.seats)
        joined = await guest.join(table, tries=3)
        assert joined.get("type") == "ok", f"{guest.name} cannot join table {table}: {joined}"
        if plan.bot:
            added = await host.patiently("table.add_bot", table=table, level=plan.bot)
            assert added["type"] == "ok", f"no bot at table {table}: {added}"
        watched = await spectator.join(table, "watch", tries=3)
        assert watched.get("type") == "ok", f"{spectator.name} cannot watch {table}: {watched}"
        started = await host.patiently("table.start", table=table)
        assert started["type"] == "ok", f"table {table} does not start: {started}"
        return Seated(table, plan, host, guest, spectator)

    # -- playing ---------------------------------------------------------------------

    def play(self, seed: int) -> None:
        """Start every person's loop (until :meth:`stop`)."""
        rng = random.Random(seed)
        for seated in self.seated:
            for player in (seated.host, seated.guest):
                self._tasks.append(
                    asyncio.create_task(self._drive(player, seated.table, rng.randrange(1 << 30)))
                )
            self._tasks.append(asyncio.create_task(self._watch(seated.spectator)))

    async def _drive(self, player: Player, table: int, seed: int) -> None:
        """A player: act when it is their turn, chat now and then, restart a finished game
        (the host), reconnect and resume when the socket dies."""
        rng = random.Random(seed)
        tried: dict[tuple[Any, Any], float] = {}
        next_line = time.monotonic() + rng.uniform(1.0, self.chat_every)
        last_start = 0.0
        while not self._stop.is_set():
            try:
                await player.ensure_connected()
                now = time.monotonic()
                view = player.my_turn(table)
                if view is not None:
                    key = (view.get("game_id"), view["log_length"])
                    if now - tried.get(key, -10.0) > 2.0:  # a refused try is tried again later
                        await asyncio.sleep(rng.uniform(*self.think))
                        view = player.my_turn(table)
                        if view is not None and (view.get("game_id"), view["log_length"]) == key:
                            tried[key] = time.monotonic()
                            await player.act(table, rng.choice(view["view"]["legal"]), view)
                            continue
                if now >= next_line:
                    next_line = now + rng.uniform(self.chat_every / 2, self.chat_every * 1.5)
                    await player.say(table)
                    continue
                follow = player.follows[table]
                if (
                    follow.state == "finished"
                    and follow.host == player.user
                    and not follow.syncing
                    and now - last_start > 2.0
                ):
                    last_start = now
                    await player.request("table.start", table=table)
                    continue
                await player.wait_news(0.5)
            except Unknown:
                continue  # the top of the loop reconnects and resumes
            except GaveUp as exc:
                player.violations.append(str(exc))
                return

    async def _watch(self, spectator: Player) -> None:
        while not self._stop.is_set():
            try:
                await spectator.ensure_connected()
                await spectator.wait_news(0.5)
            except GaveUp as exc:
                spectator.violations.append(str(exc))
                return

    def calm(self) -> None:
        """Note where each game stands when the disturbances stop."""
        for seated in self.seated:
            view = seated.host.follows[seated.table].view or {}
            body = view.get("view") or {}
            seated.at_calm = (
                view.get("game_id"),
                view.get("log_length", 0),
                bool(body.get("over")),
            )

    def stalled(self) -> list[str]:
        """Tables whose game running at :meth:`calm` has neither moved on nor finished since."""
        found = []
        for seated in self.seated:
            game_id, length, over = seated.at_calm
            if over or game_id is None:
                continue
            view = seated.host.follows[seated.table].view or {}
            body = view.get("view") or {}
            moved = view.get("game_id") != game_id or view.get("log_length", 0) > length
            if not moved and not body.get("over"):
                found.append(
                    f"table {seated.table} ({seated.plan.game}): game {game_id} stuck at log "
                    f"{length} (host {seated.host.name} connected: {seated.host.connected}); "
                    + "; ".join(where_they_stand(p, seated.table) for p in seated.people)
                )
        return found

    async def stop(self) -> None:
        """Stop every loop and close every socket."""
        self._stop.set()
        for task in self._tasks:
            try:
                await asyncio.wait_for(task, 30)
            except TimeoutError:
                task.cancel()
        await asyncio.gather(*(p.close() for p in self.everyone))

    # -- after -----------------------------------------------------------------------

    async def verdict(self) -> tuple[Stored, list[str]]:
        """What the database holds of the scene's tables, and every invariant broken."""
        stored = await read_stored(self.cluster.pg_url, self.tables)
        return stored, problems(stored, self.players, self.tables)

    def summary(self) -> str:
        """Counts for a failure message or the log: acks, reconnects, errors met."""
        acks = sum(len(p.acks) for p in self.players)
        reconnects = sum(p.reconnects for p in self.players)
        pushed = sum(p.pushed_histories for p in self.players)
        errors: dict[str, int] = {}
        for player in self.players:
            for code, count in player.errors.items():
                errors[code] = errors.get(code, 0) + count
        return (
            f"{acks} acknowledged, {reconnects} reconnections, {pushed} histories pushed "
            f"after a failover, errors {errors}"
        )
