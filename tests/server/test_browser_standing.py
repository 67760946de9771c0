"""Leaderboards and profiles in the browser, by keyboard only, heard through the live regions.

Two accounts play three rated Zilch games (and one 421 game with a bot) on the salon's
database before the server starts; then Anna signs in, Tabs to "Leaderboards", hears her
rank, reads the captioned table, opens Bruno's profile from his name, comes back to her own
and hides it (Space on the checkbox), in English and in French.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from _server import ServerProcess, start_server
from browser_helpers import Player, axe_violations, launch_browser, settle, wait_until

sys.path.insert(0, str(Path(__file__).parents[1] / "salon"))

from _salonkit import Client, make_salon, play_with_bot_brain

from zanzibar.server.settings import sqlite_url

pytestmark = [pytest.mark.browser]

PASSWORD = "correct horse battery"


async def _prepare(data_dir: Path) -> dict[str, Any]:
    """Accounts and rated games on the database the server will open; their ratings."""
    data_dir.mkdir(parents=True, exist_ok=True)
    salon = make_salon(sqlite_url(data_dir))
    await salon.start()
    try:
        anna = await Client(salon, "Anna").sign_in(
            "en", (await salon.register("Anna", PASSWORD)).token
        )
        bruno = await Client(salon, "Bruno").sign_in(
            "en", (await salon.register("Bruno", PASSWORD)).token
        )
        for host, other in ((anna, bruno), (bruno, anna), (anna, bruno)):
            created = await host.ok("table.create", game="zilch", preset="zilch5000", seats=2)
            table_id = created["table"]["id"]
            await other.ok("table.join", table=table_id)
            await host.ok("table.start", table=table_id)
            await play_with_bot_brain(salon, table_id, {0: host, 1: other})
            await salon.settle()
        created = await anna.ok("table.create", game="421", preset="salon", seats=2)
        table_id = created["table"]["id"]
        await anna.ok("table.add_bot", table=table_id, level="expert")
        await anna.ok("table.start", table=table_id)
        await play_with_bot_brain(salon, table_id, {0: anna})
        await salon.settle()
        await salon.standing.process()
        await salon.register("Gina", PASSWORD)  # plays her first rated game in the browser
        zilch = await salon.standing.leaderboard("zilch")
        return {
            "zilch": {p["name"]: p for p in zilch["players"]},
            "anna": await salon.standing.rating_of(anna.user_id, "zilch"),
            "anna_421": await salon.standing.rating_of(anna.user_id, "421-salon"),
        }
    finally:
        await salon.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch_browser()


@pytest.fixture(scope="module")
def rated(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ServerProcess, dict[str, Any]]]:
    data_dir = Path(tmp_path_factory.mktemp("standing")) / "data"
    # in a thread of its own: Playwright's event loop runs in this one
    with ThreadPoolExecutor(max_workers=1) as pool:
        facts = pool.submit(asyncio.run, _prepare(data_dir)).result()
    process = start_server(data_dir)
    try:
        yield process, facts
    finally:
        process.stop()


def sign_in(player: Player, name: str) -> None:
    page = player.page
    page.goto(player.base_url)
    page.wait_for_selector("#account-name")
    page.focus("#account-name")
    page.keyboard.type(name)
    player.press("Tab")
    assert page.evaluate("document.activeElement.id") == "account-password"
    page.keyboard.type(PASSWORD)
    player.press("Enter")
    player.wait_for_screen("lobby")
    page.wait_for_function("window.__app.games.length > 0")


def tab_to(player: Player, element_id: str, limit: int = 60) -> None:
    """Press Tab until ``element_id`` has the focus (keyboard only, as a person would)."""
    for _ in range(limit):
        if (
            player.page.evaluate("document.activeElement && document.activeElement.id")
            == element_id
        ):
            return
        player.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def polite(player: Player) -> list[str]:
    settle(player)
    return [e["text"] for e in player.live() if e["region"] == "live-polite"]


def table_rows(player: Player, selector: str) -> list[list[str]]:
    rows: list[list[str]] = player.page.evaluate(
        f"[...document.querySelectorAll('{selector} tbody tr')]"
        ".map(tr => [...tr.children].map(c => c.textContent.trim()))"
    )
    return rows


def test_leaderboard_and_profiles_by_keyboard(
    browser: Any, rated: tuple[ServerProcess, dict[str, Any]]
) -> None:
    server, facts = rated
    anna = Player(browser, server.url, "Anna")
    page = anna.page
    try:
        sign_in(anna, "Anna")
        page.focus("#page-title")
        tab_to(anna, "standing-button")
        assert page.inner_text("#standing-button") == "Leaderboards"
        anna.press("Enter")
        anna.wait_for_screen("standing")
        page.wait_for_selector("#board-table")
        # 421, salon rules is the first family: Anna alone, against the expert bot
        mine_421 = facts["anna_421"]
        said = (
            "Leaderboard of 421, salon rules: one rated player."
            f" Your 421, salon rules rating is {mine_421['rating']}, provisional:"
            " rank 1 of 1, after one game."
        )
        try:
            wait_until(lambda: said in polite(anna), what="the 421 rank said")
        except AssertionError:
            raise AssertionError(
                f"{said!r} not in {polite(anna)!r}; errors {anna.errors}"
            ) from None
        assert "Bots play rated games with a fixed rating" in page.inner_text("#board-bots")
        # Zilch 5000: chosen in the select by keyboard
        page.focus("#board-family")
        anna.press("ArrowDown")
        anna.press("ArrowDown")
        page.wait_for_function("window.__app.ui.standing.board.family === 'zilch'")
        zilch = facts["zilch"]
        names = sorted(zilch, key=lambda n: zilch[n]["rank"])
        mine = facts["anna"]
        expected = (
            f"Your Zilch 5000 rating is {mine['rating']}, provisional:"
            f" rank {mine['rank']} of 2, after 3 games."
        )
        wait_until(lambda: any(expected in t for t in polite(anna)), what="the Zilch rank said")
        assert page.inner_text("#board-you") == expected
        caption = page.inner_text("#board-table caption")
        assert caption == (
            "Leaderboard of Zilch 5000: 2 rated players, best first;"
            " a rating is provisional before 10 games."
        )
        headers = page.evaluate(
            "[...document.querySelectorAll('#board-table thead th')]"
            ".map(th => [th.textContent, th.getAttribute('scope')])"
        )
        assert headers == [["Rank", "col"], ["Player", "col"], ["Rating", "col"], ["Games", "col"]]
        assert table_rows(anna, "#board-table") == [
            [str(zilch[n]["rank"]), n, f"{zilch[n]['rating']} (provisional)", "3"] for n in names
        ]
        # Bruno's name opens his profile; the focus goes to its heading
        page.focus("button[aria-label='Profile of Bruno']")
        anna.press("Enter")
        page.wait_for_function("window.__app.ui.standing.profile.user === 'Bruno'")
        assert page.evaluate("document.activeElement.id") == "profile-heading"
        assert page.inner_text("#profile-heading") == "Profile of Bruno"
        bruno = zilch["Bruno"]
        wait_until(
            lambda: any(
                t.startswith("Profile of Bruno.")
                and f"Zilch 5000: {bruno['rating']}, rank {bruno['rank']}, 3 games." in t
                for t in polite(anna)
            ),
            what="Bruno's profile said",
        )
        assert len(table_rows(anna, "#history-zilch")) == 3
        games = table_rows(anna, "#profile-games")
        assert len(games) == 3 and all(row[0].startswith("Game ") for row in games)
        href = page.get_attribute("#profile-games tbody tr:first-child a", "href")
        assert href is not None and href.startswith("/api/games/")
        assert table_rows(anna, "#profile-stats")[0][:2] == ["Zilch 5000", "3"]
        assert page.locator("#profile-hidden").count() == 0  # not Anna's own
        # her own profile, hidden with Space
        page.focus("#my-profile")
        anna.press("Enter")
        page.wait_for_function("window.__app.ui.standing.profile.user === 'Anna'")
        page.focus("#profile-hidden")
        anna.press("Space")
        wait_until(lambda: "Your profile is hidden." in polite(anna), what="hidden said")
        assert page.is_checked("#profile-hidden")
        assert axe_violations(page, "standing") == []
        assert anna.errors == []
        # in French, the same page
        page.select_option("#lang-select", "fr")
        page.wait_for_function("document.documentElement.lang === 'fr'")
        page.wait_for_function(
            "document.getElementById('standing-button').textContent === 'Classements'"
        )
        # the leaderboards stay on screen (the new connection does not send her to
        # the lobby), now in French, with the family chosen before
        page.wait_for_function(
            "document.querySelector('#board-table caption')?.textContent"
            ".startsWith('Classement de Zilch 5000')"
        )
        assert page.evaluate("window.__app.screen") == "standing"
        assert page.evaluate("document.getElementById('board-family').value") == "zilch"
        wait_until(
            lambda: (
                f"Votre cote en Zilch 5000 est de {mine['rating']}, provisoire\u00a0:"
                f" rang {mine['rank']} sur 2, après 3 parties." in page.inner_text("#board-you")
            ),
            what="the French sentence",
        )
        assert page.inner_text("#board-table caption").startswith("Classement de Zilch 5000")
        assert anna.errors == []
    finally:
        anna.close()
    # Bruno: Anna's hidden profile is no longer offered (her name is plain text)
    bruno = Player(browser, server.url, "Bruno")
    page = bruno.page
    try:
        sign_in(bruno, "Bruno")
        page.focus("#standing-button")
        bruno.press("Enter")
        page.wait_for_selector("#board-table")
        page.focus("#board-family")
        bruno.press("ArrowDown")
        bruno.press("ArrowDown")
        page.wait_for_function("window.__app.ui.standing.board.family === 'zilch'")
        page.wait_for_selector("button[aria-label='Profile of Bruno']")
        assert page.locator("button[aria-label='Profile of Anna']").count() == 0
        assert bruno.errors == []
    finally:
        bruno.close()


def _play_421_by_keys(player: Player) -> None:
    """R rolls, K keeps a throw: the human's turns until the game ends."""
    steps = 0
    while not player.game_over():
        if not player.my_turn():
            player.page.wait_for_timeout(30)
            continue
        view = player.view()
        assert view is not None
        before = player.log_length()
        stop = any(a["type"] == "stop" for a in view["legal"])
        rolled = bool(view["state"].get("dice")) and bool(view["state"].get("rolls"))
        player.focus_body()
        player.press("KeyK" if stop and rolled else "KeyR")
        wait_until(
            lambda b=before: player.log_length() > b or player.game_over() or not player.my_turn(),
            what="the 421 action",
        )
        steps += 1
        assert steps < 800, "the game does not end"


