"""Bots: take-over of a seat whose player leaves or drops, return, turn clock, pauses."""

from __future__ import annotations

import asyncio
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from _salonkit import Client, available_games, game_available, make_salon, play_with_bot_brain

from zanzibar.salon import Salon
from zanzibar.salon.bots import INLINE_BOT_SECONDS, Thinker

pytestmark = pytest.mark.anyio


async def two_humans(salon: Salon, **options: Any) -> tuple[Client, Client, int]:
    anna = await Client(salon, "Anna").sign_in()
    bob = await Client(salon, "Bob").sign_in()
    table_id = (
        await anna.ok("table.create", game="race", seats=2, options={"target": 60, **options})
    )["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await anna.ok("table.start", table=table_id)
    return anna, bob, table_id


async def test_leave_mid_game_bot_takes_over_and_player_returns(salon: Salon) -> None:
    anna, bob, table_id = await two_humans(salon)
    table = salon.tables[table_id]
    match = table.match
    assert match is not None and match.to_act == 0
    await anna.ok("table.leave", table=table_id)
    await salon.settle()
    assert table.seats[0].away and table.seats[0].left
    assert table.host == bob.user_id
    # the bot played Anna's turn: it is Bob's turn now
    assert match.to_act == 1
    assert any(e.seat == 0 for _, e in match.events)
    kinds = [i.get("kind") for i in bob.stream(table_id) if i["channel"] == "system"]
    assert "left" in kinds and "takeover" in kinds
    await anna.refused("game.action", "forbidden", table=table_id, action={"type": "roll"})
    anna_seen = anna.stream(table_id)[-1]["seq"]
    # Anna comes back to her seat and gets exactly what she missed
    reply = await anna.ok("table.join", table=table_id, since=anna_seen)
    assert reply["seat"] == 0
    assert not table.seats[0].away
    missed = anna.last("history")["items"]
    assert missed[0]["seq"] == anna_seen + 1
    assert any(i.get("kind") == "returned" for i in missed)
    # the turn comes back to her and the bot does not play it
    while match.to_act == 1:
        await bob.ok(
            "game.action",
            table=table_id,
            action={"type": "roll" if match.state.total < 3 else "stop"},
        )
    await salon.settle()
    assert match.to_act == 0
    assert anna.last("your_turn")["table"] == table_id


async def test_dropped_player_is_replaced_then_returns(db_url: str) -> None:
    salon = make_salon(db_url, takeover_delay=0.05)
    await salon.start()
    try:
        anna, bob, table_id = await two_humans(salon)
        table = salon.tables[table_id]
        match = table.match
        assert match is not None
        await anna.disconnect()
        await salon.settle()
        assert not table.seats[0].away  # not yet: the grace period runs
        assert bob.last("table")["table"]["seats"][0]["connected"] is False
        await asyncio.sleep(0.1)
        await salon.settle()
        assert table.seats[0].away and not table.seats[0].left
        assert match.to_act == 1
        # back on a new connection with the same token, asking for what she missed
        seen = [i["seq"] for i in anna.stream(table_id)]
        await anna.reconnect()
        await anna.ok("table.join", table=table_id, since=seen[-1])
        assert not table.seats[0].away
        seqs = [i["seq"] for i in anna.stream(table_id)]
        assert seqs == list(range(1, table.history.last_seq + 1))  # nothing twice, nothing lost
        kinds = [i.get("kind") for i in anna.stream(table_id) if i["channel"] == "system"]
        assert kinds[-2:] == ["takeover", "returned"]
    finally:
        await salon.stop()


async def test_quick_reconnect_keeps_the_seat(db_url: str) -> None:
    # a grace long enough for a reconnection on a busy machine (0.2 s was not, under load)
    salon = make_salon(db_url, takeover_delay=1.5)
    await salon.start()
    try:
        anna, _bob, table_id = await two_humans(salon)
        await anna.disconnect()
        await anna.reconnect()
        await asyncio.sleep(1.7)  # past the grace: no take-over was left armed
        await salon.settle()
        assert not salon.tables[table_id].seats[0].away
        assert salon.tables[table_id].match.to_act == 0  # type: ignore[union-attr]
    finally:
        await salon.stop()


async def test_turn_clock_lets_a_bot_play_the_turn(db_url: str) -> None:
    """Anna's clock runs out: a bot plays that one turn for her and the turn passes to Bob.

    Bob's clock is as short, and when it runs out too a bot plays his turn: the table
    is looked at the moment his turn comes (his ``your_turn`` is handed over as it is
    put), not some time later, when under load his own turn may have gone by as well.
    """
    salon = make_salon(db_url, clock_scale=0.01)
    await salon.start()
    try:
        at_his_turn: list[tuple[int | None, int | None, bool]] = []
        his_turn = asyncio.Event()

        def seen(message: dict[str, Any]) -> None:
            if message.get("type") == "your_turn" and not his_turn.is_set():
                table = salon.tables[message["table"]]
                assert table.match is not None
                at_his_turn.append((table.match.to_act, table.clock_seat, table.seats[0].away))
                his_turn.set()

        anna = await Client(salon, "Anna").sign_in()
        bob = await Client(salon, "Bob", seen=seen).sign_in()
        table_id = (await anna.ok("table.create", game="race", seats=2, options={"target": 60}))[
            "table"
        ]["id"]
        await bob.ok("table.join", table=table_id)
        await anna.ok("table.start", table=table_id)
        match = salon.tables[table_id].match
        assert match is not None and match.to_act == 0
        assert not his_turn.is_set()
        await anna.ok("table.clock", table=table_id, seconds=5)
        await asyncio.wait_for(his_turn.wait(), 60)
        to_act, clock_seat, anna_away = at_his_turn[0]
        assert to_act == 1
        kinds = [i.get("kind") for i in bob.stream(table_id) if i["channel"] == "system"]
        assert "clock_timeout" in kinds
        assert not anna_away  # only that turn
        assert clock_seat is None
        assert bob.last("your_turn")["clock"] == 5
    finally:
        await salon.stop()


async def test_pause_between_rounds_and_hold(db_url: str) -> None:
    salon = make_salon(db_url, round_pause=0.05)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        table_id = (await anna.ok("table.create", game="race", seats=2, options={"target": 90}))[
            "table"
        ]["id"]
        await anna.ok("table.add_bot", table=table_id)
        await anna.ok("table.start", table=table_id)
        table = salon.tables[table_id]
        match = table.match
        assert match is not None

        async def finish_round() -> None:
            rounds = sum(1 for _, e in match.events if e.kind == "round_end")
            for _ in range(200):
                if sum(1 for _, e in match.events if e.kind == "round_end") > rounds:
                    return
                if table.state == "playing" and match.to_act == 0:
                    await anna.ok(
                        "game.action",
                        table=table_id,
                        action={"type": "roll" if match.state.total < 2 else "stop"},
                    )
                await salon.settle()
            raise AssertionError("no round ended")

        await finish_round()
        assert table.state == "paused"
        await anna.refused("game.action", "conflict", table=table_id, action={"type": "roll"})
        await asyncio.sleep(0.1)
        await salon.settle()
        assert table.state == "playing"
        await anna.ok("table.hold", table=table_id, hold=True)
        await finish_round()
        await asyncio.sleep(0.1)
        await salon.settle()
        assert table.state == "paused"  # held
        await anna.ok("table.hold", table=table_id, hold=False)
        assert table.state == "playing"
        kinds = [i.get("kind") for i in anna.stream(table_id) if i["channel"] == "system"]
        for kind in ("round_pause", "round_resume", "held", "round_hold", "released"):
            assert kind in kinds
    finally:
        await salon.stop()


@pytest.mark.skipif("421" not in available_games(), reason="421 is not installed")
async def test_421_bar_rounds_pause_and_the_host_holds(db_url: str) -> None:
    """The bar preset is played in rounds ("round_lost"): the table pauses after each."""
    salon = make_salon(db_url, round_pause=30)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        eve = await Client(salon, "Eve").sign_in("fr")
        table_id = (await anna.ok("table.create", game="421", preset="bar", seats=3))["table"]["id"]
        await anna.ok("table.add_bot", table=table_id)
        await anna.ok("table.add_bot", table=table_id)
        await eve.ok("table.watch", table=table_id)
        await anna.ok("table.start", table=table_id)
        await anna.ok("table.hold", table=table_id, hold=True)
        table = salon.tables[table_id]
        match = table.match
        assert match is not None
        brain = table.rules.make_bot("simple", table.options, 0)
        for _ in range(3000):
            await salon.settle()
            if table.state != "playing":
                break
            if match.to_act == 0:
                action = table.rules.action_to_json(brain.choose(match.state))
                await anna.ok("game.action", table=table_id, action=action, seq=len(match.log))
        assert table.state == "paused"
        kinds = [i["event"]["kind"] for i in eve.stream(table_id) if i["channel"] == "game"]
        assert kinds.count("round_lost") == 1
        assert not any(e.kind == "game_over" for _, e in match.events)
        systems = [i.get("kind") for i in eve.stream(table_id) if i["channel"] == "system"]
        assert systems[-1] == "round_hold"
        await anna.ok("table.hold", table=table_id, hold=False)
        assert table.state == "playing"
    finally:
        await salon.stop()


async def test_kick_mid_game_gives_the_seat_to_a_bot(salon: Salon) -> None:
    anna, bob, table_id = await two_humans(salon)
    table = salon.tables[table_id]
    await anna.ok("table.kick", table=table_id, user=bob.user_id)
    assert table.seats[1].away and table.seats[1].left
    assert bob.user_id in table.banned
    await bob.refused("table.join", "forbidden", table=table_id)
    await bob.refused("table.watch", "forbidden", table=table_id)
    match = table.match
    assert match is not None and match.to_act == 0
    kicked_at = len(match.events)
    await anna.ok("game.action", table=table_id, action={"type": "roll"})
    while match.to_act == 0 and match.state.total:
        await anna.ok("game.action", table=table_id, action={"type": "stop"})
    await salon.settle()
    assert any(e.seat == 1 for _, e in match.events[kicked_at:])  # the bot played Bob's turn
    assert match.to_act == 0


async def test_slow_bot_levels_think_in_a_thread(db_url: str) -> None:
    salon = make_salon(db_url, bot_threads=True)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
        await anna.ok("table.add_bot", table=table_id, level="hard")
        await anna.ok("table.start", table=table_id)
        await anna.ok("game.action", table=table_id, action={"type": "roll"})
        match = salon.tables[table_id].match
        assert match is not None
        while match.to_act == 0 and not match.is_over:
            await anna.ok(
                "game.action",
                table=table_id,
                action={"type": "stop" if match.state.total else "roll"},
            )
        await salon.settle()
        assert ("race", "hard") in salon.thinker.average
    finally:
        await salon.stop()


# -- thinking inline or in a thread (salon/bots.py) ---------------------------------


class Recorder:
    """A bot whose every move takes ``seconds`` on its own clock (``Thinker(clock=...)``).

    The clock moves only when the bot thinks, so what the Thinker measures does not
    depend on how loaded the machine is (a move timed in a thread would otherwise
    also count the time spent waiting for the GIL).
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.threads: list[str] = []
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def choose(self, state: int) -> int:
        self.threads.append(threading.current_thread().name)
        self.now += self.seconds
        return state + 1


async def test_quick_bots_move_inline_after_their_first_move() -> None:
    quick = Recorder(0)
    thinker = Thinker(clock=quick.clock)
    for state in range(4):
        assert await thinker.choose("g", "quick", quick, state) == state + 1
    main = threading.current_thread().name
    assert quick.threads[0] != main and set(quick.threads[1:]) == {main}


async def test_slow_bots_keep_thinking_in_a_thread() -> None:
    slow = Recorder(INLINE_BOT_SECONDS * 3)
    thinker = Thinker(clock=slow.clock)
    for state in range(3):
        await thinker.choose("g", "slow", slow, state)
    assert threading.current_thread().name not in slow.threads


async def test_a_slow_first_move_is_soon_forgotten() -> None:
    quick = Recorder(0)
    thinker = Thinker(clock=quick.clock)
    thinker.average[("g", "cached")] = 0.05
    for state in range(12):
        await thinker.choose("g", "cached", quick, state)
    assert thinker.average[("g", "cached")] < INLINE_BOT_SECONDS
    assert quick.threads[-1] == threading.current_thread().name


async def test_threads_can_be_turned_off() -> None:
    slow = Recorder(INLINE_BOT_SECONDS * 2)
    thinker = Thinker(threads=False, clock=slow.clock)
    await thinker.choose("g", "slow", slow, 0)
    assert slow.threads == [threading.current_thread().name]


# -- slow bots in worker processes (salon/bots.py) ----------------------------------


def chess_position(moves: int) -> tuple[Any, Any]:
    """A Zanzibar-S game after ``moves`` quick moves: its rules and match."""
    from zanzibar.engine.match import Match
    from zanzibar.games import get_rules

    rules = get_rules("zanzibar-s")
    match = Match(rules, 2, None, seed=3)
    quick = {seat: rules.make_bot("casual", match.options, seat) for seat in (0, 1)}
    for _ in range(moves):
        seat = match.to_act
        assert seat is not None
        match.act(seat, quick[seat].choose(match.state))
    return rules, match


def registry_bot(rules: Any, match: Any, level: str, seed: int) -> Any:
    """A bot made as bot_for makes it, its recipe recorded."""
    from types import SimpleNamespace

    from zanzibar.salon.bots import remember_recipe

    bot = rules.make_bot(level, match.options, seed)
    table: Any = SimpleNamespace(rules=rules, options=match.options)
    remember_recipe(bot, table, level, seed)
    return bot


@pytest.mark.skipif(not game_available("zanzibar-s"), reason="chess bots not available")
async def test_a_slow_registry_bot_thinks_in_a_worker_process_and_plays_the_same() -> None:
    from zanzibar.salon.bots import recipe_of

    rules, match = chess_position(2)
    bot = registry_bot(rules, match, "easy", 11)
    recipe = recipe_of(bot)
    assert recipe is not None and (recipe.game, recipe.level, recipe.seed) == (
        "zanzibar-s",
        "easy",
        11,
    )
    thinker = Thinker()
    first = await thinker.choose("zanzibar-s", "easy", bot, match.state)
    assert thinker.placed == {"thread": 1}  # a level's first move is timed in this process
    thinker.average[("zanzibar-s", "easy")] = 1.0  # known to be slow
    again = await thinker.choose("zanzibar-s", "easy", bot, match.state)
    assert thinker.placed == {"thread": 1, "process": 1}
    fresh = rules.make_bot("easy", match.options, 11)
    assert first == again == fresh.choose(match.state)
    assert thinker.average[("zanzibar-s", "easy")] != 1.0  # the worker's timing was learnt


async def test_bots_outside_the_registry_and_disabled_processes_use_threads() -> None:
    from zanzibar.salon.bots import recipe_of

    slow = Recorder(INLINE_BOT_SECONDS * 3)
    assert recipe_of(slow) is None
    thinker = Thinker(clock=slow.clock)
    for state in range(2):
        await thinker.choose("g", "slow", slow, state)
    assert thinker.placed == {"thread": 2}
    if game_available("zanzibar-s"):
        rules, match = chess_position(2)
        bot = registry_bot(rules, match, "easy", 1)
        no_processes = Thinker(processes=False)
        no_processes.average[("zanzibar-s", "easy")] = 1.0
        await no_processes.choose("zanzibar-s", "easy", bot, match.state)
        assert no_processes.placed == {"thread": 1}


async def test_the_pools_workers_start_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    # Starting the workers waits for the fork server (its imports: a second or more);
    # done by the first ``submit`` in the loop, it froze every table of the salon.
    from concurrent.futures import ThreadPoolExecutor

    from zanzibar.salon import bots

    pool = ThreadPoolExecutor(max_workers=1)
    starts: list[str] = []

    def slow_start(user: Any) -> Any:
        starts.append(threading.current_thread().name)
        time.sleep(1.0)  # the fork server's start-up
        return pool

    monkeypatch.setattr(bots, "start_bot_pool", slow_start)
    monkeypatch.setattr(bots, "running_bot_pool", lambda user: pool if starts else None)
    monkeypatch.setattr(bots, "recipe_of", lambda bot: "recipe")
    monkeypatch.setattr(bots, "_think", lambda recipe, state: (state + 1, 0.5))
    thinker = Thinker()
    thinker.average[("g", "slow")] = 1.0
    gaps: list[float] = []

    async def ticker() -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticking = asyncio.ensure_future(ticker())
    try:
        moves = await asyncio.gather(*(thinker.choose("g", "slow", object(), n) for n in (1, 5)))
    finally:
        ticking.cancel()
        pool.shutdown()
    assert moves == [2, 6]
    assert thinker.placed == {"process": 2}
    assert len(starts) == 1  # both moves waited for one start
    assert starts[0] != threading.current_thread().name
    assert len(gaps) > 10 and max(gaps) < 0.5  # the loop kept running meanwhile


async def test_a_pool_that_cannot_start_leaves_the_move_to_a_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from zanzibar.salon import bots

    def broken_start(user: Any) -> Any:
        raise RuntimeError("cannot schedule new futures after shutdown")

    slow = Recorder(INLINE_BOT_SECONDS * 3)
    monkeypatch.setattr(bots, "start_bot_pool", broken_start)
    monkeypatch.setattr(bots, "running_bot_pool", lambda user: None)
    monkeypatch.setattr(bots, "recipe_of", lambda bot: "recipe")
    thinker = Thinker(clock=slow.clock)
    thinker.average[("g", "slow")] = 1.0
    assert await thinker.choose("g", "slow", slow, 3) == 4
    assert thinker.placed == {"thread": 1}


def test_start_bot_pool_starts_every_worker() -> None:
    from zanzibar.salon import bots

    bots.shutdown_bot_pool()
    try:
        pool = bots.start_bot_pool()
        assert len(pool._processes) == bots.default_workers()  # type: ignore[attr-defined]
        assert bots.start_bot_pool() is pool  # started once
        assert bots.running_bot_pool(Thinker()) is pool
    finally:
        bots.shutdown_bot_pool()
    assert bots.running_bot_pool(Thinker()) is None


def test_a_bot_of_a_test_game_gets_no_recipe(tmp_path: Any) -> None:
    from types import SimpleNamespace

    from _racegame import RULES as RACE

    from zanzibar.salon.bots import recipe_of, remember_recipe

    bot = RACE.make_bot("easy", RACE.options.resolve(), 0)
    table: Any = SimpleNamespace(rules=RACE, options=RACE.options.resolve())
    remember_recipe(bot, table, "easy", 0)
    assert recipe_of(bot) is None  # a worker could not load the race: it stays in a thread


@pytest.mark.slow
@pytest.mark.skipif(not game_available("zanzibar-s"), reason="chess bots not available")
async def test_a_chess_bot_at_a_salon_table_thinks_in_a_worker_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # How fast the easy search is depends on the machine's load: no move counts as quick
    # here, so the placement (first move timed in a thread, then the pool) is what is tested.
    monkeypatch.setattr("zanzibar.salon.bots.INLINE_BOT_SECONDS", 0.0)
    salon = make_salon(tmp_path / "s.sqlite3", bot_threads=True)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        table_id = (await anna.ok("table.create", game="zanzibar-s", seats=2))["table"]["id"]
        await anna.ok("table.add_bot", table=table_id, level="easy")
        await anna.ok("table.start", table=table_id)
        await play_with_bot_brain(salon, table_id, {0: anna}, level="casual", resign_after=3)
        await salon.settle()
        placed = salon.thinker.placed
        # the first move was timed in a thread, the next ones went to a worker process
        assert placed["thread"] == 1 and placed["process"] >= 2, placed
        assert salon.tables[table_id].state == "finished"
    finally:
        await salon.stop()


# -- the worker processes end with the process that owns them -----------------------


def proc_stat(pid: int) -> tuple[str, int, int] | None:
    """A process's state letter, parent and start time (in clock ticks), from /proc; None: gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name, in brackets, may hold spaces
    return fields[0], int(fields[1]), int(fields[19])


def descendants(root: int) -> dict[int, int]:
    """Every process below ``root`` (children, theirs, ...): pid -> start time."""
    stats = {
        int(p.name): proc_stat(int(p.name)) for p in Path("/proc").iterdir() if p.name.isdigit()
    }
    found: dict[int, int] = {}
    parents = {root}
    while parents:
        children = {
            pid: stat[2]
            for pid, stat in stats.items()
            if stat is not None and stat[1] in parents and pid not in found
        }
        found.update(children)
        parents = set(children)
    return found


def running(pid: int, started: int) -> bool:
    """Whether that process still runs (a zombie, or a new process under the same pid, does not)."""
    stat = proc_stat(pid)
    return stat is not None and stat[2] == started and stat[0] not in ("Z", "X")


#: A process that owns a bot pool, its two workers in hard searches, when it is killed.
OWNER = """
import json, time
from zanzibar.engine.match import Match
from zanzibar.games import get_rules
from zanzibar.salon.bots import BotRecipe, _think, bot_pool

rules = get_rules("zanzibar-s")
match = Match(rules, 2, None, seed=3)
quick = {seat: rules.make_bot("casual", match.options, seat) for seat in (0, 1)}
for _ in range(6):  # out of the opening, where a hard move takes seconds
    match.act(match.to_act, quick[match.to_act].choose(match.state))
options = json.dumps(dict(match.options), sort_keys=True)
pool = bot_pool()
pool.submit(_think, BotRecipe("zanzibar-s", "easy", options, 0), match.state).result()
busy = [pool.submit(_think, BotRecipe("zanzibar-s", "hard", options, s), match.state) for s in (1, 2)]
print(" ".join(str(pid) for pid in pool._processes), flush=True)
time.sleep(60)
"""


def read_line(process: subprocess.Popen[bytes], seconds: float) -> str:
    """The first line ``process`` writes, waiting at most ``seconds`` ("" if none came)."""
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(seconds):
            return ""
    return process.stdout.readline().decode()


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
@pytest.mark.skipif(not game_available("zanzibar-s"), reason="chess bots not available")
def test_the_bot_pool_exits_with_its_owner_killed_mid_search(tmp_path: Path) -> None:
    # The pool is the fork server, its workers and multiprocessing's resource tracker,
    # all below the owner: a node killed by `kill -9` must not leave any of them behind.
    with (tmp_path / "owner.log").open("wb") as log:
        owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, stderr=log)
    pool: dict[int, int] = {}
    try:
        line = read_line(owner, 60)
        assert line, (tmp_path / "owner.log").read_text()
        workers = {int(pid) for pid in line.split()}
        time.sleep(0.3)  # both workers are deep in a search now (a hard move takes seconds)
        pool = descendants(owner.pid)
        assert len(workers) == 2 and workers < pool.keys(), (workers, pool)
        assert len(pool) == 4, pool  # the workers, the fork server, the resource tracker
        assert all(running(pid, started) for pid, started in pool.items())
        owner.kill()
        owner.wait()
        deadline = time.monotonic() + 5
        while any(running(pid, started) for pid, started in pool.items()):
            assert time.monotonic() < deadline, {
                pid: proc_stat(pid) for pid, started in pool.items() if running(pid, started)
            }
            time.sleep(0.05)
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
        for pid, started in pool.items():  # what a failure left behind
            if running(pid, started):
                os.kill(pid, signal.SIGKILL)
        assert owner.stdout is not None
        owner.stdout.close()


