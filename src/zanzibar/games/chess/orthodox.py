"""The rules object of chess (registry name "chess"), from variants/chess.toml."""

from __future__ import annotations

from zanzibar.games.chess.rules import ChessRules
from zanzibar.games.chess.variant import load_variant

RULES = ChessRules(load_variant("chess"))
