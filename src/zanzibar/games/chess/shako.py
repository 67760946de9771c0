"""The rules object of shako (registry name "shako"), from variants/shako.toml."""

from __future__ import annotations

from zanzibar.games.chess.rules import ChessRules
from zanzibar.games.chess.variant import load_variant

RULES = ChessRules(load_variant("shako"))
