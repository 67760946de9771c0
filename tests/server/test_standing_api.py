"""HTTP API of standing: leaderboards, profiles and hiding one's profile, on a real salon."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator

sys.path.insert(0, str(Path(__file__).parents[1] / "salon"))

from _salonkit import Client, make_salon, play_with_bot_brain

from zanzibar.salon import Salon
from zanzibar.salon.ratings import display
from zanzibar.server import openapi
from zanzibar.server.app import create_app

pytestmark = pytest.mark.anyio

WINNER = (27.635389493140497, 8.06590141354368)
LOSER = (22.364610506859503, 8.06590141354368)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def salon(tmp_path: Path) -> AsyncIterator[Salon]:
    s = make_salon(tmp_path / "salon.sqlite3")
    await s.start()
    yield s
    await s.stop()


@pytest.fixture
async def http(salon: Salon) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_app(salon))
    async with httpx.AsyncClient(transport=transport, base_url="http://salon") as client:
        yield client


async def account(salon: Salon, name: str) -> Client:
    session = await salon.register(name, "correct horse battery")
    return await Client(salon, name).sign_in("en", session.token)


async def zilch_game(salon: Salon, host: Client, other: Client) -> tuple[int, Client, Client]:
    created = await host.ok("table.create", game="zilch", preset="zilch5000", seats=2)
    table_id = created["table"]["id"]
    await other.ok("table.join", table=table_id)
    started = await host.ok("table.start", table=table_id)
    await play_with_bot_brain(salon, table_id, {0: host, 1: other})
    await salon.settle()
    await salon.standing.process()
    winner_seat = (
        salon.tables[table_id].rules.outcome(salon.tables[table_id].match.state).winners[0]
    )  # type: ignore[union-attr]
    winner = [host, other][winner_seat]
    return int(started["game_id"]), winner, (other if winner is host else host)


def check(path: str, method: str, status: int, body: Any) -> None:
    """The body matches the OpenAPI document's schema for that answer."""
    schema = openapi.response_schema(path, method, status)
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(body)]
    assert errors == [], f"{method.upper()} {path} {status}: {errors}"


def bearer(client: Client) -> dict[str, str]:
    return {"Authorization": f"Bearer {client.token}"}


async def test_leaderboard_pages_ranks_and_the_callers_place(
    salon: Salon, http: httpx.AsyncClient
) -> None:
    anna, bruno = await account(salon, "Anna"), await account(salon, "Bruno")
    _game, winner, loser = await zilch_game(salon, anna, bruno)
    families = (await http.get("/api/leaderboard?lang=fr")).json()
    assert [f["family"] for f in families["families"]] == [
        "421-salon",
        "421-bar",
        "zilch",
        "zanzibar-s",
        "chess",
    ]
    assert families["families"][0]["title"] == "421, règles du salon"
    assert families["provisional_games"] == 10
    check("/api/leaderboard", "get", 200, families)
    board = (await http.get("/api/leaderboard/zilch", headers=bearer(loser))).json()
    assert [
        (p["rank"], p["name"], p["rating"], p["games"], p["provisional"]) for p in board["players"]
    ] == [
        (1, winner.name, display(*WINNER), 1, True),
        (2, loser.name, display(*LOSER), 1, True),
    ]
    assert board["you"]["rank"] == 2 and board["you"]["rating"] == display(*LOSER)
    check("/api/leaderboard/{family}", "get", 200, board)
    assert board["total"] == 2 and board["next"] is None
    assert board["title"] == "Zilch 5000"
    assert [b["level"] for b in board["bots"]] == ["optimal", "expected", "simple"]
    first = (await http.get("/api/leaderboard/zilch?limit=1")).json()
    assert [p["name"] for p in first["players"]] == [winner.name]
    assert first["next"] == 1 and first["you"] is None
    second = (await http.get("/api/leaderboard/zilch?limit=1&cursor=1")).json()
    assert [p["name"] for p in second["players"]] == [loser.name]
    empty = (await http.get("/api/leaderboard/chess")).json()
    assert empty["players"] == [] and empty["total"] == 0


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/leaderboard/shako", 404, "not_found"),
        ("/api/leaderboard/zilch?limit=0", 400, "invalid"),
        ("/api/leaderboard/zilch?limit=101", 400, "invalid"),
        ("/api/leaderboard/zilch?cursor=-1", 400, "invalid"),
        ("/api/leaderboard/zilch?cursor=abc", 400, "invalid"),
        ("/api/profile/Anna", 401, "unauthenticated"),
    ],
)
async def test_bad_requests_are_refused_clearly(
    http: httpx.AsyncClient, path: str, status: int, code: str
) -> None:
    response = await http.get(path)
    assert response.status_code == status
    assert response.json()["code"] == code
    assert response.json()["message"]


