"""Swiss tournaments over the real transport: the WebSocket messages (checked against
their schemas), the HTTP API (``GET /api/tournaments``, ``/api/tournaments/{id}``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from _server import ServerProcess, start_server
from _wsclient import WsClient

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def salon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = start_server(Path(tmp_path_factory.mktemp("swiss-api")) / "data")
    try:
        yield process
    finally:
        process.stop()


async def test_a_bot_tournament_over_the_wire_and_the_http_api(salon: ServerProcess) -> None:
    host = await WsClient.guest(salon.url, "Organiser")
    anna = await WsClient.guest(salon.url, "Anna", lang="fr")
    try:
        refused = await host.request("tournament.create", game="zilch", rounds="three")
        assert refused["type"] == "error" and refused["code"] == "invalid"
        refused = await host.request("tournament.create", game="zilch", rounds=2, surprise=1)
        assert refused["type"] == "error" and refused["code"] == "invalid"
        created = await host.ok(
            "tournament.create",
            game="zilch",
            options={"target": 500, "entry": 0, "minimum": 0},
            rounds=2,
            max_players=4,
            name="Wire Swiss",
        )
        tid = created["tournament"]["id"]
        await anna.ok("tournament.register", tournament=tid)
        for _ in range(3):
            await host.ok("tournament.add_bot", tournament=tid)
        # Anna is told where to go; she never goes: a bot plays for her, she forfeits
        going = await anna.wait_for(lambda m: m["type"] == "tournament.table", timeout=30)
        assert going["text"].startswith("Wire Swiss, ronde 1\u00a0: votre table est la numéro")
        done = await anna.wait_for(lambda m: m["type"] == "tournament.finished", timeout=120)
        assert done["text"].startswith("Le tournoi Wire Swiss est fini.")
        standings = anna.of_type("tournament.standings")
        assert [m["round"] for m in standings] == [1, 2]
        assert "Classement après la ronde 2 sur 2\u00a0:" in standings[-1]["text"]
        assert anna.schema_violations == [] and host.schema_violations == []

        listed = httpx.get(salon.url + "api/tournaments", timeout=10).json()["tournaments"]
        assert [(t["id"], t["state"], t["players"], t["round"]) for t in listed] == [
            (tid, "finished", 4, 2)
        ]
        shown = httpx.get(salon.url + f"api/tournaments/{tid}", timeout=10).json()
        assert [len(r["boards"]) for r in shown["rounds_played"]] == [2, 2]
        lines = {s["name"]: s for s in shown["standings"]}
        assert lines["Anna"]["points"] == 0.0  # absent both rounds: two forfeits
        assert sum(s["points"] for s in shown["standings"]) == 4.0
        assert [s["rank"] for s in shown["standings"]] == sorted(
            s["rank"] for s in shown["standings"]
        )
        missing = httpx.get(salon.url + "api/tournaments/999?lang=fr", timeout=10)
        assert missing.status_code == 404
        assert missing.json()["message"] == "il n’y a pas de tournoi 999"
        assert httpx.get(salon.url + "api/tournaments/abc", timeout=10).status_code == 404
    finally:
        await host.close()
        await anna.close()
