"""The live tests' own checks must be able to fail: each breach they look for, made on purpose.

No service is needed: a small game is played by the engine, "stored" as the database
would hold it, and scripted players are given what they would have received and been
acknowledged; then one thing at a time is broken.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any

import pytest
from _invariants import Stored, problems
from _scripted import Ack, Follow, Player, item_key

from zanzibar.engine.match import Match
from zanzibar.games import get_rules

TABLE = 7
GAME = 70
ANNA, BERT = 1, 2


def _client_item(seq: int, channel: str, item: dict[str, Any]) -> dict[str, Any]:
    """The message a client gets for a stored history item."""
    if channel == "game":
        return {"type": "game.event", "table": TABLE, "seq": seq, **item}
    if channel == "chat":
        return {"type": "chat", "table": TABLE, "seq": seq, **item}
    return {"type": "system", "table": TABLE, "seq": seq, **item}


def world() -> tuple[Stored, list[Player]]:
    """A finished 421 game of two at one table, its chat, and its two players' logs."""
    stored, acks = copy.deepcopy(_played())
    players = []
    for user, name in ((ANNA, "anna"), (BERT, "bert")):
        player = Player(name, {"token": "t", "user": {"id": user}}, lambda: "http://x/")
        follow = Follow(TABLE, "join", syncing=False)
        player.follows[TABLE] = follow
        for seq, (channel, item) in sorted(stored.history[TABLE].items()):
            player._take(follow, _client_item(seq, channel, copy.deepcopy(item)), "live")
        player.acks = acks[user]
        players.append(player)
    return stored, players


@functools.cache
def _played() -> tuple[Stored, dict[int, list[Ack]]]:
    """The game, played once by the engine (each test breaks a copy)."""
    rules = get_rules("421")
    match = Match(rules, 2, rules.options.resolve("salon"), seed=421)
    rng = random.Random(1)
    acks: dict[int, list[Ack]] = {ANNA: [], BERT: []}
    history: dict[int, tuple[str, dict[str, Any]]] = {
        1: ("system", {"kind": "game_started", "values": {}}),
        2: ("chat", {"user": ANNA, "from": "Anna", "text": "hello", "me": False}),
    }
    acks[ANNA].append(Ack("chat", "anna", ANNA, TABLE, None, None, None, "hello", 2))
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        action = rules.action_to_json(rng.choice(list(match.legal_actions())))
        at = len(match.log)
        before = len(match.events)
        match.act_json(seat, action)
        for _, event in match.events[before:]:
            history[len(history) + 1] = (
                "game",
                {"game_id": GAME, "log": len(match.log), "event": event.to_json()},
            )
        user = ANNA if seat == 0 else BERT
        acks[user].append(Ack("action", "p", user, TABLE, GAME, at, seat, action, len(match.log)))
    history[len(history) + 1] = ("system", {"kind": "game_over", "values": {}})
    stored = Stored(
        history={TABLE: history},
        games={
            GAME: {
                "id": GAME,
                "table_id": TABLE,
                "game": "421",
                "options": dict(match.options),
                "seats": 2,
                "seed": 421,
                "outcome": json.loads(json.dumps(rules.outcome(match.state).to_json())),
                "status": "finished",
            }
        },
        logs={GAME: {i: entry.to_json() for i, entry in enumerate(match.log)}},
        tables={
            TABLE: {
                "id": TABLE,
                "state": "finished",
                "closed": None,
                "epoch": 1,
                "version": 9,
                "game_id": GAME,
            }
        },
    )
    return stored, acks


def test_a_world_where_all_holds_has_no_problem() -> None:
    stored, players = world()
    assert problems(stored, players, [TABLE]) == []
    assert len(stored.history[TABLE]) > 10


def _first_action(players: list[Player]) -> Ack:
    return next(a for a in players[0].acks if a.kind == "action")


