"""Helpers for the browser tests: Debian's Chromium driven by Playwright.

The tests run against a real ``zanzibar serve`` (``conftest.py`` starts it).
Chromium is never downloaded: the tests use ``/usr/bin/chromium``. When it is
missing they skip, unless ``ZANZIBAR_REQUIRE_BROWSER`` is set (CI sets it),
in which case they fail.

What a page announces is recorded twice: the client's own log
(``window.__announcements``) and, independently, a MutationObserver injected
before any page script runs, which writes down every paragraph added to the
two live regions (``window.__live``). Tests check the latter: it is what a
screen reader is given. Both records live in the tab's sessionStorage, so
they span reloads.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
AXE_REPORTS = REPO / "test-artifacts" / "axe"

#: Injected before the page's own scripts: record what reaches the live regions, and what
#: the client announced. Both records are kept in the tab's sessionStorage at every step,
#: so they run on across a reload exactly as the client's own memory of what it said does.
LIVE_RECORDER = """
(() => {
  const keep = (key, fallback) => {
    const list = JSON.parse(sessionStorage.getItem(key) || "[]");
    const push = Array.prototype.push;
    list.push = function (...items) {
      const count = push.apply(this, items);
      sessionStorage.setItem(key, JSON.stringify(this));
      return count;
    };
    return list;
  };
  window.__live = keep("__test_live");
  window.__announcements = keep("__test_announcements");
  const watch = () => {
    for (const id of ["live-polite", "live-assertive"]) {
      const region = document.getElementById(id);
      if (!region || region.__watched) continue;
      region.__watched = true;
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            window.__live.push({ region: id, text: node.textContent });
          }
        }
      }).observe(region, { childList: true });
    }
  };
  document.addEventListener("DOMContentLoaded", watch);
})();
"""


def require_browser() -> None:
    """Skip when Chromium is missing, or fail if the environment demands it."""
    if CHROMIUM.exists():
        return
    if os.environ.get("ZANZIBAR_REQUIRE_BROWSER"):
        pytest.fail(f"{CHROMIUM} is missing but ZANZIBAR_REQUIRE_BROWSER is set")
    pytest.skip(f"{CHROMIUM} is not installed")


def launch_browser() -> Iterator[Any]:
    """Chromium for a module-scoped ``browser`` fixture (``yield from launch_browser()``)."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class Player:
    """One browser user: a context of its own (its own storage), one page."""

    def __init__(self, browser: Any, base_url: str, name: str, lang: str = "en") -> None:
        self.name = name
        self.base_url = base_url
        self.context = browser.new_context(
            viewport={"width": 1280, "height": 900}, locale="fr-FR" if lang == "fr" else "en-GB"
        )
        self.context.add_init_script(LIVE_RECORDER)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.set_default_timeout(30_000)  # generous: CI runs two suites at once

    # -- signing in --------------------------------------------------------------

    def sign_in_as_guest(self) -> None:
        """Type a name and press Enter on the sign-in screen."""
        self.page.goto(self.base_url)
        self.page.wait_for_selector("#guest-name")
        self.page.focus("#guest-name")
        self.page.keyboard.type(self.name)
        self.page.keyboard.press("Enter")
        self.wait_for_screen("lobby")
        self.page.wait_for_function("window.__app.games.length > 0")

    def wait_for_screen(self, screen: str) -> None:
        self.page.wait_for_function(f"window.__app && window.__app.screen === {json.dumps(screen)}")

    # -- state read from the page's test hook ------------------------------------

    def app(self, expression: str) -> Any:
        """Evaluate ``expression`` with ``app`` bound to the page's application state."""
        return self.page.evaluate(f"(() => {{ const app = window.__app; return {expression}; }})()")

    def my_seat(self) -> int | None:
        seat: int | None = self.app("app.table && app.table.you ? app.table.you.seat : null")
        return seat

    def view(self) -> dict[str, Any] | None:
        view: dict[str, Any] | None = self.app("app.view")
        return view

    def my_turn(self) -> bool:
        return bool(
            self.app(
                "Boolean(app.view && !app.view.over && app.table && app.table.you"
                " && app.view.to_act === app.table.you.seat && app.view.legal.length > 0)"
            )
        )

    def game_over(self) -> bool:
        return bool(self.app("Boolean(app.view && app.view.over)"))

    def log_length(self) -> int:
        return int(self.app("app.logLength"))

    def items(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = self.app("app.items")
        return items

    def live(self) -> list[dict[str, str]]:
        live: list[dict[str, str]] = self.page.evaluate("window.__live || []")
        return live

    def announcements(self) -> list[dict[str, str]]:
        """What the client announced, with channels (``window.__announcements``)."""
        log: list[dict[str, str]] = self.page.evaluate("window.__announcements")
        return log

    # -- keys ------------------------------------------------------------------------

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def focus_body(self) -> None:
        """Put the focus on the game heading (not in a text field) for single-key shortcuts."""
        self.page.focus("#game-heading")

    def close(self) -> None:
        self.context.close()


def wait_until(
    condition: Callable[[], bool], timeout: float = 30.0, what: str = "condition"
) -> None:
    """Poll ``condition`` until true; fail with ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot under test-artifacts/screenshots/ (git-ignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{re.sub(r'[^a-z0-9_-]+', '-', name.lower())}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def axe_violations(page: Any, name: str) -> list[str]:
    """Run axe-core on the page; return every violation, whatever its impact (report saved)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    AXE_REPORTS.mkdir(parents=True, exist_ok=True)
    violations = results.response["violations"]
    (AXE_REPORTS / f"{name}.json").write_text(json.dumps(violations, indent=2))
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(
            n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
            for n in v["nodes"][:5]
        )
        for v in violations
    ]


