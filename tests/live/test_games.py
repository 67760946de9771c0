"""Issue 11's first acceptance point: two players on two processes play a whole game of each
kind together, with a bot and a spectator on a third; chat, history and the lobby agree on
all three nodes.

Anna (the host) is on node 1, Bert on node 2 and Sam, who watches, on node 3; the dice
games have a bot in a third seat (the chess games have two seats). They play a whole game
(random legal actions from each ``game.view``'s ``legal``, in 421 mostly keeping the hand;
chess: the fool's mate; Zanzibar-S: its setup, a few moves and a draw by agreement), chat
before, during and after it, and then:

- each of them received every item of the table once, in order, and the same items;
  the ``history`` each reads from its own node is that too, and the database holds it
  (tests/live/_invariants.py: acknowledged actions and lines stored once, the game
  replays from its log to those events and to its stored outcome);
- ``GET /api/tables`` answers the same summary of the table on every node;
- ``GET /api/games/{id}`` answers the same finished record on every node.

The same games with all three on node 1 check the harness with what works today; on
three nodes they need commands forwarded between nodes (issue 11).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from _invariants import problems, read_stored, replay
from _livekit import Cluster
from _scripted import Message, Player, guest_session, item_key, news_since

pytestmark = pytest.mark.live

Chooser = Callable[[list[Any], int], Any]


def any_legal(rng: random.Random) -> Chooser:
    return lambda legal, plies: rng.choice(legal)


def mostly_stopping(rng: random.Random) -> Chooser:
    """421: keep the hand four times in five when allowed (a whole game in fewer rolls)."""

    def choose(legal: list[Any], plies: int) -> Any:
        stops = [a for a in legal if a["type"] != "roll"]
        return rng.choice(stops if stops and rng.random() < 0.8 else legal)

    return choose


def fools_mate(legal: list[Any], plies: int) -> Any:
    """1. f3 e5 2. g4 Qh4#: the shortest game chess has."""
    wanted = ("f2f3", "e7e5", "g2g4", "d8h4")[plies]
    return next(a for a in legal if a.get("move") == wanted)


def setup_moves_then_draw(rng: random.Random) -> Chooser:
    """Zanzibar-S: each side's setup, six random moves, then a draw offered and accepted."""

    def choose(legal: list[Any], plies: int) -> Any:
        setups = [a for a in legal if a["type"] == "setup"]
        if setups:
            return rng.choice(setups)
        if plies >= 8 and {"type": "draw"} in legal:
            return {"type": "draw"}
        return rng.choice([a for a in legal if a["type"] == "move"])

    return choose


GAMES: dict[str, tuple[str, str, str | None, Callable[[random.Random], Chooser]]] = {
    # id: (game, preset, bot level, chooser)
    "421-salon": ("421", "salon", "random", mostly_stopping),
    "421-bar": ("421", "bar", "random", mostly_stopping),
    "zilch": ("zilch", "zilch5000", "simple", any_legal),
    "zanzibar-s": ("zanzibar-s", "standard", None, setup_moves_then_draw),
    "chess": ("chess", "standard", None, lambda rng: fools_mate),
}

SPREADS = [
    pytest.param((1, 1, 1), id="one-node"),
    pytest.param(
        (1, 2, 3),
        id="three-nodes",
    ),
]


@pytest.mark.parametrize("spread", SPREADS)
@pytest.mark.parametrize("kind", list(GAMES))
def test_a_whole_game_across_nodes(cluster: Cluster, kind: str, spread: tuple[int, ...]) -> None:
    asyncio.run(whole_game(cluster, kind, spread))


async def whole_game(cluster: Cluster, kind: str, spread: tuple[int, ...]) -> None:
    game, preset, bot, chooser = GAMES[kind]
    rng = random.Random(f"{kind}{spread}")
    tag = f"{kind} {''.join(map(str, spread))}"
    people = []
    for name, node in zip(("Anna", "Bert", "Sam"), spread, strict=True):
        url = cluster.node(node)
        session = await guest_session(url, f"{name} {tag}")
        people.append(Player(name.lower(), session, lambda url=url: url, reconnect_for=15))
    anna, bert, sam = people
    try:
        table = await anna.create(game=game, preset=preset, seats=3 if bot else 2)
        for who, role in ((bert, "join"), (sam, "watch")):
            reply = await who.join(table, role, tries=0)  # a quiet salon: no refusal
            assert reply.get("type") == "ok", f"{who.name} cannot {role} table {table}: {reply}"
        if bot:
            added = await anna.patiently("table.add_bot", table=table, level=bot)
            assert added["type"] == "ok", added
        assert (await anna.say(table, "Good luck, both of you!"))["type"] == "ok"
        started = await anna.patiently("table.start", table=table)
        assert started["type"] == "ok", started
        game_id = started["game_id"]
        await play_to_the_end(table, (anna, bert), chooser(rng), lambda: bert.say(table))
        assert (await sam.say(table, "Well played!"))["type"] == "ok"
        for person in people:  # the spectator's line reaches both players, wherever they are
            await until(
                lambda p=person: heard(p, table, "Well played!"), f"{person.name} hears Sam"
            )
        await check_agreement(cluster, table, game_id, people, bot, spread)
    finally:
        for person in people:
            await person.close()


