"""Protocol version 2 (server/framing.py): what one step puts on a socket is one frame.

The same users hold a socket of each version at one table (a user may hold
several sockets; each follows the table after its own join or watch), so both
sockets of a user are sent the same messages: in version 2 each action must
reach every socket as one frame holding exactly the messages, in the same
order, that its version-1 twin got as separate frames.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from _games import latest_view, wait_for_view
from _server import ServerProcess
from _wsclient import Message, WsClient, sign_in_guest
from websockets.asyncio.client import connect

from zanzibar.games import game_names
from zanzibar.server.framing import MAX_BUNDLE_CHARS

needs_421 = pytest.mark.skipif("421" not in game_names(), reason="game 421 is not installed")


async def _pair(server: ServerProcess, name: str, lang: str = "en") -> tuple[WsClient, WsClient]:
    """One guest's two sockets: (version 1, version 2)."""
    session = await sign_in_guest(server.url, name, lang)
    v1 = await WsClient.with_token(server.url, session["token"], name + "-v1", protocol=1)
    v2 = await WsClient.with_token(server.url, session["token"], name + "-v2", protocol=2)
    assert (v1.protocol, v2.protocol) == (1, 2)
    return v1, v2


async def _quiet(client: WsClient) -> int:
    """Frames received before a ping sent now was answered (the pong's frame not counted).

    The server puts a step's messages on every socket before it answers the next
    request of any of them, so once the pong is in, the step's frames are all here.
    """
    await client.ping()
    for index in range(len(client.frames) - 1, -1, -1):
        if any(m["type"] == "pong" for m in client.frames[index]):
            return index
    raise AssertionError("no pong")


def _flat(frames: list[list[Message]]) -> list[Message]:
    return [message for frame in frames for message in frame]


def _without_replies(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m["type"] not in {"ok", "error"}]


@needs_421
def test_one_action_is_one_frame_per_socket_with_the_messages_of_version_1(
    shared_server: ServerProcess,
) -> None:
    async def scenario() -> None:
        anna = await _pair(shared_server, "Anna")
        bruno = await _pair(shared_server, "Bruno", "fr")
        sam = await _pair(shared_server, "Sam")
        pairs = [anna, bruno, sam]
        sockets = [s for pair in pairs for s in pair]
        try:
            created = await anna[1].ok("table.create", game="421", seats=2)
            table = created["table"]["id"]
            await anna[0].ok("table.join", table=table)
            for socket in bruno:
                await socket.ok("table.join", table=table)
            for socket in sam:
                await socket.ok("table.watch", table=table)
            await anna[1].ok("table.start", table=table)
            for socket in sockets:
                await wait_for_view(socket, table)
            seat_of = {"Anna": 0, "Bruno": 1}
            acted_v1 = acted_v2 = 0
            for step in range(8):
                view = latest_view(anna[0], table)
                assert view is not None
                if view["view"]["over"]:
                    break
                to_act = view["view"]["to_act"]
                actor_pair = anna if seat_of["Anna"] == to_act else bruno
                actor = actor_pair[step % 2]  # each version acts in turn
                own = latest_view(actor, table)
                assert own is not None and own["view"]["legal"]
                before = {id(s): await _quiet(s) + 1 for s in sockets}
                reply = await actor.ok(
                    "game.action",
                    table=table,
                    action=own["view"]["legal"][0],
                    seq=own["log_length"],
                )
                after = {id(s): await _quiet(s) for s in sockets}
                got = {id(s): s.frames[before[id(s)] : after[id(s)]] for s in sockets}
                for v1, v2 in pairs:
                    frames_v1, frames_v2 = got[id(v1)], got[id(v2)]
                    assert len(frames_v2) == 1, (v2.name, frames_v2)
                    assert all(len(f) == 1 for f in frames_v1)
                    assert len(frames_v1) >= 2  # the item(s) and the view at least
                    if actor in (v1, v2):  # only the socket that acted gets the ok
                        assert _without_replies(_flat(frames_v1)) == _without_replies(frames_v2[0])
                        own_frames = frames_v1 if actor is v1 else frames_v2
                        assert _flat(own_frames)[-1] == reply
                    else:
                        assert _flat(frames_v1) == frames_v2[0], v1.name
                if actor.protocol == 1:
                    acted_v1 += 1
                    sequence_v1 = [m["type"] for m in _flat(got[id(actor)])]
                else:
                    acted_v2 += 1
                    sequence_v2 = [m["type"] for m in got[id(actor)][0]]
            assert acted_v1 and acted_v2
            # the socket that acted reads the same kinds of message in the same order
            assert sequence_v1[-2:] == sequence_v2[-2:] == ["game.view", "ok"]
            for socket in sockets:
                assert socket.schema_violations == [], socket.name
                for frame in socket.frames:
                    seqs = [m["seq"] for m in frame if m["type"] == "game.event"]
                    assert seqs == sorted(seqs)
        finally:
            for socket in sockets:
                await socket.close()

    asyncio.run(scenario())


