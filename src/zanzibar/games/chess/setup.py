"""The setup phase: the chooser arranges some pieces, the other side mirrors them.

For Zanzibar-S, Black places King, Queen, Eagle and Lion on f12, g12, f11 and
g11 in any order (24 ways) and Rhinoceros and Buffalo on e12 and h12 (2
ways): 48 arrangements. White copies them file for file (Black's King on f12
means White's King on f1), then White moves first. Metamachy has one group
of four (24 arrangements).

An arrangement is numbered from 0; it can also be written as a *layout*: the
letters of each group in the order of its squares, groups separated by a
space (``"KQGL UF"`` = King f12, Queen g12, Eagle f11, Lion g11, Rhinoceros
e12, Buffalo h12).

>>> from zanzibar.games.chess.variant import load_variant
>>> v = load_variant("zanzibar-s")
>>> len(arrangements(v))
48
>>> layout(v, 0), arrangement_index(v, "kqgl uf")
('KQGL UF', 0)
"""

from __future__ import annotations

from itertools import permutations, product

from zanzibar.engine.errors import IllegalActionError
from zanzibar.games.chess.fen import FenData, format_fen, parse_fen, parse_square, square_name
from zanzibar.games.chess.variant import Variant


def _arrangements(variant: Variant) -> tuple[tuple[str, ...], ...]:
    per_group = [_group_orders(group.pieces) for group in variant.setup.groups]
    return tuple(tuple(choice) for choice in product(*per_group))


def _group_orders(pieces: str) -> list[str]:
    """Every order of ``pieces``, in the order itertools produces them (stable numbering)."""
    seen: list[str] = []
    for p in permutations(pieces):
        text = "".join(p)
        if text not in seen:
            seen.append(text)
    return seen


def arrangements(variant: Variant) -> tuple[tuple[str, ...], ...]:
    """Every arrangement: one string of letters per group, in square order."""
    if variant.setup.kind != "mirror-choice":
        return ()
    return _arrangements(variant)


def layout(variant: Variant, index: int) -> str:
    """The readable layout of arrangement ``index`` ("KQGL UF")."""
    options = arrangements(variant)
    if not 0 <= index < len(options):
        raise IllegalActionError(f"arrangement must be 0 to {len(options) - 1}, not {index}")
    return " ".join(options[index])


def arrangement_index(variant: Variant, text: str | int) -> int:
    """Number of an arrangement given as a number or a layout; IllegalActionError if invalid."""
    options = arrangements(variant)
    if isinstance(text, bool):
        raise IllegalActionError("an arrangement is a number or a layout like 'KQGL UF'")
    if isinstance(text, int) or (isinstance(text, str) and text.strip().isdigit()):
        index = int(text)
        if not 0 <= index < len(options):
            raise IllegalActionError(f"arrangement must be 0 to {len(options) - 1}, not {index}")
        return index
    if not isinstance(text, str):
        raise IllegalActionError("an arrangement is a number or a layout like 'KQGL UF'")
    wanted = tuple(part.upper() for part in text.split())
    for index, option in enumerate(options):
        if option == wanted:
            return index
    groups = " / ".join(f"{g.pieces} on {' '.join(g.squares)}" for g in variant.setup.groups)
    raise IllegalActionError(f"{text!r} is not a valid layout (place {groups})")


def placements(variant: Variant, index: int) -> list[tuple[str, str]]:
    """``[(letter, square name), ...]`` for the chooser's side of arrangement ``index``."""
    chosen = arrangements(variant)[index] if arrangements(variant) else ()
    out = []
    for group, letters in zip(variant.setup.groups, chosen, strict=True):
        for letter, square in zip(letters, group.squares, strict=False):
            out.append((letter, square))
    return out


def setup_fen(variant: Variant, index: int) -> str:
    """The start FEN after arrangement ``index``: chooser's pieces placed, mirrored, White to move."""
    data: FenData = parse_fen(variant, variant.setup.base_fen, allow_missing_royal=True)
    chooser = 1 if variant.setup.chooser == "white" else -1
    for letter, name in placements(variant, index):
        square = parse_square(variant, name)
        t = variant.type_index(letter) + 1
        file, rank = square % variant.files, square // variant.files
        mirror = (variant.ranks - 1 - rank) * variant.files + file
        for target in (square, mirror):
            if data.board[target] != 0:
                raise IllegalActionError(
                    f"setup square {square_name(variant, target)} is not empty in the base position"
                )
        data.board[square] = t * chooser
        data.board[mirror] = -t * chooser
    data.turn = 1
    fen = format_fen(variant, data)
    parse_fen(variant, fen)  # both Kings placed: validates the result
    return fen
