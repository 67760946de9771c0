"""The lobby past its first page and a table's history before its newest page (issues 10, 13).

The server is started with tiny pages (``lobby_page_max=3``, ``history_page_max=5``) so a
handful of tables and chat lines is more than a page. "More tables" and "Earlier history"
are reached and pressed by keyboard; each page shown is said once, politely.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _server import ServerProcess, start_server
from browser_helpers import (
    Player,
    create_table,
    launch_browser,
    press_button,
    settle,
    wait_until,
)

pytestmark = [pytest.mark.browser]

LOBBY_PAGE = 3
HISTORY_PAGE = 5


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module."""
    yield from launch_browser()


@pytest.fixture(scope="module")
def small_pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A salon whose lobby and history pages are tiny."""
    process = start_server(
        Path(tmp_path_factory.mktemp("pages")) / "data",
        extra_args=[
            "--limit",
            f"lobby_page_max={LOBBY_PAGE}",
            "--limit",
            f"history_page_max={HISTORY_PAGE}",
            "--limit",
            "tables_per_user=10",
            "--limit",
            "table_create_rate_user=100/minute",
        ],
    )
    try:
        yield process
    finally:
        process.stop()


def polite(p: Player) -> list[str]:
    """What reached the polite live region."""
    settle(p)
    return [e["text"] for e in p.live() if e["region"] == "live-polite"]


def card_ids(p: Player) -> list[int]:
    ids: list[int] = p.page.evaluate(
        "[...document.querySelectorAll('#tables-list > li h3')]"
        ".map(e => Number(e.id.replace('card-', '')))"
    )
    return sorted(ids)


def test_more_tables_pages_through_the_lobby(browser: Any, small_pages: ServerProcess) -> None:
    host = Player(browser, small_pages.url, "Hoster")
    pia = Player(browser, small_pages.url, "Pia", lang="fr")
    try:
        host.sign_in_as_guest()
        made = []
        for _ in range(7):
            made.append(create_table(host, "zilch", 2, {}))
            press_button(host, "#lobby-button")
            host.wait_for_screen("lobby")
        pia.sign_in_as_guest()
        page = pia.page
        page.wait_for_function(f"window.__app.lobbyTotal === {len(made)}")
        assert card_ids(pia) == made[:LOBBY_PAGE]
        shown = LOBBY_PAGE
        while shown < len(made):
            # Reached by Tab from the last card's Watch button, pressed with Enter.
            page.focus("#tables-list > li:last-child button[data-key='watch']")
            pia.press("Tab")
            assert page.evaluate("document.activeElement.id") == "more-tables"
            assert page.inner_text("#more-tables") == "Plus de tables"
            pia.press("Enter")
            fresh = made[shown : shown + LOBBY_PAGE]
            shown = min(shown + LOBBY_PAGE, len(made))
            wait_until(lambda n=shown: len(card_ids(pia)) == n, what=f"{shown} tables")
            assert card_ids(pia) == made[:shown]
            wait_until(
                lambda n=shown: f"Tables affichées\u00a0: {n} sur {len(made)}." in polite(pia),
                what="the count said",
            )
            # The focus is on the first new card (newest first), on its first button.
            focused = page.evaluate("document.activeElement.closest('li.table-card').dataset.key")
            assert focused == f"t{max(fresh)}"
        # Every page is shown: no button left.
        assert page.locator("#more-tables").count() == 0
        said = [t for t in polite(pia) if t.startswith("Tables affichées")]
        assert said == ["Tables affichées\u00a0: 6 sur 7.", "Tables affichées\u00a0: 7 sur 7."]
        assert pia.errors == [] and host.errors == []
    finally:
        host.close()
        pia.close()


def test_earlier_history_pages_back_to_the_first_item(
    browser: Any, small_pages: ServerProcess
) -> None:
    host = Player(browser, small_pages.url, "Talker")
    guest = Player(browser, small_pages.url, "Reader")
    try:
        host.sign_in_as_guest()
        table_id = create_table(host, "zilch", 2, {})
        for n in range(10):
            if n == 5:
                # At most 5 chat lines per 5 seconds (docs/security.md).
                host.page.wait_for_timeout(5200)
            before = host.app("app.lastSeq")
            host.page.fill("#chat-input", f"line {n + 1}")
            host.page.press("#chat-input", "Enter")
            wait_until(lambda b=before: host.app("app.lastSeq") > b, what="the chat line")
        last = int(host.app("app.lastSeq"))
        assert last > 2 * HISTORY_PAGE
        guest.sign_in_as_guest()
        watch = f"button[aria-label='Watch table {table_id}']"
        guest.page.wait_for_function("window.__app.lobbyTotal > 0")
        while guest.page.locator(watch).count() == 0:
            count = guest.app("app.moreTables.length")
            press_button(guest, "#more-tables")
            wait_until(
                lambda c=count: guest.app("app.moreTables.length") > c,
                what="the next lobby page",
            )
        guest.page.focus(watch)
        guest.press("Enter")
        guest.wait_for_screen("table")
        guest.page.wait_for_function(f"window.__app.lastSeq >= {last}")
        settle(guest)
        last = int(guest.app("app.lastSeq"))  # and the line saying the guest watches
        seqs = [int(i["seq"]) for i in guest.items()]
        # Only the newest page came, and only it was read out.
        assert seqs == list(range(last - HISTORY_PAGE + 1, last + 1))
        while seqs[0] > 1:
            guest.page.focus("#earlier-history")
            guest.press("Enter")
            first = max(1, seqs[0] - HISTORY_PAGE)
            wait_until(lambda f=first: guest.items()[0].get("seq") == f, what="earlier items")
            added = seqs[0] - first
            seqs = [int(i["seq"]) for i in guest.items()]
            assert seqs == list(range(first, last + 1))
            sentence = (
                f"{added} earlier item{'s' if added > 1 else ''} added at the top of the history."
            )
            wait_until(lambda s=sentence: s in polite(guest), what="the count said")
        # The whole history is listed, in order; the button is gone, the focus on the list.
        assert guest.page.locator("#earlier-history").count() == 0
        assert guest.page.evaluate("document.activeElement.id") == "history-list"
        texts = guest.page.locator("#history-list li").all_inner_texts()
        assert len(texts) == last
        lines = [text.split("Talker: ", 1)[1] for text in texts if "Talker: line" in text]
        assert lines == [f"line {n}" for n in range(1, 11)]
        # The earlier pages were not read out item by item.
        heard = polite(guest)
        assert "Talker: line 1" not in heard
        assert "Talker: line 10" in heard
        assert guest.errors == [] and host.errors == []
    finally:
        host.close()
        guest.close()