@needs_421
def test_a_version_2_join_brings_the_table_history_and_view_in_one_frame(
    shared_server: ServerProcess,
) -> None:
    async def scenario() -> None:
        anna = await WsClient.guest(shared_server.url, "Ada", protocol=2)
        try:
            welcome = [m for m in anna.received if m["type"] == "welcome"]
            assert welcome and welcome[0]["protocol"] == 2
            created = await anna.ok("table.create", game="421", seats=2)
            table = created["table"]["id"]
            await anna.ok("table.add_bot", table=table)
            start = len(anna.frames)
            await anna.ok("table.start", table=table)
            await wait_for_view(anna, table)
            await _quiet(anna)
            # the start's step: the item, the ok, the table, the view and the turn
            started = anna.frames[start]
            kinds = [m["type"] for m in started]
            assert kinds[:2] == ["system", "ok"] and "game.view" in kinds, kinds
            assert kinds[-1] == "your_turn"
            # a second socket of hers joins with since=0: its whole answer is one frame
            second = await WsClient.with_token(shared_server.url, anna.token, "Ada-2", protocol=2)
            try:
                start = len(second.frames)
                await second.ok("table.join", table=table, since=0)
                await wait_for_view(second, table)
                await _quiet(second)
                frame = second.frames[start]
                kinds = [m["type"] for m in frame]
                assert kinds[:4] == ["ok", "table", "history", "game.view"], kinds
                history = frame[2]
                assert [i["seq"] for i in history["items"]] == list(
                    range(1, history["last_seq"] + 1)
                )
            finally:
                await second.close()
        finally:
            await anna.close()

    asyncio.run(scenario())


def test_a_client_offering_no_subprotocol_or_version_1_speaks_version_1(
    shared_server: ServerProcess,
) -> None:
    async def scenario() -> None:
        session = await sign_in_guest(shared_server.url, "Vic")
        for offer in (None, ["zanzibar.v1"], ["something.else"]):
            async with connect(shared_server.ws_url, proxy=None, subprotocols=offer) as ws:
                assert ws.subprotocol == (offer[0] if offer == ["zanzibar.v1"] else None)
                await ws.send(json.dumps({"v": 1, "type": "hello", "token": session["token"]}))
                welcome = json.loads(await ws.recv())
                assert welcome["type"] == "welcome" and welcome["protocol"] == 1
                await ws.send(json.dumps({"v": 1, "type": "ping", "id": 1}))
                assert json.loads(await ws.recv()) == {"v": 1, "type": "pong", "id": 1}
        async with connect(
            shared_server.ws_url, proxy=None, subprotocols=["zanzibar.v2", "zanzibar.v1"]
        ) as ws:
            assert ws.subprotocol == "zanzibar.v2"
            await ws.send("not json")  # refusals before hello come in arrays too
            refusal: Any = json.loads(await ws.recv())
            assert isinstance(refusal, list) and refusal[0]["code"] == "bad_json"
            await ws.send(json.dumps({"v": 1, "type": "hello", "token": session["token"]}))
            welcome = json.loads(await ws.recv())
            assert welcome[0]["type"] == "welcome" and welcome[0]["protocol"] == 2

    asyncio.run(scenario())


def test_a_long_backlog_is_cut_into_frames_of_whole_messages() -> None:
    from zanzibar.server.framing import bundles

    texts = [json.dumps({"n": n, "pad": "x" * 1000}) for n in range(600)]
    frames = bundles(texts)
    assert len(frames) == 3
    assert all(len(f) <= MAX_BUNDLE_CHARS + 300 for f in frames)
    decoded = [m for f in frames for m in json.loads(f)]
    assert decoded == [json.loads(t) for t in texts]
    huge = json.dumps({"pad": "y" * (MAX_BUNDLE_CHARS + 10)})
    assert [json.loads(f) for f in bundles(["{}", huge, "{}"])] == [[{}], [json.loads(huge)], [{}]]


