"""An event's message is made once for all who hear it, and reads the same to each."""

from __future__ import annotations

from typing import Any

import pytest

from zanzibar.engine import rules as rules_module
from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.games.dice421.rules import RULES, Dice421Rules


def test_an_event_message_is_made_once_for_all_its_listeners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    match = Match(RULES, 3, seed=11)
    seat = match.to_act
    assert seat is not None
    match.act(seat, match.legal_actions()[0])
    stored = [event.to_json() for _, event in match.events]
    expected = {
        (i, viewer): RULES.render_event(
            Event.from_json(data), "fr", viewer, ["Anna", "Bruno", "Zoé"]
        )
        for i, data in enumerate(stored)
        for viewer in (0, 1, 2, None)
    }
    rules_module._message_of.cache_clear()
    made: list[Event] = []
    real = Dice421Rules.message_of

    def counting(self: Dice421Rules, event: Event) -> Any:
        made.append(event)
        return real(self, event)

    monkeypatch.setattr(Dice421Rules, "message_of", counting)
    for i, data in enumerate(stored):
        for viewer in (0, 1, 2, None):
            # decoded afresh for each listener, as the salon does
            text = RULES.render_event(Event.from_json(data), "fr", viewer, ["Anna", "Bruno", "Zoé"])
            assert text == expected[(i, viewer)]
    assert len(made) == len(stored)
    actor = Event.from_json(stored[0]).seat
    if actor is not None:
        others = [expected[(0, v)] for v in (0, 1, 2) if v != actor]
        assert others == [expected[(0, None)]] * 2
