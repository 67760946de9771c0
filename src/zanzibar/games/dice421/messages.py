"""Every 421 event and read-out as catalogue messages (words: l10n/<lang>/dice421.ftl).

Events become one message each, from the listener's seat: "You rolled 4 2 1, a
421." for the roller, "Anna rolled 4 2 1, a 421." for everybody else.
``describe`` answers questions about a state (scores, turn, status, dice).

>>> from zanzibar.engine.events import Event
>>> roll = Event("roll", 0, {"dice": [4, 2, 1], "roll": 1, "limit": 3, "kept": []})
>>> render_event(roll, "en", 0, ["Anna", "Bruno"])
'You rolled 4 2 1, a 421 (roll 1 of 3).'
>>> render_event(roll, "fr", 1, ["Anna", "Bruno"])
'Anna a lancé 4 2 1, un 421 (lancer 1 sur 3).'
"""

from __future__ import annotations

from collections.abc import Sequence

from zanzibar.engine.events import Event
from zanzibar.engine.rules import TOPIC_ALIASES
from zanzibar.games.dice421.combos import category, normalise
from zanzibar.games.dice421.state import State
from zanzibar.l10n import Listener, Msg, Seat, Voice


def dice_text(dice: Sequence[int]) -> str:
    """Dice as spoken: "4 2 1"."""
    return " ".join(str(d) for d in dice)


def throw_msg(dice: Sequence[int]) -> Msg:
    """Dice with their combination's name: "4 2 1, a 421"."""
    throw = normalise(dice)
    kind = category(throw)
    return Msg(
        "dice421-throw", dice=dice_text(dice), kind="top" if kind == "421" else kind, x=throw[0]
    )


def combo_name(dice: Sequence[int], lang: str) -> str:
    """The name of a combination, or "" for an ordinary throw.

    >>> combo_name((5, 1, 1), "en"), combo_name((5, 1, 1), "fr")
    ('a pure 5', 'un 5 pur')
    """
    text = Voice(lang).say(throw_msg(dice))
    return text.split(", ", 1)[1] if ", " in text else ""


def _tokens(n: int) -> Msg:
    return Msg("dice421-tokens", n=n)


def _rolls(n: int) -> Msg:
    return Msg("dice421-rolls", n=n)


def _seat(seat: int | None) -> Seat | None:
    return None if seat is None else Seat(seat)


def message_of(event: Event) -> Msg:
    """The message of one 421 event."""
    get = event.get
    who = _seat(event.seat)
    kind = event.kind
    if kind == "roll":
        return Msg(
            "dice421-roll",
            name=who,
            throw=throw_msg(get("dice")),
            roll=get("roll"),
            limit=get("limit"),
        )
    if kind == "stop":
        return Msg(
            "dice421-stop", name=who, dice=dice_text(get("dice")), rolls=_rolls(get("rolls"))
        )
    if kind == "next":
        return Msg("dice421-next", name=who, rolls=_rolls(get("limit")))
    if kind == "turn_start":
        phase = get("phase")
        return Msg(
            "dice421-turn-start",
            name=who,
            turn=get("turn"),
            phase=Msg("dice421-phase", phase=phase),
            pot=_tokens(get("pot")) if phase == "charge" else "none",
            rolls=_rolls(get("limit")),
        )
    if kind == "rampo":
        seats = tuple(Seat(s) for s in get("seats"))
        return Msg(
            "dice421-rampo", seats=seats, **{"for": "worst" if get("for") == "worst" else "best"}
        )
    if kind == "redraw":
        return Msg("dice421-redraw", seats=tuple(Seat(s) for s in get("seats")))
    if kind == "starter":
        return Msg("dice421-starter", name=who)
    if kind == "turn_end":
        capped = int(get("amount") < get("wanted"))
        if get("phase") == "charge":
            return Msg(
                "dice421-turn-end-charge",
                name=who,
                loser_dice=dice_text(get("loser_dice")),
                tokens=_tokens(get("amount")),
                capped=capped,
                pot=get("pot"),
            )
        return Msg(
            "dice421-turn-end-decharge",
            name=who,
            winner=_seat(get("winner")),
            loser_dice=dice_text(get("loser_dice")),
            winner_dice=dice_text(get("winner_dice")),
            tokens=_tokens(get("amount")),
            capped=capped,
        )
    if kind == "charge_over":
        return Msg("dice421-charge-over")
    if kind == "out":
        return Msg("dice421-out", name=who)
    if kind == "round_lost":
        return Msg("dice421-round-lost", name=who, losses=get("losses"), needed=get("needed"))
    if kind == "round_start":
        return Msg("dice421-round-start", name=who, round=get("round"))
    if kind == "game_over":
        return Msg("dice421-game-over", name=who)
    return Msg("engine-event-unknown", kind=kind)


