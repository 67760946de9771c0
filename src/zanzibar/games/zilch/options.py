"""Options and presets of Zilch: every rule the sources disagree on is an option.

Presets (the first is the default):

* ``zilch5000``: seed 004 exactly (500 to enter, 350 per later bank, 5000 starts
  the last round, ties replayed).
* ``farkle10000``: the common web "Farkle" table (research/zilch.md, "web Farkle
  (cardgames)"): four/five/six of a kind 1000/2000/3000, three pairs 1500,
  straight 2500, no bank minimum, 10,000 to win.
* ``farkle_boxed``: the boxed "Farkle" of Patch: as above but straight 1500, four of
  a kind with a pair 1500, two triplets 2500, three 1s only 300.
* ``zilch_online``: the online "Zilch" of playr: each die past three doubles
  the triple, three pairs and straight 1500, six dice scoring nothing 500, a
  300 minimum bank, minus 500 after three zilches in a row, 10,000.
* ``farkle_social``: social-network Farkle: doubling kinds, three pairs 750,
  straight 1500, 300 minimum, minus 500 after three farkles, 10,000.
* ``farkle_busche``: the rules solved by Busche & Neller (2017): only 1s, 5s and
  triples score, no minimum, the first to bank 10,000 wins at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from zanzibar.engine.options import OptionSchema, OptionSpec, Preset
from zanzibar.games.zilch.scoring import KIND_MODES, ScoringTable
from zanzibar.l10n import Msg, Texts

SEED = "seed 004"
RESEARCH = "research/zilch.md"
PLAYR = "online Zilch (playr), research/zilch.md"
CARDGAMES = "web Farkle (cardgames), research/zilch.md"
PATCH = "boxed Farkle (Patch), research/zilch.md"
SOCIAL = "social-network Farkle, research/zilch.md"
BUSCHE = "Busche & Neller, Optimal Play of the Farkle Dice Game (2017)"

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "target",
        "int",
        5000,
        Texts(Msg("options-zilch-option-target")),
        minimum=500,
        maximum=100_000,
        source=f"{SEED}; 10,000 in the Farkle and online Zilch rule sets ({RESEARCH})",
    ),
    OptionSpec(
        "entry",
        "int",
        500,
        Texts(Msg("options-zilch-option-entry")),
        minimum=0,
        maximum=5000,
        source=SEED,
    ),
    OptionSpec(
        "minimum",
        "int",
        350,
        Texts(Msg("options-zilch-option-minimum")),
        minimum=0,
        maximum=5000,
        source=f"{SEED}; 300 online ({PLAYR}); none in boxed Farkle ({PATCH})",
    ),
    OptionSpec(
        "end",
        "choice",
        "last_turn",
        Texts(Msg("options-zilch-option-end")),
        choices=("last_turn", "immediate"),
        source=f"{SEED} (last_turn); {BUSCHE} (immediate)",
        choice_labels={
            "last_turn": Texts(Msg("options-zilch-option-end-last-turn")),
            "immediate": Texts(Msg("options-zilch-option-end-immediate")),
        },
    ),
    OptionSpec(
        "hot_dice_compulsory",
        "bool",
        False,
        Texts(Msg("options-zilch-option-hot-dice-compulsory")),
        source=f"{SEED} lets the player roll again; compulsory re-roll is a variant ({RESEARCH})",
    ),
    OptionSpec(
        "three_ones",
        "int",
        1000,
        Texts(Msg("options-zilch-option-three-ones")),
        minimum=100,
        maximum=10_000,
        source=f"{SEED} (1000); 300 in {PATCH}",
    ),
    OptionSpec(
        "kinds",
        "choice",
        "seed",
        Texts(Msg("options-zilch-option-kinds")),
        choices=KIND_MODES,
        choice_labels={
            mode: Texts(Msg(f"options-zilch-option-kinds-{mode}")) for mode in KIND_MODES
        },
        source=f"{SEED}'s table (seed); {PLAYR} and {SOCIAL} (doubling); {CARDGAMES} and {PATCH} (fixed)",
    ),
    OptionSpec(
        "straight",
        "int",
        1500,
        Texts(Msg("options-zilch-option-straight")),
        minimum=0,
        maximum=10_000,
        source=f"{SEED} (1500); 2500 in {CARDGAMES}",
    ),
    OptionSpec(
        "three_pairs",
        "int",
        0,
        Texts(Msg("options-zilch-option-three-pairs")),
        minimum=0,
        maximum=10_000,
        source=f"{SEED} has none; 1500 in {PLAYR}, {CARDGAMES}, {PATCH}; 750 in {SOCIAL}",
    ),
    OptionSpec(
        "four_and_pair",
        "int",
        0,
        Texts(Msg("options-zilch-option-four-and-pair")),
        minimum=0,
        maximum=10_000,
        source=f"1500 in {PATCH}",
    ),
    OptionSpec(
        "two_triplets",
        "int",
        0,
        Texts(Msg("options-zilch-option-two-triplets")),
        minimum=0,
        maximum=10_000,
        source=f"2500 in {PATCH}",
    ),
    OptionSpec(
        "nothing",
        "int",
        0,
        Texts(Msg("options-zilch-option-nothing")),
        minimum=0,
        maximum=10_000,
        source=f"500 in {PLAYR}",
    ),
    OptionSpec(
        "zilch_penalty",
        "int",
        0,
        Texts(Msg("options-zilch-option-zilch-penalty")),
        minimum=0,
        maximum=10_000,
        source=f"500 in {PLAYR} and {SOCIAL} (Busche floors such scores at -2500 in his solver)",
    ),
)


PRESETS: tuple[Preset, ...] = (
    Preset(
        "zilch5000",
        Texts(Msg("options-zilch-preset-zilch5000")),
        {},
        source=SEED,
    ),
    Preset(
        "farkle10000",
        Texts(Msg("options-zilch-preset-farkle10000")),
        {
            "target": 10_000,
            "entry": 0,
            "minimum": 0,
            "kinds": "fixed",
            "three_pairs": 1500,
            "straight": 2500,
        },
        source=CARDGAMES,
    ),
    Preset(
        "farkle_boxed",
        Texts(Msg("options-zilch-preset-farkle-boxed")),
        {
            "target": 10_000,
            "entry": 0,
            "minimum": 0,
            "kinds": "fixed",
            "three_ones": 300,
            "three_pairs": 1500,
            "four_and_pair": 1500,
            "two_triplets": 2500,
        },
        source=PATCH,
    ),
    Preset(
        "zilch_online",
        Texts(Msg("options-zilch-preset-zilch-online")),
        {
            "target": 10_000,
            "entry": 300,
            "minimum": 300,
            "kinds": "doubling",
            "three_pairs": 1500,
            "nothing": 500,
            "zilch_penalty": 500,
        },
        source=PLAYR,
    ),
    Preset(
        "farkle_social",
        Texts(Msg("options-zilch-preset-farkle-social")),
        {
            "target": 10_000,
            "entry": 300,
            "minimum": 300,
            "kinds": "doubling",
            "three_pairs": 750,
            "zilch_penalty": 500,
        },
        source=SOCIAL,
    ),
    Preset(
        "farkle_busche",
        Texts(Msg("options-zilch-preset-farkle-busche")),
        {
            "target": 10_000,
            "entry": 0,
            "minimum": 0,
            "straight": 0,
            "end": "immediate",
        },
        source=BUSCHE,
    ),
)

#: Zilches in a row that cost the penalty.
PENALTY_STREAK = 3

_SCORE_OPTIONS = (
    "target",
    "entry",
    "minimum",
    "three_ones",
    "straight",
    "three_pairs",
    "four_and_pair",
    "two_triplets",
    "nothing",
    "zilch_penalty",
)


def _check(values: dict[str, Any]) -> str | None:
    """Refuse values the game cannot be played with."""
    for name in _SCORE_OPTIONS:
        if values[name] % 50:
            return f"option '{name}': {values[name]} is not a multiple of 50"
    if values["entry"] >= values["target"] or values["minimum"] >= values["target"]:
        return "the bank thresholds must be below the target"
    return None


SCHEMA = OptionSchema(SPECS, PRESETS, check=_check)


def scoring_table(options: Mapping[str, Any]) -> ScoringTable:
    """The scoring table of a set of resolved options."""
    return ScoringTable(
        three_ones=options["three_ones"],
        kinds=options["kinds"],
        straight=options["straight"],
        three_pairs=options["three_pairs"],
        four_and_pair=options["four_and_pair"],
        two_triplets=options["two_triplets"],
        nothing=options["nothing"],
    )
