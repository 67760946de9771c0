"""Errors every layer understands.

Each error carries a machine-readable ``code`` (used by the wire protocol) and
a message meant for a person: a catalogue :class:`~zanzibar.l10n.Msg`, said in
the listener's language by :meth:`ZanzibarError.text`. Errors still raised with
an English sentence are matched back to their message (``zanzibar.l10n.legacy``).
Raising one of them guarantees that nothing was changed: rules functions are
pure, so a refused action leaves the old state.
"""

from __future__ import annotations

from zanzibar.l10n.legacy import from_english
from zanzibar.l10n.msg import Msg
from zanzibar.l10n.voice import Voice


class ZanzibarError(Exception):
    """Base class: a refusal with a stable code and a readable message."""

    code = "error"

    def __init__(self, message: str | Msg, **details: object) -> None:
        super().__init__(message)
        self._msg = message if isinstance(message, Msg) else None
        self._text = message if isinstance(message, str) else None
        self.details = details

    @property
    def message(self) -> str:
        """The refusal in English (logs, and clients that do not say a language)."""
        if self._text is None:
            self._text = self.text("en")
        return self._text

    @property
    def msg(self) -> Msg | None:
        """The catalogue message of this refusal, when there is one."""
        if self._msg is None and self._text is not None:
            self._msg = from_english(self._text)
        return self._msg

    def text(self, lang: str) -> str:
        """The refusal said in ``lang`` (English text if it has no catalogue message)."""
        msg = self.msg
        if msg is None:
            return self._text or ""
        return Voice(lang).say(msg)

    def __str__(self) -> str:
        return self.message

    def to_json(self, lang: str = "en") -> dict[str, object]:
        """The error as the protocol sends it, its message in ``lang``."""
        return {"code": self.code, "message": self.text(lang), **self.details}


class IllegalActionError(ZanzibarError):
    """The action is not legal in this state (or is malformed for this game)."""

    code = "illegal_action"


class NotYourTurnError(ZanzibarError):
    """Somebody other than the player to act tried to act."""

    code = "not_your_turn"


class OptionError(ZanzibarError):
    """An option is unknown, of the wrong type or out of range; names the option."""

    code = "bad_option"


class CorruptDataError(ZanzibarError):
    """A saved state, log or file does not decode to something valid."""

    code = "corrupt_data"
