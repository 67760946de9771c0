"""A Swiss tournament in the browser: register by keyboard, go to the table the
salon opened, play round one there by keys, hear the results and read the standings."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from _wsclient import WsClient
from browser_helpers import (
    Player,
    axe_violations,
    launch_browser,
    play_zilch_step,
    settle,
    wait_until,
)

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module."""
    yield from launch_browser()


async def _open_tournament(url: str) -> int:
    """A host opens a one-round Zilch tournament for two and registers a bot."""
    host = await WsClient.guest(url, "Organiser")
    try:
        reply = await host.ok(
            "tournament.create",
            game="zilch",
            options={"target": 1000, "entry": 300, "minimum": 0},
            rounds=1,
            max_players=2,
            name="Evening Swiss",
        )
        tid: int = reply["tournament"]["id"]
        await host.ok("tournament.add_bot", tournament=tid)
        return tid
    finally:
        await host.close()


def test_register_and_play_round_one_by_keyboard(browser: Any, server: Any) -> None:
    # Playwright's sync API holds this thread's event loop: the host talks from another thread
    with ThreadPoolExecutor(1) as pool:
        tid = pool.submit(asyncio.run, _open_tournament(server.url)).result()
    dana = Player(browser, server.url, "Dana")
    try:
        dana.sign_in_as_guest()
        page = dana.page
        page.wait_for_selector("#tournaments-list")
        # From the lobby's Tournaments heading, Tab reaches the Register button.
        page.focus("#tournaments-heading")
        dana.press("Tab")
        label = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert label == "Register for Evening Swiss"
        dana.press("Enter")
        # Full with two: the tournament starts, the salon opens the table and says where.
        page.wait_for_selector("#tournament-go")
        wait_until(
            lambda: any(
                t.startswith("Evening Swiss, round 1: your table is number")
                for t in (e["text"] for e in dana.live())
            ),
            what="where to go said",
        )
        table = dana.app("app.ui.tournaments.goTo.table")
        assert page.inner_text("#tournament-go") == f"Go to your table {table} (round 1)"
        page.focus("#tournament-go")
        dana.press("Enter")
        dana.wait_for_screen("table")
        assert dana.app("app.tableId") == table
        page.wait_for_function("window.__app.view !== null")
        steps = 0
        while not dana.game_over():
            if dana.my_turn():
                play_zilch_step(dana)
                steps += 1
            else:
                page.wait_for_timeout(30)
            assert steps < 1500, "the game does not end"
        # The round's results and the final standings are read out.
        wait_until(
            lambda: any("The tournament Evening Swiss is over." in e["text"] for e in dana.live()),
            what="the end said",
        )
        settle(dana)
        said = [e["text"] for e in dana.live()]
        assert any("Standings after round 1 of 1:" in t and "Buchholz" in t for t in said)
        # Back in the lobby, the standings table has a caption and headers.
        press = page.locator("#lobby-button")
        if press.count():
            page.focus("#lobby-button")
            dana.press("Enter")
            dana.wait_for_screen("lobby")
        else:
            dana.app("app.toLobby()")
            dana.wait_for_screen("lobby")
        page.wait_for_selector("button[aria-label='Standings of Evening Swiss']")
        page.focus("button[aria-label='Standings of Evening Swiss']")
        dana.press("Enter")
        page.wait_for_selector("#standings-table caption")
        caption = page.inner_text("#standings-table caption")
        assert caption == "Evening Swiss: standings after round 1 of 1"
        headers = page.eval_on_selector_all(
            "#standings-table thead th", "e => e.map(x => x.textContent)"
        )
        assert headers == [
            "Rank",
            "Player",
            "Points",
            "Buchholz",
            "Buchholz cut 1",
            "Sonneborn-Berger",
        ]
        rows = page.eval_on_selector_all(
            "#standings-table tbody tr", "e => e.map(r => r.querySelector('th').textContent)"
        )
        assert sorted(rows) == sorted(["Dana", "Bot 1 (expected score)"])
        assert page.evaluate("document.activeElement.id") == "standings-heading"
        assert axe_violations(page, "lobby-tournaments") == []
        assert tid >= 1
        assert dana.errors == []
    finally:
        dana.close()
