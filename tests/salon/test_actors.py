"""Table actors: the fence on every write, and deadlines that survive a restart."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from _local_nodes import BoardLeases, Cluster
from _salonkit import Client, make_salon
from sqlalchemy import func, select, update

from zanzibar.cluster.ports import Lease
from zanzibar.salon import Salon, deadlines, play
from zanzibar.salon import models as m
from zanzibar.salon.changes import Command
from zanzibar.salon.deadlines import Timing, next_wake, refresh
from zanzibar.salon.persistence import Fenced, fenced
from zanzibar.salon.tables import Table

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


async def stored(salon: Salon, table_id: int) -> dict[str, Any]:
    """What the database holds of a table: its fence, deadlines and row counts."""
    (row,) = await salon.store.read(select(m.tables).where(m.tables.c.id == table_id))
    history = await salon.store.read(
        select(func.count()).select_from(m.history).where(m.history.c.table_id == table_id)
    )
    log = await salon.store.read(
        select(func.count())
        .select_from(m.game_log)
        .where(m.game_log.c.game_id == (row.game_id or -1))
    )
    return {
        "epoch": row.epoch,
        "version": row.version,
        "clock_deadline": row.clock_deadline,
        "dropped": row.dropped,
        "history": history[0][0],
        "log": log[0][0],
    }


async def claim_behind_its_back(salon: Salon, table_id: int) -> None:
    """What another process claiming the table does: its epoch moves on."""
    await salon.store.write(
        [
            (
                update(m.tables)
                .where(m.tables.c.id == table_id)
                .values(epoch=m.tables.c.epoch + 1),
                None,
            )
        ]
    )


async def test_every_commit_moves_the_version_on(salon: Salon) -> None:
    anna, _bob, table_id = await two_humans(salon)
    table = salon.tables[table_id]
    before = await stored(salon, table_id)
    assert before["version"] == table.version >= 3  # created, joined, started
    await anna.ok("chat.say", table=table_id, text="hello")
    await anna.ok("game.action", table=table_id, action={"type": "roll"})
    after = await stored(salon, table_id)
    assert after["version"] == table.version == before["version"] + 2
    # a question is answered without writing anything
    await anna.ok("game.ask", table=table_id, topic="rules")
    assert (await stored(salon, table_id))["version"] == after["version"]


async def test_a_stale_owner_cannot_write(salon: Salon) -> None:
    anna, bob, table_id = await two_humans(salon)
    table = salon.tables[table_id]
    await claim_behind_its_back(salon, table_id)
    before = await stored(salon, table_id)
    log_before, seq_before = len(table.match.log), table.history.last_seq  # type: ignore[union-attr]
    reply = await anna.refused("game.action", "internal", table=table_id, action={"type": "roll"})
    assert "another process" in reply["message"]
    assert await stored(salon, table_id) == before  # nothing of the change was stored
    assert len(table.match.log) == log_before  # type: ignore[union-attr]
    assert table.history.last_seq == seq_before  # nor kept in memory
    assert table_id not in salon.tables  # the table was released
    await bob.refused("chat.say", "not_found", table=table_id, text="still there?")
    assert await stored(salon, table_id) == before


async def test_a_fenced_table_does_not_sink_the_others_in_a_group_commit(salon: Salon) -> None:
    anna, _bob, fenced_id = await two_humans(salon)
    cleo, _dan, other_id = await two_humans(salon)
    await claim_behind_its_back(salon, fenced_id)
    other_before = await stored(salon, other_id)
    conn_a, conn_c = anna.conn, cleo.conn
    assert conn_a is not None and conn_c is not None
    roll = {"v": 1, "type": "game.action", "action": {"type": "roll"}}
    await asyncio.gather(
        salon.handle(conn_a, {**roll, "id": "a", "table": fenced_id}),
        salon.handle(conn_c, {**roll, "id": "c", "table": other_id}),
    )
    await salon.settle()
    replies = {m["id"]: m for m in [*anna.inbox, *cleo.inbox] if m.get("id") in ("a", "c")}
    assert replies["a"]["type"] == "error" and replies["a"]["code"] == "internal"
    assert replies["c"]["type"] == "ok"
    assert (await stored(salon, other_id))["log"] == other_before["log"] + 2  # roll + its die


async def test_the_fence_itself_refuses_a_write_that_matches_no_row(salon: Salon) -> None:
    statement = fenced(update(m.tables).where(m.tables.c.id == -1))
    with pytest.raises(Fenced):
        await salon.store.write([(statement, {"state": "waiting"})])


async def test_a_restart_claims_the_tables_and_keeps_the_clock_deadline(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restarted salon claims the table anew and arms the stored clock instant, which
    then runs out. What it restored is looked at as it restores it: the clock may run
    out (and a bot play) before ``start`` returns when the restart is slow (under load)."""
    # takeovers wait: after the restart nobody is online, and the clock is what is tested
    first = make_salon(db_url, clock_scale=0.1, takeover_delay=60)
    await first.start()
    anna, _bob, table_id = await two_humans(first)
    await anna.ok("table.clock", table=table_id, seconds=30)  # 3 s of real time
    held = await stored(first, table_id)
    deadline = held["clock_deadline"]
    await first.crash()
    # not run out before the crash: what was stored is what the crash left
    assert deadline is not None and deadline > time.time()
    await asyncio.sleep(0.3)
    restored: list[tuple[int, float | None]] = []
    restore = deadlines.restored

    def restoring(table: Table, *args: Any) -> None:
        restore(table, *args)
        if table.id == table_id:
            restored.append((table.version, table.clock_deadline))

    monkeypatch.setattr(deadlines, "restored", restoring)
    second = make_salon(db_url, clock_scale=0.1, takeover_delay=60)
    restarted = time.time()
    await second.start()
    try:
        table = second.tables[table_id]
        after = await stored(second, table_id)
        assert after["epoch"] == held["epoch"] + 1  # claimed anew
        ((version, clock_deadline),) = restored
        assert version == held["version"]  # loaded as the crash left it
        # the same instant, not a full clock from the restart
        assert clock_deadline == pytest.approx(deadline, abs=1e-6)
        assert clock_deadline < restarted + 3.0 - 0.2
        give_up = time.monotonic() + 60
        while "clock_timeout" not in [i.data.get("kind") for i in table.history.items]:
            assert time.monotonic() < give_up, "the restored clock never ran out"
            await asyncio.sleep(0.05)
    finally:
        await second.stop()