async def test_profile_shows_ratings_history_games_and_stats_and_can_be_hidden(
    salon: Salon, http: httpx.AsyncClient
) -> None:
    anna, bruno = await account(salon, "Anna"), await account(salon, "Bruno")
    game_id, winner, loser = await zilch_game(salon, anna, bruno)
    seen = await http.get(f"/api/profile/{winner.name.upper()}", headers=bearer(loser))
    assert seen.status_code == 200
    body = seen.json()
    check("/api/profile/{name}", "get", 200, body)
    assert body["user"] == winner.name and body["hidden"] is False
    (rating,) = body["ratings"]
    assert rating["family"] == "zilch" and rating["title"] == "Zilch 5000"
    assert rating["rating"] == display(*WINNER) and rating["rank"] == 1
    assert [(h["game"], h["rating"], h["change"], h["place"]) for h in rating["history"]] == [
        (game_id, display(*WINNER), display(*WINNER) - 1000, 1)
    ]
    (game,) = body["games"]
    assert game["id"] == game_id and game["replay"] == f"/api/games/{game_id}"
    assert game["result"] == "won" and game["family"] == "zilch" and game["place"] == 1
    assert body["stats"] == {"zilch": {"played": 1, "won": 1, "lost": 0, "draw": 0}}
    assert (await http.get(game["replay"])).json()["status"] == "finished"
    # hidden: others get the 404 of an unknown name, the owner still sees it
    hide = await http.put("/api/profile/settings", json={"hidden": True}, headers=bearer(winner))
    assert hide.status_code == 200 and hide.json() == {"hidden": True}
    hidden = await http.get(f"/api/profile/{winner.name}", headers=bearer(loser))
    unknown = await http.get("/api/profile/Nobody", headers=bearer(loser))
    assert hidden.status_code == unknown.status_code == 404
    assert hidden.json()["code"] == unknown.json()["code"] == "not_found"
    check("/api/profile/{name}", "get", 404, hidden.json())
    check("/api/profile/settings", "put", 200, hide.json())
    own = await http.get(f"/api/profile/{winner.name}", headers=bearer(winner))
    assert own.status_code == 200 and own.json()["hidden"] is True
    board = (await http.get("/api/leaderboard/zilch")).json()
    assert [p["profile"] for p in board["players"]] == [False, True]
    shown = await http.put("/api/profile/settings", json={"hidden": False}, headers=bearer(winner))
    assert shown.json() == {"hidden": False}
    assert (await http.get(f"/api/profile/{winner.name}", headers=bearer(loser))).status_code == 200


async def test_profile_settings_refusals(salon: Salon, http: httpx.AsyncClient) -> None:
    anna = await account(salon, "Anna")
    gus = await Client(salon, "Gus").sign_in("en")
    assert (await http.put("/api/profile/settings", json={"hidden": True})).status_code == 401
    refused = await http.put("/api/profile/settings", json={"hidden": True}, headers=bearer(gus))
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    for bad in ({"hidden": "yes"}, {"hidden": True, "x": 1}, [], {}):
        response = await http.put("/api/profile/settings", json=bad, headers=bearer(anna))
        assert response.status_code == 400 and response.json()["code"] == "invalid"
    garbage = await http.put("/api/profile/settings", content=b"{", headers=bearer(anna))
    assert garbage.status_code == 400
    wrong = await http.get("/api/profile/Anna", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    guest_profile = await http.get("/api/profile/Gus", headers=bearer(anna))
    assert guest_profile.status_code == 404
    assert not await salon.standing.hidden(anna.user_id)