@pytest.mark.skipif(not game_available("zanzibar-s"), reason="chess bots not available")
async def test_the_last_thinker_to_close_stops_the_worker_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import weakref

    from zanzibar.salon import bots

    # a pool of this test's own (the one other tests share comes back afterwards)
    monkeypatch.setattr(bots, "_pool", None)
    monkeypatch.setattr(bots, "_pool_users", weakref.WeakSet())
    rules, match = chess_position(2)
    bot = registry_bot(rules, match, "easy", 5)
    first, second = Thinker(), Thinker()
    for thinker in (first, second):
        thinker.average[("zanzibar-s", "easy")] = 1.0  # known to be slow
        await thinker.choose("zanzibar-s", "easy", bot, match.state)
        assert thinker.placed == {"process": 1}
    pool = bots.bot_pool()
    workers = {pid: stat[2] for pid in pool._processes if (stat := proc_stat(pid))}
    assert workers and all(running(pid, started) for pid, started in workers.items())
    await first.close()  # the second one still uses them
    assert bots.bot_pool() is pool
    assert all(running(pid, started) for pid, started in workers.items())
    await second.close()
    assert not any(running(pid, started) for pid, started in workers.items())
    fresh = bots.bot_pool()  # a bot that needs one later gets a new pool
    assert fresh is not pool
    await Thinker().close()  # a thinker that never used it leaves it be
    assert bots._pool is fresh
    await second.close()  # closing twice changes nothing
    assert bots._pool is fresh


class Sleeper:
    """A bot whose moves take wall-clock time but almost no CPU (as a quick move does on a
    busy machine, waiting for a CPU)."""

    def __init__(self) -> None:
        self.threads: list[str] = []

    def choose(self, state: int) -> int:
        self.threads.append(threading.current_thread().name)
        time.sleep(INLINE_BOT_SECONDS * 5)
        return state + 1


async def test_a_move_is_timed_by_its_cpu_not_by_the_wall_clock() -> None:
    """A quick bot whose moves waited (for a CPU, here asleep) still plays inline: the
    wall clock sent such moves to the worker processes on a busy machine."""
    bot = Sleeper()
    thinker = Thinker()
    for state in range(3):
        await thinker.choose("g", "waits", bot, state)
    main = threading.current_thread().name
    assert bot.threads[0] != main and bot.threads[1:] == [main, main]
