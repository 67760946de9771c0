"""Every 421 sentence, in English and French, for screen readers and the log.

Events become one short sentence each, from the viewer's seat: "You rolled
4 2 1, a 421." for the roller, "Anna rolled 4 2 1, a 421." for everybody else.
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
from typing import Any

from zanzibar.engine.events import Event
from zanzibar.engine.i18n import join_words, seat_name
from zanzibar.games.dice421.combos import Throw, category, normalise
from zanzibar.games.dice421.state import State


def dice_text(dice: Sequence[int]) -> str:
    """Dice as spoken: "4 2 1"."""
    return " ".join(str(d) for d in dice)


def combo_name(throw: Throw, lang: str) -> str:
    """The name of a combination, or "" for an ordinary throw.

    >>> combo_name((5, 1, 1), "en"), combo_name((5, 1, 1), "fr")
    ('a pure 5', 'un 5 pur')
    """
    kind = category(throw)
    x = throw[0]
    names = {
        "en": {
            "421": "a 421",
            "aces": "three aces",
            "baraque": f"three {x}s",
            "fiche": f"a pure {x}",
            "straight": "a straight",
            "nenette": "a nénette",
            "other": "",
        },
        "fr": {
            "421": "un 421",
            "aces": "un brelan d'as",
            "baraque": f"un brelan de {x}",
            "fiche": f"un {x} pur",
            "straight": "une suite",
            "nenette": "une nénette",
            "other": "",
        },
    }
    return (names.get(lang) or names["en"])[kind]


def throw_text(dice: Sequence[int], lang: str) -> str:
    """Dice with their combination's name: "4 2 1, a 421"."""
    name = combo_name(normalise(dice), lang)
    return f"{dice_text(dice)}, {name}" if name else dice_text(dice)


def _count(n: int, lang: str, en: str, fr: str) -> str:
    word = en if lang != "fr" else fr
    return f"{n} {word}{'' if n == 1 else 's'}"


def tokens_text(n: int, lang: str) -> str:
    """ "1 token", "5 tokens" / "5 jetons"."""
    return _count(n, lang, "token", "jeton")


def rolls_text(n: int, lang: str) -> str:
    """ "1 roll", "3 rolls" / "3 lancers"."""
    return _count(n, lang, "roll", "lancer")


class _Who:
    """Names a seat from the viewer's point of view, with the right verb forms."""

    def __init__(self, seat: int | None, viewer: int | None, names: Sequence[str], lang: str):
        self.you = seat is not None and seat == viewer
        self.name = "" if seat is None else seat_name(names, seat)
        self.lang = lang

    def __str__(self) -> str:
        if self.you:
            return "you" if self.lang != "fr" else "vous"
        return self.name

    def cap(self) -> str:
        text = str(self)
        return text[:1].upper() + text[1:]

    def verb(self, you: str, other: str) -> str:
        return you if self.you else other

    def of(self) -> str:
        """French "de Bruno" / "d'Anna" (elision before a vowel)."""
        return f"d'{self.name}" if self.name[:1].lower() in "aeiouyéèêàâîôûh" else f"de {self.name}"

    def possessive(self) -> str:
        if self.lang == "fr":
            return "vous" if self.you else self.name
        return "your" if self.you else f"{self.name}'s"


def _phase_name(phase: str, lang: str) -> str:
    if lang == "fr":
        return {"charge": "charge", "decharge": "décharge", "draw": "tirage", "over": "fin"}[phase]
    return {"charge": "charge", "decharge": "décharge", "draw": "draw", "over": "over"}[phase]


def render_event(event: Event, lang: str, viewer: int | None, names: Sequence[str]) -> str:
    """One short sentence for an event."""
    renderer = _RENDERERS.get(event.kind)
    if renderer is None:
        return f"{event.kind}"
    who = _Who(event.seat, viewer, names, lang)
    return renderer(event, lang, who, viewer, names)