@pytest.mark.parametrize(
    "breach, expected",
    [
        ("action not stored", "is not stored there"),
        ("action stored elsewhere", "is not stored there"),
        ("two acks one position", "2 acknowledged actions for one position"),
        ("chat line lost", "is not item 2"),
        ("chat line stored twice", "is stored 2 times"),
        ("history hole", "history has holes"),
        ("client saw another item", "received seq 3 of table 7 as ('system', 'joined')"),
        ("log does not replay", "does not replay"),
        ("log hole", "log has holes"),
        ("events differ from replay", "are not the replay's"),
        ("wrong outcome", "replays to"),
        ("game abandoned", "was abandoned"),
        ("table closed", "was closed"),
    ],
)
def test_each_breach_is_found(breach: str, expected: str) -> None:
    stored, players = world()
    anna = players[0]
    first = _first_action(players)
    log = stored.logs[GAME]
    history = stored.history[TABLE]
    if breach == "action not stored":
        log[first.at or 0] = {"kind": "action", "seat": 1, "value": {"type": "stop"}}
    elif breach == "action stored elsewhere":
        anna.acks.append(Ack("action", "anna", ANNA, TABLE, GAME, 1, 0, first.value, 3))
    elif breach == "two acks one position":
        anna.acks.append(copy.copy(first))
    elif breach == "chat line lost":
        history[2] = ("chat", {"user": BERT, "text": "hello", "me": False})
    elif breach == "chat line stored twice":
        last = max(history)
        history[last + 1] = ("chat", {"user": ANNA, "text": "hello", "me": False})
    elif breach == "history hole":
        del history[3]
    elif breach == "client saw another item":
        anna.follows[TABLE].items[3] = ("system", "joined")
    elif breach == "log does not replay":
        log[0] = {"kind": "action", "seat": 1, "value": {"type": "roll", "dice": [0, 1, 2]}}
    elif breach == "log hole":
        del log[1]
    elif breach == "events differ from replay":
        seq = next(s for s, (c, _) in sorted(history.items()) if c == "game")
        channel, item = history[seq]
        history[seq] = (channel, {**item, "event": {"kind": "roll", "seat": 0, "data": {}}})
    elif breach == "wrong outcome":
        stored.games[GAME]["outcome"] = {"winners": [], "losers": [], "draw": True}
    elif breach == "game abandoned":
        stored.games[GAME]["status"] = "abandoned"
    elif breach == "table closed":
        stored.tables[TABLE]["closed"] = 1.0
    found = problems(stored, players, [TABLE])
    assert any(expected in f for f in found), found


def test_a_gap_or_a_repeat_in_what_a_client_receives_is_a_violation() -> None:
    player = Player("p", {"token": "t", "user": {"id": 1}}, lambda: "http://x/")
    follow = Follow(TABLE, "join", syncing=False)
    player.follows[TABLE] = follow
    for seq in (1, 2, 4, 4, 3, 5):
        player._take(follow, {"type": "system", "table": TABLE, "seq": seq, "kind": "k"}, "live")
    assert player.violations == [
        "p: gap at table 7 (live): seq 4 after 2 (live)",
        "p: repeat at table 7 (live): seq 4 after 4 (live)",
        "p: repeat at table 7 (live): seq 3 after 4 (live)",
    ]
    assert follow.last_seq == 5
    assert sorted(follow.items) == [1, 2, 4, 5]


def test_items_are_compared_by_content_not_wording() -> None:
    a = {"type": "chat", "seq": 3, "user": 1, "text": "hi", "me": False, "from": "Anna"}
    b = {**a, "from": "Anna (host)"}
    assert item_key(a) == item_key(b)
    assert item_key(a) != item_key({**a, "text": "hi!"})
    event = {"type": "game.event", "seq": 4, "game_id": 2, "event": {"kind": "roll", "seat": 0}}
    assert item_key({**event, "text": "You rolled"}) == item_key({**event, "text": "Anna rolled"})


def test_a_history_pushed_after_a_failover_must_continue_the_items() -> None:
    player = Player("p", {"token": "t", "user": {"id": 1}}, lambda: "http://x/")
    follow = Follow(TABLE, "join", syncing=False)
    player.follows[TABLE] = follow

    def item(seq: int) -> dict[str, Any]:
        return {"type": "system", "table": TABLE, "seq": seq, "kind": "k"}

    player._dispatch(item(1))
    player._dispatch({"type": "history", "table": TABLE, "since": 1, "items": [item(2), item(3)]})
    player._dispatch(item(4))
    assert (player.violations, follow.last_seq, player.pushed_histories) == ([], 4, 1)
    player._dispatch({"type": "history", "table": TABLE, "since": 5, "items": [item(6)]})
    assert player.violations == ["p: gap at table 7 (history pushed): seq 6 after 4 (live)"]