def test_a_rated_game_says_the_rating_it_gave(
    browser: Any, rated: tuple[ServerProcess, dict[str, Any]]
) -> None:
    server, _facts = rated
    gina = Player(browser, server.url, "Gina")
    page = gina.page
    try:
        sign_in(gina, "Gina")
        page.select_option("#create-game", "421")
        assert page.is_checked("#create-rated")  # an account's tables are rated by default
        page.fill("#create-bots", "1")
        page.select_option("#create-bot-level", "random")
        page.fill("#create-seats", "2")
        page.focus("#create-submit")
        gina.press("Enter")
        gina.wait_for_screen("table")
        page.wait_for_function("window.__app.table.seats.filter(s => s.bot).length === 1")
        page.focus("#start-button")
        gina.press("Enter")
        page.wait_for_function("window.__app.view !== null")
        _play_421_by_keys(gina)
        mine = httpx.get(
            f"{server.url}api/leaderboard/421-salon",
            headers={"Authorization": f"Bearer {gina.app('app.token')}"},
            timeout=10,
        ).json()["you"]
        assert mine is not None and mine["games"] == 1
        change = mine["rating"] - 1000
        word = "up" if change > 0 else "down"
        said = f"Your 421, salon rules rating: {mine['rating']}, {word} {abs(change)}."
        wait_until(lambda: said in polite(gina), timeout=60, what="the rating the game gave")
        assert gina.errors == []
    finally:
        gina.close()
