"""A short Zanzibar-S game in the browser between two users, by keyboard.

Bob (Black) picks the setup from the list; then the players move by arrow
keys on the board grid (Enter picks the piece, Enter again on a target) and
by typing moves in coordinates. White's a-pawn runs up the board with double
steps (allowed from any rank in Zanzibar-S), captures on b10 and a11 and
promotes on b12, where the promotion choice appears. The salon has no way to
create a game from a prepared position, so the promotion is reached from the
real start, with Black's cooperation.
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
    press_button,
    screenshot,
    wait_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FILES = "abcdefghijkl"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module."""
    yield from launch_browser()


def coords(square: str) -> tuple[int, int]:
    return FILES.index(square[0]), int(square[1:]) - 1


def focused_square(player: Player) -> str | None:
    square: str | None = player.page.evaluate("document.activeElement.dataset.square || null")
    return square


def arrow_to(player: Player, target: str, black: bool) -> None:
    """Walk the board's focus to ``target`` with the arrow keys (Black sees the board turned)."""
    current = focused_square(player)
    assert current is not None, "the focus is on a square"
    (f0, r0), (f1, r1) = coords(current), coords(target)
    df, dr = f1 - f0, r1 - r0
    if black:
        df, dr = -df, -dr
    for _ in range(abs(dr)):
        player.press("ArrowUp" if dr > 0 else "ArrowDown")
    for _ in range(abs(df)):
        player.press("ArrowRight" if df > 0 else "ArrowLeft")
    assert focused_square(player) == target


def wait_for_move(player: Player, before: int) -> None:
    wait_until(lambda: player.log_length() > before, what=f"{player.name}'s move")


def wait_for_my_turn(player: Player) -> None:
    """The page knows it is this player's move (its view and its "your turn" arrived)."""
    wait_until(player.my_turn, what=f"{player.name}'s turn")
    count = player.page.evaluate("window.__app.viewsReceived")
    player.page.wait_for_timeout(50)
    # No further update on its way (the last view is the one acted on).
    wait_until(
        lambda: player.page.evaluate("window.__app.viewsReceived") == count,
        what="the page to settle",
    )


def move_by_arrows(player: Player, src: str, dst: str, black: bool) -> None:
    wait_for_my_turn(player)
    before = player.log_length()
    if focused_square(player) is None:
        player.focus_body()
        player.press("KeyB")  # to the board
    arrow_to(player, src, black)
    count = len(player.live())
    player.press("Enter")
    # The pick is announced with the legal targets read out.
    wait_until(
        lambda: any(src in e["text"] and dst in e["text"] for e in player.live()[count:]),
        what="the pick and its targets to be announced",
    )
    arrow_to(player, dst, black)
    player.press("Enter")
    wait_for_move(player, before)


def move_by_typing(player: Player, move: str) -> None:
    wait_for_my_turn(player)
    before = player.log_length()
    player.focus_body()
    player.press("KeyM")  # to the move field
    assert player.page.evaluate("document.activeElement.id") == "move-input"
    player.page.keyboard.type(move)
    player.press("Enter")
    wait_for_move(player, before)


def piece_on(player: Player, square: str) -> str:
    label: str = player.page.get_attribute(f"[data-square='{square}']", "aria-label") or ""
    return label


