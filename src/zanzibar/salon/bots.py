"""The salon's bots: one per seat and level, thinking inline when quick, in worker processes when slow.

A bot is the game's own (``rules.make_bot(level, options, seed)``), seeded from
the game's dice seed and the seat so a replayed table gets the same bots. Dice
bots answer in microseconds: handing them to another thread or process would
cost more than their move. A chess bot thinks for a second or more. In a
thread it would still hold the GIL most of that time, so a deep search slowed
the event loop and every other table's search; so slow levels think in a
pool of worker **processes** instead, where one search never delays another
table's (bench/bench_bots.py measures the event loop's latency both ways).

How a move is placed:

* a level's first move runs in a thread and is timed (in this process, so
  whatever the bot caches on its first move, an endgame table say, stays
  here); a level whose moves take on average (an exponential moving average,
  so a slow first move that fills a cache is soon forgotten) less than
  :data:`INLINE_BOT_SECONDS` of CPU then plays inline (CPU time, not the wall
  clock: on a busy machine a quick move waits for a CPU, which is no reason to
  send it to another process);
* slower levels go to the process pool when the bot was made by
  :func:`bot_for` for a game of the registry (the worker rebuilds the same bot
  from game, level, options and seed, and keeps it for the next moves of that
  game and seat: a bot's caches survive between its moves); any other bot (a
  test's, or a game outside the registry) keeps thinking in a thread.

The workers end with the process that owns them, however it ends: a clean
stop shuts the pool down (:meth:`Thinker.close`, from ``Salon.stop``), and a
worker whose owner was killed exits at once (:func:`_exit_with_owner`), which
lets the fork server and multiprocessing's resource tracker exit in turn.

A worker's copy of a bot draws its own random numbers: a bot that plays at
random may choose differently from an in-process copy with the same seed. That
changes nothing a restart relies on: every move a bot made is in the game's
log, and a restored table replays the log, not the bot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from zanzibar.engine.rules import Bot
from zanzibar.salon.tables import Table

log = logging.getLogger(__name__)

#: Bots of a level whose moves take less than this on average play inline.
INLINE_BOT_SECONDS = 0.002
#: Weight of the newest move in the average.
_WEIGHT = 0.3
#: Bots a worker process keeps (least recently used first out).
WORKER_CACHE = 64


@dataclass(frozen=True)
class BotRecipe:
    """What a worker process needs to make the same bot: a registry game and its settings."""

    game: str
    level: str
    options_json: str
    seed: int

    def make(self) -> Bot[Any, Any]:
        from zanzibar.games import get_rules

        rules = get_rules(self.game)
        return rules.make_bot(self.level, json.loads(self.options_json), self.seed)


#: The recipe of each bot :func:`bot_for` made for a registry game (weakly: bots die with games).
_recipes: weakref.WeakKeyDictionary[Any, BotRecipe] = weakref.WeakKeyDictionary()


def recipe_of(bot: object) -> BotRecipe | None:
    """How a worker process can make ``bot`` again, if it can."""
    try:
        return _recipes.get(bot)
    except TypeError:  # not weakly referenceable: never recorded
        return None


def _registered(table: Table) -> bool:
    """Whether the table's rules are the registry's, so a worker process can load them."""
    from zanzibar.engine.errors import ZanzibarError
    from zanzibar.games import get_rules

    try:
        return get_rules(table.rules.name) is table.rules
    except (ZanzibarError, ImportError):
        return False


def bot_for(table: Table, seat: int, level: str) -> Bot[Any, Any]:
    """The bot of ``level`` playing ``seat`` at this table (made once per game)."""
    bot = table.bots.get((seat, level))
    if bot is None:
        seed = (table.match.rng.seed if table.match else 0) + seat
        bot = table.bots[(seat, level)] = table.rules.make_bot(level, table.options, seed)
        remember_recipe(bot, table, level, seed)
    return bot


def remember_recipe(bot: Bot[Any, Any], table: Table, level: str, seed: int) -> None:
    """Record how to rebuild ``bot`` in a worker process (registry games only)."""
    if not _registered(table):
        return
    try:
        options = json.dumps(dict(table.options), sort_keys=True)
    except (TypeError, ValueError):
        return
    try:
        _recipes[bot] = BotRecipe(table.rules.name, level, options, seed)
    except TypeError:
        return


# -- in the worker processes ---------------------------------------------------------

_worker_bots: OrderedDict[BotRecipe, Bot[Any, Any]] = OrderedDict()


def _think(recipe: BotRecipe, state: Any) -> tuple[Any, float]:
    """In a worker: the action of the recipe's bot (made once, then reused) and its seconds."""
    bot = _worker_bots.get(recipe)
    if bot is None:
        bot = recipe.make()
        _worker_bots[recipe] = bot
        while len(_worker_bots) > WORKER_CACHE:
            _worker_bots.popitem(last=False)
    else:
        _worker_bots.move_to_end(recipe)
    started = time.thread_time()
    action = bot.choose(state)
    return action, time.thread_time() - started


