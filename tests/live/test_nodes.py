"""Three real ``zanzibar serve --redis`` nodes on one private PostgreSQL and Redis.

Started by ``scripts/cluster`` (so the script is tested too), behind its test
proxy. What holds across nodes: health, node liveness, accounts (a token, a
password, a name made on one node work on the others), unique guest names
and ids, the lobby (every node lists every public table, with its players'
presence), and surviving a node's ``kill -9``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _livekit import Cluster, _free_run  # noqa: F401  (other live tests import them from here)
from websockets.sync.client import connect

pytestmark = pytest.mark.live

NODES = 3


def guest(url: str, name: str) -> dict[str, Any]:
    response = httpx.post(url + "api/guest", json={"name": name, "lang": "en"}, timeout=20)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


class Socket:
    """One signed-in WebSocket to one node."""

    def __init__(self, ws: Any, token: str) -> None:
        self.ws = ws
        self.ids = 0
        self.welcome = self.request("hello", token=token)

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.ids += 1
        self.ws.send(json.dumps({"v": 1, "type": kind, "id": self.ids, **fields}))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            message = json.loads(self.ws.recv(timeout=20))
            if message.get("id") == self.ids:
                return message  # type: ignore[no-any-return]
        raise AssertionError(f"no reply to {kind}")


@contextlib.contextmanager
def signed_in(url: str, token: str) -> Iterator[Socket]:
    with connect(url.replace("http://", "ws://") + "ws", open_timeout=20) as ws:
        yield Socket(ws, token)


def test_every_node_is_healthy_and_the_proxy_spreads_over_them(cluster: Cluster) -> None:
    for i in range(1, NODES + 1):
        body = httpx.get(cluster.node(i) + "api/health", timeout=10).json()
        assert (body["status"], body["node"], body["db"], body["redis"]) == (
            "ok",
            f"n{i}",
            "ok",
            "ok",
        )
    seen = {httpx.get(cluster.proxy + "api/health", timeout=10).json()["node"] for _ in range(6)}
    assert seen == {"n1", "n2", "n3"}


def test_each_node_runs_in_a_session_of_its_own(cluster: Cluster) -> None:
    """As PostgreSQL and redis-server do: where the kernel shares CPU time out by session
    (autogroup), the nodes must not split one share with whatever else runs in the session
    that started them (the load bench, a test run). The pid file still names the node."""
    for i in range(1, NODES + 1):
        pid = int((cluster.directory / f"n{i}.pid").read_text())
        assert os.getsid(pid) == pid, f"node {i} shares the session {os.getsid(pid)}"
        assert os.getsid(pid) != os.getsid(0)
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert b"serve" in command and f"n{i}".encode() in command, command


def test_an_account_made_on_one_node_signs_in_on_the_others(cluster: Cluster) -> None:
    made = httpx.post(
        cluster.node(1) + "api/register",
        json={"name": "Régine", "password": "secret-421", "lang": "fr"},
        timeout=20,
    )
    assert made.status_code == 200, made.text
    user = made.json()["user"]
    login = httpx.post(
        cluster.node(2) + "api/login", json={"name": "RÉGINE", "password": "secret-421"}, timeout=20
    )
    assert login.status_code == 200, login.text
    assert login.json()["user"] == user
    # the token from node 1 says hello on node 3
    with signed_in(cluster.node(3), made.json()["token"]) as sock:
        assert sock.welcome["type"] == "welcome"
        assert sock.welcome["user"]["id"] == user["id"]
    taken = httpx.post(
        cluster.node(3) + "api/register",
        json={"name": "R\u00e9gine", "password": "other-secret"},
        timeout=20,
    )
    assert taken.status_code == 409, taken.text


def test_guest_names_and_ids_are_unique_across_nodes(cluster: Cluster) -> None:
    async def all_at_once() -> list[dict[str, Any]]:
        async with httpx.AsyncClient(timeout=30) as http:
            replies = await asyncio.gather(
                *(
                    http.post(cluster.node(1 + i % NODES) + "api/guest", json={"name": "Anna"})
                    for i in range(9)
                )
            )
        return [r.json() for r in replies]

    sessions = asyncio.run(all_at_once())
    names = sorted(s["user"]["name"] for s in sessions)
    assert names == sorted(["Anna", *(f"Anna {n}" for n in range(2, 10))])
    assert len({s["user"]["id"] for s in sessions}) == 9
    # tables made on three nodes get three different ids
    tables = []
    for i in range(1, NODES + 1):
        with signed_in(cluster.node(i), sessions[i]["token"]) as sock:
            reply = sock.request("table.create", game="421", seats=2)
            assert reply["type"] == "ok", reply
            tables.append(reply["table"]["id"])
    assert len(set(tables)) == NODES


def account(url: str, name: str) -> dict[str, Any]:
    response = httpx.post(
        url + "api/register", json={"name": name, "password": "secret-421"}, timeout=20
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_a_private_message_finds_a_user_made_on_another_node(cluster: Cluster) -> None:
    bea = account(cluster.node(1), "Bea")
    carl = account(cluster.node(2), "Carl")
    with signed_in(cluster.node(1), bea["token"]) as sock:
        reply = sock.request("chat.private", to="carl", text="bonjour")
        # found, and kept for him: this node does not see his sockets on the others
        assert reply["type"] == "ok" and reply["kept"] is True, reply
    stats = httpx.get(cluster.node(3) + "api/users/Carl/stats", timeout=10)
    assert stats.status_code == 200 and stats.json()["id"] == carl["user"]["id"]


def test_the_lobby_is_the_same_on_every_node(cluster: Cluster) -> None:
    host = guest(cluster.node(1), "Hélène")
    with signed_in(cluster.node(1), host["token"]) as sock:
        table = sock.request("table.create", game="zilch", seats=3)["table"]["id"]
        hidden = sock.request("table.create", game="421", seats=2, private=True)["table"]["id"]

        def listed(i: int, lang: str) -> dict[int, dict[str, Any]]:
            url = cluster.node(i) + f"api/tables?lang={lang}"
            return {t["id"]: t for t in httpx.get(url, timeout=10).json()["tables"]}

        # the owner's summary reaches the other nodes over Redis within moments
        deadline = time.monotonic() + 5
        while table not in listed(2, "en") and time.monotonic() < deadline:
            time.sleep(0.05)
        first = listed(1, "en")[table]
        assert listed(2, "en")[table] == first
        assert first["seats"][0]["connected"] is True  # the host's socket is on node 1
        assert (first["game"], first["title"], first["host_name"]) == (
            "zilch",
            "Zilch 5000",
            "Hélène",
        )
        assert listed(3, "fr")[table] == first  # (the game's titles are the same in French)
        assert all(hidden not in listed(i, "en") for i in (1, 2, 3))  # private stays hidden
    # the host's socket closed: every node shows his seat as not connected
    deadline = time.monotonic() + 5
    while listed(3, "en")[table]["seats"][0]["connected"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert listed(3, "en")[table]["seats"][0]["connected"] is False


def test_a_killed_node_is_skipped_then_comes_back(cluster: Cluster) -> None:
    before = guest(cluster.node(2), "Dora")
    cluster.run("kill", "2")
    answers = [httpx.get(cluster.proxy + "api/health", timeout=10) for _ in range(4)]
    assert all(a.status_code == 200 for a in answers)
    assert {a.json()["node"] for a in answers} == {"n1", "n3"}
    started = time.monotonic()
    cluster.run("start", "2")  # waits out the dead process's heartbeat, then serves
    assert time.monotonic() - started < 60
    body = httpx.get(cluster.node(2) + "api/health", timeout=10).json()
    assert (body["status"], body["node"]) == ("ok", "n2")
    with signed_in(cluster.node(2), before["token"]) as sock:  # nothing of the account was lost
        assert sock.welcome["user"]["name"] == "Dora"
