"""Zilch's events and read-outs as catalogue messages (words: l10n/<lang>/zilch.ftl).

Events become one :class:`Msg` each, the acting seat passed as a :class:`Seat`
so that the catalogue picks "you bank" or "Anna banks" for each listener.
"""

from __future__ import annotations

from collections.abc import Sequence

from zanzibar.engine.events import Event
from zanzibar.l10n import Msg, Seat


def dice_words(dice: Sequence[int]) -> str:
    """Dice as a screen reader reads them: ``"1 5 3"``."""
    return " ".join(str(d) for d in dice)


def message_of(event: Event) -> Msg:
    """The message of one Zilch event."""
    kind = event.kind
    who = Seat(event.seat) if event.seat is not None else None
    if kind == "turn":
        return Msg("zilch-turn", name=who, stage=event.get("stage", "main"))
    if kind == "roll":
        return Msg("zilch-roll", name=who, dice=dice_words(event.get("dice", ())))
    if kind == "zilch":
        return Msg("zilch-zilch", name=who, lost=event.get("lost", 0))
    if kind == "set_aside":
        return Msg(
            "zilch-set-aside",
            name=who,
            dice=dice_words(event.get("dice", ())),
            points=event.get("points"),
            turn=event.get("turn"),
        )
    if kind == "hot_dice":
        return Msg("zilch-hot-dice", name=who, turn=event.get("turn"))
    if kind in ("bank", "penalty"):
        return Msg(f"zilch-{kind}", name=who, points=event.get("points"), total=event.get("total"))
    if kind == "final_round":
        return Msg("zilch-final-round", name=who, score=event.get("score"))
    if kind == "tie_break":
        seats = tuple(Seat(s) for s in event.get("seats", ()))
        return Msg("zilch-tie-break", score=event.get("score"), names=seats)
    if kind == "game_over":
        winners = tuple(event.get("winners", ()))
        if len(winners) == 1:
            return Msg("zilch-game-over", name=Seat(winners[0]), score=event.get("score"))
        return Msg(
            "zilch-game-over-shared",
            names=tuple(Seat(s) for s in winners),
            score=event.get("score"),
        )
    return Msg("engine-event-unknown", kind=kind)


#: Every event kind Zilch emits (the l10n tests render each).
EVENT_KINDS: tuple[str, ...] = (
    "turn",
    "roll",
    "zilch",
    "set_aside",
    "hot_dice",
    "bank",
    "penalty",
    "final_round",
    "tie_break",
    "game_over",
)
