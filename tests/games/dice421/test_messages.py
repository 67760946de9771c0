"""Sentences: every event in English and French, from every seat; questions on demand."""

from __future__ import annotations

import random

import pytest

from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.games.dice421.messages import EVENT_KINDS, combo_name, describe, render_event
from zanzibar.games.dice421.rules import RULES

NAMES = ["Anna", "Bruno", "Chloé"]


def _events() -> list[Event]:
    seen: dict[str, Event] = {}
    for seed in range(40):
        preset = "bar" if seed % 2 else "salon"
        match = Match(RULES, 3, RULES.options.resolve(preset, {"tokens": 6}), seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            match.act(match.to_act, rng.choice(list(match.legal_actions())))  # type: ignore[arg-type]
        for _, event in match.events:
            seen.setdefault(event.kind, event)
    return list(seen.values())


EVENTS = _events()


def test_random_games_produce_every_event_kind() -> None:
    assert {e.kind for e in EVENTS} == set(EVENT_KINDS)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("viewer", [None, 0, 1, 2])
def test_every_event_is_one_short_sentence(lang: str, viewer: int | None) -> None:
    for event in EVENTS:
        text = render_event(event, lang, viewer, NAMES)
        assert text != event.kind
        assert "\n" not in text and len(text) < 160, text
        assert text[0].isupper() and text[-1] in ".!", text


def test_roller_and_others() -> None:
    roll = Event("roll", 0, {"dice": [4, 2, 1], "roll": 2, "limit": 3, "kept": [4]})
    assert render_event(roll, "en", 0, NAMES) == "You rolled 4 2 1, a 421 (roll 2 of 3)."
    assert render_event(roll, "en", 1, NAMES) == "Anna rolled 4 2 1, a 421 (roll 2 of 3)."
    assert render_event(roll, "fr", 0, NAMES) == "Vous avez lancé 4 2 1, un 421 (lancer 2 sur 3)."
    assert render_event(roll, "fr", None, NAMES) == "Anna a lancé 4 2 1, un 421 (lancer 2 sur 3)."
    end = Event(
        "turn_end",
        1,
        {
            "phase": "decharge",
            "winner": 0,
            "amount": 3,
            "wanted": 10,
            "pot": 0,
            "loser_dice": [6, 5, 3],
            "winner_dice": [4, 2, 1],
        },
    )
    assert render_event(end, "en", 1, NAMES) == (
        "You lose the turn with 6 5 3; Anna gives you 3 tokens (all that was left) with 4 2 1."
    )
    assert render_event(end, "fr", 0, NAMES) == (
        "Bruno perd le tour avec 6 5 3\u202f; vous lui donnez 3 jetons (tout ce qui restait) avec 4 2 1."
    )


def test_combination_names() -> None:
    assert combo_name((1, 1, 1), "en") == "three aces"
    assert combo_name((6, 6, 6), "fr") == "un brelan de 6"
    assert combo_name((2, 2, 1), "fr") == "une nénette"
    assert combo_name((6, 6, 5), "en") == ""


def test_describe_topics() -> None:
    match = Match(RULES, 3, seed=5)
    match.act(0, RULES.legal_actions(match.state)[0])
    state = match.state
    scores = describe(state, "scores", "en", 0, NAMES)
    assert scores == "You: 0 tokens; Bruno: 0 tokens; Chloé: 0 tokens; pot 21."
    assert describe(state, "turn", "en", 1, NAMES) == "Anna's turn: roll 2 of up to 3."
    assert describe(state, "turn", "fr", 0, NAMES) == "À vous\u00a0: lancer 2 sur 3 au plus."
    status = describe(state, "status", "en", 0, NAMES)
    assert status.startswith("Charge, pot 21, turn 1, limit 3 rolls.")
    assert "after 1 roll" in status
    assert describe(state, "dice", "en", 0, NAMES).startswith("You have ")
    assert "Unknown topic" in describe(state, "weather", "en", 0, NAMES)
    assert describe(state, "scores", "fr", 0, NAMES).endswith("\u202f; 21 au pot.")


def test_french_elision_before_a_vowel() -> None:
    nxt = Event("next", 0, {"limit": 2})
    assert (
        render_event(nxt, "fr", 1, ["Anna", "Bruno"]) == "Au tour d'Anna\u00a0: 2 lancers au plus."
    )
    nxt = Event("next", 1, {"limit": 1})
    assert (
        render_event(nxt, "fr", 0, ["Anna", "Bruno"]) == "Au tour de Bruno\u00a0: 1 lancer au plus."
    )


def test_hot_path_events_equal_events_built_from_dicts() -> None:
    """flow builds roll/next events from pre-sorted pairs; they must equal the usual form."""
    match = Match(RULES, 2, seed=1)
    match.act(0, RULES.legal_actions(match.state)[0])
    for _, event in match.events:
        assert event == Event(event.kind, event.seat, event.details)
        assert Event.from_json(event.to_json()) == event
