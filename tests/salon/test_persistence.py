"""Crash and restore: a new salon on the same database carries on exactly.

A ``kill -9`` leaves the database files as they are at that instant, so the
crash is simulated by copying the SQLite files (database and WAL) while the
first salon still runs, then starting a second salon on the copy. A second
test drops a salon without ``stop()`` and reopens the very same file.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _salonkit import Client, database_url, make_salon

from zanzibar.salon import Salon
from zanzibar.salon.persistence import Store

pytestmark = pytest.mark.anyio


def copy_database(source: Path, target: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(source) + suffix)
        if src.exists():
            shutil.copyfile(src, Path(str(target) + suffix))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.live)])
def crash_copy(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[str, Callable[[], str]]]:
    """A database URL, and how to copy it as a ``kill -9`` of the salon would leave it."""
    if request.param == "sqlite":
        source, target = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"

        def copy_files() -> str:
            copy_database(source, target)
            return database_url(target)

        yield database_url(source), copy_files
        return
    server = request.getfixturevalue("postgres_server")
    url: str = request.getfixturevalue("pg_url")
    copies: list[str] = []

    def dump() -> str:
        copies.append(server.snapshot(url))
        return copies[-1]

    yield url, dump
    for copy in copies:
        server.drop(copy)


async def test_restore_after_a_crash_continues_identically(
    crash_copy: tuple[str, Callable[[], str]],
) -> None:
    source, copy = crash_copy
    first = make_salon(source)
    await first.start()
    anna = await Client(first, "Anna").sign_in("fr")
    bob = await Client(first, "Bob").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=3, options={"target": 30}))[
        "table"
    ]["id"]
    await bob.ok("table.join", table=table_id)
    await anna.ok("table.add_bot", table=table_id, level="hard")
    await anna.ok("table.clock", table=table_id, seconds=60)
    await anna.ok("table.start", table=table_id)
    await anna.ok("chat.say", table=table_id, text="bonne chance")
    for _ in range(3):
        match = first.tables[table_id].match
        assert match is not None
        seat = match.to_act
        client = {0: anna, 1: bob}[seat]  # type: ignore[index]
        await client.ok("game.action", table=table_id, action={"type": "roll"})
    await first.settle()
    before = first.snapshot(table_id)
    second = make_salon(copy(), takeover_delay=60)
    await second.start()
    try:
        assert second.snapshot(table_id) == before
        # the same dice come next in both salons
        match_a, match_b = first.tables[table_id].match, second.tables[table_id].match
        assert match_a is not None and match_b is not None
        assert match_a.rng.getstate() == match_b.rng.getstate()
        # the players reconnect with their tokens and carry on
        anna2 = await Client(second, "Anna").sign_in("fr", anna.token)
        bob2 = await Client(second, "Bob").sign_in("en", bob.token)
        last_seen = before["history"][-1][0] - 2
        await anna2.ok("table.join", table=table_id, since=last_seen)
        await bob2.ok("table.join", table=table_id, since=last_seen)
        history = anna2.last("history")
        assert [i["seq"] for i in history["items"]] == [last_seen + 1, last_seen + 2]
        seat = match_b.to_act
        assert seat is not None
        mover_b = {0: anna2, 1: bob2}[seat]
        mover_a = {0: anna, 1: bob}[seat]
        await mover_b.ok(
            "game.action", table=table_id, action={"type": "roll"}, seq=len(match_b.log)
        )
        await mover_a.ok(
            "game.action", table=table_id, action={"type": "roll"}, seq=len(match_a.log)
        )
        await first.settle()
        await second.settle()
        assert match_a.log == match_b.log
        assert match_a.state == match_b.state
    finally:
        await second.stop()
        await first.stop()


async def test_salon_dropped_without_stop_restores_every_table(db_url: str) -> None:
    path = db_url
    first = make_salon(path)
    await first.start()
    anna = await Client(first, "Anna").sign_in()
    waiting = (await anna.ok("table.create", game="race", private=True, seats=4))["table"]
    await anna.ok("table.add_bot", table=waiting["id"], level="easy", seat=2)
    playing = (await anna.ok("table.create", game="race", seats=2, options={"target": 40}))[
        "table"
    ]["id"]
    await anna.ok("table.add_bot", table=playing)
    await anna.ok("table.hold", table=playing, hold=True)
    await anna.ok("table.start", table=playing)
    await anna.ok("game.action", table=playing, action={"type": "roll"})
    await first.settle()
    snapshots = {tid: first.snapshot(tid) for tid in first.tables}
    await first.crash()  # no stop(): nothing more is written

    second = make_salon(path, takeover_delay=60)
    await second.start()
    try:
        assert {tid: second.snapshot(tid) for tid in second.tables} == snapshots
        assert second.tables[waiting["id"]].invite == waiting["invite"]
        # the token still works, and the bots resume when Anna plays on
        anna2 = await Client(second, "Anna").sign_in("en", anna.token)
        await anna2.ok("table.join", table=playing, since=snapshots[playing]["history"][-1][0])
        assert anna2.last("history")["items"] == []
        match = second.tables[playing].match
        assert match is not None
        for _ in range(400):
            if match.is_over or second.tables[playing].state != "playing":
                break
            if match.to_act == 0:
                action = "roll" if match.state.total < 5 else "stop"
                await anna2.ok("game.action", table=playing, action={"type": action})
            await second.settle()
        assert second.tables[playing].state in ("paused", "finished")
    finally:
        await second.stop()


async def test_finished_games_and_stats_survive_a_restart(db_url: str) -> None:
    path = db_url
    first = make_salon(path)
    await first.start()
    anna = await Client(first, "Anna").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2, options={"target": 3}))[
        "table"
    ]["id"]
    await anna.ok("table.add_bot", table=table_id)
    game_id = (await anna.ok("table.start", table=table_id))["game_id"]
    for _ in range(300):
        table = first.tables[table_id]
        if table.state == "finished":
            break
        match = table.match
        assert match is not None
        if match.to_act == 0:
            await anna.ok(
                "game.action",
                table=table_id,
                action={"type": "roll" if match.state.total < 3 else "stop"},
            )
        await first.settle()
    record = await first.game_record(game_id)
    stats = await first.user_stats("anna")
    await first.stop()
    second = make_salon(path)
    await second.start()
    try:
        assert await second.game_record(game_id) == record
        assert await second.user_stats("ANNA") == stats
        assert stats is not None and stats["games"]["race"]["played"] == 1
        won = stats["games"]["race"]["won"]
        lost = stats["games"]["race"]["lost"]
        assert won + lost == 1
        from zanzibar.salon import read_game_record

        assert await read_game_record(path, game_id) == record
        assert await read_game_record(path, game_id + 100) is None
    finally:
        await second.stop()


async def test_a_failed_write_is_undone(
    salon: Salon, client_factory: Any, monkeypatch: Any
) -> None:
    anna = await client_factory("Anna")
    table_id = (await anna.ok("table.create", game="race"))["table"]["id"]
    before = salon.snapshot(table_id)

    async def broken(ops: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(salon.store, "write", broken)
    await anna.refused("table.add_bot", "internal", table=table_id)
    await anna.refused("chat.say", "internal", table=table_id, text="hello")
    assert salon.snapshot(table_id) == before


async def test_store_batches_many_writes_in_few_commits(db_url: str) -> None:
    from sqlalchemy import insert

    from zanzibar.salon import models as m

    store = Store(db_url)
    await store.start()
    try:
        import asyncio

        rows = [_user(i) for i in range(1, 201)]
        await asyncio.gather(*(store.write([(insert(m.users), row)]) for row in rows))
        assert store.jobs == 200
        assert store.commits < 200
        # a failing job does not sink the others of its batch
        results = await asyncio.gather(
            store.write([(insert(m.users), rows[0])]),
            store.write([(insert(m.users), {**rows[0], "id": 500, "name_key": "fresh"})]),
            return_exceptions=True,
        )
        assert isinstance(results[0], Exception) and results[1] is None
        # raised as SQLAlchemy raises it, whichever way the insert went
        from sqlalchemy.exc import IntegrityError

        with pytest.raises(IntegrityError):
            await store.write([(insert(m.users), rows[1])])
    finally:
        await store.stop()


def _user(i: int) -> dict[str, Any]:
    return {
        "id": i,
        "name": f"u{i}",
        "name_key": f"u{i}",
        "password_hash": None,
        "lang": "en",
        "guest": True,
        "created": 0.0,
    }


async def test_commits_are_spaced_while_changes_come_faster_than_commits(tmp_path: Path) -> None:
    """Once a batch held several jobs (or one came while it committed), the next commit
    starts ``commit_spacing`` after the last one: what is queued meanwhile shares it. A
    writer alone (one job at a time) never waits. On PostgreSQL by default
    (pg_writer.COMMIT_SPACING), not on SQLite."""
    import asyncio

    from sqlalchemy import insert

    from zanzibar.salon import models as m
    from zanzibar.salon.pg_writer import COMMIT_SPACING

    assert Store("postgresql+asyncpg://z@127.0.0.1:1/z").commit_spacing == COMMIT_SPACING > 0
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'spaced.sqlite3'}")
    assert store.commit_spacing == 0.0
    await store.start()
    try:
        store.commit_spacing = 600.0  # a wait would outlast the test's patience below
        for i in (1, 2, 3):  # one after the other: batches of one, no wait
            await asyncio.wait_for(store.write([(insert(m.users), _user(i))]), 60)
        assert store.commits == 3
        store.commit_spacing = 1.0
        await asyncio.gather(*(store.write([(insert(m.users), _user(i))]) for i in (4, 5)))
        assert store.commits == 4  # one batch of two: the writer now spaces its commits
        first = asyncio.ensure_future(store.write([(insert(m.users), _user(6))]))
        await asyncio.sleep(0.05)  # queued while the first waits out the spacing
        await asyncio.gather(first, store.write([(insert(m.users), _user(7))]))
        assert store.commits == 5 and store.jobs == 7  # both in one commit
    finally:
        await store.stop()


async def test_a_change_that_waited_long_for_its_commit_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A node's tables all wait for its writer: a change held back (here by the spacing of
    commits, in a salon by a slow commit ahead of it) is logged at info, with how long it
    waited in the queue and how long its commit took, to match with the latency tail."""
    import asyncio
    import logging

    from sqlalchemy import insert

    from zanzibar.salon import models as m

    caplog.set_level(logging.INFO, logger="zanzibar.salon.persistence")
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'slow.sqlite3'}")
    await store.start()
    try:
        store.commit_spacing = 0.6  # longer than SLOW_WRITE_S: the third change waits that long
        await asyncio.gather(*(store.write([(insert(m.users), _user(i))]) for i in (1, 2)))
        await store.write([(insert(m.users), _user(3))])
    finally:
        await store.stop()
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("slow write")]
    assert len(lines) == 1, lines
    assert lines[0].startswith("slow write: a commit of 1 changes took ")
    waited = int(lines[0].split("the oldest waited ")[1].split(" ms")[0])
    assert waited >= 500  # the spacing's sleep, never shorter than asked
    assert lines[0].endswith("(0 more queued meanwhile)")


