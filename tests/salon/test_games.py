"""Complete games of every available game among fake clients and bots, watched by a spectator."""

from __future__ import annotations

from typing import Any

import pytest
from _salonkit import Client, available_games, play_with_bot_brain

from zanzibar.engine.events import Event
from zanzibar.salon import Salon
from zanzibar.salon.messages import display_names

pytestmark = pytest.mark.anyio


DICE_GAMES = [g for g in available_games() if g != "zanzibar-s"]


@pytest.mark.parametrize("game", DICE_GAMES)
async def test_complete_game_with_humans_bots_and_a_spectator(
    salon: Salon, client_factory: Any, game: str
) -> None:
    anna: Client = await client_factory("Anna", "fr")
    bob: Client = await client_factory("Bob")
    eve: Client = await client_factory("Eve", "fr")
    rules = salon._rules_for(game)
    _low, high = rules.seat_range(rules.options.resolve())
    seats = min(high, 3)
    created = await anna.ok("table.create", game=game, seats=seats)
    table_id = created["table"]["id"]
    await bob.ok("table.join", table=table_id)
    for _ in range(seats - 2):
        await anna.ok("table.add_bot", table=table_id)
    await eve.ok("table.watch", table=table_id)
    started = await anna.ok("table.start", table=table_id)
    sent = await play_with_bot_brain(salon, table_id, {0: anna, 1: bob})
    await salon.settle()
    table = salon.tables[table_id]
    assert table.state == "finished"
    assert sent > 0
    last = table.history.last_seq
    # every seat and the spectator received every item once, in order
    for client in (anna, bob):
        assert [i["seq"] for i in client.stream(table_id)] == list(range(1, last + 1))
    watched = [i["seq"] for i in eve.stream(table_id)]
    assert watched == list(range(watched[0], last + 1))
    game_events = [i for i in eve.stream(table_id) if i["channel"] == "game"]
    assert game_events, "the spectator saw no game event"
    assert all(isinstance(i["text"], str) and i["text"] for i in game_events)
    # each receiver's sentences are the game's own, in their language, from their seat
    names = [seat.name or "" for seat in table.seats]
    for client, lang, viewer in ((anna, "fr", 0), (bob, "en", 1), (eve, "fr", None)):
        for item in client.stream(table_id):
            if item["channel"] == "game":
                event = Event.from_json(item["event"])
                # bots' names are said in the receiver's language ("Robot 3 (facile)")
                said = display_names(names, lang)
                assert item["text"] == rules.render_event(event, lang, viewer, said)
    # the last view each one got is the game's own view of the final state
    for client, lang, viewer in ((anna, "fr", 0), (bob, "en", 1), (eve, "fr", None)):
        assert client.last("game.view")["view"] == rules.view(table.match.state, viewer, lang)  # type: ignore[union-attr]
    # the stored record replays the same game
    record = await salon.game_record(started["game_id"])
    assert record is not None and record["status"] == "finished"
    assert record["record"]["log"] == [e.to_json() for e in table.match.log]  # type: ignore[union-attr]
    stats = await salon.user_stats("Bob")
    assert stats is not None and stats["games"][rules.name]["played"] == 1


def quickest_level(rules: Any) -> str:
    """The chess bot level that thinks least (its names have changed while it was written)."""
    from zanzibar.games.chess import bots

    levels = [name for name in rules.bot_levels() if name in bots.LEVELS]
    return min(levels, key=lambda name: (bots.LEVELS[name].seconds, bots.LEVELS[name].max_depth))


@pytest.mark.skipif("zanzibar-s" not in available_games(), reason="Zanzibar-S is not installed")
async def test_zanzibar_s_against_a_bot_watched_and_resigned(
    salon: Salon, client_factory: Any
) -> None:
    """A chess game is long: Anna plays ten moves against the quickest bot, then resigns."""
    anna: Client = await client_factory("Anna")
    eve: Client = await client_factory("Eve", "fr")
    table_id = (await anna.ok("table.create", game="zanzibar-s", seats=2))["table"]["id"]
    level = quickest_level(salon._rules_for("zanzibar-s"))
    await anna.ok("table.add_bot", table=table_id, level=level)
    await eve.ok("table.watch", table=table_id)
    started = await anna.ok("table.start", table=table_id)
    sent = await play_with_bot_brain(salon, table_id, {0: anna}, level=level, resign_after=10)
    await salon.settle()
    table = salon.tables[table_id]
    assert table.state == "finished" and sent == 11
    outcome = (await salon.game_record(started["game_id"]))["outcome"]  # type: ignore[index]
    assert outcome["winners"] == [1] and outcome["losers"] == [0]
    last = table.history.last_seq
    assert [i["seq"] for i in anna.stream(table_id)] == list(range(1, last + 1))
    watched = [i["seq"] for i in eve.stream(table_id)]
    assert watched == list(range(watched[0], last + 1))
    assert sum(1 for i in eve.stream(table_id) if i["channel"] == "game") >= 20
    stats = await salon.user_stats("Anna")
    assert stats is not None and stats["games"]["zanzibar-s"] == {
        "played": 1,
        "won": 0,
        "lost": 1,
        "draw": 0,
    }


