"""A sentence said once for good (a table's history item, ``remember=False``) reads
exactly as one said step by step, whatever the listener's seat and names: the recipe
made for one table's names (``Voice._said_once``) serves every other table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.games import get_rules
from zanzibar.l10n import Listener, Msg, Seat, Voice, languages
from zanzibar.l10n import voice as voice_module
from zanzibar.l10n.catalogue import Catalogue

from .corpus import CHESS_GAMES, NAMES, chess_events

GAMES = ("421", "zilch", CHESS_GAMES[0])
#: Names in turn: a recipe made with the first must not keep them; elision in French
#: ("d'Éric", "de Hugo"), an empty name ("#1"), braces, fewer names than seats.
NAME_SETS: tuple[tuple[str, ...], ...] = (
    NAMES,
    ("Hugo", "Éric", "Bruno", "Anna"),
    ("", "Zoé {0} }{", "Ulrich", "Ines"),
    ("Anna",),
)


def _events(game: str) -> list[Event]:
    """The events of a few short random games (and made-up chess events)."""
    rules = get_rules(game)
    seats = 2 if game in CHESS_GAMES else 3
    events: list[Event] = []
    for seed in range(3):
        match: Match[Any, Any] = Match(rules, seats, rules.options.resolve(), seed=seed)
        rng = random.Random(seed)
        while not match.is_over and len(match.log) < 200:
            match.act(match.to_act, rng.choice(list(match.legal_actions())))  # type: ignore[arg-type]
        events += [event for _, event in match.events]
    if game in CHESS_GAMES:
        events += chess_events(game)
    return events


@pytest.mark.parametrize("lang", languages())
def test_a_sentence_said_once_reads_as_one_said_step_by_step(lang: str) -> None:
    once_catalogue = Catalogue()
    once, steps = Voice(lang, once_catalogue), Voice(lang, Catalogue())
    said = 0
    for game in GAMES:
        rules = get_rules(game)
        for event in _events(game):
            msg = rules.message_of(event)
            for names in NAME_SETS:
                for seat in (None, 0, 1, 2):
                    listener = Listener(seat, names)
                    expected = steps.say(msg, listener)
                    assert once.say(msg, listener, remember=False) == expected, (msg, listener)
                    said += 1
    recipes = list(once_catalogue.recipes.values())
    made = [r for r in recipes if r is not voice_module._NO_RECIPE]
    assert said > 1000 and len(made) > 50
    if lang == "fr":  # a name Fluent elides ("d'Anna") is not a blank: said step by step
        assert len(made) < len(recipes)


def test_a_recipe_fills_in_the_names_of_each_table() -> None:
    """One recipe per message and listener's seat; each table's names filled in."""
    catalogue = Catalogue()
    voice = Voice("en", catalogue)
    throw = Msg("dice421-throw", dice="4 2 1", kind="top", x=4)
    roll = Msg("dice421-roll", name=Seat(1), throw=throw, roll=1, limit=3)
    assert voice.say(roll, Listener(1, ("Anna", "Bruno")), remember=False) == (
        "You rolled 4 2 1, a 421 (roll 1 of 3)."
    )
    assert voice.say(roll, Listener(None, ("Anna", "Bruno")), remember=False) == (
        "Bruno rolled 4 2 1, a 421 (roll 1 of 3)."
    )
    assert voice.say(roll, Listener(None, ("Zoé", "Hugo")), remember=False) == (
        "Hugo rolled 4 2 1, a 421 (roll 1 of 3)."
    )
    template, parts = catalogue.recipes[("en", voice.strict, roll, None)]
    assert parts == (1, "4 2 1, a 421", "1") and "Bruno" not in template
    assert ("en", voice.strict, roll, 1) in catalogue.recipes
