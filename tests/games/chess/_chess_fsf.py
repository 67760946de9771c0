"""Helpers shared by the Fairy-Stockfish differential tests (pyffish is test-only)."""

from __future__ import annotations

import random

import pyffish as sf

from zanzibar.games.chess.notation import format_coordinate
from zanzibar.games.chess.position import Position

#: A 12x10 variant holding every Zanzibar-S piece Fairy-Stockfish can express
#: (all but the Eagle, the Rhinoceros and the King's jump), for both engines.
ZS10_INI = """
[zs10:chess]
maxRank = 10
maxFile = 12
customPiece1 = l:KNAD
customPiece2 = f:NCZ
customPiece3 = i:KfmnnD
customPiece4 = z:Z
customPiece5 = m:C
customPiece6 = e:FA
customPiece7 = w:WD
customPiece8 = c:mRcpR
customPiece9 = v:mBcpB
pawn = p
king = k
queen = q
rook = r
bishop = b
knight = n
castling = false
doubleStep = true
doubleStepRegionWhite = *1 *2 *3 *4 *5 *6 *7 *8 *9 *10
doubleStepRegionBlack = *1 *2 *3 *4 *5 *6 *7 *8 *9 *10
promotionRegionWhite = *10
promotionRegionBlack = *1
promotionPawnTypes = pi
promotionPieceTypes = qlf
mandatoryPawnPromotion = true
stalemateValue = draw
startFen = cmzvfqklvzmc/ernbwllwbnre/ppppippipppp/12/12/12/12/PPPPIPPIPPPP/ERNBWLLWBNRE/CMZVFQKLVZMC w - - 0 1
"""

ZS10_TOML = """
name = "zs10"
files = 12
ranks = 10
start_fen = "cmzvfqklvzmc/ernbwllwbnre/ppppippipppp/12/12/12/12/PPPPIPPIPPPP/ERNBWLLWBNRE/CMZVFQKLVZMC w - - 0 1"
[rules]
move_rule_resets = ["P"]
[[pieces]]
letter = "K"
betza = "K"
royal = true
name = { en = "King", fr = "Roi" }
[[pieces]]
letter = "Q"
betza = "Q"
name = { en = "Queen", fr = "Dame" }
[[pieces]]
letter = "L"
betza = "KNAD"
name = { en = "Lion", fr = "Lion" }
[[pieces]]
letter = "F"
betza = "NCZ"
name = { en = "Buffalo", fr = "Buffle" }
[[pieces]]
letter = "R"
betza = "R"
name = { en = "Rook", fr = "Tour" }
[[pieces]]
letter = "C"
betza = "mRcpR"
name = { en = "Cannon", fr = "Canon" }
[[pieces]]
letter = "V"
betza = "mBcpB"
name = { en = "Crocodile", fr = "Crocodile" }
[[pieces]]
letter = "B"
betza = "B"
name = { en = "Bishop", fr = "Fou" }
[[pieces]]
letter = "N"
betza = "N"
name = { en = "Knight", fr = "Cavalier" }
[[pieces]]
letter = "Z"
betza = "Z"
name = { en = "Giraffe", fr = "Girafe" }
[[pieces]]
letter = "M"
betza = "C"
name = { en = "Camel", fr = "Chameau" }
[[pieces]]
letter = "E"
betza = "FA"
name = { en = "Elephant", fr = "Éléphant" }
[[pieces]]
letter = "W"
betza = "WD"
name = { en = "Machine", fr = "Machine" }
[[pieces]]
letter = "I"
betza = "KfmnnD"
promotion = { ranks = [10], choices = ["Q", "L", "F"] }
name = { en = "Prince", fr = "Prince" }
[[pieces]]
letter = "P"
betza = "fmWfceFfmnnD"
en_passant_capturable = true
promotion = { ranks = [10], choices = ["Q", "L", "F"] }
name = { en = "Pawn", fr = "Pion" }
"""

_loaded = False


def load_zs10() -> None:
    """Register the custom variant with Fairy-Stockfish (once)."""
    global _loaded
    if not _loaded:
        sf.load_variant_config(ZS10_INI)
        _loaded = True


def our_moves(pos: Position) -> list[str]:
    """Our legal moves in coordinates."""
    return sorted(format_coordinate(pos, m) for m in pos.legal_moves())


def fsf_perft(variant: str, fen: str, depth: int) -> int:
    """Perft through pyffish, walking FENs so each call stays short."""
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    if depth == 2:
        return sum(len(sf.legal_moves(variant, fen, [m])) for m in moves)
    return sum(fsf_perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def random_walk_positions(pos: Position, variant: str, seed: int, plies: int) -> list[str]:
    """Play random moves, checking both engines agree on every move list; return the FENs."""
    rng = random.Random(seed)
    fens = []
    for _ in range(plies):
        fen = pos.fen()
        theirs = sorted(sf.legal_moves(variant, fen, []))
        ours = our_moves(pos)
        assert ours == theirs, (fen, sorted(set(ours) ^ set(theirs)))
        fens.append(fen)
        if not ours:
            break
        pos.push(pos.parse_uci(rng.choice(ours)))
    return fens
