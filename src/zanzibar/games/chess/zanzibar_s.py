"""Zanzibar-S: the rules object the registry serves as "zanzibar-s".

The variant itself is data (``variants/zanzibar-s.toml``); this module adds
the seed text's extra promotions as a table option, off by default.
"""

from __future__ import annotations

from zanzibar.games.chess.rules import ChessRules
from zanzibar.games.chess.variant import Promotion, load_variant

#: From seed 003 (not in the author's Zanzibar-S rules; they come from Gigachess):
#: Knight and Camel promote to Buffalo, Elephant and Machine to Lion, on the last rank.
SEED_PROMOTIONS = {
    "N": Promotion((12,), ("F",), True),
    "M": Promotion((12,), ("F",), True),
    "E": Promotion((12,), ("L",), True),
    "W": Promotion((12,), ("L",), True),
}

RULES = ChessRules(
    load_variant("zanzibar-s"),
    extra_promotions=SEED_PROMOTIONS,
    extra_promotions_source="seed 003 (paragraphs on Knight, Elephant, Machine and Camel)",
)
