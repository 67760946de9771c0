"""Help (keys and commands) and rules texts of Zilch (words: l10n/<lang>/help.ftl).

The rules text is built from the options in force, so a table playing the
Farkle preset reads the Farkle rules. Players hear rules only; their sources
are in docs/rules-zilch.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zanzibar.games.zilch.options import SCHEMA
from zanzibar.l10n import Msg, Voice
from zanzibar.l10n.voice import sentence_lines


def help_text(lang: str) -> str:
    """Keys and typed commands (l10n/<lang>/help.ftl)."""
    return Voice(lang).say("help-zilch-keys")


def rules_msgs(o: Mapping[str, Any]) -> list[Msg]:
    """The rules in force with these (validated) options, as messages."""
    msgs = [Msg("help-zilch-dice"), Msg("help-zilch-scoring", three_ones=o["three_ones"])]
    if o["straight"]:
        msgs.append(Msg("help-zilch-straight", points=o["straight"]))
    msgs.append(Msg("help-zilch-kinds", kinds=o["kinds"]))
    if o["three_pairs"]:
        msgs.append(Msg("help-zilch-three-pairs", points=o["three_pairs"]))
    else:
        msgs.append(Msg("help-zilch-no-three-pairs"))
    for key in ("four_and_pair", "two_triplets", "nothing"):
        if o[key]:
            msgs.append(Msg(f"help-zilch-{key.replace('_', '-')}", points=o[key]))
    msgs += [
        Msg("help-zilch-set-aside"),
        Msg("help-zilch-zilch"),
        Msg("help-zilch-hot-dice", compulsory=int(bool(o["hot_dice_compulsory"]))),
    ]
    if o["entry"]:
        msgs.append(Msg("help-zilch-entry", points=o["entry"]))
    if o["minimum"]:
        msgs.append(Msg("help-zilch-minimum", points=o["minimum"]))
    if o["zilch_penalty"]:
        msgs.append(Msg("help-zilch-penalty", points=o["zilch_penalty"]))
    end = "help-zilch-last-turn" if o["end"] == "last_turn" else "help-zilch-immediate"
    msgs.append(Msg(end, target=o["target"]))
    return msgs


def rules_text(lang: str, options: Mapping[str, Any]) -> str:
    """The rules in force with these (validated) options, one short sentence a line."""
    o = dict(options)
    preset = SCHEMA.matching_preset(o)
    voice = Voice(lang)
    head = voice.say(Msg("help-zilch-head", preset=preset or "custom"))
    return "\n".join([head, *sentence_lines(voice.say(m) for m in rules_msgs(o))])
