"""Game-agnostic contracts: rules, state, actions, chance, events and options.

A game package implements :class:`~zanzibar.engine.rules.GameRules`; everything
else (the salon, the command line, the simulators) talks to games only
through that interface and through :class:`~zanzibar.engine.match.Match`.
"""

from zanzibar.engine.chance import DiceRequest, DiceRng
from zanzibar.engine.errors import (
    CorruptDataError,
    IllegalActionError,
    NotYourTurnError,
    OptionError,
    ZanzibarError,
)
from zanzibar.engine.events import Event
from zanzibar.engine.match import LogEntry, Match, MatchRecord
from zanzibar.engine.options import OptionSchema, OptionSpec, Preset
from zanzibar.engine.rules import Bot, GameRules, Transition

__all__ = [
    "Bot",
    "CorruptDataError",
    "DiceRequest",
    "DiceRng",
    "Event",
    "GameRules",
    "IllegalActionError",
    "LogEntry",
    "Match",
    "MatchRecord",
    "NotYourTurnError",
    "OptionError",
    "OptionSchema",
    "OptionSpec",
    "Preset",
    "Transition",
    "ZanzibarError",
]