async def test_async_write_path_as_for_postgresql(tmp_path: Path, monkeypatch: Any) -> None:
    """Databases other than SQLite are written through the async engine; check that path."""
    from zanzibar.salon import persistence

    monkeypatch.setattr(persistence, "make_sync_writer_engine", lambda url, durable=False: None)
    path = tmp_path / "async.sqlite3"
    first = make_salon(path)
    assert first.store.sync_engine is None and not first.store.inline
    await first.start()
    anna = await Client(first, "Anna").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2))["table"]["id"]
    await anna.ok("table.add_bot", table=table_id)
    await anna.ok("table.start", table=table_id)
    await anna.ok("game.action", table=table_id, action={"type": "roll"})
    await first.settle()
    before = first.snapshot(table_id)
    await first.crash()
    second = make_salon(path, takeover_delay=60)
    await second.start()
    try:
        assert second.snapshot(table_id) == before
    finally:
        await second.stop()


async def test_durable_mode_writes_in_a_thread_with_full_sync(tmp_path: Path) -> None:
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'd.sqlite3'}", durable=True)
    assert not store.inline
    await store.start()
    try:
        from sqlalchemy import insert

        from zanzibar.salon import models as m

        await store.write(
            [
                (
                    insert(m.users),
                    {
                        "id": 1,
                        "name": "a",
                        "name_key": "a",
                        "password_hash": None,
                        "lang": "en",
                        "guest": True,
                        "created": 0.0,
                    },
                )
            ]
        )
        assert store.commits == 1
        async with store.engine.connect() as conn:
            assert (await conn.exec_driver_sql("PRAGMA synchronous")).scalar() == 2  # FULL
    finally:
        await store.stop()


