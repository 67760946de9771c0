"""The French defects of issue 12, each said right now (each of these failed on the old code)."""

from __future__ import annotations

import dataclasses

from zanzibar.engine.errors import IllegalActionError
from zanzibar.engine.events import Event
from zanzibar.games import get_rules
from zanzibar.games.zilch.rules import RULES as ZILCH
from zanzibar.games.zilch.state import ZilchState
from zanzibar.l10n import Msg, say
from zanzibar.salon.messages import bot_name, system_text

NAMES = ("Anna", "Bruno")


def test_game_of_chess_is_named_in_french() -> None:
    text = system_text("game_started", "fr", {"game": "chess", "players": ["Anna", "Bruno"]})
    assert text == "La partie d'Échecs commence\u00a0: Anna et Bruno."


def test_you_offer_a_draw_agrees_with_vous() -> None:
    chess = get_rules("chess")
    assert chess.render_event(Event("draw_offered", 0, {}), "fr", 0, NAMES) == (
        "Vous (Blancs) proposez la nulle."
    )


def test_zero_and_one_are_singular() -> None:
    dice421 = get_rules("421")
    start = Event("turn_start", 0, {"phase": "charge", "limit": 1, "pot": 0, "turn": 1})
    assert dice421.render_event(start, "fr", 1, NAMES) == (
        "Tour 1, charge, 0 jeton au pot\u00a0: Anna commence, 1 lancer au plus."
    )
    assert "1 seconde." in system_text("round_pause", "fr", {"seconds": 1})


def test_one_die_is_singular_in_zilch() -> None:
    state: ZilchState = ZILCH.new_state(2, ZILCH.options.resolve())
    state = state.with_changes(phase="rolling", dice_left=1, turn_points=0)
    assert ZILCH.describe(state, "turn", "fr", 0, NAMES).startswith(
        "vous lancez 1 dé avec 0 point ce tour-ci"
    )
    assert ZILCH.describe(state, "turn", "en", 0, NAMES).startswith("you are rolling 1 die")


def test_no_optional_plural_marks() -> None:
    dice421 = get_rules("421")
    state = dice421.new_state(2, dice421.options.resolve("bar"))
    state = dataclasses.replace(state, losses=(1, 2))
    text = dice421.describe(state, "scores", "fr", 0, NAMES)
    assert "(s)" not in text
    assert "Vous\u00a0: 0 jeton, 1 manche perdue" in text
    assert "Bruno\u00a0: 0 jeton, 2 manches perdues" in text


def test_turn_of_a_name_with_a_vowel_is_elided_in_zilch() -> None:
    assert ZILCH.render_event(Event("turn", 0, {"stage": "main"}), "fr", 1, NAMES) == (
        "au tour d'Anna"
    )


def test_bot_levels_and_refusals_are_french() -> None:
    assert bot_name(1, "hard", "fr") == "Robot 2 (difficile)"
    error = IllegalActionError("a die cannot be set aside twice")
    assert error.text("fr") == "un dé ne peut pas être mis de côté deux fois"


def test_french_topic_words_are_understood() -> None:
    state: ZilchState = ZILCH.new_state(2, ZILCH.options.resolve())
    assert ZILCH.describe(state, "tour", "fr", 0, NAMES) == ZILCH.describe(
        state, "turn", "fr", 0, NAMES
    )
    dice421 = get_rules("421")
    start = dice421.new_state(2, dice421.options.resolve())
    assert dice421.describe(start, "état", "fr", 0, NAMES) == dice421.describe(
        start, "status", "fr", 0, NAMES
    )
    chess = get_rules("chess")
    board = chess.new_state(2, chess.options.resolve())
    assert chess.describe(board, "case:e2", "fr", 0, NAMES) == "e2\u00a0: Pion blanc."


def test_option_texts_name_choices_in_words_not_codes() -> None:
    """French option texts never quote a value's code («seed», «last_turn»): they use words."""
    import re

    from zanzibar.games import game_names, get_rules

    quoted = re.compile(r"[«“]\s*([^»”]+?)\s*[»”]")
    codes: set[str] = set()
    texts: list[str] = []
    for name in game_names():
        schema = get_rules(name).options.to_json("fr")
        for option in schema["options"]:
            codes.add(str(option["name"]))
            codes.update(str(c) for c in option.get("choices") or ())
            texts.append(str(option.get("description", "")))
            texts.extend(str(v) for v in (option.get("choice_labels") or {}).values())
    from zanzibar.l10n import Voice

    texts.append(Voice("fr").text("help-zanzibar-s-promotions", extra=1))
    texts.append(Voice("fr").text("options-zilch-option-kinds"))
    leaks = [(t, q) for t in texts for q in quoted.findall(t) if q in codes]
    assert leaks == []
    assert Voice("fr").text("options-zilch-option-kinds-doubling") == "chaque dé en plus double"


def test_one_kept_message_is_singular() -> None:
    """The kept-message quotas of a limit of one said "1 messages" (issue 11's leftovers)."""
    assert say(Msg("error-pm-mailbox-full", name="Bob", max=1), "en") == (
        "1 message already waits for Bob; try again once it has been read"
    )
    assert say(Msg("error-pm-pair-full", name="Bob", max=1), "fr") == (
        "vous avez déjà laissé 1 message en attente pour Bob\u202f; attendez qu'il soit lu"
    )
    assert say(Msg("error-pm-pair-full", name="Bob", max=3), "en") == (
        "you already left 3 messages waiting for Bob; wait until they have been read"
    )
