"""Errors every layer understands.

Each error carries a machine-readable ``code`` (used by the wire protocol) and
a message meant for a person. Raising one of them guarantees that nothing was
changed: rules functions are pure, so a refused action leaves the old state.
"""

from __future__ import annotations


class ZanzibarError(Exception):
    """Base class: a refusal with a stable code and a readable message."""

    code = "error"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_json(self) -> dict[str, object]:
        """The error as the protocol sends it."""
        return {"code": self.code, "message": self.message, **self.details}


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
