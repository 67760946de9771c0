"""The options of 421 and its two presets, ``salon`` (default) and ``bar``.

Every rule on which the seeds disagree is an option, with its source:
seeds 000/001 are the Salon's own rules (English and French), seed 002 the
rules "as commonly played in French bars"; the research notes
(``research/421.md``) add the regional fiche/baraque orders and French
Wikipedia's.

>>> OPTIONS.resolve()["ties"], OPTIONS.resolve("bar")["ties"]
('later_wins', 'rampo')
>>> Config.from_options(OPTIONS.resolve("bar")).dry_charge
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from zanzibar.engine.options import OptionSchema, OptionSpec, Preset

S000 = "seeds 000/001 (the Salon's rules)"
S002 = "seed 002 (bar rules)"

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "tokens",
        "int",
        21,
        {
            "en": "Tokens in the pot at the start of each round.",
            "fr": "Nombre de jetons dans le pot au début de chaque manche.",
        },
        minimum=1,
        maximum=200,
        source=f"{S000}: 21 usual, any number possible; {S002}: a pot of 21",
    ),
    OptionSpec(
        "dry_charge",
        "bool",
        False,
        {
            "en": "Dry charge: one roll each per turn during the charge.",
            "fr": "Charge « sèche » : un seul lancer chacun par tour pendant la charge.",
        },
        source=f"{S000}: variant, off by default; {S002}: one roll each in the charge",
    ),
    OptionSpec(
        "zero_after_charge",
        "choice",
        "out",
        {
            "en": "Players with no tokens when the charge ends: out and safe, or still in the "
            "décharge, where they can be given tokens.",
            "fr": "Joueurs sans jeton à la fin de la charge : sortis et gagnants, ou toujours "
            "dans la décharge, où on peut leur en donner.",
        },
        choices=("out", "stay"),
        choice_labels={
            "out": {"en": "out, safe", "fr": "sortis, gagnants"},
            "stay": {"en": "stay in the décharge", "fr": "restent en décharge"},
        },
        source=f"{S000}: they have won and go out; {S002}: they are in no way winners yet",
    ),
    OptionSpec(
        "token_amount",
        "choice",
        "strongest",
        {
            "en": "Tokens the turn loser takes in the charge: the value of the strongest throw, "
            "or of its own throw.",
            "fr": "Jetons que prend le perdant du tour pendant la charge : la valeur de la "
            "meilleure combinaison, ou de la sienne.",
        },
        choices=("strongest", "own"),
        choice_labels={
            "strongest": {"en": "strongest throw", "fr": "meilleure combinaison"},
            "own": {"en": "loser's own throw", "fr": "combinaison du perdant"},
        },
        source=f"{S000}: strongest; {S002}: the loser's own combination in the charge",
    ),
    OptionSpec(
        "nenette",
        "choice",
        "value4",
        {
            "en": "The nénette 2-2-1: worth 4, or a 2-token penalty added to the best value.",
            "fr": "La nénette 2-2-1 : vaut 4, ou pénalité de 2 jetons ajoutée à la meilleure "
            "valeur.",
        },
        choices=("value4", "penalty2"),
        choice_labels={
            "value4": {"en": "worth 4", "fr": "vaut 4"},
            "penalty2": {"en": "2-token penalty", "fr": "pénalité de 2 jetons"},
        },
        source=f"{S000}: worth 4; {S002}: penalises its roller 2 tokens, added in the décharge",
    ),
    OptionSpec(
        "ties",
        "choice",
        "later_wins",
        {
            "en": "Exactly equal throws: the later player's is stronger, or a rampo play-off "
            "with one roll each.",
            "fr": "Combinaisons strictement égales : celle du dernier joueur l'emporte, ou "
            "« rampo », on rejoue un lancer chacun.",
        },
        choices=("later_wins", "rampo"),
        choice_labels={
            "later_wins": {"en": "later player wins", "fr": "le dernier joueur gagne"},
            "rampo": {"en": "rampo play-off", "fr": "rampo"},
        },
        source=f"{S000}: the later player wins; {S002}: rampo, starting with the last to play",
    ),
    OptionSpec(
        "fewer_rolls_win",
        "bool",
        False,
        {
            "en": "Equal throws: the one made in fewer rolls is stronger.",
            "fr": "À combinaison égale, celle faite en moins de coups l'emporte.",
        },
        source=f"{S002}, read closely: rampo only 'with the same number of rolls'",
    ),
    OptionSpec(
        "first_player",
        "choice",
        "seat_order",
        {
            "en": "Who starts the game: the first seat, or the lowest of one roll each.",
            "fr": "Qui commence : le premier siège, ou le plus petit score d'un lancer chacun.",
        },
        choices=("seat_order", "lowest_throw"),
        choice_labels={
            "seat_order": {"en": "first seat", "fr": "premier siège"},
            "lowest_throw": {"en": "lowest throw", "fr": "plus petit lancer"},
        },
        source=f"{S000}: not stated (seat order); {S002}: everyone rolls, the lowest starts",
    ),
    OptionSpec(
        "rounds_to_lose",
        "int",
        1,
        {
            "en": "Rounds a player must lose to lose the game (1: a single game).",
            "fr": "Manches à perdre pour perdre la partie (1 : une seule partie).",
        },
        minimum=1,
        maximum=9,
        source=f"{S000}: one game; {S002}: the first to lose 2 rounds pays",
    ),
    OptionSpec(
        "fiche_order",
        "choice",
        "salon",
        {
            "en": "Order of fiches (1-1-x) and baraques (x-x-x).",
            "fr": "Ordre des fiches (1-1-x) et des brelans (x-x-x).",
        },
        choices=("salon", "fiche_first", "fiches_above"),
        choice_labels={
            "salon": {"en": "666 > 611 > 555 > 511 ...", "fr": "666 > 611 > 555 > 511 ..."},
            "fiche_first": {"en": "611 > 666 > 511 > 555 ...", "fr": "611 > 666 > 511 > 555 ..."},
            "fiches_above": {
                "en": "every fiche above every baraque",
                "fr": "toutes les fiches avant tous les brelans",
            },
        },
        source=f"{S000}: salon; French Wikipedia '421 (jeu)': fiche first; research: regional",
    ),
    OptionSpec(
        "max_rolls",
        "int",
        3,
        {
            "en": "Most rolls a player may make in a turn.",
            "fr": "Nombre maximal de lancers par joueur et par tour.",
        },
        minimum=1,
        maximum=3,
        source=f"{S000}: 3 at most; {S002}: 3 rolls in the décharge",
    ),
)

PRESETS: tuple[Preset, ...] = (
    Preset(
        "salon",
        {
            "en": "The Salon's rules (seeds 000/001): the strongest throw sets the tokens, "
            "the later player wins ties, a single game.",
            "fr": "Les règles du Salon (graines 000/001) : la meilleure combinaison fixe les "
            "jetons, le dernier joueur gagne les égalités, une seule partie.",
        },
        {},
        source=S000,
    ),
    Preset(
        "bar",
        {
            "en": "Bar rules (seed 002): dry charge, the loser takes its own value in the charge, "
            "nénette penalty, rampo, nobody is safe before the décharge, lowest throw starts, "
            "first to lose 2 rounds pays.",
            "fr": "Règles de bar (graine 002) : charge sèche, le perdant prend sa propre valeur "
            "à la charge, pénalité de nénette, rampo, personne n'est sauf avant la décharge, le "
            "plus petit lancer commence, le premier à perdre 2 manches paie.",
        },
        {
            "dry_charge": True,
            "zero_after_charge": "stay",
            "token_amount": "own",
            "nenette": "penalty2",
            "ties": "rampo",
            "fewer_rolls_win": True,
            "first_player": "lowest_throw",
            "rounds_to_lose": 2,
        },
        source=S002,
    ),
)


#: Every combination of valid single values is playable (each rule is independent of
#: the others), so there is no cross-option check; bad single values are refused by
#: the schema with a message naming the option.
OPTIONS = OptionSchema(SPECS, PRESETS)


@dataclass(frozen=True)
class Config:
    """The options as a typed, hashable value carried inside every state."""

    tokens: int = 21
    dry_charge: bool = False
    zero_after_charge: str = "out"
    token_amount: str = "strongest"
    nenette: str = "value4"
    ties: str = "later_wins"
    fewer_rolls_win: bool = False
    first_player: str = "seat_order"
    rounds_to_lose: int = 1
    fiche_order: str = "salon"
    max_rolls: int = 3

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Config:
        """Validate a complete or partial set of option values."""
        return cls(**OPTIONS.validate(dict(options)))

    def to_options(self) -> dict[str, Any]:
        """The option values as a plain dict."""
        return asdict(self)

    def rolls_allowed(self, phase: str) -> int:
        """The roll limit of the first player of a turn in ``phase``."""
        return 1 if phase == "charge" and self.dry_charge else self.max_rolls
