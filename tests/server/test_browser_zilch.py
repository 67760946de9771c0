"""A Zilch game in the browser: one user against a bot, with the keyboard.

The user sets scoring dice aside with the digit keys (Shift+digit takes one
back), rolls the rest with R and banks with X, until the game ends. The live
region gets every item of the table's stream once, in order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import (
    Player,
    axe_violations,
    check_announcements,
    create_table,
    launch_browser,
    play_zilch_step,
    press_button,
    screenshot,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module."""
    yield from launch_browser()


def test_zilch_game_in_the_browser(browser: Any, server: Any) -> None:
    chloe = Player(browser, server.url, "Chloé", lang="fr")
    try:
        chloe.sign_in_as_guest()
        assert chloe.page.evaluate("document.documentElement.lang") == "fr"
        create_table(chloe, "zilch", 2, {"target": 1000, "entry": 300, "minimum": 0})
        press_button(chloe, "#add-bot-button")
        chloe.page.wait_for_function("window.__app.table.seats[1].bot !== null")
        press_button(chloe, "#start-button")
        chloe.page.wait_for_function("window.__app.view !== null")

        # F1: help for this screen (the client's keys and the game's own); Escape closes it
        # and the focus comes back. Ctrl+F1: the rules in force, from the server.
        chloe.focus_body()
        chloe.press("F1")
        chloe.page.wait_for_selector("#dialog[open]")
        chloe.page.wait_for_function(
            "document.getElementById('dialog-body').innerText.includes('Zilch')"
        )
        assert "Maj+1" in chloe.page.inner_text("#dialog-body")
        chloe.press("Escape")
        chloe.page.wait_for_selector("#dialog:not([open])", state="attached")
        assert chloe.page.evaluate("document.activeElement.id") == "game-heading"
        chloe.press("Control+F1")
        chloe.page.wait_for_selector("#rules-text")
        assert "5000" in chloe.page.inner_text("#rules-text") or "1000" in chloe.page.inner_text(
            "#rules-text"
        )
        chloe.press("Escape")
        steps = 0
        shot = False
        while not chloe.game_over():
            if chloe.my_turn():
                play_zilch_step(chloe)
                steps += 1
                if not shot and chloe.my_turn() and chloe.view()["state"]["phase"] == "choose":
                    shot = True
                    screenshot(chloe.page, "table-zilch")
                    assert axe_violations(chloe.page, "table-zilch") == []
            else:
                chloe.page.wait_for_timeout(30)
            assert steps < 1500, "the game does not end"
        assert shot
        screenshot(chloe.page, "table-zilch-over")
        assert check_announcements(chloe, chloe.live(), chloe.announcements()) > 5
        assert chloe.errors == []
    finally:
        chloe.close()
