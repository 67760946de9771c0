"""Betza notation: a piece's moves as text, parsed into move atoms.

A Betza string such as ``fmWfceFfmnnD`` is a sequence of groups, each made of
lowercase modifiers followed by one uppercase atom letter (or a doubled letter
for a rider, or a letter and a number for a rider of limited range). The
parser turns each group into an :class:`Atom`: a kind (leap, ride, hop, lame
leap or bent ride), the direction vectors from White's point of view (``dy``
positive is forward), and what the move may do (move to an empty square,
capture, capture en passant, only from the initial ranks).

Supported subset (enough for orthodox chess, Shako, Metamachy, Zanzibar-S and
Zanzibar-XL):

* leapers ``W F D A N C Z G H``; compounds ``K`` (WF), ``R`` (WW), ``B`` (FF),
  ``Q`` (RB); a doubled leaper is a rider (``NN`` nightrider, ``WW`` rook) and
  a digit limits its range (``R4``);
* modifiers ``m`` (move only), ``c`` (capture only), ``e`` (may capture en
  passant), ``i`` (initial ranks only), ``n`` (lame: the squares in between
  must be empty; ``nn`` is read the same way), ``p`` (hopper: jumps exactly one
  piece, as the Xiangqi cannon ``mRcpR``), and the directions ``f b l r s v``
  with ``h`` for chiral halves (``hl``, ``hr``);
* the two-leg bent riders ``FyafsF`` (one diagonal step, then outward along an
  orthogonal: the Eagle) and ``WyafsW`` (one orthogonal step, then outward
  along a diagonal: the Rhinoceros).

>>> [a.kind for a in parse("mRcpR")]
['ride', 'hop']
>>> sorted(parse("fmW")[0].vectors)
[(0, 1)]
>>> atom = parse("FyafsF")[0]
>>> atom.kind, sorted(atom.legs[atom.vectors.index((1, 1))])
('bent', [(0, 1), (1, 0)])
>>> parse("Xq")
Traceback (most recent call last):
...
zanzibar.engine.errors.CorruptDataError: Betza 'Xq': unknown atom letter 'X' at 0
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zanzibar.engine.errors import CorruptDataError

Vector = tuple[int, int]

#: Base leap of every single-letter leaper, as (smaller, larger) offsets.
LEAPERS: dict[str, Vector] = {
    "W": (0, 1),
    "F": (1, 1),
    "D": (0, 2),
    "N": (1, 2),
    "A": (2, 2),
    "H": (0, 3),
    "C": (1, 3),
    "Z": (2, 3),
    "G": (3, 3),
}
#: Compound letters and what they stand for (a doubled letter is a rider).
COMPOUNDS: dict[str, tuple[tuple[str, bool], ...]] = {
    "K": (("W", False), ("F", False)),
    "R": (("W", True),),
    "B": (("F", True),),
    "Q": (("W", True), ("F", True)),
}

_BENT = re.compile(r"([a-z]*)([FW])yafs([FW])")
_GROUP = re.compile(r"([a-z]*)([A-Z])(\2?)(\d*)")


@dataclass(frozen=True)
class Atom:
    """One kind of move of a piece, for White (Black's vectors are mirrored).

    ``kind`` is ``"leap"`` (jumps straight to the target), ``"ride"`` (repeats
    the step while squares are empty, at most ``max_range`` steps, 0 for no
    limit), ``"hop"`` (a rider that must jump exactly one piece before it lands),
    ``"lame"`` (a leap whose in-between squares must be empty) or ``"bent"``
    (one step along ``vectors``, then an optional slide along the ``legs`` of
    that vector, the same index in both tuples).
    """

    kind: str
    vectors: tuple[Vector, ...]
    move: bool = True
    capture: bool = True
    en_passant: bool = False
    initial: bool = False
    max_range: int = 1
    legs: tuple[tuple[Vector, ...], ...] = ()

    def flipped(self) -> Atom:
        """The same atom seen from Black's side (forward is down)."""
        return Atom(
            self.kind,
            tuple((dx, -dy) for dx, dy in self.vectors),
            self.move,
            self.capture,
            self.en_passant,
            self.initial,
            self.max_range,
            tuple(tuple((dx, -dy) for dx, dy in leg) for leg in self.legs),
        )


def _symmetries(base: Vector) -> list[Vector]:
    a, b = base
    found: list[Vector] = []
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                v = (x * sx, y * sy)
                if v not in found:
                    found.append(v)
    return found


def _tokens(directions: str, text: str) -> list[str]:
    """Split direction letters into tokens: pairs like ``fl`` or ``ff``, or singles."""
    tokens: list[str] = []
    i = 0
    while i < len(directions):
        c = directions[i]
        nxt = directions[i + 1] if i + 1 < len(directions) else ""
        if c == "h":
            if nxt not in ("l", "r"):
                raise CorruptDataError(f"Betza {text!r}: 'h' must be followed by l or r")
            tokens.append(c + nxt)
            i += 2
        elif (c in "fb" and nxt in "lrfbs") or (c in "lr" and nxt in "lrv"):
            tokens.append(c + nxt)
            i += 2
        else:
            tokens.append(c)
            i += 1
    return tokens


def _chiral_right(v: Vector) -> bool:
    """True for the right-handed half: (a, b) with a < b and its quarter turns clockwise."""
    a, b = sorted((abs(v[0]), abs(v[1])))
    x, y = a, b
    for _ in range(4):
        if (x, y) == v:
            return True
        x, y = y, -x
    return False


def _matches(v: Vector, token: str) -> bool:
    dx, dy = v
    oblique = abs(dx) != abs(dy) and dx != 0 and dy != 0
    diagonal = abs(dx) == abs(dy)
    tests = {
        "f": dy > 0,
        "b": dy < 0,
        "l": dx < 0,
        "r": dx > 0,
        "v": (abs(dy) > abs(dx)) if oblique else (dx == 0 or diagonal),
        "s": (abs(dx) > abs(dy)) if oblique else (dy == 0 or diagonal),
    }
    if token in ("hl", "hr"):
        return _chiral_right(v) == (token == "hr")
    if len(token) == 1:
        return tests[token]
    if not oblique and not diagonal:  # orthogonal atoms: letters simply add up
        return any(tests[c] for c in token)
    first, second = token[0], token[1]
    if first == second:  # ff, bb, ll, rr: the narrow pair on that side
        narrow = "v" if first in "fb" else "s"
        return tests[first] and (tests[narrow] if oblique else True)
    if second in "sv":  # fs, bs, lv, rv: the wide pair
        return tests[first] and (tests[second] if oblique else True)
    return tests[first] and tests[second]


def _select(vectors: list[Vector], directions: str, text: str) -> list[Vector]:
    if not directions:
        return vectors
    tokens = _tokens(directions, text)
    chosen = [v for v in vectors if any(_matches(v, t) for t in tokens)]
    if not chosen:
        raise CorruptDataError(f"Betza {text!r}: directions {directions!r} select no move")
    return chosen


def _flags(mods: str) -> tuple[bool, bool, bool, bool, bool, bool, str]:
    move = "m" in mods or "c" not in mods
    capture = "c" in mods or "e" in mods or "m" not in mods
    en_passant = "e" in mods
    initial = "i" in mods
    lame = "n" in mods
    hop = "p" in mods
    directions = "".join(c for c in mods if c in "fblrsvh")
    return move, capture, en_passant, initial, lame, hop, directions


def _parse_bent(mods: str, first: str, second: str, text: str) -> Atom:
    if first != second:
        raise CorruptDataError(f"Betza {text!r}: only FyafsF and WyafsW bent riders exist")
    move, capture, en_passant, initial, _, _, directions = _flags(mods)
    steps = _select(_symmetries(LEAPERS[first]), directions, text)
    legs: list[tuple[Vector, ...]] = []
    for dx, dy in steps:
        if first == "F":  # continue outward along either orthogonal
            legs.append(((dx, 0), (0, dy)))
        else:  # continue outward along either diagonal
            legs.append(((dx + dy, dy + dx), (dx - dy, dy - dx)))
    return Atom("bent", tuple(steps), move, capture, en_passant, initial, 0, tuple(legs))


def _lame_ok(base: Vector) -> bool:
    a, b = base
    return a == 0 or a == b or (a, b) == (1, 2)


def parse(text: str) -> list[Atom]:
    """Parse a Betza string into atoms; CorruptDataError names the bad spot."""
    atoms: list[Atom] = []
    pos = 0
    text = text.strip()
    if not text:
        raise CorruptDataError("Betza: empty move description")
    while pos < len(text):
        bent = _BENT.match(text, pos)
        if bent:
            atoms.append(_parse_bent(bent.group(1), bent.group(2), bent.group(3), text))
            pos = bent.end()
            continue
        group = _GROUP.match(text, pos)
        if not group:
            raise CorruptDataError(f"Betza {text!r}: cannot read from position {pos}")
        mods, letter, doubled, digits = group.groups()
        bad = set(mods) - set("mcefblrsvhnpi")
        if bad:
            raise CorruptDataError(f"Betza {text!r}: unknown modifier {''.join(sorted(bad))!r}")
        if letter not in LEAPERS and letter not in COMPOUNDS:
            raise CorruptDataError(f"Betza {text!r}: unknown atom letter {letter!r} at {pos}")
        atoms.extend(_group_atoms(text, mods, letter, bool(doubled), digits))
        pos = group.end()
    return atoms


def _group_atoms(text: str, mods: str, letter: str, doubled: bool, digits: str) -> list[Atom]:
    move, capture, en_passant, initial, lame, hop, directions = _flags(mods)
    parts: list[tuple[str, bool]]  # (leaper letter, rides)
    if letter in COMPOUNDS:
        if doubled:
            raise CorruptDataError(f"Betza {text!r}: {letter} cannot be doubled")
        parts = list(COMPOUNDS[letter])
        if digits:
            parts = [(base, True) for base, _ in parts]
    else:
        parts = [(letter, doubled or bool(digits))]
    max_range = int(digits) if digits else 0
    atoms: list[Atom] = []
    for base, rides in parts:
        vectors = tuple(_select(_symmetries(LEAPERS[base]), directions, text))
        if hop:
            kind = "hop"
            if not rides:
                raise CorruptDataError(f"Betza {text!r}: 'p' needs a rider")
        elif lame and not rides:
            if not _lame_ok(LEAPERS[base]):
                raise CorruptDataError(f"Betza {text!r}: 'n' is not supported on {base}")
            kind = "lame" if LEAPERS[base] not in ((0, 1), (1, 1)) else "leap"
        else:
            kind = "ride" if rides else "leap"
        atoms.append(
            Atom(
                kind,
                vectors,
                move,
                capture,
                en_passant,
                initial,
                max_range if kind in ("ride", "hop") else 1,
            )
        )
    return atoms


def lame_path(vector: Vector) -> tuple[Vector, ...]:
    """The in-between offsets a lame leap needs empty (straight lines, or the Mao).

    >>> lame_path((0, 2)), lame_path((2, -2)), lame_path((1, 2)), lame_path((-2, 1))
    (((0, 1),), ((1, -1),), ((0, 1),), ((-1, 0),))
    """
    dx, dy = vector
    if dx == 0 or dy == 0 or abs(dx) == abs(dy):
        n = max(abs(dx), abs(dy))
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        return tuple((sx * k, sy * k) for k in range(1, n))
    if abs(dy) > abs(dx):  # Mao: first the orthogonal step along the long axis
        return ((0, (dy > 0) - (dy < 0)),)
    return (((dx > 0) - (dx < 0), 0),)
