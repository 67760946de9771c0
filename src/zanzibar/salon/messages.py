"""System sentences of the salon, in English and French.

A system item is stored as data (a ``kind`` and its values); it becomes a
sentence only when sent, in the receiving user's language, like game events.
Names of bots are composed here too ("Bot 2 (hard)" / "Robot 2 (difficile)").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zanzibar.engine.i18n import Catalogue, join_words, translate

SYSTEM: Catalogue = {
    "en": {
        "joined": "{name} sits down at seat {seat}.",
        "left": "{name} leaves the table.",
        "watching": "{name} is watching.",
        "stopped_watching": "{name} stops watching.",
        "host": "{name} is now the host.",
        "bot_added": "{name} sits down at seat {seat}.",
        "bot_removed": "{name} leaves seat {seat}.",
        "kicked": "{name} was sent away by the host.",
        "takeover": "{name} is away; a bot plays for them.",
        "returned": "{name} is back and plays again.",
        "game_started": "The game of {game} begins: {players}.",
        "game_over": "The game is over. Winner: {winners}.",
        "game_draw": "The game is over: a draw.",
        "game_abandoned": "The game was abandoned.",
        "round_pause": "End of the round. The next round begins in {seconds} seconds.",
        "round_hold": "End of the round. The host holds the pause.",
        "held": "The host holds the pause between rounds.",
        "released": "The host no longer holds the pause.",
        "round_resume": "The next round begins.",
        "clock_timeout": "Time is up for {name}; a bot plays this turn.",
        "clock_set": "Turn clock: {seconds} seconds.",
        "clock_off": "The turn clock is off.",
        "options_changed": "The host changed the options: {options}.",
        "nobody": "nobody",
        "bot_name": "Bot {seat} ({level})",
    },
    "fr": {
        "joined": "{name} s'assoit à la place {seat}.",
        "left": "{name} quitte la table.",
        "watching": "{name} regarde la partie.",
        "stopped_watching": "{name} ne regarde plus la partie.",
        "host": "{name} est maintenant l'hôte.",
        "bot_added": "{name} s'assoit à la place {seat}.",
        "bot_removed": "{name} quitte la place {seat}.",
        "kicked": "{name} a été renvoyé par l'hôte.",
        "takeover": "{name} est absent ; un robot joue à sa place.",
        "returned": "{name} est de retour et reprend la main.",
        "game_started": "La partie commence ({game}) : {players}.",
        "game_over": "La partie est finie. Gagnant : {winners}.",
        "game_draw": "La partie est finie : match nul.",
        "game_abandoned": "La partie a été abandonnée.",
        "round_pause": "Fin de la manche. La manche suivante commence dans {seconds} secondes.",
        "round_hold": "Fin de la manche. L'hôte prolonge la pause.",
        "held": "L'hôte prolonge la pause entre les manches.",
        "released": "L'hôte ne prolonge plus la pause.",
        "round_resume": "La manche suivante commence.",
        "clock_timeout": "Temps écoulé pour {name} ; un robot joue ce tour.",
        "clock_set": "Pendule : {seconds} secondes par tour.",
        "clock_off": "La pendule est arrêtée.",
        "options_changed": "L'hôte a changé les options : {options}.",
        "nobody": "personne",
        "bot_name": "Robot {seat} ({level})",
    },
}

YOUR_TURN: Catalogue = {
    "en": {"your_turn": "Your turn.", "your_turn_clock": "Your turn. {seconds} seconds."},
    "fr": {
        "your_turn": "À vous de jouer.",
        "your_turn_clock": "À vous de jouer. {seconds} secondes.",
    },
}


def system_text(kind: str, lang: str, values: Mapping[str, Any]) -> str:
    """The sentence of a system item in ``lang``.

    Lists of names (``players``, ``winners``) are joined the way a sentence
    joins them.

    >>> system_text("game_over", "fr", {"winners": ["Anna", "Bob"]})
    'La partie est finie. Gagnant : Anna et Bob.'
    >>> system_text("joined", "en", {"name": "Anna", "seat": 1})
    'Anna sits down at seat 1.'
    """
    formatted: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, Mapping):  # words in each language (a game's title)
            formatted[key] = value.get(lang) or value.get("en") or ""
        elif isinstance(value, list | tuple):
            words = [str(v) for v in value]
            formatted[key] = join_words(words, lang) if words else translate(SYSTEM, lang, "nobody")
        else:
            formatted[key] = value
    return translate(SYSTEM, lang, kind, **formatted)


def your_turn_text(lang: str, seconds: int | None) -> str:
    """The assertive "your turn" sentence, with the clock when one runs."""
    if seconds:
        return translate(YOUR_TURN, lang, "your_turn_clock", seconds=seconds)
    return translate(YOUR_TURN, lang, "your_turn")


def bot_name(seat: int, level: str, lang: str = "en") -> str:
    """The display name of a bot sitting at ``seat`` (0-based).

    >>> bot_name(1, "hard")
    'Bot 2 (hard)'
    """
    return translate(SYSTEM, lang, "bot_name", seat=seat + 1, level=level)
