"""System sentences of the salon (words: l10n/<lang>/salon.ftl).

A system item is stored as data (a ``kind`` and its values); it becomes a
sentence only when sent, in the receiving user's language, like game events.
Names of bots are composed here too ("Bot 2 (hard)" / "Robot 2 (difficile)").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from zanzibar.l10n import Msg, Voice
from zanzibar.l10n.voice import voice_of

#: A bot's stored (English) name: "Bot 2 (hard)".
_BOT_NAME = re.compile(r"Bot (\d{1,3}) \(([a-z_]{1,20})\)")


@lru_cache(maxsize=4096)
def display_name(name: str, lang: str) -> str:
    """A seat's stored name as ``lang`` says it: bots' names are stored in English.

    Kept per (name, language): every sentence of a game names its seats, and a
    French bot's name is a sentence of the catalogue (the words never change
    while the salon runs).

    >>> display_name("Bot 2 (hard)", "fr"), display_name("Anna", "fr")
    ('Robot 2 (difficile)', 'Anna')
    """
    found = _BOT_NAME.fullmatch(name)
    if found is None or lang == "en":
        return name
    return bot_name(int(found.group(1)) - 1, found.group(2), lang)


def display_names(names: Sequence[str], lang: str) -> list[str]:
    """:func:`display_name` of each name."""
    return [display_name(n, lang) for n in names]


def _game_title(game: str, lang: str) -> str:
    from zanzibar.engine.errors import ZanzibarError
    from zanzibar.games import get_rules

    try:
        titles = get_rules(game).title
    except ZanzibarError:
        return game
    return titles.get(lang) or titles.get("en") or game


def system_msg(kind: str, values: Mapping[str, Any], lang: str) -> Msg:
    """The message of a system item (names localised, the game by its title)."""
    args: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, list | tuple):
            words = [display_name(str(v), lang) for v in value]
            args[key] = tuple(words) if words else Msg("salon-nobody")
            args["count"] = len(words)
        elif key == "name":
            args[key] = display_name(str(value), lang)
        elif key == "game":
            args[key] = _game_title(str(value), lang)
        else:
            args[key] = value
    return Msg(f"salon-{kind}", **args)


def system_text(kind: str, lang: str, values: Mapping[str, Any]) -> str:
    """The sentence of a system item in ``lang``.

    Lists of names (``players``, ``winners``) are joined the way a sentence
    joins them.

    >>> system_text("game_over", "fr", {"winners": ["Anna", "Bob"]})
    'La partie est finie. Gagnants\\xa0: Anna et Bob.'
    >>> system_text("joined", "en", {"name": "Anna", "seat": 1})
    'Anna sits down at seat 1.'
    """
    return voice_of(lang).say(system_msg(kind, values, lang))


def your_turn_text(lang: str, seconds: int | None) -> str:
    """The assertive "your turn" sentence, with the clock when one runs."""
    if seconds:
        return voice_of(lang).say(Msg("salon-your-turn-clock", seconds=seconds))
    return voice_of(lang).say(Msg("salon-your-turn"))


def bot_name(seat: int, level: str, lang: str = "en") -> str:
    """The display name of a bot sitting at ``seat`` (0-based).

    >>> bot_name(1, "hard")
    'Bot 2 (hard)'
    """
    voice = Voice(lang)
    return voice.say(
        Msg("salon-bot-name", seat=seat + 1, level=Msg("salon-bot-level", level=level))
    )
