"""Reloading the page mid-game: the table resumes where it was.

Eve plays Zilch against a bot while Dan watches from the lobby's Watch
button. Before the start Eve changes an option from the host controls. Mid
game Eve reloads: she is back in her seat with the dice, the scores and the
whole history, nothing already announced is read again and nothing is
missed; she then goes on playing. Dan, a spectator, sees every item once.
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
    play_zilch_step,
    press_button,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module."""
    yield from launch_browser()


def test_reload_mid_game_resumes_the_table(browser: Any, server: Any) -> None:
    eve = Player(browser, server.url, "Eve")
    dan = Player(browser, server.url, "Dan")
    try:
        eve.sign_in_as_guest()
        dan.sign_in_as_guest()
        table_id = create_table(eve, "zilch", 2, {"target": 5000})

        # The host changes an option before the start (host controls, by keyboard).
        eve.page.click("#options-editor summary")
        eve.page.fill("#table-opt-target", "3000")
        eve.page.focus("#save-options")
        eve.press("Enter")
        eve.page.wait_for_function("window.__app.table.options.target === 3000")

        dan.page.wait_for_selector(f"button[aria-label='Watch table {table_id}']")
        dan.page.focus(f"button[aria-label='Watch table {table_id}']")
        dan.press("Enter")
        dan.wait_for_screen("table")
        assert dan.app("app.table.you.spectator") is True

        press_button(eve, "#add-bot-button")
        eve.page.wait_for_function("window.__app.table.seats[1].bot !== null")
        press_button(eve, "#start-button")
        eve.page.wait_for_function("window.__app.view !== null")
        # After Start the focus goes to the game, not to the top of the page.
        assert eve.page.evaluate("document.activeElement.id") == "game-heading"

        for _ in range(2):
            wait_until(lambda: eve.my_turn() or eve.game_over(), what="Eve's turn")
            if eve.game_over():
                break
            play_zilch_step(eve)
        assert not eve.game_over(), "the game ended too soon for this test"

        before_items = eve.items()
        eve.page.reload()
        eve.wait_for_screen("table")
        eve.page.wait_for_function("window.__app.view !== null")
        assert eve.my_seat() == 0
        assert eve.app("app.table.you.spectator") is False
        # The history is back in full, each item once, in order.
        wait_until(lambda: len(eve.items()) >= len(before_items), what="the history")
        assert [i["seq"] for i in eve.items()[: len(before_items)]] == [
            i["seq"] for i in before_items
        ]
        assert len(eve.page.locator("#history-list li").all()) == len(eve.items())
        # What Eve sees again is the game as it stands (the spectator sees it live).
        same = "JSON.stringify(app.view.state)"
        wait_until(lambda: eve.app(same) == dan.app(same), what="Eve's view to match the game")

        # Play on to the end; the announcements before and after the reload join up exactly.
        steps = 0
        while not eve.game_over():
            if eve.my_turn():
                play_zilch_step(eve)
                steps += 1
            else:
                eve.page.wait_for_timeout(30)
            assert steps < 1500
        check_announcements(eve, eve.live(), eve.announcements())

        dan.page.wait_for_function("window.__app.view && window.__app.view.over")
        assert dan.app("app.view.legal.length") == 0
        wait_until(lambda: len(dan.items()) == len(eve.items()), what="Dan's history")
        assert check_announcements(dan, dan.live(), dan.announcements()) == len(eve.items())
        assert eve.errors == [] and dan.errors == []
    finally:
        eve.close()
        dan.close()


def test_server_restart_mid_game_the_page_reconnects_and_resumes(browser: Any, server: Any) -> None:
    """The salon is killed (SIGKILL) and started again: the page comes back by itself."""
    fay = Player(browser, server.url, "Fay")
    restarted = None
    try:
        fay.sign_in_as_guest()
        create_table(fay, "zilch", 2, {"target": 3000})
        press_button(fay, "#add-bot-button")
        fay.page.wait_for_function("window.__app.table.seats[1].bot !== null")
        press_button(fay, "#start-button")
        fay.page.wait_for_function("window.__app.view !== null")
        for _ in range(2):
            wait_until(lambda: fay.my_turn() or fay.game_over(), what="Fay's turn")
            play_zilch_step(fay)
        seen = len(fay.items())
        views = fay.app("app.viewsReceived")

        server.kill()
        fay.page.wait_for_function("window.__app.connState === 'reconnecting'")
        restarted = server.restart()
        fay.page.wait_for_function("window.__app.connState === 'open'", timeout=30_000)
        # The table is followed again: a fresh view of the restored game arrives.
        wait_until(lambda: fay.app("app.viewsReceived") > views, what="the restored game's view")
        wait_until(lambda: fay.my_turn() or fay.game_over(), what="the game to resume")
        assert len(fay.items()) >= seen

        steps = 0
        while not fay.game_over():
            if fay.my_turn():
                play_zilch_step(fay)
                steps += 1
            else:
                fay.page.wait_for_timeout(30)
            assert steps < 1500
        check_announcements(fay, fay.live(), fay.announcements())
        assert fay.errors == []
    finally:
        fay.close()
        if restarted is not None:
            restarted.stop()
