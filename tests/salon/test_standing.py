"""Ratings in the salon: published openskill values, rated tables, leavers, rebuild, restart."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from _salonkit import Client, make_salon, play_with_bot_brain
from sqlalchemy import delete, select

from zanzibar.salon import Salon
from zanzibar.salon import models as m
from zanzibar.salon.rating_processor import Player, rate_game, rebuild
from zanzibar.salon.ratings import Skill, display

pytestmark = pytest.mark.anyio

# openskill's published examples (openskill.js test/rate.test.ts, which the Python
# package ports with the same defaults; the installed version reproduces them):
#: four newcomers, ranks [2, 1, 4, 3] ("accepts a misordered rank ordering"), by place.
FOUR_NEWCOMERS_BY_PLACE = {
    1: (27.795252672501135, 8.263571791259416),
    2: (26.55291815138952, 8.17961798837266),
    3: (24.689416369722096, 8.084127880168786),
    4: (20.962412806387245, 8.084127880168786),
}
#: two newcomers ("reverses rank" / "keeps rank"): the winner, then the loser.
TWO_NEWCOMERS = ((27.635389493140497, 8.06590141354368), (22.364610506859503, 8.06590141354368))


async def account(salon: Salon, name: str, lang: str = "en") -> Client:
    session = await salon.register(name, "correct horse battery", lang)
    return await Client(salon, name).sign_in(lang, session.token)


async def guest(salon: Salon, name: str) -> Client:
    return await Client(salon, name).sign_in("en")


async def play_a_zilch_game(salon: Salon, host: Client, guest: Client) -> None:
    """A whole two-player Zilch 5000 game at a new table of ``host``, settled."""
    created = await host.ok("table.create", game="zilch", preset="zilch5000", seats=2)
    table_id = created["table"]["id"]
    await guest.ok("table.join", table=table_id)
    await host.ok("table.start", table=table_id)
    await play_with_bot_brain(salon, table_id, {0: host, 1: guest})
    await salon.settle()


async def ratings_rows(salon: Salon) -> list[tuple[Any, ...]]:
    rows = await salon.store.read(
        select(m.ratings).order_by(m.ratings.c.family, m.ratings.c.user_id)
    )
    return [tuple(r) for r in rows]


async def history_rows(salon: Salon) -> list[tuple[Any, ...]]:
    rows = await salon.store.read(
        select(m.rating_history).order_by(m.rating_history.c.game_id, m.rating_history.c.user_id)
    )
    return [tuple(r) for r in rows]


async def play(
    salon: Salon,
    host: Client,
    others: list[Client],
    game: str,
    preset: str,
    bots: list[str] | None = None,
    **create: Any,
) -> int:
    """One whole game at a new table of ``host``; the game id."""
    seats = 1 + len(others) + len(bots or [])
    created = await host.ok("table.create", game=game, preset=preset, seats=seats, **create)
    table_id = created["table"]["id"]
    for other in others:
        await other.ok("table.join", table=table_id)
    for level in bots or []:
        await host.ok("table.add_bot", table=table_id, level=level)
    started = await host.ok("table.start", table=table_id)
    clients = {i: c for i, c in enumerate([host, *others])}
    await play_with_bot_brain(salon, table_id, clients)
    await salon.settle()
    await salon.standing.process()
    return int(started["game_id"])


async def skill_of(salon: Salon, user_id: int, family: str) -> tuple[float, float]:
    rows = await salon.store.read(
        select(m.ratings.c.mu, m.ratings.c.sigma).where(
            (m.ratings.c.family == family) & (m.ratings.c.user_id == user_id)
        )
    )
    assert rows, f"user {user_id} has no {family} rating"
    return float(rows[0][0]), float(rows[0][1])


# -- the library's published values ---------------------------------------------------


def test_rate_game_matches_the_published_four_player_example() -> None:
    """openskill.js "rate accepts and runs a placket-luce model by default"."""
    players = [Player(i, 10 + i, None, False) for i in range(4)]
    current = {10: Skill(29.182, 4.782), 11: Skill(27.174, 4.922), 12: Skill(16.672, 6.217)}
    changes = rate_game("421-salon", players, [1, 2, 3, 4], current)
    assert [(c.after.mu, c.after.sigma) for c in changes] == [
        (30.210227447000438, 4.765617924939384),
        (27.644725221915632, 4.883479590134575),
        (17.4036218889969, 6.101259408259549),
        (19.21460876538932, 7.854669920480409),
    ]


def test_bots_are_fixed_anchors() -> None:
    players = [Player(0, 7, None, False), Player(1, None, "expert", False)]
    changes = rate_game("421-salon", players, [1, 2], {})
    assert [c.user_id for c in changes] == [7]  # the bot is not updated
    assert changes[0].before == Skill()
    assert changes[0].after.mu > 27.635389493140497  # beating a strong anchor is worth more


async def test_a_four_player_421_game_gives_the_published_values(salon: Salon) -> None:
    players = [await account(salon, name) for name in ("Anna", "Bruno", "Chloé", "Denis")]
    game_id = await play(salon, players[0], players[1:], "421", "salon")
    places = (
        await salon.store.read(
            select(m.game_standings.c.places).where(m.game_standings.c.game_id == game_id)
        )
    )[0][0]
    assert sorted(places) == [1, 2, 3, 4], places  # a full order: who went out first
    outcome = (await salon.store.read(select(m.games.c.outcome).where(m.games.c.id == game_id)))[0][
        0
    ]
    assert places[outcome["losers"][0]] == 4
    for seat, client in enumerate(players):
        assert (
            await skill_of(salon, client.user_id, "421-salon")
            == FOUR_NEWCOMERS_BY_PLACE[places[seat]]
        )
    mark = await salon.store.read(select(m.rated_games).where(m.rated_games.c.game_id == game_id))
    assert mark[0].rated is True and mark[0].family == "421-salon"


async def test_a_two_player_zilch_game_gives_the_published_values(salon: Salon) -> None:
    anna, bruno = await account(salon, "Anna"), await account(salon, "Bruno")
    game_id = await play(salon, anna, [bruno], "zilch", "zilch5000")
    outcome = (await salon.store.read(select(m.games.c.outcome).where(m.games.c.id == game_id)))[0][
        0
    ]
    winner = [anna, bruno][outcome["winners"][0]]
    loser = bruno if winner is anna else anna
    assert await skill_of(salon, winner.user_id, "zilch") == TWO_NEWCOMERS[0]
    assert await skill_of(salon, loser.user_id, "zilch") == TWO_NEWCOMERS[1]
    board = await salon.standing.leaderboard("zilch", viewer=loser.user_id)
    assert [p["name"] for p in board["players"]] == [winner.name, loser.name]
    assert [p["rating"] for p in board["players"]] == [
        display(*TWO_NEWCOMERS[0]),
        display(*TWO_NEWCOMERS[1]),
    ]
    assert [p["rank"] for p in board["players"]] == [1, 2]
    assert all(p["provisional"] for p in board["players"])
    assert board["you"]["rank"] == 2 and board["you"]["games"] == 1


async def test_rating_a_game_on_sqlite_reads_inline_in_few_statements(
    salon: Salon, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SQLite's inline writer, the processor reads on the loop's own connection (no
    aiosqlite round trips through the async engine), four statements for a game: the
    pending games, the game's marker and last sequence, its facts, its players (and the
    players' ratings when it counts)."""
    if not salon.store.inline:
        pytest.skip("the inline reads are SQLite's (PostgreSQL reads in one transaction)")
    from sqlalchemy import event

    anna, bruno = await account(salon, "Anna"), await account(salon, "Bruno")
    await salon.standing.stop()  # rated below, counted
    await play_a_zilch_game(salon, anna, bruno)

    async def no_async_read(*_args: Any, **_kwargs: Any) -> list[Any]:
        raise AssertionError("read through aiosqlite")

    statements: list[str] = []
    engine = salon.store.sync_engine
    assert engine is not None

    def seen(_conn: Any, _cursor: Any, sql: str, *_rest: Any) -> None:
        if sql.lstrip().upper().startswith("SELECT"):
            statements.append(sql)

    monkeypatch.setattr(salon.store, "read", no_async_read)
    event.listen(engine, "before_cursor_execute", seen)
    try:
        assert await salon.standing.process() == 1
    finally:
        event.remove(engine, "before_cursor_execute", seen)
        monkeypatch.undo()
    assert len(statements) == 5, statements  # and the two players' ratings (they count)
    assert [r[0] for r in await ratings_rows(salon)] == ["zilch", "zilch"]


