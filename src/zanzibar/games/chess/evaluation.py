"""Static evaluation for the search bot, derived from each variant's piece definitions.

Nothing here is written for one variant: every table is computed from the
pieces' Betza moves, the board size and the promotion zones, so a new variant
gets a sensible evaluation without hand tuning. Scores are centipawns.

* **Material** comes from the ``value`` of each piece in the variant's file;
  when a file gives none (a user's own variant) it is derived from the piece's
  moves (:func:`derived_value`): its *effective* mobility on a board with a
  typical density of pieces (a rider's far squares count less, since a piece
  is likely to stand in the way), on a power law calibrated once on orthodox
  chess, whose Knight, Bishop, Rook and Queen it must reproduce (the test pins
  them within 10 %). Pieces that promote add a share of their promotion gain.
* **Placement** (piece-square tables): a piece gains a few centipawns for every
  target it would reach from a square on an empty board compared with its
  average square, so a Lion or a Knight loses a lot in a corner, a Rook almost
  nothing. Pieces that promote gain value as they advance towards the variant's
  promotion zone. The King keeps home in the middlegame and heads for the
  centre in the endgame. The two scores are blended by the material left.
* **Pawn structure** (for pieces that promote and never move backwards): doubled
  and isolated pawns lose, passed pawns (no enemy pawn ahead on their file or
  the files they capture towards) gain, quadratically with their progress to
  the promotion zone. Cached by a pawn key that the piece-square sum carries.
* **Threats by pawns**: a piece (not a pawn, not the King) on a square an enemy
  pawn-like piece captures on loses a little: it must move or be lost, and two such
  pieces are a fork that the static score would otherwise miss. The squares each
  side's pawns attack (from their capturing steps) are cached with the pawn structure.
* **King safety** (middlegame): own pawns in front of the King (the shield),
  friendly pieces next to it, a penalty growing with the number and the
  value of the enemy pieces within two steps of it, and one for standing on
  the centre files (which open first: the King castles or steps aside).
* **The King's place** (middlegame, read from the variant's own castling rules): a King
  still on its start square with the right to castle counts the shield of the best wing
  it may castle to and a little per right kept; one that can no longer castle and has not
  reached a castled square pays for it (a King walked out or left in the centre while its
  Rooks moved); any King pays for files beside it without its own pawn and for enemy
  pawns storming them (within half the board's ranks, so 12 x 12 looks further).
* **Files and pairs**: a file rider (a piece riding straight ahead, moving and
  capturing that way, without a diagonal ride: a Rook, not a Queen nor a Cannon)
  gains on a file without pawns, less on one without its own pawns; two
  colour-bound riders of one type (Bishops) on both square colours gain a pair
  bonus. Both kinds are read from the pieces' moves (:func:`piece_kinds`).
* **Mobility in the position**: each rider (straight, hopping-capture and bent
  riders alike) counts the squares it attacks along its lines, up to and with
  the first piece met, against its expected count, weighted by the cheapest
  rider's value over its own (a Queen's square counts 0.37 of a Bishop's: the
  dearer the piece, the fewer of its squares are safe from lesser pieces);
  leapers' mobility is the placement term already.
* **Early sorties** (middlegame): a heavy piece (at least 2.5 times the cheapest
  officer: the Queen; the Eagle, Rhinoceros and Lion of the 12 x 12 variants)
  standing beyond its side's start ranks pays while minor pieces (under 1.5 times
  it: Knights, Bishops, the fairy minors) are still on their start squares, by the
  share of them there: it is chased with tempo, and develops nothing. The position's
  incremental sum carries the counts (minor pieces at home, heavy pieces out, per
  side), so the term costs a few integer operations.
* **Ending**: against a bare King, and at half weight in any endgame where one
  side leads by a clear margin, the stronger side is rewarded for driving the
  enemy King to the edge and bringing its own King close (this is how mates
  are forced with any pieces, fairy or not); the side ahead also gains a little
  as material comes off, so it trades down instead of shuffling.

Speed: the position keeps the piece-square sum (:func:`pack` of the middlegame
and endgame scores, the phase weight and the pawn key) up to date move by move
(``Position.attach_table``), so evaluating reads one integer, one pawn-cache
entry, a few masks around each King and the riders' lines. A rider's count is
looked up by the occupancy of its lines (a table per piece and square, filled on
first sight), and the position keeps the riders apart (``Position.track``), so
only they are walked. Whole evaluations are also cached by the position's hash.
Quiescence asks :meth:`Evaluator.evaluate_lazy`, which stops at the incremental sum
when that alone is far above beta (the other terms seldom move a score that far).

>>> from zanzibar.games.chess.variant import load_variant
>>> from zanzibar.games.chess.position import Position
>>> ev = evaluator_for(load_variant("chess"))
>>> ev.evaluate(Position(load_variant("chess")))
0
>>> ev.values["Q"], ev.values["N"]
(900, 320)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from zanzibar.games.chess.betza import Atom, parse
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import PieceType, Variant

# -- weights ------------------------------------------------------------------------
# Tuned by bench/texel.py on orthodox self-play (run of 2026-11-25):
#   .venv/bin/python bench/texel.py --variant chess --games 80 --nodes 800 --rounds 3
# 8,031 quiet positions from 80 games, K = 0.616; mean squared error 0.11717 with the
# hand-set weights, 0.11390 after three rounds of coordinate descent. Applied: every
# weight it moved except three. MOBILITY_WEIGHT stays 3 (it went to 0 on orthodox games,
# but it is the only centring term of the fairy leapers, and texel saw no fairy game);
# the ending weights (MOP_UP_*, WINNING_LEAD) stay, since positions with a bare or
# hunted King are too rare in 80 games to tune them (it lowered MOP_UP_CLOSE to -1,
# which would keep the winning King away from the mate). The piece values it proposed
# (Q 950, R 450, B 305, N 270, P 125) were not applied: the variant files keep theirs.
# The file, pair and King-file terms (2026-11-26) were set by hand, then checked by
#   bench/texel.py --games 40 --nodes 300 --rounds 2 --seed 5000 --only PAIR_MG,PAIR_EG,\
#     OPEN_FILE_MG,OPEN_FILE_EG,HALF_OPEN_FILE_MG,HALF_OPEN_FILE_EG,KING_CENTRE_FILE_MG,\
#     PASSED_EG,SHIELD_BONUS
# 2,891 quiet positions (of 3,812), K = 0.663, error 0.15564 -> 0.15498. It kept every new
# term and its sign (pair 15/40, open file 35/0, half-open 4/-2, King on the centre files 40;
# passed 140, shield 16): not applied, a sample this small moves weights by noise, and
# no fixed-node match could check them in the time.
# Run of 2026-11-26 on both runs' positions together (bench/data/texel_chess.txt.gz):
#   .venv/bin/python bench/texel.py --variant chess --samples bench/data/texel_chess.txt.gz \
#     --rounds 2
# 8,794 quiet positions of 11,843, K = 0.666, error 0.12300 -> 0.12091. Its proposal for the
# King's safety (shield 32, attackers 16, centre files 20), passed pawns 60/160, doubled
# pawns 35/15, the pair 15/45, open files 20/0 and 4/6, endgame centring 14 lost at fixed
# nodes: 2/10 against these weights (bench/strength.py --versus 21dcb99 --nodes 3000
# --seed 2611, stopped after 10 games; 95 % interval 0.00-0.46). Not applied: a fit to the
# results of low-budget games (300 and 800 nodes a move) does not make the search stronger.
# Rerun of 2026-11-26 afternoon, with the pawn-threat term (same command, 2 rounds): K = 0.669,
# error 0.12288 -> 0.12075 (the evaluation before the threat term: 0.12300). It proposed the
# same weights as the run above (shield 32, attackers 16, passed 60/140, doubled 35/15, pair
# 15/45, open files 20/0, Q 950, R 525, P 125) and the threat term at 50/35: not applied, the
# like lost at fixed nodes above and no match could check it this time.

# The King-place weights (CASTLING_RIGHT_MG, UNCASTLED_MG, KING_OPEN_FILE_MG, KING_STORM_MG;
# 2026-11-27 afternoon) are set by hand. The first ones (8, 40, 15, 6) lost at fixed nodes:
# bench/strength.py --versus 3134400 --nodes 2000 --seed 2712, 2/12 (stopped), and --nodes
# 4000 --seed 2711, 2.5/6; today's (0, 20, 15, 0) scored 9/16 and 7/16 (--seed 2712, 2713),
# 16/32 = 0.50 (95 % about 0.33-0.67): no loss shown, no gain shown. bench/texel.py on the same samples, --rounds 4 --only
# those four and SHIELD_BONUS, KING_CENTRE_FILE_MG: K = 0.646, error 0.12330 -> 0.12264 with
# castling right -8, uncastled 0, open file 35, storm 0, shield 40, centre files 10, each still
# moving by its full step: not applied (the samples' bots knew nothing of castling, and such
# fits lost at fixed nodes before; README, "The King's place").

#: Centipawns per extra empty-board target compared with the piece's average square.
MOBILITY_WEIGHT = 3
#: Cap on the placement bonus or penalty of one piece, in centipawns.
PLACEMENT_CAP = 40
#: Share of the promotion gain a piece one step from promotion is worth (endgame / middlegame).
PROMOTION_SHARE_EG = 0.3
PROMOTION_SHARE_MG = 0.02
#: Middlegame bonus of an advanced pawn-like piece on the centre files (scaled down to 0 at the edge).
CENTRE_PAWN_BONUS = 5
#: Middlegame bonus per friendly piece next to the King.
SHELTER_BONUS = 17
#: Middlegame penalty per rank the King has left its first rank.
KING_ADVANCE_PENALTY = 5
#: Middlegame penalty of a King on the centre files (scaled by the square of its nearness to
#: the centre, 0 on the edge files): the centre files open first, so the King castles or
#: walks aside (the shield and shelter terms alone were the same on e1 as on g1).
KING_CENTRE_FILE_MG = 30
#: Endgame bonus per King target above average (centralisation).
KING_CENTRE_WEIGHT = 12
#: Against a bare King: bonus per step it stands from the centre, and per step the
#: attacking King comes closer to it (drives it to the edge, where mates are).
MOP_UP_EDGE = 12
MOP_UP_CLOSE = 5
#: ... and per flight square of the enemy King taken away (of eight). 25, not 10: with 10 a
#: two-ply search (``easy``, 1,000 nodes) shuffled a Rook against a bare King on 12 x 12 into
#: the move rule in 20 of 30 random positions (seed 11), with 25 in 12; orthodox King and Rook
#: 54/60 mated either way, King and two Bishops 7/20 against 3/20, King and Queen all mated.
MOP_UP_BOX = 25
#: Endgame lead (centipawns) from which the leading side also drives the enemy King.
WINNING_LEAD = 350
#: Share of its lead the side ahead gains as the material comes off (trade when ahead).
SIMPLIFY_SHARE = 0.2
#: Pawn structure, (middlegame, endgame) centipawns: per extra pawn on a file, per pawn
#: with no own pawn on the neighbouring files, and a passed pawn's bonus one step from
#: promotion (less, quadratically, further back).
DOUBLED_MG, DOUBLED_EG = 25, 5
ISOLATED_MG, ISOLATED_EG = 6, 0
PASSED_MG, PASSED_EG = 40, 120
#: (middlegame, endgame) penalty per piece (not a pawn, not the King) that an enemy pawn
#: attacks: it must move or be lost, and two such pieces are a fork the static score
#: would not otherwise see.
THREAT_BY_PAWN_MG, THREAT_BY_PAWN_EG = 40, 25
#: Middlegame bonus per own pawn right in front of the King (half for the rank beyond).
SHIELD_BONUS = 24
#: Middlegame penalty per pawn-worth of enemy pieces within two steps of the King,
#: times their number (at most four), divided by four.
KING_ATTACK = 12
#: King placement (middlegame; only in variants with castling, except the files and storm):
#: a King on its start square that may still castle is sheltered as well as the best wing it
#: may castle to (its shield counted there, as the shield term counts it on its own square;
#: 4... Kf8 in the French looked better than keeping the right when only the King's own
#: square counted), plus this bonus per wing it may still castle to ...
CASTLING_RIGHT_MG = 0
#: ... while a King that can no longer castle and stands neither on a square castling
#: leads to nor beyond it towards the board's edge (it walked, or its Rooks moved) loses
#: this much. Both are middlegame terms, so they fade as the material comes off.
UNCASTLED_MG = 20
#: Middlegame penalty per file, of the King's own and its two neighbours, without a pawn of
#: the King's side (a file the enemy's Rooks and Queen open towards it).
KING_OPEN_FILE_MG = 15
#: Middlegame penalty per enemy pawn storming the King's files (its own and its two
#: neighbours): twice for one within two ranks of it, once for one within half the board.
KING_STORM_MG = 0
#: Middlegame penalty of an early sortie: a heavy piece (worth at least SORTIE_HEAVY times the
#: cheapest officer: the Queen; in the fairy variants also the Eagle, Rhinoceros and Lion)
#: standing beyond its side's start ranks (the pawns' and pieces' ranks of the start position)
#: while minor pieces (worth less than SORTIE_MINOR times the cheapest officer: Knights,
#: Bishops, the fairy minors) still stand on their start squares, by the share of them still
#: there. Such a piece is chased by the lesser pieces with tempo, and the live mobility paid
#: for its many squares: 4. Qd3 and 4... Qf6 in the games of 2026-11-27 (docs/chess-strength.md).
SORTIE_MG = 40
SORTIE_HEAVY = 2.5
SORTIE_MINOR = 1.5
#: Centipawns per square a rider attacks in the position beyond its expected count.
LIVE_MOBILITY_MG = 5
LIVE_MOBILITY_EG = 1
#: A rider's squares count (cheapest rider's value / its value) ** this of the weights above:
#: a square is worth using only if no lesser enemy piece attacks it, and the dearer the
#: piece, the more of its squares are not (Stockfish's tables pay a Queen's square about a
#: third of a Bishop's in the middlegame). Orthodox: Bishop 1, Rook 0.66, Queen 0.37. At 1
#: the Queen's sortie 4... Qf6 of the Ruy Lopez (its squares paid +40 against 4... Nf6) is
#: no longer chosen at 30,000 nodes; with every rider at 1 (0 here) it was.
LIVE_MOBILITY_SCALING = 1.0
#: (middlegame, endgame) bonus for a pair of colour-bound riders (Bishops) of one type on
#: both square colours: together they reach every square, apart half of them.
PAIR_MG, PAIR_EG = 25, 50
#: (middlegame, endgame) bonus of a file rider (a Rook: rides straight ahead and captures
#: that way, no diagonal ride) on a file without any pawn, and on one without its own pawn.
OPEN_FILE_MG, OPEN_FILE_EG = 30, 10
HALF_OPEN_FILE_MG, HALF_OPEN_FILE_EG = 12, 6

# -- derived piece values -----------------------------------------------------------

#: Chance that a square on a rider's line is empty, on a board in play: a rider's
#: n-th square counts DENSITY ** (n - 1), a hopper's captures count the squares
#: behind exactly one piece.
DENSITY = 0.7
#: Promoting pieces are worth their own moves plus this share of their promotion gain
#: divided by the number of steps to the zone (a Pawn is mostly a promise).
PROMISE_SHARE = 0.35
#: The orthodox values the power law is fitted to, in centipawns.
ORTHODOX_VALUES = {"N": 300, "B": 320, "R": 500, "Q": 900}


def _on(files: int, ranks: int, f: int, r: int) -> bool:
    return 0 <= f < files and 0 <= r < ranks


def _ray_length(files: int, ranks: int, f: int, r: int, dx: int, dy: int, limit: int) -> int:
    n = 0
    while _on(files, ranks, f + dx, r + dy) and (not limit or n < limit):
        f, r = f + dx, r + dy
        n += 1
    return n


def empty_board_targets(atoms: tuple[Atom, ...], files: int, ranks: int, square: int) -> float:
    """How many squares a piece reaches from ``square`` on an empty board, as a weight.

    A move that may both move and capture counts 1; a move-only or capture-only
    one counts 1/2 (so a Pawn's diagonal captures and its step each count half);
    a hopper cannot capture on an empty board, so its captures count half of the
    squares beyond its first (a rough stand-in for the screens it will find).
    Moves allowed only from the initial ranks are left out.

    >>> empty_board_targets(tuple(parse("N")), 8, 8, 0)
    2.0
    >>> empty_board_targets(tuple(parse("R")), 8, 8, 27)
    14.0
    """
    f0, r0 = square % files, square // files
    total = 0.0
    for atom in atoms:
        if atom.initial:
            continue
        weight = 1.0 if atom.move and atom.capture else 0.5
        for index, (dx, dy) in enumerate(atom.vectors):
            if atom.kind in ("leap", "lame"):
                if _on(files, ranks, f0 + dx, r0 + dy):
                    total += weight
            elif atom.kind == "ride":
                total += weight * _ray_length(files, ranks, f0, r0, dx, dy, atom.max_range)
            elif atom.kind == "hop":
                n = _ray_length(files, ranks, f0, r0, dx, dy, atom.max_range)
                if atom.capture:
                    total += 0.5 * max(n - 1, 0) * (0.5 if atom.move else 1.0)
                if atom.move:
                    total += 0.5 * n
            elif atom.kind == "bent":
                f1, r1 = f0 + dx, r0 + dy
                if not _on(files, ranks, f1, r1):
                    continue
                total += weight
                for lx, ly in atom.legs[index]:
                    total += weight * _ray_length(files, ranks, f1, r1, lx, ly, 0)
    return total


def effective_targets(
    atoms: tuple[Atom, ...], files: int, ranks: int, square: int, density: float = DENSITY
) -> float:
    """Expected number of squares a piece reaches from ``square`` on a board in play.

    Each square beyond the first of a line counts the chance that the squares
    before it are empty (``density`` each); a lame leap counts that chance once;
    a hopper's capture counts the chance of exactly one piece before its target.
    Move-only and capture-only moves count half, as in :func:`empty_board_targets`.

    >>> round(effective_targets(tuple(parse("R")), 8, 8, 0), 3)
    6.118
    """
    f0, r0 = square % files, square // files
    full = 1.0 - density

    def line(f: int, r: int, dx: int, dy: int, limit: int) -> float:
        n = _ray_length(files, ranks, f, r, dx, dy, limit)
        return sum(density**d for d in range(n))

    def behind_one(f: int, r: int, dx: int, dy: int, limit: int) -> float:
        n = _ray_length(files, ranks, f, r, dx, dy, limit)
        return sum((d - 1) * full * density ** (d - 2) for d in range(2, n + 1))

    total = 0.0
    for atom in atoms:
        if atom.initial:
            continue
        weight = 1.0 if atom.move and atom.capture else 0.5
        for index, (dx, dy) in enumerate(atom.vectors):
            if atom.kind == "leap":
                total += weight * _on(files, ranks, f0 + dx, r0 + dy)
            elif atom.kind == "lame":
                total += weight * density * _on(files, ranks, f0 + dx, r0 + dy)
            elif atom.kind == "ride":
                total += weight * line(f0, r0, dx, dy, atom.max_range)
            elif atom.kind == "hop":
                total += weight * behind_one(f0, r0, dx, dy, atom.max_range)
            elif atom.kind == "bent":
                f1, r1 = f0 + dx, r0 + dy
                if not _on(files, ranks, f1, r1):
                    continue
                total += weight
                for lx, ly in atom.legs[index]:
                    total += weight * density * line(f1, r1, lx, ly, 0)
    return total


def average_targets(piece: PieceType, files: int, ranks: int) -> float:
    """Mean of :func:`empty_board_targets` over every square of the board."""
    size = files * ranks
    return sum(empty_board_targets(piece.atoms, files, ranks, s) for s in range(size)) / size


def average_effective(atoms: tuple[Atom, ...], files: int, ranks: int) -> float:
    """Mean of :func:`effective_targets` over every square of the board."""
    size = files * ranks
    return sum(effective_targets(atoms, files, ranks, s) for s in range(size)) / size


def _fit_power_law() -> tuple[float, float]:
    """(scale, exponent) of ``value = scale * mobility ** exponent``, least squares in logs
    through the orthodox pieces of :data:`ORTHODOX_VALUES` on 8 x 8."""
    xs, ys = [], []
    for letter, value in ORTHODOX_VALUES.items():
        xs.append(math.log(average_effective(tuple(parse(letter)), 8, 8)))
        ys.append(math.log(value))
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    return math.exp(my - slope * mx), slope


_SCALE, _EXPONENT = _fit_power_law()


def mobility_value(piece: PieceType, files: int, ranks: int) -> float:
    """A piece's worth from its moves alone (:func:`effective_targets` on the power law)."""
    m = average_effective(piece.atoms, files, ranks)
    return _SCALE * m**_EXPONENT if m > 0 else 0.0


def derived_value(piece: PieceType, files: int, ranks: int, variant: Variant | None = None) -> int:
    """A material value for a piece whose variant file gives none.

    The mobility value (:func:`mobility_value`); for a piece that promotes, plus
    :data:`PROMISE_SHARE` of the best promotion's gain per step to the zone
    (``variant`` needed for that). Calibration, orthodox chess (values in the
    file, for comparison: 320, 330, 500, 900, Pawn 100):

    >>> from zanzibar.games.chess.variant import load_variant
    >>> v = load_variant("chess")
    >>> [derived_value(v.piece_by_letter(x), 8, 8, v) for x in "PNBRQ"]
    [103, 293, 337, 482, 909]
    """
    own = mobility_value(piece, files, ranks)
    if variant is not None and piece.promotion is not None:
        best = max(
            mobility_value(variant.piece_by_letter(c), files, ranks)
            for c in piece.promotion.choices
        )
        steps = max(min(piece.promotion.ranks) - _start_rank(variant, piece), 1)
        own += PROMISE_SHARE * max(best - own, 0.0) / steps
    return round(own)


def _start_rank(variant: Variant, piece: PieceType) -> int:
    """The lowest rank (1-based, White's side) a piece of this type starts on (2 if none)."""
    code = variant.pieces.index(piece) + 1
    start = Position(variant)
    ranks = [s // variant.files + 1 for s, c in enumerate(start.board) if c == code]
    return min(ranks) if ranks else 2


# -- packing the incremental sum ----------------------------------------------------

_COUNT_BITS = 32
_KEY_BITS = 48
_PHASE_BITS = 20
_EG_BITS = 20
_COUNT_MASK = (1 << _COUNT_BITS) - 1
_KEY_MASK = (1 << _KEY_BITS) - 1
#: the bits below the phase: the pawn key's and the counts'
_LOW_BITS = _KEY_BITS + _COUNT_BITS
_PHASE_MASK = (1 << _PHASE_BITS) - 1
_EG_MASK = (1 << _EG_BITS) - 1
_EG_HALF = 1 << (_EG_BITS - 1)


def pack(mg: int, eg: int, phase: int, key: int = 0, count: int = 0) -> int:
    """Scores in one integer, so that sums of packed values unpack to the sums.

    ``phase`` must stay in [0, 2**20), ``eg`` in (-2**19, 2**19), ``key``
    (the pawn key's share) in [0, 2**48) and ``count`` (four eight-bit counters, of
    the early-sortie term) in [0, 2**32) once summed over a whole board, which
    centipawn totals, forty-bit keys of fewer than 256 pawns and fewer than 256
    pieces of each counted kind do.

    >>> unpack(pack(-350, 120, 900) + pack(20, -400, 0))
    (-330, -280, 900)
    >>> split(pack(5, -6, 7, 8) + pack(1, 1, 1, 1))
    (6, -5, 8, 9)
    """
    return (
        (((mg << _EG_BITS) + eg << _PHASE_BITS) + phase << _KEY_BITS) + key << _COUNT_BITS
    ) + count


def split(total: int) -> tuple[int, int, int, int]:
    """Inverse of :func:`pack` for a sum of packed values: (mg, eg, phase, key)."""
    key = total >> _COUNT_BITS & _KEY_MASK
    rest = total >> _LOW_BITS
    phase = rest & _PHASE_MASK
    rest >>= _PHASE_BITS
    eg = ((rest + _EG_HALF) & _EG_MASK) - _EG_HALF
    mg = (rest - eg) >> _EG_BITS
    return mg, eg, phase, key


def unpack(total: int) -> tuple[int, int, int]:
    """(mg, eg, phase) of a sum of packed values (the pawn key left out)."""
    mg, eg, phase, _key = split(total)
    return mg, eg, phase


# -- the evaluator ------------------------------------------------------------------


#: Entries kept in the evaluation and pawn caches before they are emptied.
CACHE_LIMIT = 1 << 17
#: Occupancy patterns kept per rider and square before that table is emptied.
MOBILITY_TABLE_LIMIT = 1 << 12


#: A pawn-cache entry: (mg, eg, White's pawn mask, Black's pawn mask, the squares White's
#: pawns attack, Black's).
PawnEntry = tuple[int, int, int, int, int, int]


@dataclass
class Evaluator:
    """Precomputed evaluation tables of one variant (build with :func:`evaluator_for`)."""

    variant: Variant
    #: Material value by piece letter (the royal piece is 0).
    values: dict[str, int]
    #: value_by_code[code]: material of a piece code, always positive (for move ordering).
    value_by_code: list[int]
    #: mg[code][square], eg[code][square]: signed score (White positive) of a piece there.
    mg: list[list[int]]
    eg: list[list[int]]
    #: phase_weight[code]: non-pawn material counted towards the middlegame phase.
    phase_weight: list[int]
    max_phase: int
    #: neighbours[square]: squares one King step away.
    neighbours: list[tuple[int, ...]]
    royal_code: int
    #: centre_distance[square]: King steps (Manhattan) from the board's centre.
    centre_distance: list[int]
    #: The largest material gain of any promotion in the variant (0 if none).
    max_promotion_gain: int = 0
    #: pawn_key[code][square]: a random 40-bit number for pawn-like pieces (0 otherwise),
    #: summed into the packed table so the position's sum carries its pawns' key.
    pawn_key: list[list[int]] = field(default_factory=list)
    #: packed[code][square]: mg, eg, phase weight and pawn key in one integer (see
    #: :func:`pack`), so that the position keeps their sum move by move.
    packed: list[list[int]] = field(default_factory=list)
    #: zone[square]: bitmask of the squares one King step away (for the shelter count).
    zone: list[int] = field(default_factory=list)
    #: near[square]: bitmask of the squares within two King steps (the attack zone).
    near: list[int] = field(default_factory=list)
    #: shield1[colour][square], shield2[...]: the three squares one (two) ranks in front.
    shield1: list[list[int]] = field(default_factory=list)
    shield2: list[list[int]] = field(default_factory=list)
    #: pawn_codes: codes of the pawn-like pieces (promote, never move backwards).
    pawn_codes: frozenset[int] = frozenset()
    #: ahead[code][square]: squares on which an enemy pawn stops a passed pawn.
    ahead: list[list[int]] = field(default_factory=list)
    #: passed[code][square]: (mg, eg) bonus of a passed pawn there, White positive.
    passed: list[list[tuple[int, int]]] = field(default_factory=list)
    #: pawn_attacks[code][square]: the squares a pawn-like piece there may capture on.
    pawn_attacks: list[list[int]] = field(default_factory=list)
    #: rays[code][square]: the lines a rider attacks along: (mask, rising, full count);
    #: bent riders' lines start beyond their first step, which must be empty (gate).
    rays: list[list[tuple[tuple[int, int, bool, int], ...]]] = field(default_factory=list)
    #: expected[code]: the rider's mean attacked-square count (subtracted, signed).
    expected: list[int] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)
    #: piece_kind[code]: FILE_RIDER, COLOUR_BOUND or 0, for riders only (see :func:`piece_kinds`).
    piece_kind: list[int] = field(default_factory=list)
    #: King placement tables (see :func:`_king_place_tables`), by colour (index 1, -1):
    #: the King's start square (-1 without castling), the (rights bit, King's target) of
    #: each castling wing, and the mask of the squares a castled King may stand on.
    castle_home: list[int] = field(default_factory=lambda: [-1, -1, -1])
    castle_wings: list[tuple[tuple[int, int], ...]] = field(default_factory=lambda: [(), (), ()])
    castled_squares: list[int] = field(default_factory=lambda: [0, 0, 0])
    #: king_files[square]: the masks of the King's file and its neighbours there.
    king_files: list[tuple[int, ...]] = field(default_factory=list)
    #: storm_near[colour][square], storm_far[...]: the squares on those files one to two
    #: ranks ahead of a King there, and three to half the board's ranks ahead.
    storm_near: list[list[int]] = field(default_factory=list)
    storm_far: list[list[int]] = field(default_factory=list)
    #: The early-sortie term (see :func:`_sortie_tables`): by colour (index 1, -1), the
    #: (start square, code) of each of that side's minor pieces; by code and square, 1 for
    #: a heavy piece standing beyond its side's start ranks (0 for every other piece and
    #: square); the minor pieces' codes.
    minor_homes: list[tuple[tuple[int, int], ...]] = field(default_factory=lambda: [(), (), ()])
    heavy_out: list[list[int]] = field(default_factory=list)
    minor_codes: frozenset[int] = frozenset()
    #: sortie_count[code][square]: the term's four eight-bit counters, summed into the
    #: packed table (its lowest 32 bits) so that the position's sum carries them: White's
    #: minor pieces on their own start squares (bits 0-7), Black's (8-15), White's heavy
    #: pieces beyond its start ranks (16-23), Black's (24-31).
    sortie_count: list[list[int]] = field(default_factory=list)
    #: mobility_scale[code]: the share of the live mobility weight a rider's squares get
    #: (1 for the cheapest rider, less for dearer ones: LIVE_MOBILITY_SCALING).
    mobility_scale: list[float] = field(default_factory=list)
    _cache: dict[int, int] = field(default_factory=dict, repr=False)
    _place_cache: dict[int, int] = field(default_factory=dict, repr=False)
    _pawn_cache: dict[int, PawnEntry] = field(default_factory=dict, repr=False)
    #: one side's doubled and isolated pawn terms by its pawn mask (and colour bit)
    _side_pawn_cache: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)
    _mob_rows: list[list[tuple[int, dict[int, int]]] | None] = field(
        default_factory=list, repr=False
    )
    rider_flags: list[bool] = field(default_factory=list, repr=False)
    _shelter: float = field(default=0, repr=False)
    _shelter_by_count: list[float] = field(default_factory=list, repr=False)
    _shield: float = field(default=0, repr=False)
    _king_attack: float = field(default=0, repr=False)
    _live_mg: float = field(default=0, repr=False)
    _live_eg: float = field(default=0, repr=False)
    _winning_lead: float = field(default=0, repr=False)
    _threat_by_pawn: tuple[int, int] = field(default=(0, 0), repr=False)
    _simplify: float = field(default=0, repr=False)
    _castling_right: float = field(default=0, repr=False)
    _uncastled: float = field(default=0, repr=False)
    _king_open_file: float = field(default=0, repr=False)
    _king_storm: float = field(default=0, repr=False)
    _has_kinds: bool = field(default=False, repr=False)
    _pair: tuple[int, int] = field(default=(0, 0), repr=False)
    _open_file: tuple[int, int] = field(default=(0, 0), repr=False)
    _half_open_file: tuple[int, int] = field(default=(0, 0), repr=False)
    _king_masks: list[list[tuple[int, int, int, int]]] = field(default_factory=list, repr=False)
    _file_masks: list[int] = field(default_factory=list, repr=False)
    _file_mask_of: list[int] = field(default_factory=list, repr=False)
    #: the rounded (mg, eg) mobility terms by the riders' count total
    _mob_terms: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)
    _colour_bit_of: list[int] = field(default_factory=list, repr=False)
    #: by code: where its two square-colour bits go in the pair term's mask (see evaluate)
    _pair_shift: list[int] = field(default_factory=list, repr=False)
    #: (shift, is White) of each colour-bound code (the pair term)
    _pair_codes: list[tuple[int, bool]] = field(default_factory=list, repr=False)
    _file_penalties: tuple[list[int], list[int], list[int], list[int]] = field(
        default=([], [], [], []), repr=False
    )
    #: the sortie term: the penalty per heavy piece out and minor at home
    _sortie: float = field(default=0, repr=False)

    def __post_init__(self) -> None:
        if not self.zone:
            self.zone = [sum(1 << s for s in around) for around in self.neighbours]
        if not self.pawn_key:
            self.pawn_key = [[0] * len(self.mg[0]) for _ in self.mg]
        size = len(self.zone)
        if not self.heavy_out:
            self.heavy_out = [[0] * size for _ in self.mg]
        if not self.sortie_count:
            self.sortie_count = [[0] * size for _ in self.mg]
            for colour, shift in ((1, 0), (-1, 8)):
                for square, code in self.minor_homes[colour]:
                    self.sortie_count[code][square] = 1 << shift
            for code in range(-(len(self.mg) // 2), len(self.mg) // 2 + 1):
                shift = 16 if code > 0 else 24
                for square, out in enumerate(self.heavy_out[code]):
                    if out:
                        self.sortie_count[code][square] = 1 << shift
        if not self.packed:
            self.packed = [
                [
                    pack(m, e, self.phase_weight[code], k, n)
                    for m, e, k, n in zip(
                        mg_row, eg_row, self.pawn_key[code], self.sortie_count[code], strict=True
                    )
                ]
                for code, (mg_row, eg_row) in enumerate(zip(self.mg, self.eg, strict=True))
            ]
        #: _mob_rows[code][square]: (mask of every square of the rider's lines and gates,
        #: {occupancy of that mask: its signed count}); the row is ``None`` for a code
        #: without lines, and a square without lines counts 0 (its mask is empty).
        #: See :meth:`_mobility`.
        self._mob_rows = [
            [(_lines_mask(lines), {}) if lines else (0, {0: 0}) for lines in row]
            if any(row)
            else None
            for row in self.rays
        ]
        #: rider_flags[code]: does that code have lines to count? (For Position.track.)
        self.rider_flags = [row is not None for row in self._mob_rows] or [False] * len(self.packed)
        # the weights read at every evaluation, as attributes (not dictionary look-ups)
        w = self.weights or current_weights()
        self._shelter = w["SHELTER_BONUS"]
        #: _shelter_by_count[n]: the shelter of n friendly pieces next to the King (<= 8)
        self._shelter_by_count = [self._shelter * min(n, 4) for n in range(9)]
        self._shield = w["SHIELD_BONUS"]
        self._king_attack = w["KING_ATTACK"]
        self._live_mg = w["LIVE_MOBILITY_MG"]
        self._live_eg = w["LIVE_MOBILITY_EG"]
        self._mob_terms = {}
        self._side_pawn_cache = {}
        self._winning_lead = w["WINNING_LEAD"]
        self._threat_by_pawn = (round(w["THREAT_BY_PAWN_MG"]), round(w["THREAT_BY_PAWN_EG"]))
        if not self.pawn_attacks:
            self.pawn_attacks = [[0] * len(self.zone) for _ in self.mg]
        self._simplify = w["SIMPLIFY_SHARE"]
        self._castling_right = w["CASTLING_RIGHT_MG"]
        self._uncastled = w["UNCASTLED_MG"]
        self._king_open_file = w["KING_OPEN_FILE_MG"]
        self._king_storm = w["KING_STORM_MG"]
        self._place_cache = {}
        if not self.king_files:
            self.king_files = [()] * len(self.zone)
            self.storm_near = self.storm_far = [[], [0] * len(self.zone), [0] * len(self.zone)]
        # the file and pair terms read only the riders (the pieces the position tracks)
        kinds = self.piece_kind or [0] * len(self.packed)
        self.piece_kind = [k if f else 0 for k, f in zip(kinds, self.rider_flags, strict=False)]
        self._has_kinds = any(self.piece_kind)
        self._pair_shift = [2 * i for i in range(len(self.piece_kind))]
        self._pair_codes = [
            (self._pair_shift[code], code > 0)
            for code in range(-(len(self.piece_kind) // 2), len(self.piece_kind) // 2 + 1)
            if self.piece_kind[code] == COLOUR_BOUND
        ]
        self._pair = (round(w["PAIR_MG"]), round(w["PAIR_EG"]))
        self._open_file = (round(w["OPEN_FILE_MG"]), round(w["OPEN_FILE_EG"]))
        self._half_open_file = (round(w["HALF_OPEN_FILE_MG"]), round(w["HALF_OPEN_FILE_EG"]))
        files, ranks = self.variant.files, self.variant.ranks
        self._file_masks = [sum(1 << (r * files + f) for r in range(ranks)) for f in range(files)]
        #: by square: its file's mask, and its colour as a bit (1 or 2), for the rider terms
        self._file_mask_of = [self._file_masks[sq % files] for sq in range(files * ranks)]
        self._colour_bit_of = [1 << ((sq % files + sq // files) & 1) for sq in range(files * ranks)]
        # the pawn-structure penalties of n pawns on one file, rounded as the terms were
        self._file_penalties = (
            [round(w["DOUBLED_MG"] * (n - 1)) for n in range(ranks + 1)],
            [round(w["DOUBLED_EG"] * (n - 1)) for n in range(ranks + 1)],
            [round(w["ISOLATED_MG"] * n) for n in range(ranks + 1)],
            [round(w["ISOLATED_EG"] * n) for n in range(ranks + 1)],
        )
        # the sortie term: nothing to do in a variant without heavy or minor pieces
        heavy = [code for code, row in enumerate(self.heavy_out) if any(row)]
        minors = len(self.minor_homes[1])
        self._sortie = w["SORTIE_MG"] / minors if heavy and minors else 0.0
        # a dearer rider's squares count less (see LIVE_MOBILITY_SCALING)
        riders = [self.value_by_code[c] for c, f in enumerate(self.rider_flags) if f]
        cheapest_rider = min(riders, default=1)
        self.mobility_scale = [
            (cheapest_rider / self.value_by_code[c]) ** LIVE_MOBILITY_SCALING if f else 1.0
            for c, f in enumerate(self.rider_flags)
        ]
        #: _king_masks[colour][king]: (zone, shield1, shield2, near) of a King there
        self._king_masks = [
            [],
            *(
                [
                    (self.zone[k], self.shield1[c][k], self.shield2[c][k], self.near[k])
                    for k in range(len(self.zone))
                ]
                for c in (1, -1)
            ),
        ]

    def evaluate(self, pos: Position) -> int:
        """Score in centipawns from the side to move's point of view."""
        cache = self._cache
        hit = cache.get(pos.hash)
        if hit is not None:
            return hit
        if pos.psq_table is self.packed:
            total = pos.psq  # kept up to date move by move (the search attaches the table)
        else:
            # Not attached here: attaching in the middle of a line of moves would leave the
            # sums restored by later unmakes stale (the search attaches at its root).
            packed = self.packed
            total = sum(packed[code][square] for square, code in enumerate(pos.board) if code)
        # White's blended score, then turned to the side to move's view, all in this one
        # call (it runs at nearly every node); first split(total), written out
        tally = total & _COUNT_MASK  # the sortie term's counters
        key = total >> _COUNT_BITS & _KEY_MASK
        rest = total >> _LOW_BITS
        phase = rest & _PHASE_MASK
        rest >>= _PHASE_BITS
        eg = ((rest + _EG_HALF) & _EG_MASK) - _EG_HALF
        mg = (rest - eg) >> _EG_BITS
        entry = self._pawn_cache.get(key)
        if entry is None:
            entry = self._pawn_structure(pos, key)
        mg += entry[0] + self._kings(pos, entry[2], entry[3])
        eg += entry[1]
        # the King's place: castling, open files and storms (pawns, Kings and rights only)
        kings = pos.kings
        place_key = (((key << 8 | kings[1] + 1) << 8 | kings[-1] + 1) << 4) | pos.rights
        place = self._place_cache.get(place_key)
        if place is None:
            place = self._king_places(pos, entry[2], entry[3])
            if len(self._place_cache) >= CACHE_LIMIT:
                self._place_cache.clear()
            self._place_cache[place_key] = place
        mg += place
        if tally >> 16 and tally & 0xFFFF:  # heavy pieces out, minor pieces at home
            mg += self._sortie_score(tally)
        side_occ = pos.side_occ
        # pieces (not pawns nor the King) standing where an enemy pawn captures
        white_hit = side_occ[1] & entry[5] & ~entry[2]
        black_hit = side_occ[-1] & entry[4] & ~entry[3]
        if white_hit or black_hit:
            balance = (white_hit & ~(1 << kings[1] if kings[1] >= 0 else 0)).bit_count() - (
                black_hit & ~(1 << kings[-1] if kings[-1] >= 0 else 0)
            ).bit_count()
            mg -= balance * self._threat_by_pawn[0]
            eg -= balance * self._threat_by_pawn[1]
        rows = self._mob_rows
        if rows and pos.tracked_codes is self.rider_flags:
            # _mobility's and _rider_terms' walks of the tracked riders, written out as one
            # (nearly every node)
            occ = pos.occ
            count_total = 0
            if self._has_kinds:
                kinds = self.piece_kind
                file_of = self._file_mask_of
                colour_of = self._colour_bit_of
                white_pawns = entry[2]
                black_pawns = entry[3]
                pair_shift = self._pair_shift
                # each colour-bound code's square colours seen, two bits per code
                colours = 0
                for square, code in pos.tracked.items():
                    lines_mask, counts = rows[code][square]  # type: ignore[index]
                    key = occ & lines_mask
                    count = counts.get(key)
                    if count is None:
                        count = self._rider_count(code, square, occ)
                        if len(counts) >= MOBILITY_TABLE_LIMIT:
                            counts.clear()
                        counts[key] = count
                    count_total += count
                    kind = kinds[code]
                    if kind == FILE_RIDER:
                        file_mask = file_of[square]
                        if code > 0:
                            if not white_pawns & file_mask:
                                bonus = (
                                    self._half_open_file
                                    if black_pawns & file_mask
                                    else self._open_file
                                )
                                mg += bonus[0]
                                eg += bonus[1]
                        elif not black_pawns & file_mask:
                            bonus = (
                                self._half_open_file if white_pawns & file_mask else self._open_file
                            )
                            mg -= bonus[0]
                            eg -= bonus[1]
                    elif kind:  # COLOUR_BOUND
                        colours |= colour_of[square] << pair_shift[code]
                if colours:
                    for shift, white in self._pair_codes:
                        if colours >> shift & 3 == 3:
                            if white:
                                mg += self._pair[0]
                                eg += self._pair[1]
                            else:
                                mg -= self._pair[0]
                                eg -= self._pair[1]
            else:
                for square, code in pos.tracked.items():
                    lines_mask, counts = rows[code][square]  # type: ignore[index]
                    key = occ & lines_mask
                    count = counts.get(key)
                    if count is None:
                        count = self._rider_count(code, square, occ)
                        if len(counts) >= MOBILITY_TABLE_LIMIT:
                            counts.clear()
                        counts[key] = count
                    count_total += count
            # the rounded mobility terms of each total, remembered (a few hundred totals)
            terms = self._mob_terms.get(count_total)
            if terms is None:
                mob = count_total / 10
                terms = (round(self._live_mg * mob), round(self._live_eg * mob))
                self._mob_terms[count_total] = terms
            mg += terms[0]
            eg += terms[1]
        else:
            if rows:
                mob = self._mobility(pos)
                mg += round(self._live_mg * mob)
                eg += round(self._live_eg * mob)
            if self._has_kinds:
                terms_mg, terms_eg = self._rider_terms(pos, entry[2], entry[3])
                mg += terms_mg
                eg += terms_eg
        max_phase = self.max_phase
        if phase > max_phase:
            phase = max_phase
        pieces = pos.pieces
        # Nothing to press when both sides have more than a King and nobody leads by a
        # winning margin in an endgame (the common case: skip the per-side tests).
        pressing = len(pieces[1]) == 1 or len(pieces[-1]) == 1
        if not pressing and 2 * phase <= max_phase:
            pressing = abs(eg) > self._winning_lead
        for colour in (1, -1) if pressing else ():
            if len(pieces[-colour]) == 1 and len(pieces[colour]) > 1:
                eg += colour * self._mop_up(pos, colour)
            elif colour * eg > self._winning_lead and 2 * phase <= max_phase:
                # Ahead in an endgame: drive the enemy King to the edge as well, at half
                # weight, so that the win is pressed home rather than the pieces shuffled.
                eg += colour * self._mop_up(pos, colour) // 2
        if eg and self._simplify:
            # The side ahead gains as material comes off: trading down wins.
            eg += round(self._simplify * eg * (max_phase - phase) / max_phase)
        blend = mg * phase + eg * (max_phase - phase)
        # Round towards zero, so swapping the colours exactly negates the score.
        score = blend // max_phase if blend >= 0 else -(-blend // max_phase)
        if pos.turn < 0:
            score = -score
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[pos.hash] = score
        return score

    def evaluate_lazy(self, pos: Position, bound: int) -> int:
        """:meth:`evaluate`, or only its material and piece-square part (the position's
        incremental sum, blended by phase) when that part alone reaches ``bound``.

        For quiescence's stand-pat: a score far above beta cuts whatever the board terms
        (pawns, King safety, mobility) add, so they are not computed. The short score is
        not remembered (a later full evaluation of the position is unaffected).
        """
        hit = self._cache.get(pos.hash)
        if hit is not None:
            return hit
        if pos.psq_table is self.packed:
            rest = pos.psq >> _LOW_BITS
            phase = rest & _PHASE_MASK
            rest >>= _PHASE_BITS
            eg = ((rest + _EG_HALF) & _EG_MASK) - _EG_HALF
            mg = (rest - eg) >> _EG_BITS
            max_phase = self.max_phase
            if phase > max_phase:
                phase = max_phase
            blend = mg * phase + eg * (max_phase - phase)
            score = blend // max_phase if blend >= 0 else -(-blend // max_phase)
            if pos.turn < 0:
                score = -score
            # Not in an endgame: there the ending terms (the mop-up against a bare or
            # hunted King, up to some 300) outweigh the margin, and skipping them let
            # ``easy`` stalemate a bare King with Queen and Eagle.
            if score >= bound and 2 * phase > max_phase:
                return score
        return self.evaluate(pos)

    def _pawn_structure(self, pos: Position, key: int) -> PawnEntry:
        """(mg, eg, White's pawn mask, Black's pawn mask, the squares White's pawns attack,
        Black's) of the pawns, White positive; cached.

        Per file, the count of each side's pawns is one ``&`` and a bit count on the
        side's pawn mask; the penalties for n pawns on a file are read from tables.
        """
        pawn_codes = self.pawn_codes
        masks = [0, 0, 0]
        squares: list[tuple[int, int]] = []
        for colour in (1, -1):
            m = 0
            for square, code in pos.pieces[colour].items():
                if code in pawn_codes:
                    m |= 1 << square
                    squares.append((square, code))
            masks[colour] = m
        mg = eg = 0
        side_cache = self._side_pawn_cache
        for colour in (1, -1):
            pawns = masks[colour]
            if not pawns:
                continue
            # a pawn move changes one side's pawns: the other side's file terms are reused
            side_key = pawns << 1 | (colour > 0)
            part = side_cache.get(side_key)
            if part is None:
                part = self._file_terms(colour, pawns)
                if len(side_cache) >= CACHE_LIMIT:
                    side_cache.clear()
                side_cache[side_key] = part
            mg += part[0]
            eg += part[1]
        ahead, passed = self.ahead, self.passed
        white, black = masks[1], masks[-1]
        attacks = self.pawn_attacks
        hits = [0, 0, 0]
        for square, code in squares:
            hits[1 if code > 0 else -1] |= attacks[code][square]
            if not ahead[code][square] & (black if code > 0 else white):
                bonus_mg, bonus_eg = passed[code][square]
                mg += bonus_mg
                eg += bonus_eg
        entry = (mg, eg, white, black, hits[1], hits[-1])
        if len(self._pawn_cache) >= CACHE_LIMIT:
            self._pawn_cache.clear()
        self._pawn_cache[key] = entry
        return entry

    def _file_terms(self, colour: int, pawns: int) -> tuple[int, int]:
        """(mg, eg), White positive, of one side's doubled and isolated pawns (``pawns``:
        that side's pawn mask)."""
        mg = eg = 0
        doubled_mg, doubled_eg, isolated_mg, isolated_eg = self._file_penalties
        file_masks = self._file_masks
        last = len(file_masks) - 1
        counts = [(pawns & fm).bit_count() for fm in file_masks]
        for file, n in enumerate(counts):
            if not n:
                continue
            if n > 1:
                mg -= colour * doubled_mg[n]
                eg -= colour * doubled_eg[n]
            if (file == 0 or not counts[file - 1]) and (file == last or not counts[file + 1]):
                mg -= colour * isolated_mg[n]
                eg -= colour * isolated_eg[n]
        return mg, eg

    def _kings(self, pos: Position, white_pawns: int, black_pawns: int) -> int:
        """Middlegame safety of White's King minus Black's (each positive when safe).

        Per King: friendly pieces next to it (at most four count), own pawns one and
        two ranks in front (the shield), less the enemy pieces within two steps, by
        number and value (pawns and the King do not count). Both Kings in one call.
        """
        kings = pos.kings
        side_occ = pos.side_occ
        masks = self._king_masks
        shelter = self._shelter_by_count
        shield = self._shield
        board = pos.board
        value = self.value_by_code
        total = 0
        white_king, black_king = kings[1], kings[-1]
        # The enemy pieces that count as attackers are those near the King but its pawns
        # and King: a mask, not a test of each piece's code.
        for colour, king, own_pawns, enemy_king, enemy_pawns in (
            (1, white_king, white_pawns, black_king, black_pawns),
            (-1, black_king, black_pawns, white_king, white_pawns),
        ):
            if king < 0:
                continue
            zone, shield1, shield2, near_mask = masks[colour][king]
            score = shelter[(side_occ[colour] & zone).bit_count()]
            score += shield * (
                (own_pawns & shield1).bit_count() + (own_pawns & shield2).bit_count() / 2
            )
            near = side_occ[-colour] & near_mask & ~enemy_pawns
            if near and enemy_king >= 0:
                near &= ~(1 << enemy_king)
            if near:
                count = near.bit_count()
                units = 0
                while near:
                    low = near & -near
                    units += value[board[low.bit_length() - 1]]
                    near ^= low
                score -= self._king_attack * units * min(count, 4) / 400
            total += colour * round(score)
        return total

    def _king_places(self, pos: Position, white_pawns: int, black_pawns: int) -> int:
        """Middlegame worth of White's King's place minus Black's (pawns, Kings, rights).

        A King on its start square that may still castle counts the shield of the best
        wing it may castle to (when better than its own square's, which ``_kings``
        counts) and a bonus per wing; one that can no longer castle and is not on a
        castled square (a square castling leads to, or beyond it towards the edge) pays
        :data:`UNCASTLED_MG`. Any King pays for each of its three files without its own
        pawn and for enemy pawns advancing on them (a storm). Variants without castling
        (a King's jump instead) get only the files and the storm.
        """
        total = 0
        rights = pos.rights
        shield1, shield2 = self.shield1, self.shield2
        for colour, own, enemy in ((1, white_pawns, black_pawns), (-1, black_pawns, white_pawns)):
            king = pos.kings[colour]
            if king < 0:
                continue
            score = 0.0
            home = self.castle_home[colour]
            if home >= 0:
                # shields in half pawns: two per pawn right in front, one per pawn beyond
                best = held = 0
                if king == home:
                    front, beyond = shield1[colour], shield2[colour]
                    for bit, target in self.castle_wings[colour]:
                        if rights & bit:
                            held += 1
                            half = (
                                2 * (own & front[target]).bit_count()
                                + (own & beyond[target]).bit_count()
                            )
                            if half > best:
                                best = half
                if held:
                    here = 2 * (own & front[king]).bit_count() + (own & beyond[king]).bit_count()
                    if best > here:
                        score += self._shield * (best - here) / 2
                    score += self._castling_right * held
                elif not self.castled_squares[colour] >> king & 1:
                    score -= self._uncastled
            for file_mask in self.king_files[king]:
                if not own & file_mask:
                    score -= self._king_open_file
            storm = (
                2 * (enemy & self.storm_near[colour][king]).bit_count()
                + (enemy & self.storm_far[colour][king]).bit_count()
            )
            score -= self._king_storm * storm
            total += colour * round(score)
        return total

    def _sortie_score(self, counts: int) -> int:
        """Middlegame penalty of White's early sorties minus Black's, White positive, from
        the packed sum's counters (``sortie_count``): per side, :data:`SORTIE_MG` per heavy
        piece beyond its side's start ranks times the share of its minor pieces on their
        own start squares."""
        white_home, black_home = counts & 255, counts >> 8 & 255
        white_out, black_out = counts >> 16 & 255, counts >> 24
        return round((black_out * black_home - white_out * white_home) * self._sortie)

    def _sorties(self, pos: Position) -> int:
        """:meth:`_sortie_score` of ``pos``, counted from its board (for tools and tests)."""
        count = self.sortie_count
        return self._sortie_score(sum(count[c][s] for s, c in enumerate(pos.board) if c))

    def _mobility(self, pos: Position) -> float:
        """Attacked squares of White's riders minus Black's, each against its expectation.

        A rider's count depends only on which squares of its lines are occupied, so it
        is looked up by ``occ & lines`` in that piece's and square's own small table,
        filled on first sight: one ``&`` and one dictionary probe per rider instead of
        a walk over its lines (what a magic-bitboard engine does with a multiply).
        """
        occ = pos.occ
        rows = self._mob_rows
        total = 0
        if pos.tracked_codes is self.rider_flags:
            # the position keeps its riders apart (the search asks it to): walk them alone
            for square, code in pos.tracked.items():
                lines_mask, counts = rows[code][square]  # type: ignore[index]
                key = occ & lines_mask
                count = counts.get(key)
                if count is None:
                    count = self._rider_count(code, square, occ)
                    if len(counts) >= MOBILITY_TABLE_LIMIT:
                        counts.clear()
                    counts[key] = count
                total += count
            return total / 10
        for colour in (1, -1):
            for square, code in pos.pieces[colour].items():
                row = rows[code]
                if row is None:
                    continue  # not a rider
                lines_mask, counts = row[square]
                key = occ & lines_mask
                count = counts.get(key)
                if count is None:
                    count = self._rider_count(code, square, occ)
                    if len(counts) >= MOBILITY_TABLE_LIMIT:
                        counts.clear()
                    counts[key] = count
                total += count
        return total / 10

    def _rider_terms(self, pos: Position, white_pawns: int, black_pawns: int) -> tuple[int, int]:
        """(mg, eg), White positive: file riders on open and half-open files, and pairs of
        colour-bound riders of one type covering both square colours."""
        kinds = self.piece_kind
        files = self.variant.files
        file_masks = self._file_masks
        mg = eg = 0
        colours: dict[int, int] = {}
        items: Iterable[tuple[int, int]]
        if pos.tracked_codes is self.rider_flags:
            items = pos.tracked.items()
        else:
            items = (item for side in (1, -1) for item in pos.pieces[side].items())
        for square, code in items:
            kind = kinds[code]
            if kind == FILE_RIDER:
                file_mask = file_masks[square % files]
                own, enemy = (white_pawns, black_pawns) if code > 0 else (black_pawns, white_pawns)
                if not own & file_mask:
                    bonus = self._half_open_file if enemy & file_mask else self._open_file
                    if code > 0:
                        mg += bonus[0]
                        eg += bonus[1]
                    else:
                        mg -= bonus[0]
                        eg -= bonus[1]
            elif kind == COLOUR_BOUND:
                colours[code] = colours.get(code, 0) | 1 << ((square % files + square // files) & 1)
        for code, seen in colours.items():
            if seen == 3:
                if code > 0:
                    mg += self._pair[0]
                    eg += self._pair[1]
                else:
                    mg -= self._pair[0]
                    eg -= self._pair[1]
        return mg, eg

    def _rider_count(self, code: int, square: int, occ: int) -> int:
        """A rider's attacked squares along its lines (up to and with the first piece met),
        times ten and signed for its colour, minus its expectation."""
        count = 0
        for gate, mask, rising, full in self.rays[code][square]:
            if gate & occ:
                continue
            blockers = occ & mask
            if not blockers:
                count += full
            elif rising:
                low = blockers & -blockers
                count += (mask & ((low << 1) - 1)).bit_count()
            else:
                count += (mask & -(1 << (blockers.bit_length() - 1))).bit_count()
        raw = (10 * count if code > 0 else -10 * count) - self.expected[code]
        return round(raw * self.mobility_scale[code])

    def _mop_up(self, pos: Position, colour: int) -> int:
        """Bonus for ``colour`` pressing the enemy King: push it to the edge, bring the own
        King close, and take its flight squares away (with many pieces on the board, the
        last is what tells a shallow search which checks lead to a mate)."""
        king, bare = pos.kings[colour], pos.kings[-colour]
        if king < 0 or bare < 0:
            return 0
        files = self.variant.files
        distance = max(abs(king % files - bare % files), abs(king // files - bare // files))
        size = max(files, self.variant.ranks)
        w = self.weights
        own = pos.side_occ[-colour]
        taken = 0
        for square in self.neighbours[bare]:
            if own >> square & 1 or pos.is_attacked(square, colour):
                taken += 1
        free = len(self.neighbours[bare]) - taken
        return round(
            w["MOP_UP_EDGE"] * self.centre_distance[bare]
            + w["MOP_UP_CLOSE"] * (size - distance)
            + w["MOP_UP_BOX"] * (8 - free)
        )


#: Names of the module weights the evaluator reads at build time (texel tunes them).
WEIGHT_NAMES = (
    "MOBILITY_WEIGHT",
    "PLACEMENT_CAP",
    "PROMOTION_SHARE_EG",
    "PROMOTION_SHARE_MG",
    "CENTRE_PAWN_BONUS",
    "SHELTER_BONUS",
    "KING_ADVANCE_PENALTY",
    "KING_CENTRE_FILE_MG",
    "KING_CENTRE_WEIGHT",
    "MOP_UP_EDGE",
    "MOP_UP_CLOSE",
    "MOP_UP_BOX",
    "WINNING_LEAD",
    "SIMPLIFY_SHARE",
    "DOUBLED_MG",
    "DOUBLED_EG",
    "ISOLATED_MG",
    "ISOLATED_EG",
    "PASSED_MG",
    "PASSED_EG",
    "SHIELD_BONUS",
    "KING_ATTACK",
    "LIVE_MOBILITY_MG",
    "LIVE_MOBILITY_EG",
    "PAIR_MG",
    "PAIR_EG",
    "OPEN_FILE_MG",
    "OPEN_FILE_EG",
    "HALF_OPEN_FILE_MG",
    "HALF_OPEN_FILE_EG",
    "THREAT_BY_PAWN_MG",
    "THREAT_BY_PAWN_EG",
    "CASTLING_RIGHT_MG",
    "UNCASTLED_MG",
    "KING_OPEN_FILE_MG",
    "KING_STORM_MG",
    "SORTIE_MG",
)


def current_weights() -> dict[str, float]:
    """The module's weights as they stand now (by name)."""
    return {name: globals()[name] for name in WEIGHT_NAMES}


#: Kinds of :func:`piece_kinds`.
FILE_RIDER, COLOUR_BOUND = 1, 2


def piece_kinds(variant: Variant) -> list[int]:
    """By code: FILE_RIDER for a piece that rides forward without limit, moving and
    capturing that way, and has no diagonal ride (a Rook, not a Queen nor a Cannon);
    COLOUR_BOUND for one whose every move keeps the square's colour (a Bishop); else 0.
    Royal and promoting pieces are 0."""
    kinds = [0] * (2 * len(variant.pieces) + 1)
    for t, piece in enumerate(variant.pieces):
        if piece.royal or piece.promotion is not None or not piece.atoms:
            continue
        rides = [a for a in piece.atoms if a.kind == "ride" and not a.max_range]
        forward = any(a.move and a.capture and (0, 1) in a.vectors for a in rides if not a.initial)
        diagonal = any(dx and dy and abs(dx) == abs(dy) for a in rides for dx, dy in a.vectors)
        bound = all(
            a.kind in ("leap", "ride", "lame") and all((dx + dy) % 2 == 0 for dx, dy in a.vectors)
            for a in piece.atoms
        )
        kind = FILE_RIDER if forward and not diagonal else COLOUR_BOUND if bound else 0
        kinds[t + 1] = kinds[-(t + 1)] = kind
    return kinds


def _promotion_gain(variant: Variant, piece: PieceType, values: dict[str, int]) -> int:
    if piece.promotion is None:
        return 0
    best = max(values[c] for c in piece.promotion.choices)
    return max(best - values[piece.letter], 0)


def is_pawn_like(piece: PieceType) -> bool:
    """Does the piece promote and never move backwards (a pawn for the structure terms)?"""
    return piece.promotion is not None and all(
        dy >= 0 for atom in piece.atoms for _dx, dy in atom.vectors
    )


def build_evaluator(variant: Variant, values: dict[str, int] | None = None) -> Evaluator:
    """A fresh evaluator (not cached), with ``values`` overriding piece values by letter.

    For tuning (``bench/texel.py``), which also changes this module's weights.
    """
    return _build(variant, values or {})


def _mirror(variant: Variant, square: int) -> int:
    return (variant.ranks - 1 - square // variant.files) * variant.files + square % variant.files


def _build(variant: Variant, overrides: dict[str, int] | None = None) -> Evaluator:
    files, ranks = variant.files, variant.ranks
    size = files * ranks
    ntypes = len(variant.pieces)
    values: dict[str, int] = {}
    for piece in variant.pieces:
        if piece.royal:
            values[piece.letter] = 0
        else:
            values[piece.letter] = (overrides or {}).get(piece.letter) or (
                piece.value or derived_value(piece, files, ranks, variant)
            )
    pawn_value = min((v for v in values.values() if v > 0), default=100)
    n = 2 * ntypes + 1
    mg: list[list[int]] = [[0] * size for _ in range(n)]
    eg: list[list[int]] = [[0] * size for _ in range(n)]
    value_by_code = [0] * n
    phase_weight = [0] * n
    for t, piece in enumerate(variant.pieces):
        code = t + 1
        value = values[piece.letter]
        targets = [empty_board_targets(piece.atoms, files, ranks, s) for s in range(size)]
        mean = sum(targets) / size
        gain = _promotion_gain(variant, piece, values)
        zone = piece.promotion.ranks if piece.promotion else ()
        last = min(zone) if zone else ranks
        white_mg = [0] * size
        white_eg = [0] * size
        for s in range(size):
            rank = s // files + 1  # White's relative rank
            placement = MOBILITY_WEIGHT * (targets[s] - mean)
            placement = max(-PLACEMENT_CAP, min(PLACEMENT_CAP, placement))
            if piece.royal:
                half = (files - 1) / 2
                nearness = (1 - abs(s % files - half) / half) ** 2 if half else 0.0
                white_mg[s] = round(
                    -KING_ADVANCE_PENALTY * min(rank - 1, 3) - KING_CENTRE_FILE_MG * nearness
                )
                white_eg[s] = round(KING_CENTRE_WEIGHT * (targets[s] - mean))
                continue
            progress = 0.0
            if gain:
                progress = max(0.0, min(1.0, (rank - 2) / max(last - 2, 1)))
            centre = 0.0
            if gain and rank > 2:
                half = (files - 1) / 2
                centre = CENTRE_PAWN_BONUS * (1 - abs(s % files - half) / half) ** 2
            white_mg[s] = round(
                value + placement + centre + PROMOTION_SHARE_MG * gain * progress**2
            )
            white_eg[s] = round(value + placement + PROMOTION_SHARE_EG * gain * progress**3)
        for s in range(size):
            mirror = _mirror(variant, s)
            mg[code][s] = white_mg[s]
            eg[code][s] = white_eg[s]
            mg[-code][mirror] = -white_mg[s]
            eg[-code][mirror] = -white_eg[s]
        value_by_code[code] = value_by_code[-code] = value if not piece.royal else 20 * pawn_value
        if not piece.royal and piece.promotion is None:
            phase_weight[code] = phase_weight[-code] = value
    start = Position(variant)
    max_phase = sum(phase_weight[c] for c in start.board if c) or 1
    neighbours = []
    near = []
    for s in range(size):
        f0, r0 = s % files, s // files
        neighbours.append(
            tuple(
                (r0 + dy) * files + f0 + dx
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
                if (dx or dy) and _on(files, ranks, f0 + dx, r0 + dy)
            )
        )
        near.append(
            sum(
                1 << ((r0 + dy) * files + f0 + dx)
                for dx in range(-2, 3)
                for dy in range(-2, 3)
                if (dx or dy) and _on(files, ranks, f0 + dx, r0 + dy)
            )
        )
    royal_code = variant.royal_index + 1
    centre_distance = [
        int(abs(s % files - (files - 1) / 2) + abs(s // files - (ranks - 1) / 2))
        for s in range(size)
    ]
    pawn_codes, pawn_key, ahead, passed = _pawn_tables(variant, values)
    shield1: list[list[int]] = [[], [0] * size, [0] * size]
    shield2: list[list[int]] = [[], [0] * size, [0] * size]
    for colour in (1, -1):
        for s in range(size):
            f0, r0 = s % files, s // files
            for step, table in ((1, shield1), (2, shield2)):
                r = r0 + colour * step
                table[colour][s] = sum(
                    1 << (r * files + f0 + dx) for dx in (-1, 0, 1) if _on(files, ranks, f0 + dx, r)
                )
    rays, expected = _rider_tables(variant)
    home, wings, castled = _castling_tables(variant, start)
    king_files, storm_near, storm_far = _king_file_tables(variant)
    minor_homes, heavy_out, minor_codes = _sortie_tables(variant, values, start)
    return Evaluator(
        variant,
        values,
        value_by_code,
        mg,
        eg,
        phase_weight,
        max_phase,
        neighbours,
        royal_code,
        centre_distance,
        max(_promotion_gain(variant, p, values) for p in variant.pieces),
        pawn_key=pawn_key,
        near=near,
        shield1=shield1,
        shield2=shield2,
        pawn_codes=pawn_codes,
        ahead=ahead,
        passed=passed,
        rays=rays,
        expected=expected,
        weights=current_weights(),
        piece_kind=piece_kinds(variant),
        pawn_attacks=_pawn_attacks(variant),
        castle_home=home,
        castle_wings=wings,
        castled_squares=castled,
        king_files=king_files,
        storm_near=storm_near,
        storm_far=storm_far,
        minor_homes=minor_homes,
        heavy_out=heavy_out,
        minor_codes=minor_codes,
    )


def _sortie_tables(
    variant: Variant, values: dict[str, int], start: Position
) -> tuple[list[tuple[tuple[int, int], ...]], list[list[int]], frozenset[int]]:
    """The early-sortie term's tables, from the pieces' values and the start position.

    Officers are the pieces that neither are royal nor promote; against the cheapest of
    them, a heavy piece is worth at least :data:`SORTIE_HEAVY` times as much (orthodox:
    the Queen), a minor one less than :data:`SORTIE_MINOR` times (Knights, Bishops; a Rook
    is neither). Returns, by colour (index 1, -1), the (square, code) its minor pieces
    start on; by code and square, 1 where a heavy piece stands beyond its side's start
    ranks (the ranks holding any of its pieces in the start
    position: the first two in orthodox chess, so 4. Qc2 is not a sortie and 4. Qd3 is);
    and the minor pieces' codes.
    """
    files, ranks = variant.files, variant.ranks
    size = files * ranks
    n = 2 * len(variant.pieces) + 1
    officers = {
        t + 1: values[p.letter]
        for t, p in enumerate(variant.pieces)
        if not p.royal and p.promotion is None and values[p.letter] > 0
    }
    heavy_out = [[0] * size for _ in range(n)]
    homes: list[tuple[tuple[int, int], ...]] = [(), (), ()]
    if not officers:
        return homes, heavy_out, frozenset()
    cheapest = min(officers.values())
    heavy = {c for c, v in officers.items() if v >= SORTIE_HEAVY * cheapest}
    minor = {c for c, v in officers.items() if v < SORTIE_MINOR * cheapest}
    if not heavy or not minor:
        return homes, heavy_out, frozenset()
    for colour in (1, -1):
        own = [s for s, c in enumerate(start.board) if c * colour > 0]
        # the deepest start rank, counted from the side's own edge
        depth = max((s // files if colour > 0 else ranks - 1 - s // files) for s in own)
        homes[colour] = tuple((s, start.board[s]) for s in own if start.board[s] * colour in minor)
        for code in heavy:
            for s in range(size):
                rank = s // files if colour > 0 else ranks - 1 - s // files
                heavy_out[colour * code][s] = int(rank > depth)
    codes = frozenset(c * colour for c in minor for colour in (1, -1))
    return homes, heavy_out, codes


def _castling_tables(
    variant: Variant, start: Position
) -> tuple[list[int], list[tuple[tuple[int, int], ...]], list[int]]:
    """By colour (index 1, -1), from the variant's castling rules and start position: the
    King's start square (-1 when the variant has no castling: a King's jump uses the
    rights bits for itself), each wing's (rights bit, King's target square), and the mask
    of the castled squares (each target and the squares of its rank beyond it towards the
    edge, where a castled King may step aside). The rights bits are those of
    ``Tables.castling``: White's wings 1 and 2, Black's 4 and 8, kingside first."""
    home, castled = [-1, -1, -1], [0, 0, 0]
    wings: list[tuple[tuple[int, int], ...]] = [(), (), ()]
    if variant.king_jump or not any(variant.castling):
        return home, wings, castled
    files = variant.files
    for colour, shift in ((1, 0), (-1, 2)):
        king = start.kings[colour]
        if king < 0:
            continue
        rank, king_file = king // files, king % files
        entries = []
        mask = 0
        for wing, spec in enumerate(variant.castling):
            if spec is None:
                continue
            target = rank * files + spec.king_file
            entries.append((1 << (shift + wing), target))
            edge = files - 1 if spec.king_file > king_file else 0
            for f in range(min(spec.king_file, edge), max(spec.king_file, edge) + 1):
                mask |= 1 << (rank * files + f)
        home[colour], wings[colour], castled[colour] = king, tuple(entries), mask
    return home, wings, castled


def _king_file_tables(
    variant: Variant,
) -> tuple[list[tuple[int, ...]], list[list[int]], list[list[int]]]:
    """By square: the file masks of a King's file and its neighbours; by colour and square:
    the squares on those files one to two ranks ahead of the King (a storm close by) and
    from three to half the board's ranks ahead (one on its way), so 12 x 12 looks further."""
    files, ranks = variant.files, variant.ranks
    size = files * ranks
    column = [sum(1 << (r * files + f) for r in range(ranks)) for f in range(files)]
    king_files = [
        tuple(column[f] for f in (s % files - 1, s % files, s % files + 1) if 0 <= f < files)
        for s in range(size)
    ]
    near: list[list[int]] = [[], [0] * size, [0] * size]
    far: list[list[int]] = [[], [0] * size, [0] * size]
    for colour in (1, -1):
        for s in range(size):
            f0, r0 = s % files, s // files
            for distance in range(1, ranks // 2 + 1):
                r = r0 + colour * distance
                if not 0 <= r < ranks:
                    break
                row = sum(1 << (r * files + f) for f in (f0 - 1, f0, f0 + 1) if 0 <= f < files)
                if distance <= 2:
                    near[colour][s] |= row
                else:
                    far[colour][s] |= row
    return king_files, near, far


def _pawn_attacks(variant: Variant) -> list[list[int]]:
    """By code and square, for pawn-like pieces: the squares its one-step captures reach
    (its capturing leaps, and rides of range one); 0 for other pieces."""
    files, ranks = variant.files, variant.ranks
    size = files * ranks
    table = [[0] * size for _ in range(2 * len(variant.pieces) + 1)]
    for t, piece in enumerate(variant.pieces):
        if not is_pawn_like(piece):
            continue
        steps = [
            vector
            for atom in piece.atoms
            if atom.capture
            and not atom.initial
            and (atom.kind == "leap" or (atom.kind == "ride" and atom.max_range == 1))
            for vector in atom.vectors
        ]
        for colour in (1, -1):
            for s in range(size):
                f0, r0 = s % files, s // files
                table[colour * (t + 1)][s] = sum(
                    1 << ((r0 + colour * dy) * files + f0 + dx)
                    for dx, dy in steps
                    if _on(files, ranks, f0 + dx, r0 + colour * dy)
                )
    return table


def _pawn_tables(
    variant: Variant, values: dict[str, int]
) -> tuple[frozenset[int], list[list[int]], list[list[int]], list[list[tuple[int, int]]]]:
    """Codes, keys, "squares ahead" masks and passed bonuses of the pawn-like pieces."""
    files, ranks = variant.files, variant.ranks
    size = files * ranks
    n = 2 * len(variant.pieces) + 1
    rng = random.Random(f"pawn-key:{variant.name}")
    codes: set[int] = set()
    key = [[0] * size for _ in range(n)]
    ahead = [[0] * size for _ in range(n)]
    passed = [[(0, 0)] * size for _ in range(n)]
    for t, piece in enumerate(variant.pieces):
        if not is_pawn_like(piece):
            continue
        assert piece.promotion is not None
        code = t + 1
        codes.update((code, -code))
        for c in (code, -code):
            key[c] = [rng.getrandbits(40) for _ in range(size)]
        # The files it captures towards (1 for a Pawn) widen the span that stops it.
        span = max(
            (abs(dx) for atom in piece.atoms if atom.capture for dx, _dy in atom.vectors),
            default=1,
        )
        first = _start_rank(variant, piece)
        last = min(piece.promotion.ranks)
        for s in range(size):
            f0, r0 = s % files, s // files
            mask = 0
            for r in range(r0 + 1, ranks):
                for f in range(max(0, f0 - span), min(files, f0 + span + 1)):
                    mask |= 1 << (r * files + f)
            progress = max(0.0, min(1.0, (r0 + 1 - first) / max(last - 1 - first, 1)))
            bonus = (round(PASSED_MG * progress**2), round(PASSED_EG * progress**2))
            mirror = _mirror(variant, s)
            ahead[code][s] = mask
            passed[code][s] = bonus
            ahead[-code][mirror] = sum(
                1 << _mirror(variant, q) for q in range(size) if mask >> q & 1
            )
            passed[-code][mirror] = (-bonus[0], -bonus[1])
    return frozenset(codes), key, ahead, passed


def _rider_tables(
    variant: Variant,
) -> tuple[list[list[tuple[tuple[int, int, bool, int], ...]]], list[int]]:
    """Each rider's lines by code and square, and its expected attacked count (x 10, signed).

    A line is (gate, mask, rising, full): ``gate`` the squares that must be empty
    for the line to count (a bent rider's first step), ``mask`` its squares,
    ``rising`` whether they go up in index (so the first piece met is the lowest
    set bit), ``full`` the count when nothing stands on it. Hopping captures are
    counted through the line they hop along only when the piece also rides it.
    """
    files, ranks = variant.files, variant.ranks
    size = files * ranks
    n = 2 * len(variant.pieces) + 1
    rays: list[list[tuple[tuple[int, int, bool, int], ...]]] = [[()] * size for _ in range(n)]
    expected = [0] * n
    any_rider = False
    for t, piece in enumerate(variant.pieces):
        if piece.royal or piece.promotion is not None:
            continue
        lines_kinds = [a for a in piece.atoms if a.kind in ("ride", "bent") and a.move]
        if not lines_kinds:
            continue
        any_rider = True
        code = t + 1
        for colour in (1, -1):
            c = code * colour
            for s in range(size):
                f0, r0 = s % files, s // files
                lines: list[tuple[int, int, bool, int]] = []
                for atom in lines_kinds:
                    for index, (dx, dy) in enumerate(atom.vectors):
                        dy *= colour
                        if atom.kind == "ride":
                            squares = _line(files, ranks, f0, r0, dx, dy, atom.max_range)
                            if squares:
                                lines.append(_as_line(0, squares))
                        else:
                            if not _on(files, ranks, f0 + dx, r0 + dy):
                                continue
                            first = (r0 + dy) * files + f0 + dx
                            lines.append(_as_line(0, [first]))
                            for lx, ly in atom.legs[index]:
                                squares = _line(files, ranks, f0 + dx, r0 + dy, lx, ly * colour, 0)
                                if squares:
                                    lines.append(_as_line(1 << first, squares))
                rays[c][s] = tuple(lines)
            mean = sum(_expected_count(lines) for lines in rays[c]) / size
            expected[c] = round(10 * mean) * colour
    if not any_rider:
        return [], []
    return rays, expected


def _lines_mask(lines: tuple[tuple[int, int, bool, int], ...]) -> int:
    """Every square whose occupancy a rider's count depends on (lines and gates).

    The far end of a line is left out: it counts whether it is empty or holds the first
    piece met, so its occupancy never changes the count (as a magic-bitboard engine
    leaves the board's edge out of its keys). The count tables then hold fewer keys.
    """
    mask = 0
    for gate, squares, rising, _full in lines:
        far = 1 << (squares.bit_length() - 1) if rising else squares & -squares
        mask |= gate | (squares ^ far)
    return mask


def _expected_count(lines: tuple[tuple[int, int, bool, int], ...]) -> float:
    """The count a rider's lines give on a board in play (each square empty at DENSITY)."""
    return sum(
        (DENSITY if gate else 1.0) * sum(DENSITY**d for d in range(full))
        for gate, _mask, _rising, full in lines
    )


def _line(files: int, ranks: int, f: int, r: int, dx: int, dy: int, limit: int) -> list[int]:
    out: list[int] = []
    while _on(files, ranks, f + dx, r + dy) and (not limit or len(out) < limit):
        f, r = f + dx, r + dy
        out.append(r * files + f)
    return out


def _as_line(gate: int, squares: list[int]) -> tuple[int, int, bool, int]:
    rising = len(squares) == 1 or squares[-1] > squares[0]
    return gate, sum(1 << q for q in squares), rising, len(squares)


_CACHE: dict[int, tuple[Variant, Evaluator]] = {}


def evaluator_for(variant: Variant) -> Evaluator:
    """The evaluator of a variant, built once per variant object."""
    hit = _CACHE.get(id(variant))
    if hit is not None and hit[0] is variant:
        return hit[1]
    evaluator = _build(variant)
    _CACHE[id(variant)] = (variant, evaluator)
    return evaluator


def evaluate(pos: Position) -> int:
    """Score of ``pos`` in centipawns for the side to move."""
    return evaluator_for(pos.variant).evaluate(pos)