def _roll(event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]) -> str:
    dice = event.get("dice")
    roll, limit = event.get("roll"), event.get("limit")
    if lang == "fr":
        count = f" (lancer {roll} sur {limit})" if limit > 1 else ""
        verb = who.verb("avez lancé", "a lancé")
        return f"{who.cap()} {verb} {throw_text(dice, lang)}{count}."
    count = f" (roll {roll} of {limit})" if limit > 1 else ""
    return f"{who.cap()} rolled {throw_text(dice, lang)}{count}."


def _stop(event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]) -> str:
    dice, rolls = event.get("dice"), event.get("rolls")
    if lang == "fr":
        verb = who.verb("vous arrêtez", "s'arrête")
        return f"{who.cap()} {verb} à {dice_text(dice)} après {rolls_text(rolls, lang)}."
    verb = who.verb("stop", "stops")
    return f"{who.cap()} {verb} at {dice_text(dice)} after {rolls_text(rolls, lang)}."


def _next(event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]) -> str:
    limit = event.get("limit")
    if lang == "fr":
        head = "À vous" if who.you else f"Au tour {who.of()}"
        return f"{head} : {rolls_text(limit, lang)} au plus."
    head = "Your turn" if who.you else f"{who}'s turn"
    return f"{head}: up to {rolls_text(limit, lang)}."


def _turn_start(
    event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]
) -> str:
    phase, limit, pot, turn = (event.get(k) for k in ("phase", "limit", "pot", "turn"))
    if lang == "fr":
        pot_text = f", {tokens_text(pot, lang)} au pot" if phase == "charge" else ""
        verb = who.verb("commencez", "commence")
        return (
            f"Tour {turn}, {_phase_name(phase, lang)}{pot_text} : {who} {verb}, "
            f"{rolls_text(limit, lang)} au plus."
        )
    pot_text = f", {tokens_text(pot, lang)} in the pot" if phase == "charge" else ""
    verb = who.verb("start", "starts")
    return (
        f"Turn {turn}, {_phase_name(phase, lang)}{pot_text}: {who} {verb}, "
        f"up to {rolls_text(limit, lang)}."
    )


def _names(seats: Sequence[int], lang: str, viewer: int | None, names: Sequence[str]) -> str:
    return join_words([str(_Who(s, viewer, names, lang)) for s in seats], lang)


def _rampo(event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]) -> str:
    seats = _names(event.get("seats"), lang, viewer, names)
    if lang == "fr":
        what = "la plus faible" if event.get("for") == "worst" else "la meilleure"
        return f"Rampo entre {seats} pour {what} combinaison : un lancer chacun."
    what = "worst" if event.get("for") == "worst" else "best"
    return f"Rampo between {seats} for the {what} throw: one roll each."


def _redraw(event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]) -> str:
    seats = _names(event.get("seats"), lang, viewer, names)
    if lang == "fr":
        return f"Égalité pour le plus petit lancer : {seats} relancent."
    return f"Tie for the lowest throw: {seats} roll again."


def _starter(event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]) -> str:
    if lang == "fr":
        verb = who.verb(
            "avez le plus petit lancer et commencez", "a le plus petit lancer et commence"
        )
        return f"{who.cap()} {verb}."
    verb = who.verb("have the lowest throw and start", "has the lowest throw and starts")
    return f"{who.cap()} {verb}."


def _turn_end(event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]) -> str:
    phase, amount, wanted, pot = (event.get(k) for k in ("phase", "amount", "wanted", "pot"))
    winner = _Who(event.get("winner"), viewer, names, lang)
    loser_dice, winner_dice = event.get("loser_dice"), event.get("winner_dice")
    capped = amount < wanted
    if lang == "fr":
        head = f"{who.cap()} {who.verb('perdez', 'perd')} le tour avec {dice_text(loser_dice)}"
        cap = " (tout ce qui restait)" if capped else ""
        if phase == "charge":
            take = who.verb("prenez", "prend")
            return f"{head} et {take} {tokens_text(amount, lang)} au pot{cap} ; il en reste {pot}."
        to = "vous" if who.you else "lui"
        give = winner.verb("donnez", "donne")
        return (
            f"{head} ; {winner} {to} {give} {tokens_text(amount, lang)}{cap} "
            f"avec {dice_text(winner_dice)}."
        )
    head = f"{who.cap()} {who.verb('lose', 'loses')} the turn with {dice_text(loser_dice)}"
    cap = " (all that was left)" if capped else ""
    if phase == "charge":
        take = who.verb("take", "takes")
        return f"{head} and {take} {tokens_text(amount, lang)} from the pot{cap}; {pot} left."
    give = winner.verb("give", "gives")
    target = str(who)
    return (
        f"{head}; {winner} {give} {target} {tokens_text(amount, lang)}{cap} "
        f"with {dice_text(winner_dice)}."
    )


