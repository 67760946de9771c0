"""The salon: accounts, lobby, tables, seats, bots, spectators, chat and storage.

Transport-free: the server passes messages to :class:`Salon.handle` and gets
replies through each connection's ``send``. See ``docs/protocol.md``.

The names below are loaded on first use (PEP 562), not when the package is:
importing one part (``zanzibar.salon.models``, say, as the cluster's id
sequences do) must not import the whole salon, whose service imports the
cluster back; that would be a circle.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names, for type checkers
    from zanzibar.salon.accounts import Session, User
    from zanzibar.salon.connections import Connection
    from zanzibar.salon.errors import SalonError
    from zanzibar.salon.records import read_game_record
    from zanzibar.salon.service import Salon

#: Each name of the package, and the module that defines it.
_HOMES = {
    "Connection": "zanzibar.salon.connections",
    "Salon": "zanzibar.salon.service",
    "SalonError": "zanzibar.salon.errors",
    "Session": "zanzibar.salon.accounts",
    "User": "zanzibar.salon.accounts",
    "read_game_record": "zanzibar.salon.records",
}

__all__ = ["Connection", "Salon", "SalonError", "Session", "User", "read_game_record"]


def __getattr__(name: str) -> Any:
    """Load ``Salon`` and the package's other names when first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
