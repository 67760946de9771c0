"""One voice for the whole product: the message catalogue and its renderer.

Everything a player reads or hears (game events, read-outs, refusals, salon
notices, help, rules, the web client's labels) is a message of the Fluent
files under ``l10n/<lang>/``. Code builds :class:`Msg` values; a :class:`Voice`
says them for a :class:`Listener`. See docs/l10n.md.
"""

from zanzibar.l10n.catalogue import Catalogue, default_catalogue, languages
from zanzibar.l10n.msg import AnyOf, Msg, Seat, Texts
from zanzibar.l10n.voice import L10nError, Listener, Voice, is_strict, say, set_strict

__all__ = [
    "AnyOf",
    "Catalogue",
    "L10nError",
    "Listener",
    "Msg",
    "Seat",
    "Texts",
    "Voice",
    "default_catalogue",
    "is_strict",
    "languages",
    "say",
    "set_strict",
]