#: Modules the fork server imports once, so that every worker starts with them loaded
#: (a missing one is skipped): the games whose bots are slow enough to come here.
PRELOAD = [
    "zanzibar.games",
    "zanzibar.games.chess.rules",
    "zanzibar.games.zilch.rules",
    "zanzibar.games.dice421.rules",
]


def _exit_with_owner() -> None:
    """In a new worker: exit the moment the process that owns the pool dies, however it dies.

    A worker's parent is the fork server, not the salon's process, and each
    worker holds the write end of the fork server's "alive" pipe (so that it
    could start processes of its own): when the owner is killed (``kill -9``)
    the fork server never sees that pipe close, and the workers, blocked on
    their task queue, whose write end they hold too, never see theirs close.
    Nothing ends and every crash leaks the lot. Watching ``os.getppid()`` or
    asking Linux for ``PR_SET_PDEATHSIG`` would only tell a worker that the
    fork server died, which it does not.

    The standard library gives each child a handle on its *owner* instead:
    :func:`multiprocessing.parent_process` ``.sentinel`` is the read end of a
    pipe whose write end only the owner keeps open, so it turns readable (end
    of file) when the owner's process is gone, and only then. A daemon thread
    blocks on it, with no polling, and ends the worker with ``os._exit`` (a
    search holding the GIL still yields to it within the interpreter's switch
    interval). Once no worker is left, the fork server sees its "alive" pipe
    close and exits, and then the resource tracker. Portable, no ctypes.
    """
    owner = multiprocessing.parent_process()
    if owner is None:  # not started by multiprocessing: nothing to watch
        return
    threading.Thread(
        target=_wait_then_exit, args=(owner.sentinel,), name="owner-watch", daemon=True
    ).start()