async def play_to_the_end(
    table: int, players: tuple[Player, ...], choose: Chooser, mid_game: Callable[[], Any]
) -> None:
    """Each player acts on its turn (from ``legal``) until the game is over."""
    plies = 0
    said = False
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, f"table {table}: the game is not over in 240 s"
        counts = [p.news_count for p in players]  # before the look: later news wakes the wait
        views = [p.follows[table].view for p in players]
        if any(v and v["view"].get("over") for v in views):
            return
        acted = False
        for player in players:
            view = player.my_turn(table)
            if view is None:
                continue
            reply = await player.act(table, choose(view["view"]["legal"], plies), view)
            if reply.get("code") == "rate_limited":  # a script outpaces the salon's limit
                await asyncio.sleep(float(reply.get("retry_after") or 1))
                continue
            assert reply["type"] == "ok", f"{player.name}'s legal action was refused: {reply}"
            plies += 1
            acted = True
            if plies == 3 and not said:
                said = True
                assert (await mid_game())["type"] == "ok"
        if not acted:
            await news_since(players, counts, 0.5)


async def read_history(player: Player, table: int) -> dict[int, tuple[Any, ...]]:
    """The whole history of a table, page after page, from the player's node."""
    items: dict[int, tuple[Any, ...]] = {}
    since = 0
    while True:
        page = await player.request("history", table=table, since=since)
        assert page["type"] == "history", page
        items.update((i["seq"], item_key(i)) for i in page["items"])
        if not page["more"]:
            return items
        since = page["next"]


def heard(player: Player, table: int, line: str) -> bool:
    return any(k[0] == "chat" and k[2] == line for k in player.follows[table].items.values())


async def until(condition: Callable[[], bool], what: str, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        await asyncio.sleep(0.05)


async def check_agreement(
    cluster: Cluster,
    table: int,
    game_id: int,
    people: list[Player],
    bot: str | None,
    spread: tuple[int, ...],
) -> None:
    # everybody saw the end, then the same items (the game's end is the last game item)
    for person in people:
        await until(
            lambda p=person: bool((p.follows[table].view or {}).get("view", {}).get("over")),
            f"{person.name} sees the game over",
        )
    stored = await read_stored(cluster.pg_url, [table])
    last = max(stored.history[table])
    for person in people:
        await until(lambda p=person: p.follows[table].last_seq >= last, f"{person.name} has all")
    reference = people[0].follows[table].items
    for person in people:
        assert person.follows[table].items == reference, f"{person.name} saw other items"
    assert problems(stored, people, [table]) == []
    # chat: every line said is there for everyone, in one order
    lines = [k[2] for _, k in sorted(reference.items()) if k[0] == "chat"]
    assert lines[0] == "Good luck, both of you!" and lines[-1] == "Well played!"
    assert len(lines) == 3, lines
    # history: each reads it again from its own node
    for person in people:
        assert await read_history(person, table) == reference, person.name
    # the game: finished, the same record on every node, replaying to what was seen
    match = replay(stored, game_id)
    assert match.is_over and stored.games[game_id]["status"] == "finished"
    nodes = sorted(set(range(1, cluster.nodes + 1)))
    async with httpx.AsyncClient(timeout=15) as http:
        records = [(await http.get(cluster.node(n) + f"api/games/{game_id}")).json() for n in nodes]
        assert all(r == records[0] for r in records), "the nodes answer different game records"
        assert records[0]["status"] == "finished" and records[0]["record"]["seed"] is not None
        # the lobby: the same summary of the table on every node of the game (it converges
        # within seconds; on one node, the others' lobbies are not this test's business)
        summaries: list[Message | None] = []
        deadline = time.monotonic() + 10
        while True:
            summaries = []
            for n in sorted(set(spread)):
                listed = (await http.get(cluster.node(n) + "api/tables?limit=100")).json()
                summaries.append(next((t for t in listed["tables"] if t["id"] == table), None))
            if summaries[0] is not None and all(s == summaries[0] for s in summaries):
                break
            assert time.monotonic() < deadline, (
                f"the lobbies disagree on table {table}: {summaries}"
            )
            await asyncio.sleep(0.3)
    summary = summaries[0]
    assert summary is not None
    assert (summary["state"], summary["spectators"]) == ("finished", 1)
    humans = [s for s in summary["seats"] if s["user"] in {people[0].user, people[1].user}]
    assert [s["connected"] for s in humans] == [True, True], summary["seats"]
    bots = [s["bot"] for s in summary["seats"] if s["bot"]]
    assert bots == ([bot] if bot else []), summary["seats"]