async def test_a_dropped_players_instant_survives_a_restart(db_url: str) -> None:
    first = make_salon(db_url, takeover_delay=60)
    await first.start()
    anna, _bob, table_id = await two_humans(first)
    await anna.disconnect()
    await first.settle()
    dropped = (await stored(first, table_id))["dropped"]
    assert dropped is not None and set(dropped) == {"0"}
    await asyncio.sleep(0.2)
    await first.crash()
    second = make_salon(db_url, takeover_delay=60)
    restarted = time.time()
    await second.start()
    try:
        table = second.tables[table_id]
        assert table.seats[0].dropped_at == pytest.approx(dropped["0"], abs=1e-6)
        assert table.seats[0].dropped_at < restarted  # her grace period is not started again
        # Bob was online when the salon died: he counts as dropped from the restart
        assert table.seats[1].dropped_at is not None
        assert table.seats[1].dropped_at >= restarted
        wake = next_wake(table, second.services.timing)
        assert wake is not None and wake.kind == "takeover" and wake.user == anna.user_id
    finally:
        await second.stop()


async def test_deadlines_follow_the_turn() -> None:
    """The clock runs per decision of a person; a change of clock starts it afresh."""
    from _salonkit import rules_for

    from zanzibar.engine.match import Match
    from zanzibar.salon.seats import Seat

    rules = rules_for("race")
    options = rules.options.resolve(None, {"target": 60})
    table = Table(1, rules, None, options, 2, [Seat(1, "A"), Seat(2, "B")], clock=10)
    table.match = Match(rules, 2, options, 7)
    table.game_id, table.state = 1, "playing"
    timing = Timing(bot_delay=0.5, round_pause=5, takeover_delay=15, clock_scale=1)
    refresh(table, timing, 100.0)
    assert table.clock_deadline == 110.0 and table.bot_due is None
    refresh(table, timing, 105.0)  # nothing moved: the same deadline
    assert table.clock_deadline == 110.0
    table.clock_key = None  # the host set the clock again
    refresh(table, timing, 106.0)
    assert table.clock_deadline == 116.0
    table.clock_seat = 0  # the clock ran out: a bot plays this turn
    refresh(table, timing, 120.0)
    assert table.clock_deadline is None and table.bot_due == 120.5
    wake = next_wake(table, timing)
    assert wake is not None and (wake.kind, wake.when) == ("bot", 120.5)


