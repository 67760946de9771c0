"""Two browser users and a bot play a whole 421 game with the keyboard only.

Against a real ``zanzibar serve``: Anna creates the table from the lobby's
form, Bob joins from the lobby, Anna adds a bot and starts; then every roll,
selection and stop is a key press (R, Digit1..3, Shift+Digit, K, Space, S, T,
D; digits also as an AZERTY keyboard sends them). Early in the game Anna's
socket is dropped (the client reconnects by itself) and Bob reloads the page
(the table resumes). At the end, each user's live
region must have received every item of the table's stream exactly once, in
order, across the drop and the reload.
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
    join_from_lobby,
    launch_browser,
    press_button,
    screenshot,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module."""
    yield from launch_browser()


TOKENS = 8


AZERTY_DIGIT_ROW = {1: "&", 2: "é", 3: '"'}


def azerty_press(player: Player, digit: int, shift: bool) -> None:
    """A key press as a French AZERTY keyboard reports it (key differs, code is the same)."""
    key = str(digit) if shift else AZERTY_DIGIT_ROW[digit]
    player.page.evaluate(
        """([key, code, shift]) => document.activeElement.dispatchEvent(new KeyboardEvent(
            "keydown", {key, code, shiftKey: shift, bubbles: true, cancelable: true}))""",
        [key, f"Digit{digit}", shift],
    )


def wanted_rerolls(dice: list[int]) -> list[int]:
    """Positions to roll again when chasing 4-2-1 (1-based, as the keys are)."""
    keep: set[int] = set()
    for face in (4, 2, 1):
        for index, value in enumerate(dice):
            if value == face and index not in keep:
                keep.add(index)
                break
    return [i + 1 for i in range(3) if i not in keep]


def play_one_step(player: Player) -> None:
    """Act once with keys only, then wait for the server's answer."""
    view = player.view()
    assert view is not None
    state = view["state"]
    before = player.log_length()
    player.focus_body()
    if not state.get("rolls"):
        player.press("KeyR")
    else:
        can_roll = any(a["type"] == "roll" for a in view["legal"])
        rerolls = wanted_rerolls(state["dice"])
        if can_roll and rerolls:
            # As an AZERTY keyboard sends them: "&" with the code of the digit-1 key
            # selects die 1, the digit itself with Shift unselects it.
            azerty_press(player, 1, shift=False)
            assert 0 in player.app("[...app.ui.game.selected]")
            azerty_press(player, 1, shift=True)
            assert 0 not in player.app("[...app.ui.game.selected]")
            # Select one die too many, unselect it with Shift+digit, then roll.
            extra = next((d for d in (1, 2, 3) if d not in rerolls), None)
            for die in rerolls:
                player.press(f"Digit{die}")
            if extra is not None:
                player.press(f"Digit{extra}")
                player.press(f"Shift+Digit{extra}")
            player.press("Space")
            selected = player.app("[...app.ui.game.selected].map((i) => i + 1).sort()")
            assert selected == sorted(rerolls)
            player.press("KeyR")
        else:
            player.press("KeyK")
    wait_until(
        lambda: player.log_length() > before or player.game_over() or not player.my_turn(),
        what=f"{player.name}'s action to be taken",
    )
    # The update redrew the view in place: the focus is where the player left it.
    assert player.page.evaluate("document.activeElement.id") == "game-heading"


def roll_with_the_button(player: Player) -> None:
    """The same action from its button: after the update the focus is still on the button."""
    before = player.log_length()
    player.page.focus("#roll-button")
    player.press("Enter")
    wait_until(lambda: player.log_length() > before, what="the roll from the button")
    player.page.wait_for_timeout(100)
    assert player.page.evaluate("document.activeElement.id") == "roll-button"


def test_two_users_and_a_bot_play_421_by_keyboard(browser: Any, server: Any) -> None:
    anna = Player(browser, server.url, "Anna")
    bob = Player(browser, server.url, "Bob")
    try:
        anna.page.goto(server.url)
        anna.page.wait_for_selector("#guest-name")
        screenshot(anna.page, "signin")
        assert axe_violations(anna.page, "signin") == []
        anna.sign_in_as_guest()
        bob.sign_in_as_guest()
        # the web client speaks protocol 2: a step's messages in one frame
        assert anna.app("app.conn.socket.protocol") == "zanzibar.v2"

        table_id = create_table(anna, "421", 3, {"tokens": TOKENS})
        bob.page.wait_for_selector(f"button[aria-label='Join table {table_id}']")
        screenshot(bob.page, "lobby")
        assert axe_violations(bob.page, "lobby") == []
        join_from_lobby(bob, table_id)

        anna.page.wait_for_function("window.__app.table.seats[1].name === 'Bob'")
        press_button(anna, "#add-bot-button")
        anna.page.wait_for_function("window.__app.table.seats[2].bot !== null")
        screenshot(anna.page, "table-421-waiting")
        press_button(anna, "#start-button")
        for player in (anna, bob):
            player.page.wait_for_function("window.__app.view !== null")

        # The seed's question keys answer through the live region.
        anna.focus_body()
        for key in ("KeyS", "KeyT", "KeyD"):
            count = len(anna.live())
            anna.press(key)
            wait_until(lambda count=count: len(anna.live()) > count, what=f"answer to {key}")

        dropped = reloaded = False
        steps = 0
        while not (anna.game_over() and bob.game_over()):
            acted = False
            for player in (anna, bob):
                if player.my_turn() and steps == 0:
                    roll_with_the_button(player)
                    acted = True
                    steps += 1
                elif player.my_turn():
                    play_one_step(player)
                    acted = True
                    steps += 1
            if steps >= 1 and not dropped:
                dropped = True
                screenshot(anna.page, "table-421-playing")
                assert axe_violations(anna.page, "table-421") == []
                anna.page.evaluate("window.__app.conn.simulateDrop()")
                anna.page.wait_for_function("window.__app.connState === 'open'")
                assert anna.app("app.conn.socket.protocol") == "zanzibar.v2"
            if steps >= 2 and not reloaded:
                reloaded = True
                bob.page.reload()
                bob.wait_for_screen("table")
                bob.page.wait_for_function("window.__app.view !== null")
                assert bob.my_seat() == 1, "Bob is back in his seat after the reload"
            if not acted:
                anna.page.wait_for_timeout(30)
            assert steps < 2000, "the game does not end"
        assert dropped and reloaded, "the game ended before the drop and the reload"
        screenshot(anna.page, "table-421-over")

        count = check_announcements(anna, anna.live(), anna.announcements())
        check_announcements(bob, bob.live(), bob.announcements())
        assert count > 10
        # Both saw the same stream (each in their own words).
        assert [i["seq"] for i in anna.items()] == [i["seq"] for i in bob.items()]
        assert any(entry["region"] == "live-assertive" for entry in anna.live())
        assert anna.errors == [] and bob.errors == []
    finally:
        anna.close()
        bob.close()