async def test_a_pause_between_rounds_resumes_after_a_restart(db_url: str) -> None:
    path = db_url
    first = make_salon(path, round_pause=30)
    await first.start()
    anna = await Client(first, "Anna").sign_in()
    table_id = (await anna.ok("table.create", game="race", seats=2, options={"target": 90}))[
        "table"
    ]["id"]
    await anna.ok("table.add_bot", table=table_id)
    await anna.ok("table.start", table=table_id)
    table = first.tables[table_id]
    match = table.match
    assert match is not None
    while table.state == "playing":
        if match.to_act == 0:
            await anna.ok(
                "game.action",
                table=table_id,
                action={"type": "roll" if match.state.total < 2 else "stop"},
            )
        await first.settle()
    assert table.state == "paused"
    before = first.snapshot(table_id)
    await first.crash()
    second = make_salon(path, round_pause=0.05, takeover_delay=60)
    await second.start()
    try:
        assert second.snapshot(table_id) == before
        import asyncio

        await asyncio.sleep(0.2)
        await second.settle()
        assert second.tables[table_id].state == "playing"
        kinds = [i.data.get("kind") for i in second.tables[table_id].history.items]
        assert kinds[-1] == "round_resume"
    finally:
        await second.stop()


@pytest.mark.live
async def test_a_postgresql_restart_loses_no_acknowledged_action(
    postgres_server: Any, pg_url: str
) -> None:
    """PostgreSQL restarted mid-game: what was acknowledged stays, and the salon carries on."""
    salon = make_salon(pg_url)
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in()
        table_id = (await anna.ok("table.create", game="race", seats=2, options={"target": 90}))[
            "table"
        ]["id"]
        await anna.ok("table.add_bot", table=table_id)
        await anna.ok("table.hold", table=table_id, hold=True)
        await anna.ok("table.start", table=table_id)
        await anna.ok("game.action", table=table_id, action={"type": "roll"})
        await salon.settle()
        postgres_server.restart()  # every pooled connection is now dead
        match = salon.tables[table_id].match
        assert match is not None
        # the first statement on a dead connection invalidates the pool and runs again on a new
        # one: the first write after the restart works
        await anna.ok("chat.say", table=table_id, text="still there?")
        await anna.ok("game.action", table=table_id, action={"type": "roll"}, seq=len(match.log))
        await salon.settle()
        acknowledged = salon.snapshot(table_id)
    finally:
        await salon.crash()
    again = make_salon(pg_url, takeover_delay=60)
    await again.start()
    try:
        assert again.snapshot(table_id) == acknowledged
    finally:
        await again.stop()