EVENT_KINDS: tuple[str, ...] = (
    "roll",
    "stop",
    "next",
    "turn_start",
    "rampo",
    "redraw",
    "starter",
    "turn_end",
    "charge_over",
    "out",
    "round_lost",
    "round_start",
    "game_over",
)


def render_event(event: Event, lang: str, viewer: int | None, names: Sequence[str]) -> str:
    """One short sentence for an event."""
    return Voice(lang).say(message_of(event), Listener(viewer, tuple(names)))


# -- questions about a state ----------------------------------------------------------------

TOPICS: tuple[str, ...] = ("scores", "turn", "status", "dice")

#: The topics' French words, as the French read-outs name them.
DICE_TOPIC_ALIASES = {
    "tour": "turn",
    "état": "status",
    "etat": "status",
    "dés": "dice",
    "des": "dice",
}


def describe(state: State, topic: str, lang: str, viewer: int | None, names: Sequence[str]) -> str:
    """Answer "scores", "turn", "status" or "dice" about ``state``."""
    voice, listener = Voice(lang), Listener(viewer, tuple(names))
    topic = TOPIC_ALIASES.get(topic.strip().lower(), topic.strip().lower())
    if topic == "scores":
        return _scores(state, voice, listener)
    if topic == "turn":
        return voice.say(_turn(state), listener)
    if topic == "status":
        return _status(state, voice, listener)
    if topic == "dice":
        return voice.say(_dice(state), listener)
    return voice.say(Msg("dice421-unknown-topic", topic=topic))


def _scores(state: State, voice: Voice, listener: Listener) -> str:
    parts = []
    for seat in range(state.seats):
        out = state.phase == "decharge" and seat not in state.active
        lost = state.losses[seat] if state.config.rounds_to_lose > 1 else 0
        entry = Msg(
            "dice421-score",
            name=Seat(seat),
            tokens=_tokens(state.tokens[seat]),
            out=int(out),
            lost=lost,
        )
        parts.append(voice.say(entry, listener))
    pot: int | str = state.pot if state.phase in {"charge", "draw"} else "none"
    entries = voice.say("dice421-separator").join(parts)
    return voice.say(Msg("dice421-scores", entries=entries, pot=pot), listener)


def _turn(state: State) -> Msg:
    if state.phase == "over":
        return Msg("dice421-turn-over", name=_seat(state.loser))
    if state.playoff:
        seat = state.contenders[len(state.playoff_throws)]
        kind = "draw" if state.playoff == "draw" else "rampo"
        return Msg("dice421-turn-playoff", kind=kind, name=Seat(seat))
    assert state.current is not None
    return Msg("dice421-turn", name=Seat(state.current), roll=state.rolls + 1, limit=state.limit)


def _status(state: State, voice: Voice, listener: Listener) -> str:
    parts = [voice.say(Msg("dice421-status-phase", phase=state.phase))]
    if state.config.rounds_to_lose > 1:
        parts.append(voice.say(Msg("dice421-status-round", round=state.round)))
    if state.phase in {"charge", "draw"}:
        parts.append(voice.say(Msg("dice421-status-pot", pot=state.pot)))
    if state.phase in {"charge", "decharge"}:
        parts.append(voice.say(Msg("dice421-status-turn", turn=state.turns + 1)))
        parts.append(voice.say(Msg("dice421-status-limit", rolls=_rolls(state.limit))))
    text = [voice.say(Msg("dice421-status-head", parts=", ".join(parts)))]
    played = [
        voice.say(
            Msg(
                "dice421-status-played-entry",
                name=Seat(seat),
                dice=dice_text(throw),
                rolls=_rolls(rolls),
            ),
            listener,
        )
        for seat, throw, rolls in state.done
    ]
    if played:
        sep = voice.say("dice421-separator")
        text.append(voice.say(Msg("dice421-status-played", entries=sep.join(played))))
    text.append(voice.say(_turn(state), listener))
    text.append(voice.say(_dice(state), listener))
    return " ".join(text)


def _dice(state: State) -> Msg:
    seat = state.current
    if seat is not None and state.dice:
        return Msg(
            "dice421-dice-current",
            name=Seat(seat),
            throw=throw_msg(state.dice),
            rolls=_rolls(state.rolls),
        )
    if state.done:
        last_seat, throw, _ = state.done[-1]
        return Msg("dice421-dice-last", name=Seat(last_seat), throw=throw_msg(throw))
    return Msg("dice421-dice-none")
