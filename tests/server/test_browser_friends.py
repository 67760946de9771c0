"""The Friends panel by keyboard: add a friend, leave a message while they are away, hear them.

Anna (an account) reaches the panel with F, adds Bob by typing his name,
writes to him while he is away (the message is kept, and she hears so), and
hears him come online. Bob signs in and hears the kept message at once; it is
listed in his panel. Everything is done with keys, and axe finds nothing to
fix in the lobby with the panel.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browser_helpers import Player, axe_violations, launch_browser, wait_until

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module."""
    yield from launch_browser()


def register(url: str, name: str) -> None:
    response = httpx.post(
        url + "api/register", json={"name": name, "password": "secret-pass", "lang": "en"}
    )
    response.raise_for_status()


def sign_in(player: Player) -> None:
    """The account form, by keys: name, password, Enter."""
    page = player.page
    page.goto(player.base_url)
    page.wait_for_selector("#account-name")
    page.focus("#account-name")
    page.keyboard.type(player.name)
    player.press("Tab")
    assert page.evaluate("document.activeElement.id") == "account-password"
    page.keyboard.type("secret-pass")
    player.press("Enter")
    player.wait_for_screen("lobby")


def tab_to(player: Player, element_id: str, limit: int = 40) -> None:
    """Press Tab until ``element_id`` has the focus (fails after ``limit`` presses)."""
    for _ in range(limit):
        if (
            player.page.evaluate("document.activeElement && document.activeElement.id")
            == element_id
        ):
            return
        player.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def announced(player: Player, text: str) -> bool:
    return any(text in entry["text"] for entry in player.announcements())


def test_friends_panel_by_keyboard(browser: Any, server: Any) -> None:
    register(server.url, "Anna")
    register(server.url, "Bob")
    anna = Player(browser, server.url, "Anna")
    bob = Player(browser, server.url, "Bob")
    try:
        sign_in(anna)
        page = anna.page
        page.wait_for_selector("#friends-summary >> text=Your friends list is empty.")
        page.focus("#page-title")
        anna.press("f")
        assert page.evaluate("document.activeElement.id") == "friends-heading"
        tab_to(anna, "friend-name")
        page.keyboard.type("bob")
        anna.press("Enter")
        page.wait_for_selector("#friends-list li >> text=Bob is offline.")
        wait_until(lambda: announced(anna, "Bob is now in your friends list."), what="added")

        # "Message" on Bob's line puts the focus in the message field, Bob as recipient
        page.focus("#friends-heading")
        for _ in range(10):
            anna.press("Tab")
            label = page.evaluate("document.activeElement.getAttribute('aria-label')")
            if label == "Send a private message to Bob":
                break
        else:
            raise AssertionError("no Message button for Bob")
        anna.press("Enter")
        assert page.evaluate("document.activeElement.id") == "private-text"
        assert page.input_value("#private-to") == "Bob"
        page.keyboard.type("see you at nine")
        anna.press("Enter")
        wait_until(
            lambda: announced(
                anna,
                "Bob is away: your message is kept and will be delivered when Bob signs in.",
            ),
            what="kept",
        )
        page.wait_for_selector(
            "#private-list li >> text=To Bob: see you at nine (kept until they sign in)"
        )
        assert axe_violations(page, "lobby-friends") == []

        sign_in(bob)
        bob.page.wait_for_selector(
            "#private-list li >> text=While you were away, Anna wrote: see you at nine"
        )
        wait_until(
            lambda: announced(bob, "While you were away, Anna wrote: see you at nine"),
            what="the kept message read to Bob",
        )
        assert bob.page.inner_text("#friends-summary") == "Your friends list is empty."

        wait_until(lambda: announced(anna, "Your friend Bob is online."), what="Bob online")
        page.wait_for_selector("#friends-list li >> text=Bob is online, not at a table.")

        # alerts off by keyboard: Space on the checkbox
        page.focus("#friends-alerts")
        anna.press("Space")
        wait_until(
            lambda: announced(
                anna, "You will no longer hear when friends come online or go offline."
            ),
            what="alerts off",
        )
        # remove by keyboard
        page.focus("#friends-heading")
        for _ in range(12):
            anna.press("Tab")
            label = page.evaluate("document.activeElement.getAttribute('aria-label')")
            if label == "Remove Bob from your friends":
                break
        else:
            raise AssertionError("no Remove button for Bob")
        anna.press("Enter")
        page.wait_for_selector("#friends-summary >> text=Your friends list is empty.")
        assert page.evaluate("document.activeElement.id") == "friends-heading"
        assert anna.errors == [] and bob.errors == []
    finally:
        anna.close()
        bob.close()
