"""The generic terminal client: keys to commands, generic commands, drivers, the loop."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from zanzibar.cli.dice421 import Dice421Commands
from zanzibar.cli.terminal import (
    GENERIC_BINDINGS,
    KeyBinding,
    LocalDriver,
    Reply,
    Session,
    TerminalClient,
)
from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.games.dice421.rules import RULES

NAMES = ["Zoé", "Anna"]


def _client(seed: int = 1, commands: Any = None) -> tuple[TerminalClient, list[str]]:
    match = Match(RULES, 2, seed=seed)
    bots = {1: RULES.make_bot("simple", match.options)}
    lines: list[str] = []
    driver = LocalDriver(match, bots, 0, NAMES)
    client = TerminalClient(
        driver, commands or Dice421Commands(), "en", output=lines.append, interactive=False
    )
    return client, lines


def test_key_binding_labels_and_key_map() -> None:
    binding = KeyBinding(("1", "shift+1"), "select {digit}", {"en": "select", "fr": "choisir"})
    assert binding.label("en") == "1, Shift+1: select"
    client, _ = _client()
    key_map = client._key_map
    assert key_map["3"] == "select 3" and key_map["shift+2"] == "unselect 2"
    assert key_map["space"] == "selection" and key_map["d"] == "dice"
    assert key_map["r"] == key_map["enter"] == "roll" and key_map["k"] == "stop"
    assert key_map["f1"] == key_map["?"] == "help" and key_map["ctrl+f1"] == "rules"
    assert key_map["s"] == "scores" and key_map["t"] == "turn"


def test_help_lists_every_key_and_command() -> None:
    client, _ = _client()
    text = "\n".join(client.help_lines())
    for binding in (*Dice421Commands().bindings(), *GENERIC_BINDINGS):
        assert binding.label("en") in text
    for command in ("roll [1 2 3]", "stop", "help", "rules", "scores", "turn", "quit"):
        assert f"  {command}" in text


def test_a_scripted_game_plays_to_the_end() -> None:
    client, lines = _client(seed=3)
    status = client.run(["roll"] * 2000)
    assert status == 0
    assert lines[0] == "Your turn: roll 1 of up to 3."
    assert lines[-1] == "The game is over."
    assert sum("lost the game" in line for line in lines) == 1


def test_generic_commands_and_refusals() -> None:
    client, lines = _client()
    client.run(["scores", "turn", "rules", "stop", "warp", "quit"])
    assert "Zoé" not in lines[1]  # the viewer is "you"
    assert lines[1] == "You: 0 tokens; Anna: 0 tokens; pot 21."
    assert lines[2] == "Your turn: roll 1 of up to 3."
    assert lines[3] == "Rules “salon”."
    assert "Roll at least once before stopping." in lines
    assert "Unknown command 'warp'. Type help for the list." in lines
    assert lines[-1] == "You left the game."


class RecordingDriver(LocalDriver):
    """Stands in for an online driver: actions go out as JSON, events come back."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.sent: list[Any] = []

    def submit(self, action: Any) -> list[Event]:
        wire = self.rules.action_to_json(action)
        self.sent.append(wire)
        self.match.act_json(self.seat, wire)
        return self._fresh_events()


def test_the_loop_only_talks_to_the_driver() -> None:
    match = Match(RULES, 2, seed=4)
    driver = RecordingDriver(match, {1: RULES.make_bot("expert", match.options)}, 0, NAMES)
    lines: list[str] = []
    client = TerminalClient(driver, Dice421Commands(), "fr", output=lines.append, interactive=False)
    assert client.run(["roll", "roll 1 2", "stop", "quit"]) == 1
    assert driver.sent[:2] == [
        {"type": "roll", "dice": [0, 1, 2]},
        {"type": "roll", "dice": [0, 1]},
    ]
    assert any(line.startswith("Vous avez lancé") for line in lines)


class EchoCommands:
    """A minimal game table: proves the client needs nothing 421-specific."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def bindings(self) -> Sequence[KeyBinding]:
        return (KeyBinding(("e",), "echo", {"en": "echo", "fr": "écho"}),)

    def command_help(self) -> Sequence[tuple[str, Mapping[str, str]]]:
        return (("echo", {"en": "say hello", "fr": "dire bonjour"}),)

    def run(self, command: str, args: list[str], session: Session) -> Reply | None:
        if command == "echo":
            return Reply((f"hello {' '.join(args)}".strip(),))
        if command == "go":
            return Reply(action=RULES.legal_actions(session.state)[0])
        return None

    def on_events(self, events: Sequence[Event], session: Session) -> None:
        self.seen.extend(event.kind for event in events)


def test_any_command_table_plugs_in() -> None:
    commands = EchoCommands()
    client, lines = _client(commands=commands)
    assert client._key_map["e"] == "echo"
    client.run(["echo world", "go", "quit"])
    assert "hello world" in lines
    assert "roll" in commands.seen