def test_zanzibar_s_setup_moves_capture_and_promotion(browser: Any, server: Any) -> None:
    white = Player(browser, server.url, "Wanda")
    black = Player(browser, server.url, "Boris")
    try:
        white.sign_in_as_guest()
        black.sign_in_as_guest()
        # A private table: Boris comes in through the invitation link Wanda is shown.
        table_id = create_table(white, "zanzibar-s", 2, {}, private=True)
        link = white.page.input_value("#invite-link")
        assert "#table=" in link and "&invite=" in link
        black.page.goto(link)
        black.wait_for_screen("table")
        white.page.wait_for_function("window.__app.table.seats[1].name === 'Boris'")
        assert black.my_seat() == 1
        # Back to the lobby and back again: the private table is under "Your tables".
        press_button(black, "#lobby-button")
        black.wait_for_screen("lobby")
        press_button(black, f"#mine-section button:has-text('table {table_id}')")
        black.wait_for_screen("table")
        assert black.my_seat() == 1

        # Table chat: C goes to the message field; the other player hears it.
        white.focus_body()
        white.press("KeyC")
        white.page.keyboard.type("good luck")
        white.press("Enter")
        wait_until(
            lambda: any(e["text"] == "Wanda: good luck" for e in black.live()),
            what="the chat line to reach Boris",
        )
        press_button(white, "#start-button")

        # Black chooses the arrangement (the third one) from the list, by keyboard.
        black.page.wait_for_selector("#setup-select")
        screenshot(black.page, "table-chess-setup")
        assert axe_violations(black.page, "table-chess-setup") == []
        black.page.focus("#setup-select")
        black.press("ArrowDown")
        black.press("ArrowDown")
        black.press("Tab")
        before = black.log_length()
        black.press("Enter")
        wait_for_move(black, before)
        # White's view follows Black's log by one message: wait for it, then check it.
        wait_until(
            lambda: white.app("app.view.state.arrangement") != -1, what="White to see the setup"
        )
        assert white.app("app.view.state.arrangement") == 2
        wait_until(lambda: white.my_turn(), what="White to move")

        move_by_arrows(white, "a3", "a5", black=False)
        move_by_typing(black, "l10l8")
        move_by_typing(white, "a5a7")
        move_by_arrows(black, "l8", "l6", black=True)
        move_by_arrows(white, "a7", "a9", black=False)
        move_by_typing(black, "k10k8")
        move_by_arrows(white, "a9", "b10", black=False)  # takes the Pawn
        wait_until(
            lambda: any("takes" in e["text"] for e in white.live()[-3:]), what="the capture said"
        )
        move_by_typing(black, "k8k6")
        move_by_typing(white, "b10a11")  # takes the Elephant
        move_by_arrows(black, "j10", "j8", black=True)
        assert "White Pawn" in piece_on(white, "a11")

        # a11 to b12 takes the Camel and promotes: the choice appears, Queen first.
        wait_for_my_turn(white)
        before = white.log_length()
        if focused_square(white) is None:
            white.focus_body()
            white.press("KeyB")
        arrow_to(white, "a11", black=False)
        white.press("Enter")
        arrow_to(white, "b12", black=False)
        white.press("Enter")
        white.page.wait_for_selector("#promotion-panel")
        screenshot(white.page, "table-chess-promotion")
        labels = white.page.locator("#promotion-panel button").all_inner_texts()
        assert any("Eagle" in text for text in labels), labels
        white.page.focus("#promotion-panel button:has-text('Eagle')")
        white.press("Enter")
        wait_for_move(white, before)
        wait_until(lambda: "White Eagle" in piece_on(white, "b12"), what="the new Eagle on b12")
        wait_until(lambda: "White Eagle" in piece_on(black, "b12"), what="Black sees the Eagle")
        screenshot(white.page, "table-chess")
        assert axe_violations(white.page, "table-chess") == []

        for player in (white, black):
            assert check_announcements(player, player.live(), player.announcements()) > 10
            assert player.errors == []
    finally:
        white.close()
        black.close()


@pytest.mark.parametrize(("game", "files", "ranks", "move"), [("chess", 8, 8, "e2e4")])
def test_other_boards_are_drawn_from_their_fen(
    browser: Any, server: Any, game: str, files: int, ranks: int, move: str
) -> None:
    """The same view serves the salon's other chess variants (here orthodox chess vs a bot)."""
    player = Player(browser, server.url, "Kim")
    try:
        player.sign_in_as_guest()
        create_table(player, game, 2, {})
        player.page.select_option("#bot-level", "easy")  # instant: the test is about the view
        press_button(player, "#add-bot-button")
        player.page.wait_for_function("window.__app.table.seats[1].bot !== null")
        press_button(player, "#start-button")
        wait_for_my_turn(player)
        assert player.page.locator("#board [role='gridcell']").count() == files * ranks
        assert "White King" in piece_on(player, "e1")
        move_by_typing(player, move)
        wait_until(lambda: player.my_turn(), what="the bot's reply")
        assert "White Pawn" in piece_on(player, move[2:])
        assert axe_violations(player.page, f"table-{game}") == []
        assert player.errors == []
    finally:
        player.close()
