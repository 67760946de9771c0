"""Moves as text: coordinates, readable algebraic (SAN), and spoken sentences.

* Coordinates: from-square, to-square, lowercase promotion letter:
  ``f2h4``, ``e11e12q``. Castling is written as the King's move (``e1g1``).
* Algebraic: piece letter (none for Pawns), disambiguation only when needed,
  ``x`` for captures, ``=Q`` for promotion, ``O-O`` / ``O-O-O`` for castling,
  ``+`` / ``#`` for check and mate: ``Zxe4``, ``exd5``, ``e12=G+``.
  Parsing is lenient: ``x``, ``=``, ``-``, ``+``, ``#`` may be left out, a
  leading ``P`` is allowed, and full forms such as ``Ng1f3`` are understood.
* Sentences, English and French, for screen readers:
  "White Giraffe from c1 to e4, takes the Camel." /
  "Girafe blanche de c1 à e4, prend le Chameau."

>>> from zanzibar.games.chess.position import Position
>>> from zanzibar.games.chess.variant import load_variant
>>> pos = Position(load_variant("chess"))
>>> move = parse_move(pos, "Nf3")
>>> format_coordinate(pos, move), format_san(pos, move)
('g1f3', 'Nf3')
>>> sentence(pos.variant, move_details(pos, move), "fr")
'Cavalier blanc de g1 à f3.'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from zanzibar.engine.errors import IllegalActionError
from zanzibar.games.chess.fen import square_name
from zanzibar.games.chess.moves import (
    CASTLE,
    EN_PASSANT,
    KING_JUMP,
    flags,
    from_square,
    promotion,
    to_square,
)
from zanzibar.games.chess.variant import PieceType, Variant
from zanzibar.l10n import AnyOf, Msg, Voice

if TYPE_CHECKING:
    from zanzibar.games.chess.position import Position

PAWN_LETTER = "P"
_CASTLE_TEXT = re.compile(r"^[O0]-?[O0](-?[O0])?$")


# -- coordinates ---------------------------------------------------------------------


def format_coordinate(pos: Position, move: int) -> str:
    """``e2e4``, ``e11e12q`` (promotion letter lowercase)."""
    v = pos.variant
    text = square_name(v, from_square(move)) + square_name(v, to_square(move))
    promo = promotion(move)
    if promo:
        text += v.pieces[promo - 1].letter.lower()
    return text


def parse_coordinate(pos: Position, text: str) -> int:
    """The legal move written ``text`` in coordinates; IllegalActionError otherwise."""
    wanted = text.strip().lower().replace("-", "")
    for move in pos.legal_moves():
        if format_coordinate(pos, move) == wanted:
            return move
    raise IllegalActionError(f"{text.strip()!r} is not a legal move here")


# -- algebraic -----------------------------------------------------------------------


def _piece_type(pos: Position, code: int) -> PieceType:
    return pos.variant.pieces[abs(code) - 1]


def _san_body(pos: Position, move: int, legal: list[int]) -> str:
    v = pos.variant
    frm, to = from_square(move), to_square(move)
    if flags(move) & CASTLE:
        return "O-O" if to % v.files > frm % v.files else "O-O-O"
    code = pos.board[frm]
    piece = _piece_type(pos, code)
    capture = pos.is_capture(move)
    target = square_name(v, to)
    promo = promotion(move)
    suffix = f"={v.pieces[promo - 1].letter}" if promo else ""
    if piece.letter == PAWN_LETTER:
        origin = square_name(v, frm)[0] if capture else ""
        return f"{origin}{'x' if capture else ''}{target}{suffix}"
    rivals = [
        m
        for m in legal
        if m != move
        and to_square(m) == to
        and pos.board[from_square(m)] == code
        and promotion(m) == promo
    ]
    hint = ""
    if rivals:
        same_file = any(from_square(m) % v.files == frm % v.files for m in rivals)
        same_rank = any(from_square(m) // v.files == frm // v.files for m in rivals)
        name = square_name(v, frm)
        if not same_file:
            hint = name[0]
        elif not same_rank:
            hint = name[1:]
        else:
            hint = name
    return f"{piece.letter}{hint}{'x' if capture else ''}{target}{suffix}"


def format_san(pos: Position, move: int, legal: list[int] | None = None) -> str:
    """Readable algebraic notation of a legal move, with ``+`` or ``#``."""
    moves = pos.legal_moves() if legal is None else legal
    body = _san_body(pos, move, moves)
    pos.push(move)
    try:
        if pos.is_check():
            body += "#" if not pos.legal_moves() else "+"
    finally:
        pos.pop()
    return body


def _normalise(text: str) -> str:
    text = text.strip()
    text = re.sub(r"(e\.?p\.?)$", "", text).strip()
    text = text.rstrip("+#!?")
    if _CASTLE_TEXT.match(text.upper()):
        return text.upper().replace("0", "O").replace("-", "")
    return re.sub(r"[x:=\-\s]", "", text)