async def test_compiled_inserts_store_exactly_what_sqlalchemy_stores(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The SQLite writer's own inserts and SQLAlchemy's leave the very same bytes."""
    from sqlalchemy import insert

    from zanzibar.salon import models as m
    from zanzibar.salon import sqlite_ops

    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'same.sqlite3'}")
    await store.start()
    try:
        user = {
            "id": 1,
            "name": "Zoé",
            "name_key": "zoe",
            "password_hash": None,
            "lang": "fr",
            "guest": True,
            "created": 1.5,
        }
        table = {
            "id": 7,
            "game": "421",
            "preset": None,
            "options": {"tokens": 21, "dry": False},
            "capacity": 3,
            "private": False,
            "invite": None,
            "host_id": 1,
            "state": "waiting",
            "hold": True,
            "clock": None,
            "game_id": None,
            "seats": [{"user": 1, "name": "Zoé", "bot": None}],
            "banned": [],
            "created": 2.25,
        }
        item = {"game_id": 3, "event": {"kind": "rolled", "data": {"dice": [4, 2, 1]}}, "t": "é☃"}

        def history(seq: int) -> dict[str, Any]:
            return {"table_id": 7, "seq": seq, "channel": "game", "item": item, "created": 3.0}

        await store.write(
            [(insert(m.users), user), (insert(m.tables), table), (insert(m.history), history(1))]
        )
        await store.write([(insert(m.history), [history(2), history(3)])])
        fast_statements = len(store._inserts._plans)
        assert fast_statements == 3  # one plan per table and set of columns
        monkeypatch.setattr(sqlite_ops, "_on_plan", lambda *args: False)
        await store.write([(insert(m.history), history(4))])
        await store.write([(insert(m.users), {**user, "id": 2, "name_key": "zoe2"})])
        async with store.engine.connect() as conn:
            rows = (
                await conn.exec_driver_sql(
                    "SELECT seq, typeof(item), item, typeof(created), created FROM history"
                    " ORDER BY seq"
                )
            ).all()
            users = (
                await conn.exec_driver_sql(
                    "SELECT typeof(guest), guest, typeof(created), created, name FROM users"
                    " ORDER BY id"
                )
            ).all()
        assert [row[0] for row in rows] == [1, 2, 3, 4]
        assert len({tuple(row[1:]) for row in rows}) == 1  # SQLAlchemy's row 4 is the same
        assert users[0] == users[1] == ("integer", 1, "real", 1.5, "Zoé")
    finally:
        await store.stop()


def test_an_insert_with_a_column_default_is_left_to_sqlalchemy() -> None:
    from sqlalchemy import Column, Integer, MetaData, String, create_engine, insert
    from sqlalchemy import Table as SqlTable

    from zanzibar.salon.persistence import InsertPlans

    metadata = MetaData()
    plain = SqlTable(
        "plain", metadata, Column("id", Integer, primary_key=True), Column("a", String)
    )
    defaulted = SqlTable(
        "defaulted",
        metadata,
        Column("id", Integer, primary_key=True),
        Column("a", String, default="x"),
    )
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    plans = InsertPlans()
    with engine.connect() as conn:
        plan = plans.plan(conn, insert(plain), ("id", "a"))
        assert plan is not None
        assert plan.sql == "INSERT INTO plain (id, a) VALUES (?, ?)"
        assert plan.rows([{"a": "z", "id": 5}]) == [(5, "z")]
        # "a" would get its default from SQLAlchemy: not a plain insert of the given keys
        assert plans.plan(conn, insert(defaulted), ("id",)) is None


async def test_the_compiled_fenced_update_stores_what_sqlalchemy_stores_and_still_fences(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The table's fenced write, run on the cursor: same bytes, same refusal of a stale version."""
    from sqlalchemy import insert

    from zanzibar.salon import models as m
    from zanzibar.salon import sqlite_ops
    from zanzibar.salon.persistence import Fenced
    from zanzibar.salon.tablestore import FENCE

    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'fence.sqlite3'}")
    await store.start()
    try:
        user = {"id": 1, "name": "Zoé", "name_key": "zoe", "password_hash": None}
        user |= {"lang": "fr", "guest": True, "created": 1.5}
        row = {"game": "421", "preset": None, "options": {}, "capacity": 3, "private": False}
        row |= {"invite": None, "host_id": 1, "state": "waiting", "hold": True, "clock": None}
        row |= {"game_id": None, "seats": [], "banned": [], "created": 2.25}
        await store.write([(insert(m.users), user)])
        await store.write([(insert(m.tables), {**row, "id": 7, "epoch": 1, "version": 1})])
        await store.write([(insert(m.tables), {**row, "id": 8, "epoch": 1, "version": 1})])

        def fence(table: int, version: int) -> dict[str, Any]:
            seats = [{"user": 1, "name": "Zoé ☃", "bot": None}]
            return {"state": "playing", "seats": seats, "options": {"tokens": 21}, "hold": False}

        def values(table: int, version: int) -> dict[str, Any]:
            fence_of = {"fence_id": table, "fence_epoch": 1, "fence_version": version}
            return {**fence(table, version), "version": version + 1, **fence_of}

        await store.write([(FENCE, values(7, 1))])  # the compiled path
        assert len(store._inserts._plans) == 3  # users and tables inserts, and the fence
        with pytest.raises(Fenced):
            await store.write([(FENCE, values(7, 1))])  # version 1 is gone: nothing changes
        monkeypatch.setattr(sqlite_ops, "_on_plan", lambda *args: False)
        await store.write([(FENCE, values(8, 1))])  # SQLAlchemy's path
        with pytest.raises(Fenced):
            await store.write([(FENCE, values(8, 1))])
        async with store.engine.connect() as conn:
            rows = (
                await conn.exec_driver_sql(
                    "SELECT version, state, typeof(seats), seats, options, typeof(hold), hold"
                    " FROM tables ORDER BY id"
                )
            ).all()
        assert rows[0] == rows[1]
        assert rows[0][:3] == (2, "playing", "text")
    finally:
        await store.stop()