async def test_a_table_whose_owner_hangs_is_claimed_elsewhere_and_the_old_owner_is_fenced(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'salon.sqlite3'}"
    board: dict[int, Lease] = {}
    leases_a, leases_b = BoardLeases("a", board), BoardLeases("b", board)
    cluster = Cluster()
    node_a = make_salon(url, ports=cluster.ports("a", leases_a), takeover_delay=60)
    await node_a.start()
    node_b: Salon | None = None
    try:
        anna, bob, table_id = await two_humans(node_a)
        await anna.ok("game.action", table=table_id, action={"type": "roll"})
        node_b = make_salon(url, ports=cluster.ports("b", leases_b), takeover_delay=60)
        await node_b.start()
        assert table_id not in node_b.tables  # node a holds its lease
        leases_a.lapse()  # node a hangs: its lease expires, it still runs the table
        anna_b = await Client(node_b, "Anna").sign_in(token=anna.token)
        before = await stored(node_b, table_id)
        await anna_b.ok("table.join", table=table_id)  # node b claims it, loads it
        table = node_b.tables[table_id]
        assert board[table_id].node == "b"
        assert table.epoch == before["epoch"] + 1
        assert table.match is not None and len(table.match.log) == 2  # the roll and its die
        await anna_b.ok("game.action", table=table_id, action={"type": "stop"})
        claimed = await stored(node_b, table_id)
        # the join stored that Bob is offline here (his takeover instant), then the action
        assert claimed["version"] == table.version == before["version"] + 2
        assert set(claimed["dropped"]) == {"1"}
        # node a wakes up and writes under its old epoch: refused, nothing stored
        reply = await bob.refused("chat.say", "internal", table=table_id, text="am I late?")
        assert "another process" in reply["message"]
        assert await stored(node_b, table_id) == claimed
        assert table_id not in node_a.tables
        texts = [i.data.get("text") for i in table.history.items if i.channel == "chat"]
        assert "am I late?" not in texts
        # node a now knows who runs the table: Bob's next line goes there
        await bob.ok("chat.say", table=table_id, text="again")
        texts = [i.data.get("text") for i in table.history.items if i.channel == "chat"]
        assert texts[-1] == "again"
    finally:
        await node_a.stop()
        if node_b is not None:
            await node_b.stop()


async def test_a_resent_command_is_applied_once_even_after_a_restart(db_url: str) -> None:
    first = make_salon(db_url, takeover_delay=60)
    await first.start()
    anna, _bob, table_id = await two_humans(first)
    assert anna.conn is not None and anna.conn.user is not None

    def roll(salon: Salon, request: str) -> Command:
        message = {"v": 1, "type": "game.action", "id": request, "table": table_id}
        message["action"] = {"type": "roll"}
        assert anna.conn is not None
        return Command("game.action", anna.conn.user, "en", message, anna.conn, cmd_id="n1-7")

    await first.router.call(table_id, play.action, roll(first, "first"))
    await first.router.call(table_id, play.action, roll(first, "again"))  # the same id resent
    await first.settle()
    replies = {m["id"]: m for m in anna.inbox if m.get("id") in ("first", "again")}
    assert replies["first"]["type"] == replies["again"]["type"] == "ok"
    assert replies["again"]["log_length"] == replies["first"]["log_length"] == 2
    held = await stored(first, table_id)
    assert held["log"] == 2  # one roll and its die, not two
    await first.crash()
    second = make_salon(db_url, takeover_delay=60)
    await second.start()
    try:
        anna2 = await Client(second, "Anna").sign_in(token=anna.token)
        assert anna2.conn is not None and anna2.conn.user is not None
        message = {"v": 1, "type": "game.action", "id": "after", "table": table_id}
        message["action"] = {"type": "roll"}
        resent = Command("game.action", anna2.conn.user, "en", message, anna2.conn, "n1-7")
        await second.router.call(table_id, play.action, resent)
        await second.settle()
        (reply,) = [m for m in anna2.inbox if m.get("id") == "after"]
        assert reply["type"] == "ok" and reply["log_length"] == 2
        assert (await stored(second, table_id))["log"] == 2  # still applied once
        assert len(second.tables[table_id].match.log) == 2  # type: ignore[union-attr]
    finally:
        await second.stop()


async def test_a_command_cut_short_by_its_actors_stop_is_answered(salon: Salon) -> None:
    """A stop (a crash, a lost lease taken back) cancels the actor in the middle of a step:
    the command it was storing is refused (to be tried again); its caller waited for good."""
    anna, _bob, table_id = await two_humans(salon)
    actor = salon.router.actors[table_id]
    commit = actor.services.commit
    storing = asyncio.Event()

    async def hangs(table: Table, change: Any) -> None:
        storing.set()
        await asyncio.Event().wait()  # the database does not answer

    actor.services.commit = hangs
    try:
        assert anna.conn is not None
        message = {"v": 1, "type": "chat.say", "id": "s", "table": table_id, "text": "hi"}
        saying = asyncio.ensure_future(salon.handle(anna.conn, message))
        await asyncio.wait_for(storing.wait(), 10)
        await actor.stop()
        await asyncio.wait_for(saying, 10)  # waited for good before
    finally:
        actor.services.commit = commit
    await salon.settle()
    (reply,) = [m for m in anna.inbox if m.get("id") == "s"]
    assert reply["type"] == "error" and reply["code"] == "internal", reply