def _charge_over(
    event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]
) -> str:
    if lang == "fr":
        return "La charge est finie : place à la décharge."
    return "The charge is over: the décharge begins."


def _out(event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]) -> str:
    if lang == "fr":
        if who.you:
            return "Vous n'avez plus de jetons : vous sortez, gagné !"
        return f"{who} n'a plus de jetons et sort : gagné !"
    if who.you:
        return "You have no more tokens: you are out, and safe!"
    return f"{who} has no more tokens and is out, safe."


def _round_lost(
    event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]
) -> str:
    losses, needed = event.get("losses"), event.get("needed")
    if needed == 1:
        if lang == "fr":
            return f"{who.cap()} {who.verb('avez', 'a')} tous les jetons."
        return f"{who.cap()} {who.verb('hold', 'holds')} all the tokens."
    if lang == "fr":
        count = f" ({losses} sur {needed})" if needed > 1 else ""
        verb = who.verb("avez tous les jetons et perdez", "a tous les jetons et perd")
        return f"{who.cap()} {verb} la manche{count}."
    count = f" ({losses} of {needed})" if needed > 1 else ""
    verb = who.verb("hold all the tokens and lose", "holds all the tokens and loses")
    return f"{who.cap()} {verb} the round{count}."


def _round_start(
    event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]
) -> str:
    if lang == "fr":
        return f"Manche {event.get('round')} : nouvelle charge, {who} {who.verb('commencez', 'commence')}."
    return f"Round {event.get('round')}: a new charge, {who} {who.verb('start', 'starts')}."


def _game_over(event: Event, lang: str, who: _Who, viewer: int | None, names: Sequence[str]) -> str:
    if lang == "fr":
        verb = who.verb("avez perdu la partie et payez", "a perdu la partie et paie")
        return f"{who.cap()} {verb} la tournée !"
    verb = who.verb("have lost the game and pay", "has lost the game and pays")
    return f"{who.cap()} {verb} the round of drinks!"


_RENDERERS: dict[str, Any] = {
    "roll": _roll,
    "stop": _stop,
    "next": _next,
    "turn_start": _turn_start,
    "rampo": _rampo,
    "redraw": _redraw,
    "starter": _starter,
    "turn_end": _turn_end,
    "charge_over": _charge_over,
    "out": _out,
    "round_lost": _round_lost,
    "round_start": _round_start,
    "game_over": _game_over,
}

EVENT_KINDS: tuple[str, ...] = tuple(_RENDERERS)

# -- questions about a state ----------------------------------------------------------------

TOPICS: tuple[str, ...] = ("scores", "turn", "status", "dice")


def describe(state: State, topic: str, lang: str, viewer: int | None, names: Sequence[str]) -> str:
    """Answer "scores", "turn", "status" or "dice" about ``state``."""
    if topic == "scores":
        return _scores(state, lang, viewer, names)
    if topic == "turn":
        return _turn(state, lang, viewer, names)
    if topic == "status":
        return _status(state, lang, viewer, names)
    if topic == "dice":
        return _dice(state, lang, viewer, names)
    if lang == "fr":
        return f"Sujet inconnu « {topic} » ; sujets : {', '.join(TOPICS)}."
    return f"Unknown topic '{topic}'; topics: {', '.join(TOPICS)}."


