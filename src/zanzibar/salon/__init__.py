"""The salon: accounts, lobby, tables, seats, bots, spectators, chat and storage.

Transport-free: the server passes messages to :class:`Salon.handle` and gets
replies through each connection's ``send``. See ``docs/protocol.md``.
"""

from zanzibar.salon.accounts import Session, User
from zanzibar.salon.connections import Connection
from zanzibar.salon.errors import SalonError
from zanzibar.salon.records import read_game_record
from zanzibar.salon.service import Salon

__all__ = ["Connection", "Salon", "SalonError", "Session", "User", "read_game_record"]
