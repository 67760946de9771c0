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
    check_announcements,
    create_table,
    launch_browser,
    press_button,
    screenshot,
    serious_axe_violations,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module."""
    yield from launch_browser()


def choose_keep(view: dict[str, Any]) -> tuple[str, list[int]]:
    """Pick a legal action the way a cautious player would: bank when allowed, else keep the most."""
    legal = view["legal"]
    banks = [a for a in legal if a["type"] == "bank"]
    if banks:
        return "bank", max(banks, key=lambda a: len(a["keep"]))["keep"]
    rolls = [a for a in legal if a["type"] == "roll"]
    best = max(rolls, key=lambda a: len(a["keep"]))
    return "roll", best["keep"]


def play_one_step(player: Player) -> None:
    view = player.view()
    assert view is not None
    before = player.log_length()
    player.focus_body()
    if view["state"]["phase"] == "start":
        player.press("KeyR")
    else:
        kind, keep = choose_keep(view)
        for index in keep:
            player.press(f"Digit{index + 1}")
        # Select a die that is not kept, then take it back with Shift.
        spare = next((i for i in range(len(view["state"]["roll"])) if i not in keep), None)
        if spare is not None:
            player.press(f"Digit{spare + 1}")
            player.press(f"Shift+Digit{spare + 1}")
        selected = player.app("[...app.ui.game.selected].sort()")
        assert selected == sorted(keep)
        player.press("KeyB" if kind == "bank" else "KeyR")
    wait_until(
        lambda: player.log_length() > before or player.game_over() or not player.my_turn(),
        what="the action to be taken",
    )


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
                play_one_step(chloe)
                steps += 1
                if not shot and chloe.my_turn() and chloe.view()["state"]["phase"] == "choose":
                    shot = True
                    screenshot(chloe.page, "table-zilch")
                    assert serious_axe_violations(chloe.page, "table-zilch") == []
            else:
                chloe.page.wait_for_timeout(30)
            assert steps < 1500, "the game does not end"
        assert shot
        screenshot(chloe.page, "table-zilch-over")
        assert check_announcements(chloe, chloe.live(), chloe.announcements()) > 5
        assert chloe.errors == []
    finally:
        chloe.close()
