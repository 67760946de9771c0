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
        {
            "en": "Score that ends the game (seed 004: 5000).",
            "fr": "Score qui termine la partie (graine 004 : 5000).",
        },
        minimum=500,
        maximum=100_000,
        source=f"{SEED}; 10,000 in the Farkle and online Zilch rule sets ({RESEARCH})",
    ),
    OptionSpec(
        "entry",
        "int",
        500,
        {
            "en": "Points needed in one turn to bank for the first time (0: none).",
            "fr": "Points nécessaires en un tour pour marquer la première fois (0 : aucun).",
        },
        minimum=0,
        maximum=5000,
        source=SEED,
    ),
    OptionSpec(
        "minimum",
        "int",
        350,
        {
            "en": "Points needed in one turn to bank once entered (0: none).",
            "fr": "Points nécessaires en un tour pour marquer une fois entré (0 : aucun).",
        },
        minimum=0,
        maximum=5000,
        source=f"{SEED}; 300 online ({PLAYR}); none in boxed Farkle ({PATCH})",
    ),
    OptionSpec(
        "end",
        "choice",
        "last_turn",
        {
            "en": "End of game: the others get one last turn and ties are replayed (last_turn), "
            "or reaching the target wins at once (immediate).",
            "fr": "Fin de partie : les autres jouent un dernier tour et les égalités sont rejouées "
            "(last_turn), ou atteindre le but gagne aussitôt (immediate).",
        },
        choices=("last_turn", "immediate"),
        source=f"{SEED} (last_turn); {BUSCHE} (immediate)",
        choice_labels={
            "last_turn": {"en": "one last turn each", "fr": "un dernier tour chacun"},
            "immediate": {"en": "first to the target wins", "fr": "le premier au but gagne"},
        },
    ),
    OptionSpec(
        "hot_dice_compulsory",
        "bool",
        False,
        {
            "en": "After hot dice (all six scored) the player must roll again.",
            "fr": "Après des dés brûlants (les six ont marqué) le joueur doit relancer.",
        },
        source=f"{SEED} lets the player roll again; compulsory re-roll is a variant ({RESEARCH})",
    ),
    OptionSpec(
        "three_ones",
        "int",
        1000,
        {
            "en": "Value of three 1s (other triples score 100 times the face).",
            "fr": "Valeur de trois 1 (les autres brelans valent 100 fois la face).",
        },
        minimum=100,
        maximum=10_000,
        source=f"{SEED} (1000); 300 in {PATCH}",
    ),
    OptionSpec(
        "kinds",
        "choice",
        "seed",
        {
            "en": "Four, five or six of a kind: seed (only the triple scores, extra 1s and 5s "
            "count as singles, six of a kind is two triples), doubling (each extra die doubles "
            "the triple), fixed (1000, 2000, 3000).",
            "fr": "Carré, quinte ou sixte : seed (seul le brelan compte, les 1 et 5 en plus "
            "comptent seuls, six dés pareils font deux brelans), doubling (chaque dé en plus "
            "double le brelan), fixed (1000, 2000, 3000).",
        },
        choices=KIND_MODES,
        source=f"{SEED}'s table (seed); {PLAYR} and {SOCIAL} (doubling); {CARDGAMES} and {PATCH} (fixed)",
    ),
    OptionSpec(
        "straight",
        "int",
        1500,
        {
            "en": "Value of a straight 1-2-3-4-5-6 in one roll (0: does not score).",
            "fr": "Valeur d'une suite 1-2-3-4-5-6 en un lancer (0 : ne compte pas).",
        },
        minimum=0,
        maximum=10_000,
        source=f"{SEED} (1500); 2500 in {CARDGAMES}",
    ),
    OptionSpec(
        "three_pairs",
        "int",
        0,
        {
            "en": "Value of three different pairs in one roll of six dice (0: does not score).",
            "fr": "Valeur de trois paires différentes en un lancer de six dés (0 : ne compte pas).",
        },
        minimum=0,
        maximum=10_000,
        source=f"{SEED} has none; 1500 in {PLAYR}, {CARDGAMES}, {PATCH}; 750 in {SOCIAL}",
    ),
    OptionSpec(
        "four_and_pair",
        "int",
        0,
        {
            "en": "Value of four of a kind with a pair in one roll (0: no such combination).",
            "fr": "Valeur d'un carré avec une paire en un lancer (0 : pas de telle combinaison).",
        },
        minimum=0,
        maximum=10_000,
        source=f"1500 in {PATCH}",
    ),
    OptionSpec(
        "two_triplets",
        "int",
        0,
        {
            "en": "Value of two triples in one roll (0: they score as two triples).",
            "fr": "Valeur de deux brelans en un lancer (0 : ils comptent comme deux brelans).",
        },
        minimum=0,
        maximum=10_000,
        source=f"2500 in {PATCH}",
    ),
    OptionSpec(
        "nothing",
        "int",
        0,
        {
            "en": "Value of six dice in which nothing scores (0: a zilch like any other).",
            "fr": "Valeur de six dés dont aucun ne marque (0 : un zilch comme un autre).",
        },
        minimum=0,
        maximum=10_000,
        source=f"500 in {PLAYR}",
    ),
    OptionSpec(
        "zilch_penalty",
        "int",
        0,
        {
            "en": "Points lost after three zilches in a row (0: no penalty); a score may go below zero.",
            "fr": "Points perdus après trois zilchs de suite (0 : pas de pénalité) ; un score peut devenir négatif.",
        },
        minimum=0,
        maximum=10_000,
        source=f"500 in {PLAYR} and {SOCIAL} (Busche floors such scores at -2500 in his solver)",
    ),
)


PRESETS: tuple[Preset, ...] = (
    Preset(
        "zilch5000",
        {
            "en": "Zilch 5000 as in seed 004: 500 to enter, 350 per bank, 5000, last turn for the others.",
            "fr": "Zilch 5000 comme la graine 004 : 500 pour entrer, 350 par tour, 5000, dernier tour pour les autres.",
        },
        {},
        source=SEED,
    ),
    Preset(
        "farkle10000",
        {
            "en": "Common Farkle: three pairs, four to six of a kind, straight 2500, no minimum, 10,000.",
            "fr": "Farkle courant : trois paires, carré à sixte, suite 2500, pas de minimum, 10 000.",
        },
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
        {
            "en": "Boxed Farkle (Patch): three 1s 300, four and a pair 1500, two triples 2500, 10,000.",
            "fr": "Farkle en boîte (Patch) : trois 1 valent 300, carré et paire 1500, deux brelans 2500, 10 000.",
        },
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
        {
            "en": "Online Zilch (playr): doubling kinds, three pairs 1500, nothing-on-six 500, "
            "300 minimum, minus 500 after three zilches, 10,000.",
            "fr": "Zilch en ligne (playr) : doublement par dé, trois paires 1500, rien sur six dés 500, "
            "300 minimum, moins 500 après trois zilchs, 10 000.",
        },
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
        {
            "en": "Social-network Farkle: doubling kinds, three pairs 750, 300 minimum, "
            "minus 500 after three farkles, 10,000.",
            "fr": "Farkle des réseaux sociaux : doublement par dé, trois paires 750, 300 minimum, "
            "moins 500 après trois farkles, 10 000.",
        },
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
        {
            "en": "Farkle as solved by Busche & Neller: 1s, 5s and triples only, first to 10,000 wins.",
            "fr": "Farkle tel que résolu par Busche et Neller : 1, 5 et brelans seulement, "
            "le premier à 10 000 gagne.",
        },
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
