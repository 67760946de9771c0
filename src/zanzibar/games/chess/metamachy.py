"""The rules object of metamachy (registry name "metamachy"), from variants/metamachy.toml."""

from __future__ import annotations

from zanzibar.games.chess.rules import ChessRules
from zanzibar.games.chess.variant import load_variant

RULES = ChessRules(load_variant("metamachy"))