# -- which games count -------------------------------------------------------------------


async def test_guests_make_a_game_unrated_and_may_not_sit_at_a_rated_table(salon: Salon) -> None:
    anna, gus = await account(salon, "Anna"), await guest(salon, "Gus")
    game_id = await play(salon, anna, [gus], "zilch", "zilch5000")
    mark = (
        await salon.store.read(select(m.rated_games).where(m.rated_games.c.game_id == game_id))
    )[0]
    assert mark.rated is False and mark.family == "zilch"
    assert await ratings_rows(salon) == []
    created = await anna.ok("table.create", game="zilch", preset="zilch5000", seats=2, rated=True)
    refused = await gus.refused("table.join", "forbidden", table=created["table"]["id"])
    assert "rated" in refused["message"]
    await gus.refused("table.create", "forbidden", game="zilch", rated=True)


async def test_an_unrated_table_and_custom_rules_do_not_count(salon: Salon) -> None:
    anna, bruno = await account(salon, "Anna"), await account(salon, "Bruno")
    await play(salon, anna, [bruno], "zilch", "zilch5000", rated=False)
    await play(salon, anna, [bruno], "zilch", "farkle10000")
    marks = await salon.store.read(select(m.rated_games.c.rated, m.rated_games.c.family))
    assert [tuple(r) for r in marks] == [(False, "zilch"), (False, None)]
    assert await ratings_rows(salon) == []


