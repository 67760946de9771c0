"""FEN in Fairy-Stockfish's conventions, for boards up to 16 x 16.

Ranks run from the top (the last rank) down to rank 1, separated by ``/``;
runs of empty squares are written as decimal numbers of any length (``12``);
White's pieces are uppercase letters and Black's lowercase. The castling field
holds ``K Q k q`` as in chess; in variants with the King's jump (Zanzibar-S,
Metamachy) ``K`` means White's King may still jump and ``k`` the same for
Black, like ChessV's Metamachy FEN. The en-passant field names the square a
double step passed over. Half-move clock and move number are optional on input.

>>> from zanzibar.games.chess.variant import load_variant
>>> v = load_variant("chess")
>>> data = parse_fen(v, "8/8/8/8/8/8/8/4K2k w - - 0 1")
>>> data.turn, data.board[4], data.board[7]
(1, 1, -1)
>>> format_fen(v, data) == "8/8/8/8/8/8/8/4K2k w - - 0 1"
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zanzibar.engine.errors import CorruptDataError
from zanzibar.games.chess.variant import Variant

_RUN = re.compile(r"(\d+|[A-Za-z])")


@dataclass
class FenData:
    """A decoded FEN: board codes (see ``tables``), side, rights, en passant, clocks."""

    board: list[int]
    turn: int  # 1 White, -1 Black
    rights: int  # bit 0 White K-side / jump, 1 White Q-side, 2 Black k-side / jump, 3 Black q
    ep: int  # square passed over by the last double step, or -1
    halfmove: int
    fullmove: int


def square_name(variant: Variant, square: int) -> str:
    """``e4``, ``l12``: file letter then rank number.

    >>> from zanzibar.games.chess.variant import load_variant
    >>> square_name(load_variant("chess"), 28)
    'e4'
    """
    return f"{chr(ord('a') + square % variant.files)}{square // variant.files + 1}"


def parse_square(variant: Variant, text: str) -> int:
    """Inverse of :func:`square_name`; CorruptDataError if not on the board."""
    match = re.fullmatch(r"([a-p])(\d{1,2})", text.strip().lower())
    if not match:
        raise CorruptDataError(f"{text!r} is not a square")
    f = ord(match.group(1)) - ord("a")
    r = int(match.group(2)) - 1
    if not (0 <= f < variant.files and 0 <= r < variant.ranks):
        raise CorruptDataError(f"{text} is not on the {variant.files}x{variant.ranks} board")
    return r * variant.files + f


def _letters(variant: Variant) -> dict[str, int]:
    codes: dict[str, int] = {}
    for t, piece in enumerate(variant.pieces):
        codes[piece.letter] = t + 1
        codes[piece.letter.lower()] = -(t + 1)
    return codes


def _parse_board(variant: Variant, text: str, fen: str) -> list[int]:
    codes = _letters(variant)
    rows = text.split("/")
    if len(rows) != variant.ranks:
        raise CorruptDataError(f"FEN {fen!r}: {len(rows)} ranks, the board has {variant.ranks}")
    board = [0] * (variant.files * variant.ranks)
    for i, row in enumerate(rows):
        rank = variant.ranks - 1 - i
        file = 0
        for token in _RUN.findall(row):
            if token.isdigit():
                file += int(token)
                continue
            if token not in codes:
                raise CorruptDataError(f"FEN {fen!r}: unknown piece letter {token!r}")
            if file >= variant.files:
                break
            board[rank * variant.files + file] = codes[token]
            file += 1
        if file != variant.files or "".join(_RUN.findall(row)) != row:
            raise CorruptDataError(
                f"FEN {fen!r}: rank {rank + 1} does not hold exactly {variant.files} squares"
            )
    return board


def _parse_rights(variant: Variant, text: str, fen: str) -> int:
    if text == "-":
        return 0
    bits = {"K": 1, "Q": 2, "k": 4, "q": 8}
    rights = 0
    for c in text:
        if c not in bits or (variant.king_jump and c in "Qq"):
            raise CorruptDataError(f"FEN {fen!r}: bad castling / jump field {text!r}")
        rights |= bits[c]
    return rights


def parse_fen(variant: Variant, fen: str, allow_missing_royal: bool = False) -> FenData:
    """Decode a FEN for ``variant``; CorruptDataError says what is wrong."""
    fields = fen.split()
    if len(fields) < 2 or len(fields) > 6:
        raise CorruptDataError(f"FEN {fen!r}: expected 2 to 6 fields")
    board = _parse_board(variant, fields[0], fen)
    if fields[1] not in ("w", "b"):
        raise CorruptDataError(f"FEN {fen!r}: side to move must be w or b")
    turn = 1 if fields[1] == "w" else -1
    rights = _parse_rights(variant, fields[2], fen) if len(fields) > 2 else 0
    ep = -1
    if len(fields) > 3 and fields[3] != "-":
        ep = parse_square(variant, fields[3])
        victim = ep - turn * variant.files
        if board[ep] != 0 or not 0 <= victim < len(board) or board[victim] * turn >= 0:
            raise CorruptDataError(f"FEN {fen!r}: no double-stepped piece beside {fields[3]}")
    try:
        halfmove = int(fields[4]) if len(fields) > 4 else 0
        fullmove = int(fields[5]) if len(fields) > 5 else 1
    except ValueError:
        raise CorruptDataError(f"FEN {fen!r}: move counters must be numbers") from None
    if halfmove < 0 or fullmove < 1:
        raise CorruptDataError(f"FEN {fen!r}: move counters out of range")
    royal = variant.royal_index + 1
    if not allow_missing_royal and (board.count(royal) != 1 or board.count(-royal) != 1):
        raise CorruptDataError(f"FEN {fen!r}: each side needs exactly one King")
    return FenData(board, turn, rights, ep, halfmove, fullmove)


def format_board(variant: Variant, board: list[int]) -> str:
    """The placement field of a FEN."""
    letters = {code: letter for letter, code in _letters(variant).items()}
    rows = []
    for rank in range(variant.ranks - 1, -1, -1):
        row, empty = [], 0
        for file in range(variant.files):
            code = board[rank * variant.files + file]
            if code == 0:
                empty += 1
                continue
            if empty:
                row.append(str(empty))
                empty = 0
            row.append(letters[code])
        if empty:
            row.append(str(empty))
        rows.append("".join(row))
    return "/".join(rows)


def format_rights(rights: int) -> str:
    """The castling / jump field."""
    text = "".join(c for bit, c in ((1, "K"), (2, "Q"), (4, "k"), (8, "q")) if rights & bit)
    return text or "-"


def format_fen(variant: Variant, data: FenData) -> str:
    """Encode a FEN."""
    ep = square_name(variant, data.ep) if data.ep >= 0 else "-"
    side = "w" if data.turn > 0 else "b"
    return (
        f"{format_board(variant, data.board)} {side} {format_rights(data.rights)} {ep} "
        f"{data.halfmove} {data.fullmove}"
    )