async def test_each_item_is_made_once_per_audience(salon: Salon, client_factory: Any) -> None:
    """Followers who read the same words share one message; the seat an event names
    gets its own ("You rolled" to Anna, "Anna rolled" to Bob and the spectators)."""
    anna: Client = await client_factory("Anna")
    bob: Client = await client_factory("Bob")
    eve: Client = await client_factory("Eve")
    zoe: Client = await client_factory("Zoé", "fr")
    created = await anna.ok("table.create", game="421", seats=2)
    table_id = created["table"]["id"]
    await bob.ok("table.join", table=table_id)
    await eve.ok("table.watch", table=table_id)
    await zoe.ok("table.watch", table=table_id)
    await anna.ok("table.start", table=table_id)
    await play_with_bot_brain(salon, table_id, {0: anna, 1: bob})
    await salon.settle()
    table = salon.tables[table_id]
    rules = table.rules
    live = {
        c.name: {m["seq"]: m for m in c.of_type("game.event", table_id)} for c in (anna, bob, eve)
    }
    french = {m["seq"]: m for m in zoe.of_type("game.event", table_id)}
    shared_seqs = [seq for seq in live["Eve"] if seq in live["Anna"] and seq in live["Bob"]]
    assert len(shared_seqs) > 5
    names = ["Anna", "Bob"]
    by_anna = 0
    for seq in shared_seqs:
        event = Event.from_json(live["Eve"][seq]["event"])
        named = rules.message_of(event).seats()
        for seat, who in ((0, "Anna"), (1, "Bob")):
            message = live[who][seq]
            assert message["text"] == rules.render_event(event, "en", seat, names)
            # a seat the event does not name reads the spectator's very message
            assert (message is live["Eve"][seq]) is (seat not in named)
        assert live["Eve"][seq]["text"] == rules.render_event(event, "en", None, names)
        assert french[seq] is not live["Eve"][seq]
        assert french[seq]["text"] == rules.render_event(event, "fr", None, names)
        by_anna += named == frozenset({0})
    assert by_anna > 0, "no event named Anna alone"
    # chat lines read the same in every language: one message for all
    await anna.ok("chat.say", table=table_id, text="bien joué")
    lines = [c.of_type("chat", table_id)[-1] for c in (anna, bob, eve, zoe)]
    assert lines[0]["text"] == "bien joué"
    assert all(line is lines[0] for line in lines)


def test_tables_share_an_event_s_message_and_each_says_its_own_names() -> None:
    """The same event at two tables is one message, made once (``tables.message_of``);
    each table's followers still read their own players' names, the named seat "you"."""
    from zanzibar.games import get_rules
    from zanzibar.salon.tables import GameInfo, Table

    rules = get_rules("421")
    roll = {
        "kind": "roll",
        "seat": 1,
        "data": {"dice": [4, 2, 1], "kept": [], "limit": 3, "roll": 1},
    }
    said = {}
    for table_id, names, users in ((1, ("Anna", "Bob"), (10, 11)), (2, ("Zoé", "Hugo"), (20, 21))):
        table = Table(table_id, rules, None, {}, 2, [])
        table.games[5] = GameInfo(5, names, users)
        item = table.stage("game", {"game_id": 5, "log": 3, "event": roll})
        table.commit_staged()
        assert table.viewers(item, item.data) == {users[1]: 1}
        said[table_id] = (
            table.message(item, "en", users[1])["text"],
            table.message(item, "en", users[0])["text"],
            table.message(item, "fr", None)["text"],
            table.msgs[item.seq],
        )
    assert said[1][:3] == (
        "You rolled 4 2 1, a 421 (roll 1 of 3).",
        "Bob rolled 4 2 1, a 421 (roll 1 of 3).",
        "Bob a lancé 4 2 1, un 421 (lancer 1 sur 3).",
    )
    assert said[2][:3] == (
        "You rolled 4 2 1, a 421 (roll 1 of 3).",
        "Hugo rolled 4 2 1, a 421 (roll 1 of 3).",
        "Hugo a lancé 4 2 1, un 421 (lancer 1 sur 3).",
    )
    assert said[1][3] is said[2][3]
