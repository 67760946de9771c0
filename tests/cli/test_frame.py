"""The terminal frame's parts: key decoding, layouts, key names, command words, rules lines."""

from __future__ import annotations

import doctest
import importlib

import pytest

from zanzibar.cli.frame.keys import KeyDecoder, Layout
from zanzibar.cli.frame.loop import FRAME_COMMANDS, command_words, key_label, rules_lines
from zanzibar.cli.frame.plugin import CommandSpec
from zanzibar.cli.games.chess import ChessPlugin, letters, to_variant_letters
from zanzibar.cli.games.dice421 import Dice421Plugin
from zanzibar.cli.games.zilch import ZilchPlugin
from zanzibar.games import get_rules
from zanzibar.games.chess.variant import load_variant, shipped_variants

#: What terminals send, and the key it is (xterm/VTE/kitty/tmux, VT220/rxvt/PuTTY, Linux console).
SEQUENCES = {
    b"\x1bOP": "f1",
    b"\x1b[11~": "f1",
    b"\x1b[[A": "f1",
    b"\x1b[1;5P": "ctrl+f1",
    b"\x1bO5P": "ctrl+f1",
    b"\x1b[11^": "ctrl+f1",
    b"\x1b[11;5~": "ctrl+f1",
    b"\x1b[1;2P": "shift+f1",
    b"\x1b[23~": "shift+f1",
    b"\x1b[25~": "shift+f1",
    b"\x1b[15~": "f5",
    b"\x1b[A": "up",
    b"\x1bOA": "up",
    b"\x1b[3~": "delete",
    b"\r": "enter",
    b" ": "space",
    b"\x7f": "backspace",
    b"\x1bx": "alt+x",
    "é".encode(): "é",
}


@pytest.mark.parametrize("data,key", SEQUENCES.items(), ids=[repr(k) for k in SEQUENCES])
def test_each_sequence_is_one_key(data: bytes, key: str) -> None:
    assert KeyDecoder().feed(data) == [key]


def test_sequences_split_across_reads_and_unknown_ones() -> None:
    decoder = KeyDecoder()
    assert [k for b in b"\x1b[11;5~" for k in decoder.feed(bytes([b]))] == ["ctrl+f1"]
    assert decoder.feed(b"\x1b[99~q") == ["unknown:ESC[99~", "q"]  # one unknown key, then q
    assert decoder.feed(b"\x1b") == [] and decoder.flush() == ["escape"]
    assert KeyDecoder({"\x1b[OWN": "f1"}).feed(b"\x1b[OWN") == ["f1"]  # from terminfo


def test_layouts_read_digits_by_position() -> None:
    qwerty = Layout("qwerty")
    assert [qwerty.digit_key(c) for c in "1!6^é"] == ["1", "shift+1", "6", "shift+6", "é"]
    azerty = Layout("azerty")
    assert [azerty.digit_key(c) for c in "&é\"'(-16"] == [
        *"123456",
        "shift+1",
        "shift+6",
    ]
    auto = Layout("auto")
    assert auto.digit_key("1") == "1" and not auto.switched
    assert auto.digit_key("&") == "1" and auto.switched and auto.name == "azerty"
    assert Layout("azerty").typed_digits("eée'") == "e2e4"
    assert Layout("azerty").typed_digits("O-O") == "O-O"


def test_key_names_in_both_languages() -> None:
    assert key_label("shift+1", "en") == "Shift+1" and key_label("shift+1", "fr") == "Maj+1"
    assert key_label("space", "fr") == "Espace" and key_label("enter", "fr") == "Entrée"
    assert key_label("ctrl+f1", "fr") == "Ctrl+F1" and key_label("f5", "en") == "F5"
    assert key_label("unknown:ESC[99~", "fr") == "cette touche"


@pytest.mark.parametrize(
    "plugin",
    [Dice421Plugin(), ZilchPlugin(), ChessPlugin(get_rules("zanzibar-s"))],  # type: ignore[arg-type]
    ids=["421", "zilch", "chess"],
)
def test_no_word_names_two_commands(plugin: object) -> None:
    words = command_words((*plugin.commands(), *FRAME_COMMANDS))  # type: ignore[attr-defined]
    assert words["help"] == words["aide"] == "help"
    assert words["quit"] == words["quitter"] == "quit"


def test_a_word_naming_two_commands_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import zanzibar.cli.frame.loop as loop

    monkeypatch.setattr(loop, "say", lambda lang, msg_id, **args: "go")  # one word for all
    with pytest.raises(ValueError, match="'go' names both roll and stop"):
        command_words((CommandSpec("roll"), CommandSpec("stop")))


def test_french_piece_letters_are_one_letter_one_piece() -> None:
    for name in shipped_variants():
        variant = load_variant(name)
        for lang in ("en", "fr"):
            table = letters(variant, lang)
            assert len(set(table.values())) == len(table), (name, lang)
    chess_fr = letters(load_variant("chess"), "fr")
    assert chess_fr == {"K": "R", "Q": "D", "R": "T", "B": "F", "N": "C", "P": "P"}
    assert (
        to_variant_letters("Txe4", chess_fr) == "Rxe4"
        and to_variant_letters("e8=D", chess_fr) == "e8=Q"
    )


def test_rules_lines_are_short_and_untagged() -> None:
    for game in ("421", "zilch", "zanzibar-s"):
        rules = get_rules(game)
        for lang in ("en", "fr"):
            lines = rules_lines(rules.rules_text(lang, rules.options.resolve()))
            assert lines and max(map(len, lines)) <= 110
            assert not any("seed 0" in line or "graine 0" in line for line in lines)


@pytest.mark.parametrize(
    "module",
    [
        "zanzibar.cli.frame.keys",
        "zanzibar.cli.frame.loop",
        "zanzibar.cli.frame.inputs",
        "zanzibar.cli.games.dice_selection",
        "zanzibar.cli.games.chess",
    ],
)
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
