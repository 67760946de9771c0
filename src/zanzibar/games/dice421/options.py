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

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from zanzibar.engine.options import OptionSchema, OptionSpec, Preset
from zanzibar.l10n import Msg, Texts

S000 = "seeds 000/001 (the Salon's rules)"
S002 = "seed 002 (bar rules)"

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "tokens",
        "int",
        21,
        Texts(Msg("options-dice421-option-tokens")),
        minimum=1,
        maximum=200,
        source=f"{S000}: 21 usual, any number possible; {S002}: a pot of 21",
    ),
    OptionSpec(
        "dry_charge",
        "bool",
        False,
        Texts(Msg("options-dice421-option-dry-charge")),
        source=f"{S000}: variant, off by default; {S002}: one roll each in the charge",
    ),
    OptionSpec(
        "zero_after_charge",
        "choice",
        "out",
        Texts(Msg("options-dice421-option-zero-after-charge")),
        choices=("out", "stay"),
        choice_labels={
            "out": Texts(Msg("options-dice421-option-zero-after-charge-out")),
            "stay": Texts(Msg("options-dice421-option-zero-after-charge-stay")),
        },
        source=f"{S000}: they have won and go out; {S002}: they are in no way winners yet",
    ),
    OptionSpec(
        "token_amount",
        "choice",
        "strongest",
        Texts(Msg("options-dice421-option-token-amount")),
        choices=("strongest", "own"),
        choice_labels={
            "strongest": Texts(Msg("options-dice421-option-token-amount-strongest")),
            "own": Texts(Msg("options-dice421-option-token-amount-own")),
        },
        source=f"{S000}: strongest; {S002}: the loser's own combination in the charge",
    ),
    OptionSpec(
        "nenette",
        "choice",
        "value4",
        Texts(Msg("options-dice421-option-nenette")),
        choices=("value4", "penalty2"),
        choice_labels={
            "value4": Texts(Msg("options-dice421-option-nenette-value4")),
            "penalty2": Texts(Msg("options-dice421-option-nenette-penalty2")),
        },
        source=f"{S000}: worth 4; {S002}: penalises its roller 2 tokens, added in the décharge",
    ),
    OptionSpec(
        "ties",
        "choice",
        "later_wins",
        Texts(Msg("options-dice421-option-ties")),
        choices=("later_wins", "rampo"),
        choice_labels={
            "later_wins": Texts(Msg("options-dice421-option-ties-later-wins")),
            "rampo": Texts(Msg("options-dice421-option-ties-rampo")),
        },
        source=f"{S000}: the later player wins; {S002}: rampo, starting with the last to play",
    ),
    OptionSpec(
        "fewer_rolls_win",
        "bool",
        False,
        Texts(Msg("options-dice421-option-fewer-rolls-win")),
        source=f"{S002}, read closely: rampo only 'with the same number of rolls'",
    ),
    OptionSpec(
        "first_player",
        "choice",
        "seat_order",
        Texts(Msg("options-dice421-option-first-player")),
        choices=("seat_order", "lowest_throw"),
        choice_labels={
            "seat_order": Texts(Msg("options-dice421-option-first-player-seat-order")),
            "lowest_throw": Texts(Msg("options-dice421-option-first-player-lowest-throw")),
        },
        source=f"{S000}: not stated (seat order); {S002}: everyone rolls, the lowest starts",
    ),
    OptionSpec(
        "rounds_to_lose",
        "int",
        1,
        Texts(Msg("options-dice421-option-rounds-to-lose")),
        minimum=1,
        maximum=9,
        source=f"{S000}: one game; {S002}: the first to lose 2 rounds pays",
    ),
    OptionSpec(
        "fiche_order",
        "choice",
        "salon",
        Texts(Msg("options-dice421-option-fiche-order")),
        choices=("salon", "fiche_first", "fiches_above"),
        choice_labels={
            "salon": Texts(Msg("options-dice421-option-fiche-order-salon")),
            "fiche_first": Texts(Msg("options-dice421-option-fiche-order-fiche-first")),
            "fiches_above": Texts(Msg("options-dice421-option-fiche-order-fiches-above")),
        },
        source=f"{S000}: salon; French Wikipedia '421 (jeu)': fiche first; research: regional",
    ),
    OptionSpec(
        "max_rolls",
        "int",
        3,
        Texts(Msg("options-dice421-option-max-rolls")),
        minimum=1,
        maximum=3,
        source=f"{S000}: 3 at most; {S002}: 3 rolls in the décharge",
    ),
)

PRESETS: tuple[Preset, ...] = (
    Preset(
        "salon",
        Texts(Msg("options-dice421-preset-salon")),
        {},
        source=S000,
    ),
    Preset(
        "bar",
        Texts(Msg("options-dice421-preset-bar")),
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
        """The option values as a plain dict (a new one each time: the caller may change it).

        Every field is a plain value, so no deep copy (``asdict``) is needed:
        this runs for every view the salon sends (inside ``state_to_json``).
        A Config never changes, so its values are gathered once
        (:attr:`_options`) and each call copies that dict in one C call: the
        comprehension over the eleven fields was some 0.8 % of the salon's
        Python per player action.

        >>> config = Config(tokens=11)
        >>> first = config.to_options()
        >>> first["tokens"] = 99
        >>> config.to_options()["tokens"], config.to_options() is config.to_options()
        (11, False)
        """
        return self._options.copy()

    @functools.cached_property
    def _options(self) -> dict[str, Any]:
        """The values by option name, gathered once (a frozen dataclass keeps it in its
        ``__dict__``, outside the fields that compare and hash it); never handed out."""
        return {name: getattr(self, name) for name in _CONFIG_FIELDS}

    def rolls_allowed(self, phase: str) -> int:
        """The roll limit of the first player of a turn in ``phase``."""
        return 1 if phase == "charge" and self.dry_charge else self.max_rolls


#: The option names, in the order of Config's fields.
_CONFIG_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Config))