async def test_a_player_who_leaves_a_rated_game_loses_it(salon: Salon) -> None:
    anna, bruno = await account(salon, "Anna"), await account(salon, "Bruno")
    created = await anna.ok("table.create", game="zilch", preset="zilch5000", seats=2)
    table_id = created["table"]["id"]
    await bruno.ok("table.join", table=table_id)
    started = await anna.ok("table.start", table=table_id)
    await bruno.ok("table.leave", table=table_id)  # a bot plays on for him
    await play_with_bot_brain(salon, table_id, {0: anna})
    await salon.settle()
    await salon.standing.process()
    places = (
        await salon.store.read(
            select(m.game_standings.c.places, m.game_standings.c.left).where(
                m.game_standings.c.game_id == started["game_id"]
            )
        )
    )[0]
    assert tuple(places) == ([1, 2], [1])
    assert await skill_of(salon, anna.user_id, "zilch") == TWO_NEWCOMERS[0]
    assert await skill_of(salon, bruno.user_id, "zilch") == TWO_NEWCOMERS[1]


async def test_an_abandoned_game_never_counts(salon: Salon) -> None:
    anna, bruno = await account(salon, "Anna"), await account(salon, "Bruno")
    created = await anna.ok("table.create", game="zilch", preset="zilch5000", seats=2)
    table_id = created["table"]["id"]
    await bruno.ok("table.join", table=table_id)
    started = await anna.ok("table.start", table=table_id)
    await anna.ok("table.leave", table=table_id)
    await bruno.ok("table.leave", table=table_id)  # nobody left: the table closes
    await salon.standing.process()
    status = await salon.store.read(
        select(m.games.c.status).where(m.games.c.id == started["game_id"])
    )
    assert status[0][0] == "abandoned"
    assert await salon.store.read(select(m.rated_games)) == []
    assert await ratings_rows(salon) == []


# -- rebuild and restart ---------------------------------------------------------------------


async def test_rebuild_gives_the_live_numbers(salon: Salon) -> None:
    anna, bruno, chloe = [await account(salon, n) for n in ("Anna", "Bruno", "Chloé")]
    await play(salon, anna, [bruno], "zilch", "zilch5000")
    await play(salon, anna, [bruno, chloe], "421", "salon", bots=["expert"])
    await play(salon, bruno, [chloe], "zilch", "zilch5000", bots=["simple"])
    await play(salon, chloe, [anna], "421", "bar")
    await play(salon, anna, [], "421", "salon", bots=["random", "simple"])
    live_ratings, live_history = await ratings_rows(salon), await history_rows(salon)
    assert len(live_history) == 2 + 3 + 2 + 2 + 1
    assert {r[0] for r in live_ratings} == {"zilch", "421-salon", "421-bar"}
    # wipe the numbers: rebuild must give them back exactly
    await salon.store.write([(delete(m.rating_history), None)])
    await salon.store.write([(delete(m.ratings), None)])
    counts = await rebuild(salon.store)
    assert counts == {"games": 5, "players": len(live_ratings), "history": len(live_history)}
    assert await ratings_rows(salon) == live_ratings
    assert await history_rows(salon) == live_history