@pytest.mark.parametrize("compiled", [True, False])
async def test_fenced_writes_of_one_batch_run_together_and_still_fence_each_table(
    tmp_path: Path, monkeypatch: Any, compiled: bool
) -> None:
    """The fenced writes of the tables whose changes share a batch are one statement
    (``merge_inserts``); a stale version among them fails that change only."""
    import asyncio

    from sqlalchemy import insert

    from zanzibar.salon import models as m
    from zanzibar.salon import sqlite_ops
    from zanzibar.salon.persistence import Fenced, merge_inserts
    from zanzibar.salon.tablestore import FENCE

    if not compiled:
        monkeypatch.setattr(sqlite_ops, "_on_plan", lambda *args: False)
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'fences.sqlite3'}")
    await store.start()
    try:
        user = {"id": 1, "name": "Zoé", "name_key": "zoe", "password_hash": None}
        user |= {"lang": "fr", "guest": True, "created": 1.5}
        row = {"game": "421", "preset": None, "options": {}, "capacity": 3, "private": False}
        row |= {"invite": None, "host_id": 1, "state": "waiting", "hold": True, "clock": None}
        row |= {"game_id": None, "seats": [], "banned": [], "created": 2.25}
        await store.write([(insert(m.users), user)])
        ids = range(7, 12)
        await store.write(
            [(insert(m.tables), {**row, "id": t, "epoch": 1, "version": 1}) for t in ids]
        )

        def change(table: int, version: int, state: str) -> list[Any]:
            fence_of = {"fence_id": table, "fence_epoch": 1, "fence_version": version}
            return [(FENCE, {"state": state, "version": version + 1, **fence_of})]

        merged = merge_inserts([change(7, 1, "playing"), change(8, 1, "paused")])
        assert len(merged) == 1 and len(merged[0][1]) == 2
        commits = store.commits
        await asyncio.gather(*(store.write(change(t, 1, "playing")) for t in ids))
        assert store.commits == commits + 1  # one batch, one statement for the five
        results = await asyncio.gather(
            *(store.write(change(t, 1 if t == 9 else 2, "finished")) for t in ids),
            return_exceptions=True,
        )
        assert [type(r).__name__ for r in results] == ["NoneType"] * 2 + ["Fenced"] + [
            "NoneType"
        ] * 2
        assert isinstance(results[2], Fenced)
        async with store.engine.connect() as conn:
            stored = (
                await conn.exec_driver_sql("SELECT id, version, state FROM tables ORDER BY id")
            ).all()
        assert [tuple(r) for r in stored] == [
            (7, 3, "finished"),
            (8, 3, "finished"),
            (9, 2, "playing"),
            (10, 3, "finished"),
            (11, 3, "finished"),
        ]
    finally:
        await store.stop()
