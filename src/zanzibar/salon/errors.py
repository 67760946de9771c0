"""Refusals of the salon, each with the protocol's error code.

Game refusals come from the engine (``IllegalActionError``, ``NotYourTurnError``,
``OptionError``); everything the salon itself refuses is a :class:`SalonError`
carrying one of the codes listed in ``docs/protocol.md``. Raising one guarantees
nothing changed: every check runs before any state or storage is touched.
"""

from __future__ import annotations

from zanzibar.engine.errors import ZanzibarError
from zanzibar.l10n.msg import Msg

#: Every code the salon may send in an ``error`` reply.
ERROR_CODES: frozenset[str] = frozenset(
    {
        "bad_json",
        "bad_version",
        "unknown_type",
        "invalid",
        "too_large",
        "unauthenticated",
        "forbidden",
        "not_found",
        "not_your_turn",
        "illegal_action",
        "stale",
        "bad_option",
        "rate_limited",
        "quota",
        "too_long",
        "conflict",
        "internal",
    }
)


class SalonError(ZanzibarError):
    """A refusal by the salon with an explicit protocol code.

    >>> err = SalonError("forbidden", "only the host may start the game")
    >>> err.to_json()["code"]
    'forbidden'
    """

    def __init__(self, code: str, message: str | Msg, **details: object) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message, **details)
        self.code = code