class _Writes:
    """A protocol's batched writer (guards.Writer) that records each write's frames."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.ready = asyncio.Event()
        self.ready.set()

    def write(self, texts: Any) -> None:
        self.writes.append(list(texts))

    def writer(self) -> Any:
        from zanzibar.server.guards import Writer

        return Writer(self.write, self.ready.is_set, self.ready.wait)


def test_a_version_2_outbox_writes_one_array_per_turn_and_shares_an_audience_array() -> None:
    from zanzibar.salon.connections import Shared
    from zanzibar.server.app import Outbox
    from zanzibar.server.guards import SharedText
    from zanzibar.server.settings import TransportLimits

    async def scenario() -> None:
        sockets = [_Writes() for _ in range(3)]
        outboxes = [
            Outbox(None, TransportLimits(), writer=s.writer(), protocol=2)  # type: ignore[arg-type]
            for s in sockets[:2]
        ]
        v1 = Outbox(None, TransportLimits(), writer=sockets[2].writer())  # type: ignore[arg-type]
        item = Shared({"type": "game.event", "seq": 4})
        view = Shared({"type": "game.view", "seq": 4})
        for outbox in (*outboxes, v1):
            outbox.put_message(item)
            outbox.put_message(view)
        outboxes[0].put_message({"type": "ok", "id": 7})  # the one who acted
        await asyncio.sleep(0)
        first, second, plain = (s.writes for s in sockets)
        assert first == [
            ['[{"type":"game.event","seq":4},{"type":"game.view","seq":4},{"type":"ok","id":7}]']
        ]
        assert second == [['[{"type":"game.event","seq":4},{"type":"game.view","seq":4}]']]
        assert plain == [['{"type":"game.event","seq":4}', '{"type":"game.view","seq":4}']]
        # the audience's array is one object, framed once for every plain socket
        shared = second[0][0]
        assert type(shared) is SharedText
        again = _Writes()
        third = Outbox(None, TransportLimits(), writer=again.writer(), protocol=2)  # type: ignore[arg-type]
        third.put_message(item)
        third.put_message(view)
        await asyncio.sleep(0)
        assert again.writes[0][0] is shared
        # a lone message is an array of one; the next turn is the next frame
        outboxes[1].put_message({"type": "pong"})
        await asyncio.sleep(0)
        assert sockets[1].writes[1:] == [['[{"type":"pong"}]']]

    asyncio.run(scenario())


def test_a_version_2_outbox_without_a_batched_writer_sends_one_array_per_wake() -> None:
    from zanzibar.server.app import Outbox
    from zanzibar.server.settings import TransportLimits

    sent: list[str] = []

    class Socket:
        scope: dict[str, Any] = {}

        async def send_text(self, text: str) -> None:
            sent.append(text)

    async def scenario() -> None:
        outbox = Outbox(Socket(), TransportLimits(), protocol=2)  # type: ignore[arg-type]
        outbox.start()
        for n in range(3):
            outbox.put_message({"n": n})
        await asyncio.sleep(0.01)
        outbox.put_message({"n": 3})
        await outbox.close()

    asyncio.run(scenario())
    assert [json.loads(t) for t in sent] == [[{"n": 0}, {"n": 1}, {"n": 2}], [{"n": 3}]]


def test_a_version_2_client_too_slow_is_cut_off_by_the_same_limits() -> None:
    from zanzibar.server.app import Outbox
    from zanzibar.server.settings import TransportLimits

    socket = _Writes()
    socket.ready.clear()  # it reads nothing

    class Closing:
        scope = {"client": ("10.0.0.9", 7)}

        async def close(self, code: int, reason: str) -> None:
            pass

    async def scenario() -> None:
        limits = TransportLimits(outbox_max_messages=5)
        outbox = Outbox(Closing(), limits, lambda: None, socket.writer(), protocol=2)  # type: ignore[arg-type]
        for n in range(5):
            outbox.put_message({"n": n})
        await asyncio.sleep(0.01)
        assert not outbox.closed and socket.writes == []  # waiting for the socket
        outbox.put_message({"n": 5})  # a sixth message waiting: too slow
        assert outbox.too_slow and outbox.closed
        await outbox.close()
        assert socket.writes == []

    asyncio.run(scenario())


@needs_421
def test_versions_and_compression_mixed_at_one_table_read_the_same_events(
    shared_server: ServerProcess,
) -> None:
    """Sockets of both versions, compressing or not, at one table: each reads every event
    once, in order, with the same words as the others of its audience (the arrays shared
    by an audience are framed once for the plain sockets, by each compressing one for
    itself)."""
    from _games import assert_seen_in_order_once, event_stream, play_until_over

    async def open_one(name: str, protocol: int, deflate: bool) -> WsClient:
        session = await sign_in_guest(shared_server.url, name)
        client = await WsClient.open(
            shared_server.ws_url, name, protocol, compression="deflate" if deflate else None
        )
        client.token = session["token"]
        assert (await client.hello(session["token"]))["type"] == "welcome"
        assert client.protocol == protocol
        return client

    async def scenario() -> None:
        players = [
            await open_one("Mia", 2, False),
            await open_one("Noé", 2, True),
            await open_one("Oda", 1, True),
        ]
        watchers = [await open_one("Pia", 2, False), await open_one("Quy", 2, True)]
        clients = [*players, *watchers]
        try:
            table = (await players[0].ok("table.create", game="421", seats=3))["table"]["id"]
            for player in players[1:]:
                await player.ok("table.join", table=table)
            for watcher in watchers:
                await watcher.ok("table.watch", table=table)
            await players[0].ok("table.start", table=table)
            for client in clients:
                await wait_for_view(client, table)
            await play_until_over(
                table, players, seed=3, until=lambda: len(players[0].game_events(table)) >= 30
            )
            for client in clients:
                await _quiet(client)
            reference = event_stream(players[0], table)
            assert len(reference) >= 30
            for client in clients:
                assert_seen_in_order_once(client, table)
                assert event_stream(client, table) == reference, client.name
                assert client.schema_violations == [], client.name
            texts = [[m["text"] for m in w.game_events(table)] for w in watchers]
            assert texts[0] == texts[1] and all(texts[0])
            # in version 2 a frame holds a step's messages: fewer frames than messages
            for client in (players[0], *watchers):
                sizes = [len(f) for f in client.frames]
                assert max(sizes) >= 2 and len(client.frames) < len(client.received)
        finally:
            for client in clients:
                await client.close()

    asyncio.run(scenario())