async def test_games_finished_before_a_crash_are_rated_at_the_next_start(tmp_path: Path) -> None:
    salon = make_salon(tmp_path / "salon.sqlite3")
    await salon.start()
    anna, bruno = await account(salon, "Anna"), await account(salon, "Bruno")
    await salon.standing.stop()  # as if the process died before rating
    await play_a_zilch_game(salon, anna, bruno)
    assert await ratings_rows(salon) == []
    await salon.crash()
    again = make_salon(tmp_path / "salon.sqlite3")
    await again.start()
    try:
        for _ in range(200):
            await asyncio.sleep(0.02)
            if await ratings_rows(again):
                break
        rows = await ratings_rows(again)
        assert sorted((r[2], r[3]) for r in rows) == sorted(TWO_NEWCOMERS, key=lambda x: x[0])
        assert await again.standing.process() == 0  # idempotent: nothing left to rate
    finally:
        await again.stop()


async def test_equal_ratings_share_a_rank_across_pages(salon: Salon) -> None:
    people = [await account(salon, name) for name in ("Ada", "Ben", "Cy", "Di", "Ed")]
    ratings = [1100, 1100, 1000, 1000, 900]
    await salon.store.write(
        [
            (
                m.ratings.insert(),
                [
                    {
                        "family": "chess",
                        "user_id": p.user_id,
                        "mu": 25.0,
                        "sigma": 5.0,
                        "rating": r,
                        "games": 12 - i,
                        "updated": 0.0,
                    }
                    for i, (p, r) in enumerate(zip(people, ratings, strict=True))
                ],
            )
        ]
    )
    whole = await salon.standing.leaderboard("chess")
    assert [(p["name"], p["rank"]) for p in whole["players"]] == [
        ("Ada", 1),
        ("Ben", 1),
        ("Cy", 3),
        ("Di", 3),
        ("Ed", 5),
    ]
    assert [p["provisional"] for p in whole["players"]] == [False, False, False, True, True]
    pages = []
    cursor: int | None = 0
    while cursor is not None:
        page = await salon.standing.leaderboard("chess", cursor, 2, viewer=people[3].user_id)
        pages.append([(p["name"], p["rank"]) for p in page["players"]])
        cursor = page["next"]
        assert page["you"]["rank"] == 3 and page["you"]["games"] == 9
    assert pages == [[("Ada", 1), ("Ben", 1)], [("Cy", 3), ("Di", 3)], [("Ed", 5)]]
    middle = await salon.standing.leaderboard("chess", 1, 2)
    assert [(p["name"], p["rank"]) for p in middle["players"]] == [("Ben", 1), ("Cy", 3)]
    assert await salon.standing.rating_of(people[4].user_id, "chess") == {
        "family": "chess",
        "rating": 900,
        "mu": 25.0,
        "sigma": 5.0,
        "games": 8,
        "provisional": True,
        "rank": 5,
    }
    assert await salon.standing.rating_of(people[4].user_id, "zilch") is None