def _wait_then_exit(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


# -- the shared pool -----------------------------------------------------------------

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()
#: Its number of worker processes.
_pool_workers = 0
#: The pool whose workers :func:`start_bot_pool` started (None: not started yet).
_started: ProcessPoolExecutor | None = None
_start_lock = threading.Lock()
#: How long each start-up job keeps its worker busy (seconds).
_SETTLE_SECONDS = 0.2
#: The thinkers that sent work to the pool and are not closed: the last to close stops it.
_pool_users: weakref.WeakSet[Thinker] = weakref.WeakSet()


def default_workers() -> int:
    """Cores less one for the event loop, but at least two: two tables' searches never queue."""
    return max(2, (os.cpu_count() or 1) - 1)


def bot_pool(user: Thinker | None = None) -> ProcessPoolExecutor:
    """The process-wide pool of bot workers, started on first use.

    One per process, shared by every salon in it (there is one in production;
    tests make many, and a pool each would leave processes behind). Workers
    start from a fork server, not a fork of this process: forking a process
    that runs an event loop and threads copies their locks in whatever state.
    Like every non-fork start method, a worker imports the main module again:
    a script that makes a salon must keep its work under
    ``if __name__ == "__main__":`` (the ``zanzibar`` command does).
    A ``user`` keeps the pool running until it is closed (:func:`release_bot_pool`).
    """
    global _pool, _pool_workers
    with _pool_lock:
        if user is not None:
            _pool_users.add(user)
        if _pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            _pool_workers = default_workers()
            _pool = ProcessPoolExecutor(
                max_workers=_pool_workers, mp_context=context, initializer=_exit_with_owner
            )
        return _pool


def running_bot_pool(user: Thinker) -> ProcessPoolExecutor | None:
    """The pool if its workers are started (``user`` then keeps it running), else None."""
    with _pool_lock:
        if _pool is None or _pool is not _started:
            return None
        _pool_users.add(user)
        return _pool


def start_bot_pool(user: Thinker | None = None) -> ProcessPoolExecutor:
    """The pool with its workers started: BLOCKS (call it in a thread, never in the event loop).

    The first worker waits for the fork server to start and import :data:`PRELOAD`
    (most of a second, several on a busy machine), and every further one for a fork
    of it; left to ``submit``, that wait froze the event loop of the whole salon in
    the middle of a game the first time a bot went to the pool. Here every worker
    is started before the pool is handed to the loop.
    """
    global _started
    pool = bot_pool(user)
    with _start_lock:
        if _started is not pool:
            # all busy at once, so that each submission starts a worker of its own
            pending = [pool.submit(time.sleep, _SETTLE_SECONDS) for _ in range(_pool_workers)]
            for future in pending:
                future.result()
            with _pool_lock:
                if _pool is pool:
                    _started = pool
    return pool


def shutdown_bot_pool() -> None:
    """Stop the workers (a new pool starts if a bot needs one later)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def release_bot_pool(user: Thinker) -> ProcessPoolExecutor | None:
    """``user`` needs the pool no more: the pool, taken out of service, if it was its last user.

    The caller shuts the returned pool down (waiting for its workers or not).
    Moves still queued are cancelled; a search under way ends within its time limit.
    """
    global _pool
    with _pool_lock:
        if user not in _pool_users:  # never sent it work (or closed already): not its to stop
            return None
        _pool_users.discard(user)
        if _pool_users:
            return None
        pool, _pool = _pool, None
    return pool


def _discard_broken(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


class Thinker:
    """Runs bots' choices inline, in a thread or in a worker process, by how long they take."""

    def __init__(
        self,
        threads: bool = True,
        processes: bool = True,
        clock: Callable[[], float] = time.thread_time,
    ) -> None:
        #: False: always inline (tests, or a machine with one core to spare).
        self.threads = threads
        #: What a move's duration is read from: the CPU time of the thread that makes it,
        #: not the wall clock, which on a busy machine also counts the time the thread
        #: waited for a CPU (or for the GIL) and sent quick bots to the worker processes,
        #: where a move costs far more CPU (the state pickled both ways, and the bot made
        #: again when a worker serves more tables than the :data:`WORKER_CACHE` bots it
        #: keeps: docs/deploy.md, fifth round). Tests give a clock that only the bot moves.
        self.clock = clock
        #: False: slow bots think in threads of this process, never in worker processes.
        self.processes = processes
        #: Average seconds per move, per (game, level).
        self.average: dict[tuple[str, str], float] = {}
        #: Moves made inline, in a thread and in a process (for tests and benchmarks).
        self.placed: Counter[str] = Counter()
        #: The pool's workers being started (in a thread) for this thinker's first pool move.
        self._starting: asyncio.Future[ProcessPoolExecutor] | None = None

    def _learn(self, key: tuple[str, str], took: float) -> None:
        before = self.average.get(key)
        self.average[key] = took if before is None else before + _WEIGHT * (took - before)

    def inline(self, game: str, level: str) -> bool:
        """Whether this level's next move is made inline (quick, or threads are off)."""
        average = self.average.get((game, level))
        return not self.threads or (average is not None and average < INLINE_BOT_SECONDS)

    def choose_now(self, game: str, level: str, bot: Bot[Any, Any], state: Any) -> Any:
        """The bot's action for ``state``, made here and now (for a level :meth:`inline`)."""
        self.placed["inline"] += 1
        return self._timed((game, level), bot, state)

    async def choose(self, game: str, level: str, bot: Bot[Any, Any], state: Any) -> Any:
        """The bot's action for ``state``."""
        key = (game, level)
        average = self.average.get(key)
        if self.inline(game, level):
            return self.choose_now(game, level, bot, state)
        recipe = recipe_of(bot) if self.processes and average is not None else None
        pool = await self._pool() if recipe is not None else None
        if recipe is not None and pool is not None:
            try:
                action, took = await asyncio.get_running_loop().run_in_executor(
                    pool, _think, recipe, state
                )
            except BrokenProcessPool:
                log.error("a bot worker process died; starting a new pool")
                _discard_broken(pool)
            else:
                self.placed["process"] += 1
                self._learn(key, took)
                return action
        self.placed["thread"] += 1
        return await asyncio.to_thread(self._timed, key, bot, state)

    async def _pool(self) -> ProcessPoolExecutor | None:
        """The worker pool, its workers started in a thread the first time (None: it failed).

        Moves that need the pool while it starts wait for the same start.
        """
        pool = running_bot_pool(self)
        if pool is not None:
            return pool
        if self._starting is None or self._starting.done():
            self._starting = asyncio.ensure_future(asyncio.to_thread(start_bot_pool, self))
        try:
            return await asyncio.shield(self._starting)
        except Exception as exc:  # shut down meanwhile, or workers that cannot start
            log.warning("the bot worker processes did not start (%s): a thread thinks", exc)
            return None

    async def close(self, wait: bool = True) -> None:
        """Stop the worker processes if no other open thinker of this process uses them.

        ``wait``: return once they have exited (in a thread: the event loop keeps
        running while a search under way finishes); False: let them finish alone.
        """
        pool = release_bot_pool(self)
        if pool is None:
            return
        if wait:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
        else:
            pool.shutdown(wait=False, cancel_futures=True)

    def _timed(self, key: tuple[str, str], bot: Bot[Any, Any], state: Any) -> Any:
        started = self.clock()
        action = bot.choose(state)
        self._learn(key, self.clock() - started)
        return action