def item_text(item: dict[str, Any]) -> str:
    """The sentence the client announces for one history item (mirrors js/history.js)."""
    if item.get("type") == "chat":
        who = item.get("from", "?")
        if item.get("me"):
            return f"* {who} {item['text']}"
        if item.get("private"):
            to = item.get("to")
            return f"({who} → {to}) {item['text']}" if to else f"({who}) {item['text']}"
        return f"{who}: {item['text']}"
    return str(item.get("text", ""))


def settle(player: Player) -> None:
    """Wait until the page has read every stream item it holds (they wait 150 ms)."""
    player.page.wait_for_function("!window.__announcer || window.__announcer.pending() === 0")
    player.page.wait_for_timeout(20)


def own_turn_line(item: dict[str, Any], seat: int | None) -> bool:
    """The game's own "your turn" line, which the salon's single "your turn" replaces."""
    event = item.get("event") or {}
    return (
        item.get("channel") == "game"
        and seat is not None
        and event.get("kind") == "turn"
        and event.get("seat") == seat
        and (event.get("data") or {}).get("stage") != "final"
    )


def turn_messages(player: Player) -> list[dict[str, str]]:
    """The "your turn" messages the player's live regions got."""
    return [a for a in player.announcements() if a["channel"] == "turn"]


def create_table(
    player: Player, game: str, seats: int, options: dict[str, Any], private: bool = False
) -> int:
    """Fill the lobby's create form (keyboard focus, then Enter) and wait for the table."""
    page = player.page
    page.select_option("#create-game", game)
    page.fill("#create-seats", str(seats))
    for name, value in options.items():
        page.fill(f"#opt-{name}", str(value))
    if private:
        page.check("#create-private")
    page.focus("#create-submit")
    player.press("Enter")
    player.wait_for_screen("table")
    table_id: int = player.app("app.tableId")
    return table_id


def join_from_lobby(player: Player, table_id: int) -> None:
    player.page.wait_for_selector(f"button[aria-label='Join table {table_id}']")
    player.page.focus(f"button[aria-label='Join table {table_id}']")
    player.press("Enter")
    player.wait_for_screen("table")


def press_button(player: Player, selector: str) -> None:
    player.page.focus(selector)
    player.press("Enter")


def check_announcements(
    player: Player, live: list[dict[str, str]], log: list[dict[str, str]]
) -> int:
    """The live regions got exactly the table's items, once each, in order; returns the count."""
    # What the caller read may predate the last items still waiting to be read.
    del live, log
    settle(player)
    live, log = player.live(), player.announcements()
    # Everything announced reached a live region, in the same order.
    assert [e["text"] for e in live] == [a["text"] for a in log]
    assert [e["region"] == "live-assertive" for e in live] == [
        a["politeness"] == "assertive" for a in log
    ]
    items = player.items()
    seqs = [int(item["seq"]) for item in items]
    assert seqs == list(range(1, len(seqs) + 1)), f"{player.name}: items not contiguous: {seqs}"
    # Answers to keys (channel "ui") aside, the live region got the stream itself: "your
    # turn" messages carry along the game events read with them (docs/accessibility.md).
    stream = [
        text
        for a in log
        if a["channel"] != "ui"
        for text in (a["parts"][:-1] if a["channel"] == "turn" else [a["text"]])
    ]
    seat = player.my_seat()
    expected = [item_text(item) for item in items if not own_turn_line(item, seat)]
    if stream != expected:
        first = next(
            (i for i, (a, b) in enumerate(zip(stream, expected, strict=False)) if a != b),
            min(len(stream), len(expected)),
        )
        raise AssertionError(
            f"{player.name}: live region differs from the table's stream at {first}: "
            f"announced {stream[max(0, first - 2) : first + 3]}, "
            f"expected {expected[max(0, first - 2) : first + 3]} "
            f"({len(stream)} announced, {len(expected)} items)"
        )
    return len(expected)


def choose_keep(view: dict[str, Any]) -> tuple[str, list[int]]:
    """Pick a legal action the way a cautious player would: bank when allowed, else keep the most."""
    legal = view["legal"]
    banks = [a for a in legal if a["type"] == "bank"]
    if banks:
        return "bank", max(banks, key=lambda a: len(a["keep"]))["keep"]
    rolls = [a for a in legal if a["type"] == "roll"]
    best = max(rolls, key=lambda a: len(a["keep"]))
    return "roll", best["keep"]


def play_zilch_step(player: Player) -> None:
    """One Zilch action by keys: R to roll, digits to set dice aside, B to bank."""
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
        # Take a die back with Shift at every choice, so each game says "not selected":
        # a spare die is selected then taken back; with none, a kept die is taken back
        # and selected again.
        spare = next((i for i in range(len(view["state"]["roll"])) if i not in keep), None)
        if spare is not None:
            player.press(f"Digit{spare + 1}")
            player.press(f"Shift+Digit{spare + 1}")
        elif keep:
            player.press(f"Shift+Digit{keep[0] + 1}")
            player.press(f"Digit{keep[0] + 1}")
        selected = player.app("[...app.ui.game.selected].sort()")
        assert selected == sorted(keep)
        player.press("KeyB" if kind == "bank" else "KeyR")
    wait_until(
        lambda: player.log_length() > before or player.game_over() or not player.my_turn(),
        what="the action to be taken",
    )
