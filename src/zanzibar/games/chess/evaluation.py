"""Static evaluation for the search bot: material, placement, pawn progress, king shelter.

Everything is precomputed per variant into tables indexed by piece code and
square, so evaluating a position is one pass over the pieces with two list
look-ups each (plus a few look-ups around each King). Scores are centipawns.

Material comes from the ``value`` of each piece in the variant's TOML file.
When a file gives none (a user's own variant), the value is derived from the
piece's mobility on an empty board of the variant's size, on the scale of the
shipped values (see :func:`derived_value`).

Placement is "mobility on an empty board": a piece gains a few centipawns for
every target it would reach from that square compared with its average square.
This is the cheap stand-in for a real mobility count (which would cost a move
generation per evaluation), and it rewards centralisation in the way that suits
each piece: a Lion or a Knight loses a lot in a corner, a Rook almost nothing.

Pieces that promote (Pawns, Princes) gain value as they advance, quadratically,
up to a share of the promotion gain, more so in the endgame; in the middlegame
they earn a little more on the centre files once they have left home. The King stays
home while much material is on the board (a small shelter bonus for friendly
pieces next to it, a penalty for leaving the back ranks), and heads for the
centre in the endgame. The two are blended by the material left (the phase).
Against a bare King, the stronger side is rewarded for driving it to the edge
and bringing its own King close, which is how the mates are forced; in any
endgame where one side leads by a clear margin it earns half that bonus, so
a bot that is ahead presses towards a mate instead of shuffling.

>>> from zanzibar.games.chess.variant import load_variant
>>> from zanzibar.games.chess.position import Position
>>> ev = evaluator_for(load_variant("chess"))
>>> ev.evaluate(Position(load_variant("chess")))
0
>>> ev.values["Q"], ev.values["N"]
(900, 320)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zanzibar.games.chess.betza import Atom
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import PieceType, Variant

#: Centipawns per extra empty-board target compared with the piece's average square.
MOBILITY_WEIGHT = 3
#: Cap on the placement bonus or penalty of one piece, in centipawns.
PLACEMENT_CAP = 40
#: Share of the promotion gain a piece one step from promotion is worth (endgame / middlegame).
PROMOTION_SHARE_EG = 0.45
PROMOTION_SHARE_MG = 0.08
#: Middlegame bonus of an advanced pawn-like piece on the centre files (scaled down to 0 at the edge).
CENTRE_PAWN_BONUS = 20
#: Middlegame bonus per friendly piece next to the King.
SHELTER_BONUS = 8
#: Middlegame penalty per rank the King has left its first rank.
KING_ADVANCE_PENALTY = 20
#: Endgame bonus per King target above average (centralisation).
KING_CENTRE_WEIGHT = 6
#: Against a bare King: bonus per step it stands from the centre, and per step the
#: attacking King comes closer to it (drives it to the edge, where mates are).
MOP_UP_EDGE = 12
MOP_UP_CLOSE = 5
#: Endgame lead (centipawns) from which the leading side also drives the enemy King.
WINNING_LEAD = 350


def empty_board_targets(atoms: tuple[Atom, ...], files: int, ranks: int, square: int) -> float:
    """How many squares a piece reaches from ``square`` on an empty board, as a weight.

    A move that may both move and capture counts 1; a move-only or capture-only
    one counts 1/2 (so a Pawn's diagonal captures and its step each count half);
    a hopper cannot capture on an empty board, so its captures count half of the
    squares beyond its first (a rough stand-in for the screens it will find).
    Moves allowed only from the initial ranks are left out.

    >>> from zanzibar.games.chess.betza import parse
    >>> empty_board_targets(tuple(parse("N")), 8, 8, 0)
    2.0
    >>> empty_board_targets(tuple(parse("R")), 8, 8, 27)
    14.0
    """
    f0, r0 = square % files, square // files

    def on(f: int, r: int) -> bool:
        return 0 <= f < files and 0 <= r < ranks

    def ray_length(f: int, r: int, dx: int, dy: int, limit: int) -> int:
        n = 0
        while on(f + dx, r + dy) and (not limit or n < limit):
            f, r = f + dx, r + dy
            n += 1
        return n

    total = 0.0
    for atom in atoms:
        if atom.initial:
            continue
        weight = 1.0 if atom.move and atom.capture else 0.5
        for index, (dx, dy) in enumerate(atom.vectors):
            if atom.kind in ("leap", "lame"):
                if on(f0 + dx, r0 + dy):
                    total += weight
            elif atom.kind == "ride":
                total += weight * ray_length(f0, r0, dx, dy, atom.max_range)
            elif atom.kind == "hop":
                n = ray_length(f0, r0, dx, dy, atom.max_range)
                if atom.capture:
                    total += 0.5 * max(n - 1, 0) * (0.5 if atom.move else 1.0)
                if atom.move:
                    total += 0.5 * n
            elif atom.kind == "bent":
                f1, r1 = f0 + dx, r0 + dy
                if not on(f1, r1):
                    continue
                total += weight
                for lx, ly in atom.legs[index]:
                    total += weight * ray_length(f1, r1, lx, ly, 0)
    return total


def average_targets(piece: PieceType, files: int, ranks: int) -> float:
    """Mean of :func:`empty_board_targets` over every square of the board."""
    size = files * ranks
    return sum(empty_board_targets(piece.atoms, files, ranks, s) for s in range(size)) / size


def derived_value(piece: PieceType, files: int, ranks: int) -> int:
    """A material value for a piece whose variant file gives none.

    ``140 + 33 * m`` centipawns for an average empty-board mobility ``m``
    (:func:`average_targets`): the straight line through the orthodox Knight
    (m = 5.25, 320) and Queen (m = 22.75, 900). It overrates long riders a
    little (Bishop 430, Rook 600) and ignores what no mobility count sees
    (colour binding, forward-only moves), so it is only a fallback: a variant
    author who knows better writes ``value = ...`` in the file.

    >>> from zanzibar.games.chess.variant import load_variant
    >>> v = load_variant("chess")
    >>> [derived_value(v.piece_by_letter(x), 8, 8) for x in "NBRQ"]
    [313, 429, 602, 891]
    """
    m = average_targets(piece, files, ranks)
    return round(140 + 33 * m)


_PHASE_BITS = 20
_EG_BITS = 20


def pack(mg: int, eg: int, phase: int) -> int:
    """Three scores in one integer, so that sums of packed values unpack to the sums.

    ``phase`` must stay in [0, 2**20) and ``eg`` in (-2**19, 2**19) once summed
    over a whole board, which centipawn totals do by far.

    >>> unpack(pack(-350, 120, 900) + pack(20, -400, 0))
    (-330, -280, 900)
    """
    return ((mg << _EG_BITS) + eg << _PHASE_BITS) + phase


def unpack(total: int) -> tuple[int, int, int]:
    """Inverse of :func:`pack` for a sum of packed values: (mg, eg, phase)."""
    phase = total & ((1 << _PHASE_BITS) - 1)
    rest = (total - phase) >> _PHASE_BITS
    half = 1 << (_EG_BITS - 1)
    eg = ((rest + half) & ((1 << _EG_BITS) - 1)) - half
    mg = (rest - eg) >> _EG_BITS
    return mg, eg, phase


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
    #: packed[code][square]: mg, eg and phase weight in one integer (see :func:`pack`),
    #: so evaluating costs one look-up per piece.
    packed: list[list[int]] = field(default_factory=list)

    #: zone[square]: bitmask of the squares one King step away (for the shelter count).
    zone: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.zone:
            self.zone = [sum(1 << s for s in around) for around in self.neighbours]
        if not self.packed:
            self.packed = [
                [pack(m, e, self.phase_weight[code]) for m, e in zip(mg_row, eg_row, strict=True)]
                for code, (mg_row, eg_row) in enumerate(zip(self.mg, self.eg, strict=True))
            ]

    def evaluate(self, pos: Position) -> int:
        """Score in centipawns from the side to move's point of view."""
        if pos.psq_table is not self.packed:
            pos.attach_table(self.packed)  # from now on the position keeps the sum up to date
        mg, eg, phase = unpack(pos.psq)
        zone = self.zone
        kings = pos.kings
        side = pos.side_occ
        king = kings[1]
        if king >= 0:
            mg += SHELTER_BONUS * min((side[1] & zone[king]).bit_count(), 4)
        king = kings[-1]
        if king >= 0:
            mg -= SHELTER_BONUS * min((side[-1] & zone[king]).bit_count(), 4)
        max_phase = self.max_phase
        if phase > max_phase:
            phase = max_phase
        for colour in (1, -1):
            if len(pos.pieces[-colour]) == 1 and len(pos.pieces[colour]) > 1:
                eg += colour * self._mop_up(pos.kings[colour], pos.kings[-colour])
            elif colour * eg > WINNING_LEAD and 2 * phase <= max_phase:
                # Ahead in an endgame: drive the enemy King to the edge as well, at half
                # weight, so that the win is pressed home rather than the pieces shuffled.
                eg += colour * self._mop_up(pos.kings[colour], pos.kings[-colour]) // 2
        blend = mg * phase + eg * (max_phase - phase)
        # Round towards zero, so swapping the colours exactly negates the score.
        score = blend // max_phase if blend >= 0 else -(-blend // max_phase)
        return score if pos.turn > 0 else -score

    def _mop_up(self, king: int, bare: int) -> int:
        """Bonus for the side facing a bare King: push it to the edge, bring the King close."""
        if king < 0 or bare < 0:
            return 0
        files = self.variant.files
        distance = max(abs(king % files - bare % files), abs(king // files - bare // files))
        size = max(files, self.variant.ranks)
        return MOP_UP_EDGE * self.centre_distance[bare] + MOP_UP_CLOSE * (size - distance)


def _promotion_gain(variant: Variant, piece: PieceType, values: dict[str, int]) -> int:
    if piece.promotion is None:
        return 0
    best = max(values[c] for c in piece.promotion.choices)
    return max(best - values[piece.letter], 0)


def build_evaluator(variant: Variant, values: dict[str, int] | None = None) -> Evaluator:
    """A fresh evaluator (not cached), with ``values`` overriding piece values by letter.

    For tuning (``bench/texel.py``), which also changes this module's weights.
    """
    return _build(variant, values or {})


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
                piece.value or derived_value(piece, files, ranks)
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
                white_mg[s] = -KING_ADVANCE_PENALTY * min(rank - 1, 3)
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
            mirror = (ranks - 1 - s // files) * files + s % files
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
    for s in range(size):
        f0, r0 = s % files, s // files
        neighbours.append(
            tuple(
                (r0 + dy) * files + f0 + dx
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
                if (dx or dy) and 0 <= f0 + dx < files and 0 <= r0 + dy < ranks
            )
        )
    royal_code = variant.royal_index + 1
    centre_distance = [
        int(abs(s % files - (files - 1) / 2) + abs(s // files - (ranks - 1) / 2))
        for s in range(size)
    ]
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
    )


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
