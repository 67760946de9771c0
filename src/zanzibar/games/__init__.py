"""The games, one package each, and the registry that finds them by name.

The registry imports a game only when it is asked for, so the command line
starts fast and a game's heavy modules (solvers) load on demand.
"""

from __future__ import annotations

import importlib
from typing import Any

from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.rules import GameRules

#: Game name -> "module:attribute" of its rules object, with accepted aliases.
_GAMES: dict[str, str] = {
    "421": "zanzibar.games.dice421.rules:RULES",
    "zilch": "zanzibar.games.zilch.rules:RULES",
    "zanzibar-s": "zanzibar.games.chess.zanzibar_s:RULES",
    "chess": "zanzibar.games.chess.orthodox:RULES",
    "shako": "zanzibar.games.chess.shako:RULES",
    "metamachy": "zanzibar.games.chess.metamachy:RULES",
}
_ALIASES: dict[str, str] = {
    "zanzibar": "421",
    "zilch5000": "zilch",
    "farkle": "zilch",
    "zanzibars": "zanzibar-s",
}


def game_names() -> list[str]:
    """Every game the salon offers that is installed."""
    names = []
    for name in _GAMES:
        try:
            get_rules(name)
        except ZanzibarError:
            continue
        names.append(name)
    return names


def canonical_name(name: str) -> str:
    """Resolve an alias ("zanzibar" -> "421")."""
    key = name.strip().lower()
    return _ALIASES.get(key, key)


def get_rules(name: str) -> GameRules[Any, Any]:
    """The rules object of a game, by name or alias."""
    key = canonical_name(name)
    target = _GAMES.get(key)
    if target is None:
        raise ZanzibarError(f"unknown game '{name}' (games: {', '.join(_GAMES)})")
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise ZanzibarError(f"game '{name}' is not available") from None
        raise
    rules: GameRules[Any, Any] = getattr(module, attribute)
    return rules
