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
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from _services import free_port, postgres_bindir, unavailable

pytestmark = pytest.mark.live

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "cluster"
NODES = 3


@dataclass
class Cluster:
    directory: Path
    base: int
    env: dict[str, str]

    def node(self, i: int) -> str:
        return f"http://127.0.0.1:{self.base + i}/"

    @property
    def proxy(self) -> str:
        return f"http://127.0.0.1:{self.base}/"

    def run(self, *args: str, timeout: float = 90) -> str:
        done = subprocess.run(
            [str(SCRIPT), *args], env=self.env, capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            logs = "".join(
                f"\n--- {p.name}\n{p.read_text(errors='replace')[-1500:]}"
                for p in sorted(self.directory.glob("*.log"))
            )
            raise AssertionError(f"scripts/cluster {' '.join(args)}: {done.stderr}{logs}")
        return done.stdout


def _free_run(count: int) -> int:
    """A port p such that p .. p + count - 1 are all free now."""
    for _ in range(50):
        base = free_port()
        if base + count > 65535:
            continue
        try:
            for port in range(base, base + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no run of free ports")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    if postgres_bindir() is None:
        unavailable("PostgreSQL is not installed (no initdb)")
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        unavailable("redis-server is not installed")
    directory = Path(tempfile.mkdtemp(prefix="zanzibar-cluster-"))
    directory.chmod(0o755)  # as root, PostgreSQL runs as postgres and must reach its data
    base = _free_run(NODES + 1)
    env = {
        **os.environ,
        "ZANZIBAR_CLUSTER_DIR": str(directory / "c"),
        "ZANZIBAR_NODE_PORT": str(base),
        "ZANZIBAR_PG_PORT": str(free_port()),
        "ZANZIBAR_REDIS_PORT": str(free_port()),
        "ZANZIBAR_PG_FAST": "1",
        "ZANZIBAR_PYTHON": sys.executable,
        "ZANZIBAR_NODE_ARGS": "--bot-delay 0 --drain 0.2",
    }
    made = Cluster(directory / "c", base, env)
    try:
        made.run("up", str(NODES), timeout=150)
        yield made
    finally:
        made.run("down", timeout=60)
        shutil.rmtree(directory, ignore_errors=True)


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
