"""Friends and private messages in the terminal client, against a real ``zanzibar serve``.

Anna adds Bob and writes to him while he is away; Bob signs in to play 421
from the terminal and the kept message is printed at once; his typed
``/friends`` and ``/msg`` commands answer between the game's lines; Anna hears
him come online and gets his answer.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _online import online_args, serve

from zanzibar.cli.online import SalonClient, note_line, play_online, salon_command, sign_in
from zanzibar.games import game_names, get_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from _server import ServerProcess


@pytest.fixture(scope="module")
def salon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "friends")


def _args(server: str, **extra: Any) -> argparse.Namespace:
    return online_args(server, **{"name": "Bob", "password": "secret-pass", **extra})


def _read_notes(client: SalonClient, notes: list[str], until: str, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while until not in notes and time.monotonic() < deadline:
        client.poll(0.2)


@pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")
def test_friends_and_kept_messages_in_the_terminal(salon: ServerProcess) -> None:
    sign_in(salon.url, "Bob", "en", "secret-pass", register=True)
    anna = SalonClient.sign_in(salon.url, "Anna", "en", "secret-pass", register=True)
    notes: list[str] = []
    anna.on_note = notes.append
    try:
        assert salon_command(anna, "/friend bob", "en") == [
            "Bob is now in your friends list.",
            "Bob is offline.",
        ]
        assert salon_command(anna, "/friends", "en") == ["One friend, 0 online.", "Bob is offline."]
        assert salon_command(anna, "/msg Bob see you at nine", "en") == [
            "Bob is away: your message is kept and will be delivered when Bob signs in."
        ]
        assert salon_command(anna, "/friend Anna", "en") == [
            "you cannot add yourself to your friends list"
        ]
        assert salon_command(anna, "/dance", "en")[0].startswith("Commands: /friends")
        assert salon_command(anna, "/msg Bob", "en")[0].startswith("Commands:")

        printed: list[str] = []
        status = play_online(
            get_rules("421"),
            _args(salon.url),
            lines=["/friends", "/msg Anna on my way", "/unfriend Anna", "quit"],
            output=printed.append,
        )
        assert status == 1
        kept = "While you were away, Anna wrote: see you at nine"
        assert printed.count(kept) == 1
        assert printed.index(kept) < printed.index("Your friends list is empty.")
        assert "Message sent to Anna." in printed
        assert "Anna is not in your friends list" in printed

        _read_notes(anna, notes, "Bob to you: on my way")
        assert "Your friend Bob is online." in notes
        assert "Bob to you: on my way" in notes
        assert notes.index("Your friend Bob is online.") < notes.index("Bob to you: on my way")
        assert salon_command(anna, "/unfriend Bob", "en") == [
            "Bob is no longer in your friends list."
        ]

        # a second sign-in: the message is not printed again
        again: list[str] = []
        play_online(get_rules("421"), _args(salon.url), lines=["quit"], output=again.append)
        assert kept not in again
    finally:
        anna.close()


def test_note_lines() -> None:
    me = {"id": 1, "name": "Bob"}
    assert note_line({"type": "friend", "text": "Your friend Anna is online."}, me, "en") == (
        "Your friend Anna is online."
    )
    chat = {"type": "chat", "table": None, "private": True, "user": 2, "from": "Anna", "to": "Bob"}
    assert note_line({**chat, "text": "hi", "me": False}, me, "fr") == "Anna vous écrit\u00a0: hi"
    assert note_line({**chat, "text": "waves", "me": True}, me, "en") == "(private) * Anna waves"
    echo = {**chat, "user": 1, "from": "Bob", "to": "Anna", "text": "hi", "me": False}
    assert note_line(echo, me, "en") == ""
