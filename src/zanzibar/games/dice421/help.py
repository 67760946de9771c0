"""Help and rules texts of 421 (words: l10n/<lang>/help.ftl).

``rules_text(lang, options)`` describes the rules *in force*: it follows the
options of the table, so a bar table reads the bar rules. Players hear the
rules only; their sources are in docs/rules-421.md.

>>> "rampo" in rules_text("en", {"ties": "rampo"})
True
>>> "Maj+1 à 6" in help_text("fr")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zanzibar.games.dice421.options import OPTIONS, Config
from zanzibar.l10n import Msg, Voice
from zanzibar.l10n.voice import sentence_lines


def help_text(lang: str) -> str:
    """Keys and typed commands (l10n/<lang>/help.ftl)."""
    return Voice(lang).say("help-dice421-keys")


def _order(config: Config) -> Msg:
    if config.fiche_order == "salon":
        return Msg("help-dice421-order-salon")
    if config.fiche_order == "fiche_first":
        return Msg("help-dice421-order-fiche-first")
    return Msg("help-dice421-order-fiches-above")


def rules_msgs(c: Config) -> list[Msg]:
    """The rules in force as messages, in the order a player learns them."""
    msgs = [
        Msg("help-dice421-goal"),
        Msg("help-dice421-tokens", tokens=c.tokens),
        Msg("help-dice421-phases"),
        Msg("help-dice421-rolls", rolls=c.max_rolls),
        Msg("help-dice421-out" if c.zero_after_charge == "out" else "help-dice421-stay"),
        Msg("help-dice421-dry" if c.dry_charge else "help-dice421-rerolls"),
        Msg("help-dice421-combos"),
        Msg("help-dice421-others", nenette=c.nenette),
        _order(c),
        Msg("help-dice421-later-wins" if c.ties == "later_wins" else "help-dice421-rampo"),
    ]
    if c.fewer_rolls_win:
        msgs.append(Msg("help-dice421-fewer-rolls"))
    msgs.append(
        Msg("help-dice421-strongest" if c.token_amount == "strongest" else "help-dice421-own")
    )
    if c.nenette == "penalty2":
        msgs.append(Msg("help-dice421-penalty"))
    msgs.append(Msg("help-dice421-caps"))
    lowest = c.first_player == "lowest_throw"
    msgs.append(Msg("help-dice421-starts-lowest" if lowest else "help-dice421-starts-seat"))
    msgs.append(Msg("help-dice421-rounds", rounds=c.rounds_to_lose))
    msgs.append(Msg("help-dice421-places"))  # how a rated game orders players (docs/ratings.md)
    return msgs


def rules_text(lang: str, options: Mapping[str, Any]) -> str:
    """The rules in force with these options, one short sentence a line."""
    config = Config.from_options(options)
    preset = OPTIONS.matching_preset(config.to_options())
    voice = Voice(lang)
    head = voice.say(Msg("help-dice421-head", preset=preset or "custom"))
    return "\n".join([head, *sentence_lines(voice.say(m) for m in rules_msgs(config))])