def _scores(state: State, lang: str, viewer: int | None, names: Sequence[str]) -> str:
    parts = []
    for seat in range(state.seats):
        who = _Who(seat, viewer, names, lang)
        text = f"{who.cap()}: {tokens_text(state.tokens[seat], lang)}"
        if state.phase == "decharge" and seat not in state.active:
            text += " (sorti)" if lang == "fr" else " (out)"
        if state.config.rounds_to_lose > 1 and state.losses[seat]:
            lost = state.losses[seat]
            text += f", {lost} manche(s) perdue(s)" if lang == "fr" else f", {lost} round(s) lost"
        parts.append(text)
    pot = f"pot {state.pot}" if state.phase in {"charge", "draw"} else ""
    body = "; ".join(parts)
    return f"{body}; {pot}." if pot else f"{body}."


def _turn(state: State, lang: str, viewer: int | None, names: Sequence[str]) -> str:
    fr = lang == "fr"
    if state.phase == "over":
        who = _Who(state.loser, viewer, names, lang)
        return (
            f"La partie est finie : {who} {who.verb('avez', 'a')} perdu."
            if fr
            else f"The game is over: {who} lost."
        )
    if state.playoff:
        seat = state.contenders[len(state.playoff_throws)]
        who = _Who(seat, viewer, names, lang)
        kind = "Tirage" if state.playoff == "draw" else "Rampo"
        if not fr and state.playoff == "draw":
            kind = "Draw for who starts"
        return f"{kind} : à {who} de lancer." if fr else f"{kind}: {who} to roll."
    rolling = state.current
    assert rolling is not None
    who = _Who(rolling, viewer, names, lang)
    if fr:
        head = "À vous" if who.you else f"Au tour {who.of()}"
        return f"{head} : lancer {state.rolls + 1} sur {state.limit} au plus."
    head = "Your turn" if who.you else f"{who}'s turn"
    return f"{head}: roll {state.rolls + 1} of up to {state.limit}."


def _status(state: State, lang: str, viewer: int | None, names: Sequence[str]) -> str:
    fr = lang == "fr"
    parts = []
    phase = _phase_name(state.phase, lang)
    if state.config.rounds_to_lose > 1:
        parts.append(f"manche {state.round}" if fr else f"round {state.round}")
    parts.append(phase[:1].upper() + phase[1:])
    if state.phase in {"charge", "draw"}:
        parts.append(f"{state.pot} au pot" if fr else f"pot {state.pot}")
    if state.phase in {"charge", "decharge"}:
        parts.append(f"tour {state.turns + 1}" if fr else f"turn {state.turns + 1}")
        parts.append(
            f"limite {rolls_text(state.limit, lang)}"
            if fr
            else f"limit {rolls_text(state.limit, lang)}"
        )
    text = ", ".join(parts) + ". "
    played = [
        f"{_Who(seat, viewer, names, lang).cap()} {dice_text(throw)} ({rolls_text(rolls, lang)})"
        for seat, throw, rolls in state.done
    ]
    if played:
        text += ("Joué : " if fr else "Played: ") + "; ".join(played) + ". "
    return text + _turn(state, lang, viewer, names) + " " + _dice(state, lang, viewer, names)


def _dice(state: State, lang: str, viewer: int | None, names: Sequence[str]) -> str:
    fr = lang == "fr"
    seat = state.current
    if seat is not None and state.dice:
        who = _Who(seat, viewer, names, lang)
        used = rolls_text(state.rolls, lang)
        if fr:
            return (
                f"{who.cap()} {who.verb('avez', 'a')} {throw_text(state.dice, lang)} après {used}."
            )
        return f"{who.cap()} {who.verb('have', 'has')} {throw_text(state.dice, lang)} after {used}."
    if state.done:
        last_seat, throw, _ = state.done[-1]
        who = _Who(last_seat, viewer, names, lang)
        if fr:
            return f"Dernier jet : {who} {throw_text(throw, lang)}."
        return f"Last throw: {who} {throw_text(throw, lang)}."
    return "Pas encore de dés ce tour." if fr else "No dice rolled yet this turn."
