"""Precomputed geometry of a variant: move programs and reverse attack tables.

Everything that depends only on the board size and the piece definitions is
computed once per variant, so move generation and attack tests only read
tuples. Tables are indexed by piece *code*: White's piece of type index ``t``
is ``t + 1`` and Black's is ``-(t + 1)``; lists of length ``2T + 1`` are
indexed directly by the code (Python's negative indices land Black's codes at
the end of the list).

Move programs (``Tables.gen[code][square]``) are tuples of ``(kind, data)``:
leaps hold ``(target, move)`` pairs with the move integer already encoded,
rides and hops hold rays of such pairs, lame leaps hold
``(in_between_squares, target, move)``, bent rides hold
``(first_square, move, rays)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from zanzibar.games.chess.betza import Atom, Vector, lame_path
from zanzibar.games.chess.moves import CASTLE, DOUBLE, EN_PASSANT, encode
from zanzibar.games.chess.variant import Variant

# Program kinds: base + mode, mode 0 = move or capture, 1 = move only, 2 = capture only.
LEAP, RIDE, HOP, LAME, BENT = 0, 3, 6, 9, 12
EP_CAPTURE = 15

Target = tuple[int, int]  # (square, encoded move)
Ray = tuple[Target, ...]
LeapAttacks = tuple[tuple[int, frozenset[int]], ...]
RayAttacks = tuple[tuple[tuple[int, ...], frozenset[int], frozenset[int]], ...]
LameAttacks = tuple[tuple[int, tuple[int, ...], frozenset[int]], ...]
BentPath = tuple[tuple[int, tuple[int, ...]], ...]
BentAttacks = tuple[tuple[BentPath, frozenset[int]], ...]


def _mode(atom: Atom) -> int:
    if atom.move and atom.capture:
        return 0
    return 1 if atom.move else 2


@dataclass
class Tables:
    """All precomputed data of one variant (build with :func:`tables_for`)."""

    variant: Variant
    files: int
    ranks: int
    size: int
    ntypes: int
    #: gen[code][square] -> tuple of (kind, data).
    gen: list[list[tuple[tuple[int, object], ...]]]
    #: attack tables by attacking colour (index 1 White, -1 Black).
    att_leap: list[list[LeapAttacks]]
    att_ray: list[list[RayAttacks]]
    att_lame: list[list[LameAttacks]]
    att_bent: list[list[BentAttacks]]
    #: codes whose capture moves may take en passant, by colour.
    ep_capturers: list[frozenset[int]]
    #: ep_sources[colour][square]: squares from which a piece of that colour takes en passant on square.
    ep_sources: list[list[tuple[tuple[int, frozenset[int]], ...]]]
    royal: list[int]  # royal code by colour
    promo_zone: list[frozenset[int]]  # by code: squares where it promotes
    promo_reach: list[list[bool]]  # by code, by square: can a move from there reach the zone?
    promo_choices: list[tuple[int, ...]]  # by code: type index + 1 of each choice
    promo_optional: list[bool]
    resets_clock: list[bool]  # by code
    #: castling: by target square of the King -> (rook from, rook to, squares that must be
    #: empty, squares the King passes, rights bit)
    castle: dict[int, tuple[int, int, tuple[int, ...], tuple[int, ...], int]]
    castle_from: list[tuple[tuple[int, int], ...]]  # by colour: (king square, target)
    castle_rook: list[int]  # by colour: code of the piece that castles with the King
    rights_keep: list[int]  # by square: rights kept when a piece leaves or lands there
    jump_targets: list[tuple[tuple[int, tuple[int, ...]], ...]]  # by square
    zobrist: list[list[int]]  # by code, by square
    z_side: int
    z_ep: list[int]
    z_rights: list[int]

    def square(self, file: int, rank: int) -> int:
        """Index of a square from 0-based file and rank."""
        return rank * self.files + file


def _on(files: int, ranks: int, f: int, r: int) -> bool:
    return 0 <= f < files and 0 <= r < ranks


_CACHE: dict[int, tuple[Variant, Tables]] = {}


def tables_for(variant: Variant) -> Tables:
    """The tables of a variant, built once per variant object."""
    hit = _CACHE.get(id(variant))
    if hit is not None and hit[0] is variant:
        return hit[1]
    tables = _Builder(variant).build()
    _CACHE[id(variant)] = (variant, tables)
    return tables


def _targets(program: tuple[tuple[int, object], ...]) -> set[int]:
    """Every square a move program can ever land on."""
    out: set[int] = set()
    for kind, data in program:
        for item in data:  # type: ignore[attr-defined]
            if kind in (LEAP, LEAP + 1, LEAP + 2, EP_CAPTURE):
                out.add(item[0])
            elif RIDE <= kind <= HOP + 2:
                out.update(square for square, _ in item)
            elif LAME <= kind <= LAME + 2:
                out.add(item[1])
            else:  # bent: first square and the slides
                out.add(item[0])
                for ray in item[2]:
                    out.update(square for square, _ in ray)
    return out


def program_targets(program: tuple[tuple[int, object], ...]) -> set[int]:
    """Every square a move program can ever land on (whatever stands in the way)."""
    return _targets(program)


class _Builder:
    def __init__(self, variant: Variant) -> None:
        self.v = variant
        self.files = variant.files
        self.ranks = variant.ranks
        self.size = variant.files * variant.ranks
        self.ntypes = len(variant.pieces)
        self._rays: dict[tuple[int, Vector, int], list[int]] = {}
        self._atoms: dict[tuple[int, int], list[Atom]] = {}

    def sq(self, f: int, r: int) -> int:
        return r * self.files + f

    def on(self, f: int, r: int) -> bool:
        return _on(self.files, self.ranks, f, r)

    def ray(self, frm: int, v: Vector, limit: int) -> list[int]:
        key = (frm, v, limit)
        hit = self._rays.get(key)
        if hit is not None:
            return hit
        files, ranks = self.files, self.ranks
        f, r = frm % files, frm // files
        out: list[int] = []
        while True:
            f, r = f + v[0], r + v[1]
            if not (0 <= f < files and 0 <= r < ranks) or (limit and len(out) >= limit):
                self._rays[key] = out
                return out
            out.append(r * files + f)

    def rel_rank(self, square: int, colour: int) -> int:
        r = square // self.files
        return r + 1 if colour > 0 else self.ranks - r

    def atoms(self, t: int, colour: int) -> list[Atom]:
        key = (t, colour)
        if key not in self._atoms:
            atoms = list(self.v.pieces[t].atoms)
            self._atoms[key] = atoms if colour > 0 else [a.flipped() for a in atoms]
        return self._atoms[key]

    # -- move programs -----------------------------------------------------------

    def program(self, t: int, colour: int, frm: int) -> tuple[tuple[int, object], ...]:
        piece = self.v.pieces[t]
        grouped: dict[int, list[object]] = {}
        f0, r0 = frm % self.files, frm // self.files
        initial_here = self.rel_rank(frm, colour) in piece.initial_ranks
        for atom in self.atoms(t, colour):
            if atom.initial and not initial_here:
                continue
            mode = _mode(atom)
            for index, v in enumerate(atom.vectors):
                f, r = f0 + v[0], r0 + v[1]
                if atom.kind == "leap":
                    if self.on(f, r):
                        to = self.sq(f, r)
                        grouped.setdefault(LEAP + mode, []).append((to, encode(frm, to)))
                        if atom.en_passant:
                            grouped.setdefault(EP_CAPTURE, []).append(
                                (to, encode(frm, to, flags=EN_PASSANT))
                            )
                elif atom.kind in ("ride", "hop"):
                    squares = self.ray(frm, v, atom.max_range)
                    if squares:
                        base = RIDE if atom.kind == "ride" else HOP
                        grouped.setdefault(base + mode, []).append(
                            tuple((s, encode(frm, s)) for s in squares)
                        )
                elif atom.kind == "lame":
                    if not self.on(f, r):
                        continue
                    to = self.sq(f, r)
                    mids = tuple(self.sq(f0 + dx, r0 + dy) for dx, dy in lame_path(v))
                    double = (
                        piece.en_passant_capturable and v[0] == 0 and abs(v[1]) == 2 and mode == 1
                    )
                    mv = encode(frm, to, flags=DOUBLE if double else 0)
                    grouped.setdefault(LAME + mode, []).append((mids, to, mv))
                else:  # bent
                    if not self.on(f, r):
                        continue
                    first = self.sq(f, r)
                    rays = tuple(
                        tuple((s, encode(frm, s)) for s in self.ray(first, leg, 0))
                        for leg in atom.legs[index]
                    )
                    rays = tuple(ray for ray in rays if ray)
                    grouped.setdefault(BENT + mode, []).append((first, encode(frm, first), rays))
        return tuple((kind, tuple(data)) for kind, data in sorted(grouped.items()))

    # -- attacks -----------------------------------------------------------------

    def attack_tables(self, colour: int) -> tuple[list, list, list, list]:
        leap: list[dict[int, set[int]]] = [{} for _ in range(self.size)]
        ray: list[dict[tuple[Vector, int], tuple[set[int], set[int]]]] = [
            {} for _ in range(self.size)
        ]
        lame: list[dict[tuple[int, tuple[int, ...]], set[int]]] = [{} for _ in range(self.size)]
        bent: list[dict[Vector, tuple[dict[int, set[int]], set[int]]]] = [
            {} for _ in range(self.size)
        ]
        for t in range(self.ntypes):
            code = (t + 1) * colour
            for atom in self.atoms(t, colour):
                if not atom.capture or atom.initial:
                    continue  # initial moves here are never captures (checked by loader)
                for index, v in enumerate(atom.vectors):
                    self._add_attack(atom, index, v, code, leap, ray, lame, bent)
        att_leap = [
            tuple((src, frozenset(codes)) for src, codes in sorted(d.items())) for d in leap
        ]
        att_ray = []
        for square, d in enumerate(ray):
            entries = []
            for (v, limit), (riders, hoppers) in sorted(d.items()):
                squares = tuple(self.ray(square, (-v[0], -v[1]), limit))
                if squares:
                    entries.append((squares, frozenset(riders), frozenset(hoppers)))
            att_ray.append(tuple(entries))
        att_lame = [
            tuple((src, mids, frozenset(codes)) for (src, mids), codes in sorted(d.items()))
            for d in lame
        ]
        att_bent = []
        for square, by_leg in enumerate(bent):
            entries2 = []
            for o, (sources, codes) in sorted(by_leg.items()):
                path = []
                for s in self.ray(square, (-o[0], -o[1]), 0):
                    path.append((s, tuple(sorted(sources.get(s, set())))))
                entries2.append((tuple(path), frozenset(codes)))
            att_bent.append(tuple(entries2))
        return att_leap, att_ray, att_lame, att_bent

    def _add_attack(
        self,
        atom: Atom,
        index: int,
        v: Vector,
        code: int,
        leap: list[dict[int, set[int]]],
        ray: list[dict[tuple[Vector, int], tuple[set[int], set[int]]]],
        lame: list[dict[tuple[int, tuple[int, ...]], set[int]]],
        bent: list[dict[Vector, tuple[dict[int, set[int]], set[int]]]],
    ) -> None:
        for target in range(self.size):
            f, r = target % self.files, target // self.files
            if atom.kind in ("ride", "hop"):
                slot = ray[target].setdefault((v, atom.max_range), (set(), set()))
                slot[0 if atom.kind == "ride" else 1].add(code)
                continue
            sf, sr = f - v[0], r - v[1]
            if not self.on(sf, sr):
                continue
            src = self.sq(sf, sr)
            if atom.kind == "leap" or atom.kind == "bent":
                leap[target].setdefault(src, set()).add(code)
            if atom.kind == "lame":
                mids = tuple(self.sq(sf + dx, sr + dy) for dx, dy in lame_path(v))
                lame[target].setdefault((src, mids), set()).add(code)
        if atom.kind == "bent":
            # The attacker stands one step (v) before a corner square S, then slides along
            # a leg o from S to the target: target = S + k*o, k >= 1.
            for o in atom.legs[index]:
                for target in range(self.size):
                    sources, codes = bent[target].setdefault(o, ({}, set()))
                    codes.add(code)
                    for s in self.ray(target, (-o[0], -o[1]), 0):
                        sf, sr = s % self.files - v[0], s // self.files - v[1]
                        if self.on(sf, sr):
                            sources.setdefault(s, set()).add(self.sq(sf, sr))

    # -- everything --------------------------------------------------------------

    def build(self) -> Tables:
        v = self.v
        n = 2 * self.ntypes + 1
        gen: list[list[tuple[tuple[int, object], ...]]] = [[] for _ in range(n)]
        for t in range(self.ntypes):
            for colour in (1, -1):
                gen[(t + 1) * colour] = [self.program(t, colour, s) for s in range(self.size)]
        att = {c: self.attack_tables(c) for c in (1, -1)}

        def by_colour(i: int) -> list:
            return [[], att[1][i], att[-1][i]]

        promo_zone: list[frozenset[int]] = [frozenset()] * n
        promo_choices: list[tuple[int, ...]] = [()] * n
        promo_optional = [False] * n
        resets = [False] * n
        for t, piece in enumerate(v.pieces):
            for colour in (1, -1):
                code = (t + 1) * colour
                resets[code] = piece.letter in v.move_rule_resets
                if piece.promotion:
                    promo_zone[code] = frozenset(
                        s
                        for s in range(self.size)
                        if self.rel_rank(s, colour) in piece.promotion.ranks
                    )
                    promo_choices[code] = tuple(
                        v.type_index(c) + 1 for c in piece.promotion.choices
                    )
                    promo_optional[code] = not piece.promotion.compulsory
        promo_reach = [[False] * self.size for _ in range(n)]
        for code in range(-self.ntypes, self.ntypes + 1):
            if code and promo_zone[code]:
                for square in range(self.size):
                    promo_reach[code][square] = bool(_targets(gen[code][square]) & promo_zone[code])
        ep_capturers: list[frozenset[int]] = [frozenset(), frozenset(), frozenset()]
        ep_sources: list[list[tuple[tuple[int, frozenset[int]], ...]]] = [[], [], []]
        for colour in (1, -1):
            codes = set()
            sources: list[dict[int, set[int]]] = [{} for _ in range(self.size)]
            for t in range(self.ntypes):
                code = (t + 1) * colour
                for square in range(self.size):
                    for kind, data in gen[code][square]:
                        if kind == EP_CAPTURE:
                            codes.add(code)
                            for to, _ in data:  # type: ignore[attr-defined]
                                sources[to].setdefault(square, set()).add(code)
            ep_capturers[colour] = frozenset(codes)
            ep_sources[colour] = [
                tuple((s, frozenset(c)) for s, c in sorted(d.items())) for d in sources
            ]
        royal = [0, v.royal_index + 1, -(v.royal_index + 1)]
        castle, castle_from, rights_keep = self.castling()
        rng = random.Random(0x2A2B1B0C)
        zobrist = [[rng.getrandbits(64) for _ in range(self.size)] for _ in range(n)]
        return Tables(
            variant=v,
            files=self.files,
            ranks=self.ranks,
            size=self.size,
            ntypes=self.ntypes,
            gen=gen,
            att_leap=by_colour(0),
            att_ray=by_colour(1),
            att_lame=by_colour(2),
            att_bent=by_colour(3),
            ep_capturers=ep_capturers,
            ep_sources=ep_sources,
            royal=royal,
            promo_zone=promo_zone,
            promo_reach=promo_reach,
            promo_choices=promo_choices,
            promo_optional=promo_optional,
            resets_clock=resets,
            castle=castle,
            castle_from=castle_from,
            castle_rook=self.castle_rook_codes(),
            rights_keep=rights_keep,
            jump_targets=self.jumps(),
            zobrist=zobrist,
            z_side=rng.getrandbits(64),
            z_ep=[rng.getrandbits(64) for _ in range(self.size)],
            z_rights=[rng.getrandbits(64) for _ in range(16)],
        )

    def castling(
        self,
    ) -> tuple[
        dict[int, tuple[int, int, tuple[int, ...], tuple[int, ...], int]],
        list[tuple[tuple[int, int], ...]],
        list[int],
    ]:
        """Castling geometry from the start position's King files (FSF conventions)."""
        from zanzibar.games.chess.fen import parse_fen

        castle: dict[int, tuple[int, int, tuple[int, ...], tuple[int, ...], int]] = {}
        castle_from: list[tuple[tuple[int, int], ...]] = [(), (), ()]
        keep = [15] * self.size
        if not any(self.v.castling):
            return castle, castle_from, keep
        start = parse_fen(self.v, self.v.start_fen)
        for colour, shift in ((1, 0), (-1, 2)):
            king = start.board.index(self.v.royal_index * colour + colour)
            rank = king // self.files
            kf = king % self.files
            keep[king] &= ~(3 << shift)
            entries = []
            for wing, spec in enumerate(self.v.castling):
                if spec is None:
                    continue
                bit = 1 << (shift + wing)
                kt = self.sq(spec.king_file, rank)
                rf = self.sq(spec.rook_file, rank)
                step = 1 if spec.king_file > kf else -1
                rt = kt - step
                keep[rf] &= ~bit
                lo = min(kf, spec.king_file, spec.rook_file, rt % self.files)
                hi = max(kf, spec.king_file, spec.rook_file, rt % self.files)
                empty = tuple(
                    self.sq(f, rank)
                    for f in range(lo, hi + 1)
                    if self.sq(f, rank) not in (king, rf)
                )
                passed = tuple(
                    self.sq(f, rank) for f in range(kf + step, spec.king_file + step, step)
                )
                castle[kt] = (rf, rt, empty, passed, bit)
                entries.append((king, encode(king, kt, flags=CASTLE)))
            castle_from[colour] = tuple(entries)
        return castle, castle_from, keep

    def castle_rook_codes(self) -> list[int]:
        """The Rook's code by colour (0 if the variant has no piece R)."""
        letters = [p.letter for p in self.v.pieces]
        if "R" not in letters:
            return [0, 0, 0]
        code = letters.index("R") + 1
        return [0, code, -code]

    def jumps(self) -> list[tuple[tuple[int, tuple[int, ...]], ...]]:
        """King's jump: the 16 squares two steps away, with the squares jumped over."""
        out = []
        for square in range(self.size):
            f, r = square % self.files, square // self.files
            entries = []
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    if max(abs(dx), abs(dy)) != 2:
                        continue
                    if not self.on(f + dx, r + dy):
                        continue
                    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
                    if abs(dx) == abs(dy) or dx == 0 or dy == 0:
                        over: tuple[int, ...] = (self.sq(f + sx, r + sy),)
                    elif abs(dx) == 2:  # knight-wise, long along the file axis
                        over = (self.sq(f + sx, r), self.sq(f + sx, r + sy))
                    else:
                        over = (self.sq(f, r + sy), self.sq(f + sx, r + sy))
                    entries.append((self.sq(f + dx, r + dy), over))
            out.append(tuple(entries))
        return out
