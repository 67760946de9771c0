"""Signing in with an account, and the lobby's create form, in the browser.

A person registers, signs out, fails to log in with a wrong password (the
error is shown and announced), then logs in. The create form shows, for each
game the salon offers, every option labelled by its description as the server
gives it (``GET /api/games``), in English and in French; F1 gives the
lobby's help.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browser_helpers import (
    Player,
    create_table,
    join_from_lobby,
    launch_browser,
    screenshot,
    wait_until,
)

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module."""
    yield from launch_browser()


def test_account_sign_in_and_create_form(browser: Any, server: Any) -> None:
    greta = Player(browser, server.url, "Greta")
    page = greta.page
    try:
        page.goto(server.url)
        page.fill("#account-name", "Greta")
        page.fill("#account-password", "secret-pass")
        page.focus("#register-submit")
        greta.press("Enter")
        greta.wait_for_screen("lobby")
        assert greta.app("app.user.guest") is False
        page.click("#signout-button")
        greta.wait_for_screen("signin")
        assert page.evaluate("localStorage.getItem('zanzibar.token')") is None

        page.fill("#account-name", "Greta")
        page.fill("#account-password", "wrong-pass")
        greta.press("Enter")
        page.wait_for_selector("#signin-error[role='alert']")
        assert greta.app("app.screen") == "signin"
        page.fill("#account-password", "secret-pass")
        page.focus("#account-password")
        greta.press("Enter")
        greta.wait_for_screen("lobby")
        page.wait_for_function("window.__app.games.length > 0")

        # F1 in the lobby: the help of this screen; the focus comes back after Escape.
        page.focus("#create-game")
        greta.press("F1")
        page.wait_for_selector("#dialog[open]")
        assert "create" in page.inner_text("#dialog-body").lower()
        greta.press("Escape")
        assert page.evaluate("document.activeElement.id") == "create-game"

        for lang in ("en", "fr"):
            page.select_option("#lang-select", lang)
            page.wait_for_function(f"document.documentElement.lang === '{lang}'")
            page.wait_for_function(
                "window.__app.screen === 'lobby' && window.__app.games.length > 0"
            )
            games = httpx.get(server.url + f"api/games?lang={lang}").json()["games"]
            assert {"421", "zilch", "zanzibar-s"} <= {g["name"] for g in games}
            for game in games:
                page.select_option("#create-game", game["name"])
                page.wait_for_selector(f"#create-game >> text={game['title']}", state="attached")
                for spec in game["options"]:
                    control = page.locator(f"#opt-{spec['name']}")
                    assert control.count() == 1, spec["name"]
                    # Labelled in words; the hint gives its description and default, and
                    # neither shows internal names or the research's seed references.
                    label = page.inner_text(f"label[for='opt-{spec['name']}']")
                    hint = page.inner_text(f"#{control.get_attribute('aria-describedby')}")
                    assert label.strip() and "_" not in label, (spec["name"], label)
                    assert spec["description"][:12] in hint, (spec["name"], hint)
                    assert not re.search(r"(seeds?|graines?) \d", label + hint), hint
                    assert spec["name"] not in hint or "_" not in spec["name"], hint
                preset_text = page.inner_text("#create-form")
                assert not re.search(r"(seeds?|graines?) \d", preset_text), preset_text
            screenshot(page, f"lobby-create-{lang}")

        # Speech mode: announcements go to the browser's speech synthesis instead of the
        # live region (some screen readers drop messages that arrive together).
        page.evaluate(
            """() => { window.__spoken = [];
                speechSynthesis.speak = (u) => window.__spoken.push(u.text); }"""
        )
        page.click("#settings-button")
        page.check("#set-speech")
        page.check("#set-sound")
        page.fill("#set-volume", "30")
        greta.press("Escape")
        live_before = len(greta.live())
        page.fill("#invite-input", "not a link")
        page.focus("#invite-input")
        greta.press("Enter")
        page.wait_for_function("window.__spoken.length > 0")
        assert page.evaluate("window.__spoken[0]") == page.evaluate(
            "window.__announcements[window.__announcements.length - 1].text"
        )
        assert len(greta.live()) == live_before
        assert page.evaluate("JSON.parse(localStorage.getItem('zanzibar.settings')).volume") == 30
        assert greta.errors == []
    finally:
        greta.close()


def test_host_hands_over_and_the_new_host_kicks(browser: Any, server: Any) -> None:
    """Host controls by keyboard: "Make host", then the new host's "Kick"."""
    hana = Player(browser, server.url, "Hana")
    ivan = Player(browser, server.url, "Ivan")
    try:
        hana.sign_in_as_guest()
        ivan.sign_in_as_guest()
        table_id = create_table(hana, "421", 3, {})
        join_from_lobby(ivan, table_id)
        hana.page.wait_for_function("window.__app.table.seats[1].name === 'Ivan'")

        # Chat: an action with /me, a private message with /msg; the history's chat channel.
        hana.page.focus("#chat-input")
        hana.page.keyboard.type("/me waves")
        hana.press("Enter")
        ivan.page.focus("#chat-input")
        ivan.page.keyboard.type("/msg Hana see you")
        ivan.press("Enter")
        wait_until(lambda: any(e["text"] == "* Hana waves" for e in ivan.live()), what="/me")
        wait_until(
            lambda: any("see you" in e["text"] and "Ivan" in e["text"] for e in hana.live()),
            what="the private message",
        )
        hana.page.focus("button[data-key='channel-chat']")
        hana.press("Enter")
        shown = hana.page.locator("#history-list li").all_inner_texts()
        assert shown and all("[Chat]" in line for line in shown), shown

        # The host changes the number of seats and an option back to its default.
        hana.page.click("#options-editor summary")
        hana.page.fill("#table-seats", "4")
        hana.page.fill("#table-opt-tokens", "11")
        hana.page.focus("#save-options")
        hana.press("Enter")
        hana.page.wait_for_function("window.__app.table.seats.length === 4")
        hana.page.wait_for_function("window.__app.table.options.tokens === 11")
        hana.page.fill("#table-opt-tokens", "21")
        hana.page.focus("#save-options")
        hana.press("Enter")
        hana.page.wait_for_function("window.__app.table.options.tokens === 21")

        hana.page.focus("button[aria-label='Make Ivan host']")
        hana.press("Enter")
        ivan.page.wait_for_selector("#start-button")
        assert ivan.app("app.table.you.host") is True
        hana.page.wait_for_selector("#host-controls", state="detached")
        # The focused button went away with the host controls: the focus moved to the
        # heading of its section, not to the top of the page.
        assert hana.page.evaluate("document.activeElement.id") == "seats-heading"

        ivan.page.focus("button[aria-label='Kick Hana']")
        ivan.press("Enter")
        hana.wait_for_screen("lobby")
        assert any(e["text"] == "You are no longer at this table." for e in hana.live())
        ivan.page.wait_for_function("window.__app.table.seats.every((s) => s.name !== 'Hana')")
        assert hana.errors == [] and ivan.errors == []
    finally:
        hana.close()
        ivan.close()