def _spellings(pos: Position, move: int, legal: list[int]) -> set[str]:
    v = pos.variant
    frm, to = from_square(move), to_square(move)
    piece = _piece_type(pos, pos.board[frm])
    promo = promotion(move)
    promo_letter = v.pieces[promo - 1].letter if promo else ""
    names = {
        _normalise(_san_body(pos, move, legal)),
        format_coordinate(pos, move),
        f"{piece.letter}{square_name(v, frm)}{square_name(v, to)}{promo_letter}",
    }
    if piece.letter == PAWN_LETTER:
        names.add(f"P{_normalise(_san_body(pos, move, legal))}")
    elif not flags(move) & CASTLE:
        # without disambiguation: matches several moves when it is ambiguous
        names.add(f"{piece.letter}{square_name(v, to)}{promo_letter}")
    return names


def parse_move(pos: Position, text: str) -> int:
    """Parse a legal move in coordinates or algebraic; IllegalActionError if none matches.

    Ambiguous input (``Nd2`` when two Knights can go there) is refused with a
    message listing the candidates.
    """
    if not text or not text.strip():
        raise IllegalActionError("no move given")
    legal = pos.legal_moves()
    wanted = _normalise(text)
    lowered = text.strip().lower().replace("-", "")
    exact = [m for m in legal if format_coordinate(pos, m) == lowered]
    if exact:
        return exact[0]
    found = [m for m in legal if wanted in _spellings(pos, m, legal)]
    if not found and wanted[:-1] and wanted[-1:].islower():
        # promotion letter typed in lowercase: e12q
        upper = wanted[:-1] + wanted[-1].upper()
        found = [m for m in legal if upper in _spellings(pos, m, legal)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        options = AnyOf(sorted(format_san(pos, m, legal) for m in found))
        raise IllegalActionError(Msg("error-ambiguous", text=text.strip(), options=options))
    raise IllegalActionError(f"{text.strip()!r} is not a legal move here")


# -- sentences -----------------------------------------------------------------------


def move_details(pos: Position, move: int) -> dict[str, Any]:
    """Everything a sentence or an event needs about a legal move, before it is played."""
    v = pos.variant
    frm, to = from_square(move), to_square(move)
    code = pos.board[frm]
    captured = pos.captured_code(move)
    promo = promotion(move)
    special = ""
    flag = flags(move)
    if flag & CASTLE:
        special = "castle_kingside" if to % v.files > frm % v.files else "castle_queenside"
    elif flag & KING_JUMP:
        special = "king_jump"
    elif flag & EN_PASSANT:
        special = "en_passant"
    legal = pos.legal_moves()
    san = _san_body(pos, move, legal)
    pos.push(move)
    try:
        check = pos.is_check()
        mate = check and not pos.legal_moves()
    finally:
        pos.pop()
    if check:
        san += "#" if mate else "+"
    return {
        "move": format_coordinate(pos, move),
        "san": san,
        "colour": "white" if code > 0 else "black",
        "piece": _piece_type(pos, code).letter,
        "from": square_name(v, frm),
        "to": square_name(v, to),
        "captured": _piece_type(pos, captured).letter if captured else "",
        "promotion": v.pieces[promo - 1].letter if promo else "",
        "special": special,
        "check": check,
        "mate": mate,
    }


def piece_msg(variant: Variant, letter: str, form: str = "") -> Msg:
    """A piece as a message: ``form`` is "" (its name), "the", "white" or "black".

    The words, the article and the agreement (Girafe blanche, l'Aigle) live in
    l10n/<lang>/chess.ftl, keyed by the piece's English name in lower case.
    """
    english = variant.piece_by_letter(letter).name["en"]
    msg_id = f"chess-piece-{form}" if form else "chess-piece"
    return Msg(msg_id, piece=english.lower(), fallback=english)


def piece_name(variant: Variant, letter: str, lang: str) -> str:
    """The piece's name in ``lang`` ("Giraffe", "Girafe")."""
    return Voice(lang).say(piece_msg(variant, letter))


def colour_piece(variant: Variant, colour: str, letter: str, lang: str) -> str:
    """ "White Giraffe" / "Girafe blanche"."""
    return Voice(lang).say(piece_msg(variant, letter, colour))


def the_piece(variant: Variant, letter: str, lang: str) -> str:
    """ "the Camel" / "le Chameau", "la Tour", "l'Aigle"."""
    return Voice(lang).say(piece_msg(variant, letter, "the"))


def move_msg(variant: Variant, details: Mapping[str, Any]) -> Msg:
    """The message of a move from :func:`move_details` data."""
    colour = details["colour"]
    captured = details.get("captured") or ""
    promotion_letter = details.get("promotion") or ""
    check = "mate" if details.get("mate") else "check" if details.get("check") else "none"
    return Msg(
        "chess-move",
        colour=colour,
        special=details.get("special") or "other",
        mover=piece_msg(variant, details["piece"], colour),
        **{"from": details["from"]},
        to=details["to"],
        captured="yes" if captured else "none",
        victim=piece_msg(variant, captured, "the") if captured else "",
        promotion="yes" if promotion_letter else "none",
        promoted=piece_msg(variant, promotion_letter) if promotion_letter else "",
        check=check,
    )


def sentence(variant: Variant, details: Mapping[str, Any], lang: str) -> str:
    """One sentence for a screen reader from :func:`move_details` data."""
    return Voice(lang).say(move_msg(variant, details))