async def test_two_processes_rate_each_game_once(
    db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Two salons' processors on one database, racing (a game that ends while its table
    changes owner is rated by both owners, a node just started rates what is pending):
    every game rated once, in one order, and no write failed on the way."""
    from zanzibar.salon.persistence import Store
    from zanzibar.salon.rating_processor import RatingProcessor

    salon = make_salon(db_url)
    await salon.start()
    other = Store(salon.db_url)
    await other.start()
    try:
        await salon.standing.stop()  # nothing rated while the games are played
        anna, bruno, chloe = [await account(salon, n) for n in ("Anna", "Bruno", "Chloé")]
        for host, guest_ in ((anna, bruno), (bruno, chloe), (chloe, anna), (anna, bruno)):
            await play_a_zilch_game(salon, host, guest_)
        first, second = RatingProcessor(salon.store), RatingProcessor(other)
        caplog.set_level(logging.INFO, logger="zanzibar")
        done = await asyncio.gather(first.process(), second.process())
        assert sum(done) == 4, done
        failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert failures == []
        assert not [r for r in caplog.records if "raced" in r.getMessage()]
        marks = await salon.store.read(
            select(m.rated_games.c.game_id, m.rated_games.c.seq).order_by(m.rated_games.c.seq)
        )
        assert [r.seq for r in marks] == [1, 2, 3, 4]
        assert len({r.game_id for r in marks}) == 4
        assert first.rated_count + second.rated_count == 4
        live_ratings, live_history = await ratings_rows(salon), await history_rows(salon)
        assert len(live_history) == 8
        await rebuild(salon.store)
        assert await ratings_rows(salon) == live_ratings
        assert await history_rows(salon) == live_history
    finally:
        await other.stop()
        await salon.stop()


async def test_the_rated_choice_is_shown_and_survives_a_restart(tmp_path: Path) -> None:
    salon = make_salon(tmp_path / "salon.sqlite3")
    await salon.start()
    anna = await account(salon, "Anna")
    rated = await anna.ok("table.create", game="zilch", preset="zilch5000", seats=2, rated=True)
    plain = await anna.ok("table.create", game="zilch", seats=2)
    unrated = await anna.ok("table.create", game="zilch", seats=2, rated=False)
    assert [r["table"]["rated"] for r in (rated, plain, unrated)] == [True, None, False]
    await anna.refused("table.create", "invalid", game="zilch", rated="yes")
    token = anna.token
    await salon.stop()
    again = make_salon(tmp_path / "salon.sqlite3")
    await again.start()
    try:
        page = again.lobby_page("en", None, None)
        assert [t["rated"] for t in page["tables"]] == [True, None, False]
        gus = await guest(again, "Gus")
        await gus.refused("table.join", "forbidden", table=rated["table"]["id"])
        await gus.ok("table.join", table=plain["table"]["id"])
        await Client(again, "Anna").sign_in("en", token)
    finally:
        await again.stop()


async def test_a_player_sent_away_by_the_host_does_not_lose_for_it(salon: Salon) -> None:
    anna, bruno = await account(salon, "Anna"), await account(salon, "Bruno")
    created = await anna.ok("table.create", game="zilch", preset="zilch5000", seats=2)
    table_id = created["table"]["id"]
    await bruno.ok("table.join", table=table_id)
    started = await anna.ok("table.start", table=table_id)
    await anna.ok("table.kick", table=table_id, user=bruno.user_id)  # a bot plays on for him
    await play_with_bot_brain(salon, table_id, {0: anna})
    await salon.settle()
    await salon.standing.process()
    row = (
        await salon.store.read(
            select(m.game_standings.c.places, m.game_standings.c.left).where(
                m.game_standings.c.game_id == started["game_id"]
            )
        )
    )[0]
    outcome = (
        await salon.store.read(select(m.games.c.outcome).where(m.games.c.id == started["game_id"]))
    )[0][0]
    assert row.left == []
    assert row.places == [1 if seat in outcome["winners"] else 2 for seat in range(2)]
    assert len(await history_rows(salon)) == 2


async def test_a_node_that_claims_a_rated_table_later_knows_it_is_rated(tmp_path: Path) -> None:
    from _local_nodes import BoardLeases

    url = f"sqlite+aiosqlite:///{tmp_path / 'salon.sqlite3'}"
    board: dict[int, Any] = {}
    leases_a, leases_b = BoardLeases("a", board), BoardLeases("b", board)
    node_a = make_salon(url, leases=leases_a, takeover_delay=60)
    node_b = make_salon(url, leases=leases_b, takeover_delay=60)
    await node_a.start()
    await node_b.start()  # before the table exists: its start reads no flag of it
    try:
        anna = await account(node_a, "Anna")
        created = await anna.ok("table.create", game="zilch", seats=2, rated=True)
        table_id = created["table"]["id"]
        assert table_id not in node_b.standing.table_flags
        leases_a.lapse()  # node a hangs: node b claims the table at the next command
        gus = await guest(node_b, "Gus")
        await gus.refused("table.join", "forbidden", table=table_id)
        assert board[table_id].node == "b"
        assert node_b.standing.rated_of(table_id) is True
        seated = node_b.tables[table_id].seats
        assert [s.name for s in seated] == ["Anna", None]  # the guest was not seated
    finally:
        await node_a.stop()
        await node_b.stop()
