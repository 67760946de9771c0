"""Rules texts of the chess games (words: l10n/<lang>/help.ftl), one short sentence a line.

The Zanzibar-S rules come from the research notes (the author's pages and
H. G. Muller's diagram); where the seed text differs, the option that follows
it says so. Players hear the rules; the sources are in docs/rules-zanzibar-s.md
and in each variant's file. Other variants' rules are written from their data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zanzibar.games.chess.notation import piece_msg
from zanzibar.games.chess.variant import Variant
from zanzibar.l10n import AnyOf, Msg, Voice
from zanzibar.l10n.voice import sentence_lines

#: Elo estimates by level with their 95 % interval: orthodox chess against Stockfish 15.1
#: limited by UCI_Elo (bench/strength.py; small samples on a busy shared machine, see the
#: rounds in docs/chess-strength.md, which say which run each figure comes from: easy from the fixed-node
#: run of 2026-11-26, medium and hard from it pooled with the fixed-node, fixed-depth runs of
#: that afternoon and night, the morning of 2026-11-27 (hard) and the evening of 2026-11-27
#: (both, the engine of 145bcd1 with the King-place term: medium 12 games, 1,903, hard 5
#: games, 1,732; ours at 30,000 / 100,000 nodes a move, Stockfish at depth 12), casual from
#: the clock run before). Pooled over the bot's versions of those days, as the help says.
LEVEL_STRENGTH: dict[str, tuple[int, int, int]] = {
    "easy": (1104, 732, 1477),
    "casual": (1581, 1307, 1854),
    "medium": (1880, 1757, 2002),
    "hard": (1926, 1775, 2078),
}
#: Games behind each estimate of LEVEL_STRENGTH.
LEVEL_GAMES: dict[str, int] = {"easy": 8, "casual": 8, "medium": 38, "hard": 28}
#: Zanzibar-S self-play between adjacent levels: (stronger, weaker, points, games, games
#: that ended in checkmate, move cap, and the 95 % interval of the stronger level's share
#: of the points in percent, as bench/strength.py prints it; the others reached the cap or
#: a draw rule). Each pair
#: from bench/strength.py --selfplay --nps 30000 --scale 0.5 --max-moves 150
#: (docs/chess-strength.md says which runs): casual/easy from the afternoon of 2026-11-26, the upper pairs
#: that afternoon's games pooled with the night's (--seed 6000 on), for hard/medium the
#: morning's of 2026-11-27 (--seed 7000), and both with the night of 2026-11-27 (engine of
#: 8e43756: medium/casual 18.5/20, hard/medium 3/3; bench/data/ladder-2026-11-27e, --pool).
LADDER: tuple[tuple[str, str, float, int, int, int, int, int], ...] = (
    ("casual", "easy", 11.5, 12, 11, 150, 88, 100),
    ("medium", "casual", 23.5, 25, 24, 150, 85, 100),
    ("hard", "medium", 5.5, 6, 5, 150, 75, 100),
)


def _level(name: str) -> Msg:
    return Msg("salon-bot-level", level=name)


def bot_level_msgs() -> list[Msg]:
    """The bot levels, what separates them, and their measured strength."""
    strengths = tuple(
        Msg(
            "help-chess-bot-strength-level",
            level=_level(name),
            elo=str(e),
            low=str(lo),
            high=str(hi),
            games=LEVEL_GAMES[name],
        )
        for name, (e, lo, hi) in LEVEL_STRENGTH.items()
    )
    pairs = [
        Msg(
            "help-chess-bot-ladder-pair",
            strong=_level(s),
            weak=_level(w),
            points=p,
            games=g,
            mates=m,
            cap=c,
            low=lo,
            high=hi,
        )
        for s, w, p, g, m, c, lo, hi in LADDER
    ]
    return [
        Msg("help-chess-bot-levels"),
        Msg("help-chess-bot-strength", levels=strengths),
        Msg("help-chess-bot-ladder"),
        *pairs,
    ]


def _end_msgs(variant: Variant, options: Mapping[str, Any]) -> list[Msg]:
    resets = variant.move_rule_resets
    return [
        Msg("help-chess-repetition", times=int(options.get("repetition", 3))),
        Msg(
            "help-chess-move-rule",
            moves=int(options.get("move_rule", 50)),
            piece1=piece_msg(variant, resets[0]),
            piece2=piece_msg(variant, resets[1]) if len(resets) > 1 else "none",
        ),
    ]


def rules_msgs(variant: Variant, options: Mapping[str, Any]) -> list[Msg]:
    """The rules in force for ``variant`` with these table options, as messages."""
    if variant.name == "zanzibar-s":
        return [
            Msg("help-zanzibar-s-intro"),
            Msg("help-chess-king-jump-checked"),
            Msg("help-zanzibar-s-promotions", extra=int(bool(options.get("seed_promotions")))),
            Msg("help-zanzibar-s-end"),
            *_end_msgs(variant, options),
            Msg("help-zanzibar-s-inherited"),
            *bot_level_msgs(),
        ]
    return [*generic_rules(variant, options), *bot_level_msgs()]


def generic_rules(variant: Variant, options: Mapping[str, Any]) -> list[Msg]:
    """Rules of a data-defined variant, written from its definition."""
    msgs = [
        Msg("help-chess-title", title=Msg(f"games-title-{variant.name}")),
        Msg("help-chess-board", files=variant.files, ranks=variant.ranks),
    ]
    for piece in variant.pieces:
        promotes: Any = "none"
        if piece.promotion:
            promotes = AnyOf(piece_msg(variant, c) for c in piece.promotion.choices)
        msgs.append(
            Msg(
                "help-chess-piece",
                name=piece_msg(variant, piece.letter),
                letter=piece.letter,
                betza=piece.betza,
                royal=int(bool(piece.royal)),
                promotes=promotes,
                en_passant=int(bool(piece.en_passant_capturable)),
            )
        )
    if variant.king_jump:
        msgs.append(Msg("help-chess-king-jump"))
    if any(variant.castling):
        msgs.append(Msg("help-chess-castling"))
    msgs.append(Msg("help-chess-stalemate", stalemate=variant.stalemate))
    msgs.extend(_end_msgs(variant, options))
    return msgs


def rules_text(variant: Variant, lang: str, options: Mapping[str, Any]) -> str:
    """The rules in force for ``variant`` with these table options, one sentence a line."""
    voice = Voice(lang)
    lines: list[str] = []
    for msg in rules_msgs(variant, options):
        lines.extend(sentence_lines(voice.say(msg).splitlines()))
    return "\n".join(lines)
