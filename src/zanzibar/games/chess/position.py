"""A mutable chess position with fast legal move generation and make/unmake.

This is the engine's core API, shared by the rules adapter, perft and the
search bot:

* ``Position(variant, fen=None)``: the start position or any FEN.
* ``legal_moves()`` -> list of move integers (see :mod:`moves`).
* ``push(move)`` / ``pop()``: make and unmake (``pop`` returns the move);
  ``push_null()`` passes the turn (for null-move pruning; undo it with ``pop()``).
* ``is_check()``, ``is_attacked(square, by_colour)``, ``is_capture(move)``,
  ``outcome()`` (``None`` while the game goes on), ``is_repetition(count)``.
* ``fen()``, ``hash`` (64-bit Zobrist key, updated incrementally; the
  en-passant square counts only when a capture there is possible),
  ``board[square]`` (piece codes: White type index + 1, Black negated, 0 empty),
  ``turn`` (1 White, -1 Black), ``king_square(colour)``, ``piece_squares(colour)``,
  ``halfmove`` (clock for the move rule), ``move_stack``, ``copy()``,
  ``repetitions()`` (occurrences of the current position since the last
  irreversible move), ``parse_uci(text)``.
* ``outcome()`` returns a :class:`Result` (``winner`` 1 / -1 / 0, ``reason``).
* For the search: ``captures()`` (pseudo-legal captures and promotions; push one,
  then ``left_king_exposed()`` says whether it was illegal), ``gives_check(move)``
  (whether a legal move checks, without pushing it), ``see(move, values)``
  (static exchange evaluation), ``attach_table(table)`` and ``psq`` (a piece-square
  sum kept up to date move by move: the evaluation's incremental part), ``occ``
  (a bitmask of the occupied squares), ``track(codes)`` and ``tracked`` (the pieces
  of some codes, the evaluation's riders, as ``{square: code}`` kept move by move).

The board is a flat list of ``files * ranks`` squares with no padding: every
geometric question is answered by the precomputed :mod:`tables`, so the hot
loops only index lists. Legality: when the side to move is not in check, a
move is legal at once unless it moves the King, moves a piece that may be
pinned (the first own piece on a line towards the King from an enemy rider,
hopper or bent rider, or the square in front of an enemy lame leaper), lands
on a square that would become the screen of an enemy hopper, or is en passant;
those few are tried on the board. In a single check, only King moves and moves
that capture the checker, block it or remove a hopper's screen are tried; in a
double check, every move is.

Speed: each ray of a rider or hopper carries the bitmask of its squares, so the
first piece on it is the lowest (or highest) set bit of ``occ & mask``: two
integer operations instead of a walk, and a whole ray of quiet moves is one
slice of a precomputed tuple. Whether the side to move is in check is looked
for only along the attack lines through the squares the last move changed (the
other side is never in check in a legal game), and cached until the next move.
Static exchanges are remembered by position hash and move (a search asks for the
same ones at every deeper iteration); move lists are not: kept alive, they cost
more in memory traffic than generating them again (measured).

>>> from zanzibar.games.chess.variant import load_variant
>>> pos = Position(load_variant("chess"))
>>> len(pos.legal_moves())
20
>>> pos.push(pos.parse_uci("e2e4")); pos.fen()
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
>>> pos.pop() == pos.parse_uci("e2e4")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from zanzibar.engine.errors import IllegalActionError
from zanzibar.games.chess.fen import (
    FenData,
    format_fen,
    parse_fen,
    parse_square,
    square_name,
)
from zanzibar.games.chess.moves import CASTLE, DOUBLE, EN_PASSANT, KING_JUMP, encode
from zanzibar.games.chess.tables import (
    BENT,
    EP_CAPTURE,
    HOP,
    LAME,
    LEAP,
    RIDE,
    BentAttacks,
    LameAttacks,
    LeapAttacks,
    Tables,
    program_targets,
    tables_for,
)
from zanzibar.games.chess.variant import Variant

WHITE = 1
#: Program kinds added on top of :mod:`tables`' ones: a ride (move or capture) and a hop
#: (move or capture) whose rays carry an occupancy mask, so that the first piece on a ray
#: is found with two integer operations instead of a walk (see :func:`_fast_programs`).
RIDE_BB = 100
HOP_BB = 101
#: A bent rider's captures with its slides as occupancy-mask rays (captures only).
BENT_BB = 102
#: A leap (move or capture) whose moves are looked up by the own pieces on its targets.
LEAP_BB = 103

BLACK = -1
#: Program kinds of :mod:`tables` named once (a ``LEAP + 1`` in a test is an addition each
#: time): a leap that only moves, one that only captures (a pawn's), a lame leap that only
#: moves (a double step).
_LEAP_MOVE = LEAP + 1
_LEAP_TAKE = LEAP + 2
_LAME_MOVE = LAME + 1
#: The kinds that only capture: left out of the quiet moves' programs (``_FastData.quiet_gen``).
_TAKING_KINDS = frozenset({LEAP + 2, RIDE + 2, HOP + 2, LAME + 2, BENT + 2, EP_CAPTURE})
#: Static exchange results remembered per position before that memory is emptied.
SEE_CACHE_LIMIT = 1 << 16
#: ``move >> 16`` masked by this is nonzero for a promotion or an en-passant capture.
_PROMOTION_OR_EP = 0xFF | EN_PASSANT << 8
#: An empty set of squares (no suspects).
_NO_SQUARES: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Result:
    """How a game ended: ``winner`` 1 White, -1 Black, 0 draw; ``reason`` a stable word.

    Reasons: ``checkmate``, ``stalemate``, ``repetition``, ``move_rule``.
    """

    winner: int
    reason: str


class Position:
    """A position of ``variant`` plus the history needed to unmake and detect repetition."""

    __slots__ = (
        "_att",
        "_bits",
        "_capgen",
        "_capreach",
        "_check",
        "_empty",
        "_en",
        "_ep_mask",
        "_fast",
        "_gen",
        "_line_flags",
        "_lines",
        "_no_enemy",
        "_ok",
        "_qgen",
        "_reach",
        "_reach_flags",
        "_see_cache",
        "_see_floor",
        "_see_values",
        "_stack",
        "_touch",
        "_uncover",
        "_uncover_flags",
        "board",
        "ep",
        "ep_victim",
        "fullmove",
        "halfmove",
        "hash",
        "history",
        "kings",
        "occ",
        "pieces",
        "psq",
        "psq_table",
        "rights",
        "side_occ",
        "t",
        "tracked",
        "tracked_codes",
        "turn",
        "variant",
    )

    def __init__(self, variant: Variant, fen: str | None = None) -> None:
        self.variant = variant
        self.t: Tables = tables_for(variant)
        fast = _fast_data(self.t)
        self._gen = fast.gen
        #: _bits[square] = 1 << square
        self._bits: list[int] = [1 << square for square in range(self.t.size)]
        self._qgen = fast.quiet_gen
        self._att = fast.att
        self._capgen = fast.capgen
        self._capreach = fast.capreach
        self._touch = fast.touch
        self._uncover = fast.uncover
        self._reach = fast.reach
        self._lines = fast.lines
        self._line_flags = fast.line_flags
        self._uncover_flags = fast.uncover_flags
        self._reach_flags = fast.reach_flags
        self._ep_mask = fast.ep_mask
        #: The table whose sum ``psq`` holds. Read only: set it with :meth:`attach_table`.
        self.psq_table: list[list[int]] = fast.zero_table
        data = parse_fen(variant, fen if fen is not None else variant.start_fen)
        n = 2 * self.t.ntypes + 1
        # _ok[colour][code]: may a piece of that colour land there (empty or enemy)?
        self._ok: list[list[bool]] = [[], [], []]
        self._en: list[list[bool]] = [[], [], []]
        for colour in (WHITE, BLACK):
            ok = [False] * n
            en = [False] * n
            for code in range(-self.t.ntypes, self.t.ntypes + 1):
                en[code] = code * colour < 0
                ok[code] = code * colour <= 0
            self._ok[colour] = ok
            self._en[colour] = en
        # for quiet moves alone (see :meth:`quiet_moves`): only an empty square may be
        # landed on, and no code is an enemy
        self._empty: list[bool] = [code == 0 for code in range(n)]
        self._no_enemy: list[bool] = [False] * n
        self._stack: list[tuple[int, ...]] = []
        self.history: list[int] = []
        #: tracked_codes[code]: is that code kept in ``tracked``? Read only: set it with
        #: :meth:`track` (a plain attribute, not a property: the evaluation reads it at
        #: every node).
        self.tracked_codes: list[bool] = [False] * n
        self.tracked: dict[int, int] = {}
        #: see() results by position hash, move and question (see :meth:`see`)
        self._see_cache: dict[int, int] = {}
        self._see_values: list[int] | None = None
        #: the cheapest piece's worth in ``_see_values`` (see :meth:`_see`)
        self._see_floor = 0
        self._load(data)

    # -- loading and saving ------------------------------------------------------

    def _load(self, data: FenData) -> None:
        t = self.t
        self.board = list(data.board)
        self.turn = data.turn
        self.rights = data.rights
        self.ep = data.ep
        self.ep_victim = data.ep - data.turn * t.files if data.ep >= 0 else -1
        self.halfmove = data.halfmove
        self.fullmove = data.fullmove
        self.pieces: list[dict[int, int]] = [{}, {}, {}]
        self.kings = [0, -1, -1]
        for square, code in enumerate(self.board):
            if code:
                colour = 1 if code > 0 else -1
                self.pieces[colour][square] = code
                if code == t.royal[colour]:
                    self.kings[colour] = square
        if self.ep >= 0 and not self._ep_possible():
            self.ep = self.ep_victim = -1
        self.hash = self._full_hash()
        self._stack = []
        self.history = [self.hash]
        self.occ = sum(1 << square for square, code in enumerate(self.board) if code)
        #: side_occ[colour]: bitmask of that colour's pieces (index 1 White, -1 Black).
        self.side_occ = [
            0,
            sum(1 << square for square, code in enumerate(self.board) if code > 0),
            sum(1 << square for square, code in enumerate(self.board) if code < 0),
        ]
        self.psq = self._full_psq()
        self.tracked = self._full_tracked()
        self._check: bool | None = None
        # Checks after a move are found by looking only along the lines through the squares
        # it changed: sound when the side not to move is not in check, as in any legal game.
        other = self.kings[-self.turn]
        self._fast = other < 0 or not self.is_attacked(other, self.turn)

    def _full_psq(self) -> int:
        pk = self.psq_table
        return sum(pk[code][square] for square, code in enumerate(self.board) if code)

    def attach_table(self, table: list[list[int]]) -> None:
        """Keep ``psq`` = the sum of ``table[code][square]`` over the pieces, move by move.

        The evaluation's packed piece-square table goes here, so evaluating a position
        costs no walk over its pieces. The table must hold 0 for code 0.
        """
        self.psq_table = table
        self.psq = self._full_psq()

    def _full_tracked(self) -> dict[int, int]:
        tracks = self.tracked_codes
        return {square: code for square, code in enumerate(self.board) if tracks[code]}

    def track(self, codes: list[bool]) -> None:
        """Keep ``tracked`` = ``{square: code}`` of the pieces whose ``codes[code]`` is true,
        move by move (both colours).

        The evaluation tracks the riders, so that counting their lines walks them
        alone, not every piece. ``codes`` is indexed like the tables (Black's codes
        from the end) and must be false for code 0.
        """
        self.tracked_codes = codes
        self.tracked = self._full_tracked()

    def _full_hash(self) -> int:
        t = self.t
        h = 0
        for square, code in enumerate(self.board):
            if code:
                h ^= t.zobrist[code][square]
        if self.turn < 0:
            h ^= t.z_side
        if self.ep >= 0:
            h ^= t.z_ep[self.ep]
        return h ^ t.z_rights[self.rights]

    def _ep_possible(self) -> bool:
        """Could the side to move capture en passant on ``self.ep`` (ignoring pins)?"""
        board = self.board
        return any(board[src] in codes for src, codes in self.t.ep_sources[self.turn][self.ep])

    def fen_data(self) -> FenData:
        """The position as decoded FEN fields."""
        return FenData(
            list(self.board), self.turn, self.rights, self.ep, self.halfmove, self.fullmove
        )

    def fen(self) -> str:
        """The FEN of the position (en-passant square only when a capture is possible)."""
        return format_fen(self.variant, self.fen_data())

    def copy(self) -> Position:
        """An independent copy with the same history (for searching in a thread)."""
        other = Position.__new__(Position)
        for name in Position.__slots__:
            setattr(other, name, getattr(self, name))
        other.board = list(self.board)
        other.pieces = [dict(d) for d in self.pieces]
        other.kings = list(self.kings)
        other._stack = list(self._stack)
        other.history = list(self.history)
        other.side_occ = list(self.side_occ)
        other.tracked = dict(self.tracked)
        other._see_cache = {}
        other._check = None
        return other

    # -- simple queries ----------------------------------------------------------

    def king_square(self, colour: int) -> int:
        """Square of ``colour``'s King (``-1`` if absent, in setup diagrams only)."""
        return self.kings[colour]

    def piece_squares(self, colour: int) -> dict[int, int]:
        """``{square: code}`` of ``colour``'s pieces (do not modify)."""
        return self.pieces[colour]

    def piece_at(self, square: int) -> int:
        """Code on ``square`` (0 if empty)."""
        return self.board[square]

    def is_capture(self, move: int) -> bool:
        """Does the move take a piece (including en passant)?"""
        return bool(self.board[(move >> 8) & 0xFF]) or bool((move >> 24) & EN_PASSANT)

    def is_pseudo_legal_quiet(self, move: int) -> bool:
        """Could the side to move's piece on the move's square make it here, onto an empty
        square (a killer move from another node)? Whether it exposes the King is left to
        :meth:`left_king_exposed` once pushed. Moves with flags are never taken.
        """
        if move >> 16:
            return False
        frm = move & 0xFF
        b = self.board
        code = b[frm]
        if code * self.turn <= 0 or b[(move >> 8) & 0xFF]:
            return False
        found: list[int] = []
        self._generate(self.turn, found, found, _NO_SQUARES, {frm: code}, True)
        return move in found

    def captured_code(self, move: int) -> int:
        """Code of the piece the move takes (0 if none)."""
        if (move >> 24) & EN_PASSANT:
            return self.board[self.ep_victim]
        if (move >> 24) & CASTLE:
            return 0
        return self.board[(move >> 8) & 0xFF]

    def is_check(self) -> bool:
        """Is the side to move's King attacked? (Cached until the next push or pop.)

        After a move, only the lines through the squares it changed can hold a new
        attack on the King that did not move (the side not to move is never in check
        in a legal game), so only those are looked at.
        """
        check = self._check
        if check is not None:
            return check
        king = self.kings[self.turn]
        if king < 0:
            check = False
        elif self._fast and self._stack:
            entry = self._stack[-1]
            move = entry[0]
            if not move:
                check = False  # a null move changes no square
            elif move >> 24:
                check = self._attacked_through(king, -self.turn, _changed(self.t, move, entry[4]))
            else:
                frm = move & 0xFF
                to = (move >> 8) & 0xFF
                by = -self.turn
                leave, screens = self._uncover_flags[by][king]
                # a check needs an uncovered line (through the square left), or a new
                # hopper screen or the piece moved attacking from where it landed (through
                # the square reached; see gives_check): only those squares' lines are read
                check = bool(leave[frm]) and self._attacked_at(king, by, frm)
                if not check and (screens[to] or self._reach_flags[self.board[to]][to][king]):
                    check = self._attacked_at(king, by, to)
        else:
            check = self.is_attacked(king, -self.turn)
        self._check = check
        return check

    def gives_check(self, move: int) -> bool:
        """Would the (legal) ``move`` put the enemy King in check? Equal to pushing it and
        asking :meth:`is_check`, but a plain move (no flag, no promotion) is only tried
        on the board and the occupancy masks, without a whole push and pop: the search
        asks this of every quiet move it prunes near the horizon. Nor is it tried when it
        leaves no square of a line towards the King, lands on no hopper's line (to become
        a screen) and its piece could not attack the King from its new square even on an
        empty board (about half of the search's questions; ``_FastData.uncover``).
        """
        if move >> 16:
            self.push(move)
            try:
                return self.is_check()
            finally:
                self.pop()
        us = self.turn
        king = self.kings[-us]
        if king < 0:
            return False
        frm = move & 0xFF
        to = (move >> 8) & 0xFF
        b = self.board
        piece = b[frm]
        fast = self._fast
        if fast:
            lines = self._line_flags[us][king]
            if not (lines[frm] or lines[to]):
                return False  # neither square is on any line of attack towards the King
            leave, screens = self._uncover_flags[us][king]
            uncovers = leave[frm]
            lands = screens[to] or self._reach_flags[piece][to][king]
            if not (uncovers or lands):
                # it uncovers no line and makes no screen, and its piece cannot attack the
                # King from where it lands, even on an empty board: no check
                return False
        captured = b[to]
        occ = self.occ
        side = self.side_occ
        mine = side[us]
        b[frm] = 0
        b[to] = piece
        bits = self._bits
        frm_bit = bits[frm]
        to_bit = bits[to]
        self.occ = (occ & ~frm_bit) | to_bit
        side[us] = mine ^ (frm_bit | to_bit)
        try:
            if fast:
                # only the lines through a square that may open one (see is_check)
                return bool(uncovers and self._attacked_at(king, us, frm)) or bool(
                    lands and self._attacked_at(king, us, to)
                )
            return self.is_attacked(king, us)
        finally:
            b[frm] = piece
            b[to] = captured
            self.occ = occ
            side[us] = mine

    def check_lines(self) -> int:
        """A mask of the squares a plain move (no flag, no promotion) must leave or reach
        to put the enemy King in check: a move touching neither never checks, so the
        search asks :meth:`gives_check` of the others only (one call spared per move it
        prunes). All squares (-1) when the position cannot tell; 0 without an enemy King.
        """
        king = self.kings[-self.turn]
        if king < 0:
            return 0
        return self._lines[self.turn][king] if self._fast else -1

    def left_king_exposed(self) -> bool:
        """After ``push``: did that move leave the mover's own King attacked (an illegal move)?

        Sound only when that side was not in check before the move (then only the
        lines through the changed squares matter); a King move is tested in full.
        """
        entry = self._stack[-1]
        move = entry[0]
        mover = -self.turn
        king = self.kings[mover]
        if king < 0:
            return False
        if entry[1] == self.t.royal[mover]:
            return self.is_attacked(king, self.turn)
        if move >> 24:
            return self._attacked_through(king, self.turn, _changed(self.t, move, entry[4]))
        frm = move & 0xFF
        to = (move >> 8) & 0xFF
        by = self.turn
        leave, screens = self._uncover_flags[by][king]
        # only a line through the square left, or a hopper's through the square reached,
        # can have opened (the piece moved is the King's own)
        if leave[frm] and self._attacked_at(king, by, frm):
            return True
        return bool(screens[to]) and self._attacked_at(king, by, to)

    # -- attacks -----------------------------------------------------------------

    def _attacked_through(self, square: int, by: int, changed: tuple[int, ...]) -> bool:
        """``is_attacked`` restricted to the attack lines that pass through ``changed``."""
        return any(self._attacked_at(square, by, s) for s in changed)

    def _attacked_at(self, square: int, by: int, changed: int) -> bool:
        """``is_attacked`` restricted to the attack lines that pass through the one square
        ``changed``. Most often that is one ray (and nothing else on orthodox boards): it
        is read here, without a scan of a whole attack set (see ``Touching``)."""
        touch = self._touch[by][square]
        try:
            entry = touch[changed]
        except KeyError:
            entry = touch[changed] = _touching(self.t, self._att, by, square, changed)
        if entry is None:
            return False
        ray, bents, rest = entry
        side = self.side_occ[by]
        b = self.board
        if ray is not None and side & ray[0]:
            # _scan's ray step, written out: the first piece on the ray, then the second
            mask, inc, riders, hoppers = ray
            x = self.occ & mask
            if inc:
                low = x & -x
                s = low.bit_length() - 1
            else:
                s = x.bit_length() - 1
                low = 1 << s
            if b[s] in riders:
                return True
            if hoppers:
                x ^= low
                if x:
                    s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                    if b[s] in hoppers:
                        return True
        for mask, inc, first, step, reach, codes, sources_mask in bents:
            # _scan's bent-rider step, written out
            if not side & sources_mask:
                continue
            x = self.occ & mask
            if x:
                s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                x = side & reach[(s - first) // step]
            else:
                x = side & sources_mask
            while x:
                low = x & -x
                if b[low.bit_length() - 1] in codes:
                    return True
                x ^= low
        return rest is not None and self._scan(side, rest)

    def is_attacked(self, square: int, by: int) -> bool:
        """Could a piece of colour ``by`` capture on ``square`` (pins ignored)?"""
        return self._scan(self.side_occ[by], self._att[by][square])

    def _scan(self, side: int, att: AttackSet) -> bool:
        """Does any entry of ``att`` hold an attacker? ``side``: the attacker's occupancy
        (a superset is fine: every candidate square is checked on the board)."""
        b = self.board
        leap_mask, leap_codes, rays, lame_mask, lames, bents = att
        x = side & leap_mask
        while x:
            low = x & -x
            src = low.bit_length() - 1
            if b[src] in leap_codes[src]:
                return True
            x ^= low
        occ = self.occ
        for mask, inc, riders, hoppers in rays:
            if not side & mask:
                continue  # no piece of the attacker's on this ray
            x = occ & mask
            if x:
                # the first piece on the ray: its lowest or highest bit
                if inc:
                    low = x & -x
                    s = low.bit_length() - 1
                else:
                    s = x.bit_length() - 1
                    low = 1 << s
                if b[s] in riders:
                    return True
                if hoppers:
                    # a hopper attacks when exactly this one piece stands between
                    x ^= low
                    if x:
                        s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                        if b[s] in hoppers:
                            return True
        if side & lame_mask:
            for src, mids, codes in lames:
                if b[src] in codes:
                    for m in mids:
                        if b[m]:
                            break
                    else:
                        return True
        for mask, inc, first, step, reach, codes, sources_mask in bents:
            if not side & sources_mask:
                continue
            # The attacker's first step lands on a corner, which must be empty, as must
            # every square of the slide between the corner and ``square``: the corners
            # before the first occupied one are usable.
            x = occ & mask
            if x:
                s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                x = side & reach[(s - first) // step]
            else:
                x = side & sources_mask
            while x:
                low = x & -x
                if b[low.bit_length() - 1] in codes:
                    return True
                x ^= low
        return False

    def _least_attacker(self, square: int, by: int, value: list[int], floor: int = 0) -> int:
        """Square of the cheapest piece of ``by`` attacking ``square`` (-1 if none).

        The first attacker worth ``floor`` or less is taken at once, wherever it is found
        (with ``floor`` the cheapest piece's value, no piece is cheaper; :meth:`see`
        raises it when any piece that cheap settles its question).
        """
        b = self.board
        best = -1
        best_value = 1 << 30
        leap_mask, leap_codes, rays, lame_mask, lames, bents = self._att[by][square]
        side = self.side_occ[by]
        x = side & leap_mask
        while x:
            low = x & -x
            src = low.bit_length() - 1
            code = b[src]
            if code in leap_codes[src] and value[code] < best_value:
                if value[code] <= floor:
                    return src
                best, best_value = src, value[code]
            x ^= low
        occ = self.occ
        for mask, inc, riders, hoppers in rays:
            if not side & mask:
                continue  # no piece of the attacker's on this ray
            x = occ & mask
            if x:
                if inc:
                    low = x & -x
                    s = low.bit_length() - 1
                else:
                    s = x.bit_length() - 1
                    low = 1 << s
                code = b[s]
                if code in riders and value[code] < best_value:
                    if value[code] <= floor:
                        return s
                    best, best_value = s, value[code]
                if hoppers:
                    x ^= low
                    if x:
                        s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                        code = b[s]
                        if code in hoppers and value[code] < best_value:
                            if value[code] <= floor:
                                return s
                            best, best_value = s, value[code]
        if side & lame_mask:
            for src, mids, codes in lames:
                code = b[src]
                if code in codes and value[code] < best_value and not any(b[m] for m in mids):
                    if value[code] <= floor:
                        return src
                    best, best_value = src, value[code]
        for mask, inc, first, step, reach, codes, sources_mask in bents:
            if not side & sources_mask:
                continue
            x = occ & mask
            if x:
                s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                x = side & reach[(s - first) // step]
            else:
                x = side & sources_mask
            while x:
                low = x & -x
                src = low.bit_length() - 1
                code = b[src]
                if code in codes and value[code] < best_value:
                    if value[code] <= floor:
                        return src
                    best, best_value = src, value[code]
                x ^= low
        return best

    def see(self, move: int, value: list[int], sign_only: bool = False) -> int:
        """Static exchange evaluation: material the side to move wins on the move's target
        if both sides then recapture there with their cheapest piece while it pays.

        ``value[code]`` is each piece's worth. Pins are ignored; pieces behind the
        capturers (x-rays, hopper screens) join in as the capturers leave.

        ``sign_only``: the caller only asks whether the result is negative; then -1 is
        returned as soon as that is certain: once the first recapture is found, when
        taking the recapturer back could not make up for the capturer lost (whatever
        follows, the exchange loses), which spares the search for our next attacker.

        Results are remembered by position hash and move (a search meets the same
        node again at each deeper iteration, and through transpositions): the
        exchange depends on nothing else than the pieces on the board and the side
        to move, which the hash covers. The memory is emptied when it grows large
        and whenever another ``value`` list is given. (Two positions sharing a 64-bit
        hash, as rare as in the search's table, would at worst order or prune one
        capture wrongly: legality never rests on this.)
        """
        cache = self._see_cache
        if value is not self._see_values:
            cache.clear()
            self._see_values = value
            self._see_floor = _cheapest(value)
        key = (move << 1 | sign_only) << 64 | self.hash
        hit = cache.get(key)
        if hit is not None:
            return hit
        result = self._see(move, value, sign_only)
        if len(cache) >= SEE_CACHE_LIMIT:
            cache.clear()
        cache[key] = result
        return result

    def _see(self, move: int, value: list[int], sign_only: bool = False) -> int:
        """:meth:`see` computed on the board (not remembered)."""
        b = self.board
        frm = move & 0xFF
        to = (move >> 8) & 0xFF
        occ = self.occ
        promo = (move >> 16) & 0xFF
        piece = b[frm]
        flag = move >> 24
        # captured_code(), written out
        if flag & EN_PASSANT:
            gain = value[b[self.ep_victim]]
        elif flag & CASTLE:
            gain = 0
        else:
            gain = value[b[to]]
        if promo:
            on_square = value[promo]
            gain += on_square - value[piece]
        else:
            on_square = value[piece]
        side = -self.turn
        floor = self._see_floor if value is self._see_values else _cheapest(value)
        # Asked for the sign only, any first recapturer worth less than the capturer's
        # margin over its victim settles it (see below): the first such one found will do.
        first_floor = max(floor, on_square - gain - 1) if sign_only else floor
        b[frm] = 0
        self.occ = occ & ~self._bits[frm]
        src = -1
        try:
            src = self._least_attacker(to, side, value, first_floor)
        finally:
            if src < 0:  # nobody takes back (the common case): the board restored at once
                b[frm] = piece
                self.occ = occ
        if src < 0:
            return gain
        gains = [gain]
        removed = [(frm, piece)]
        try:
            while True:
                gains.append(on_square - gains[-1])
                if max(-gains[-2], gains[-1]) < 0:
                    break  # neither side would go on: the result is settled
                on_square = value[b[src]]
                if sign_only and on_square < gains[1] and len(gains) == 2:
                    return -1  # the board is restored below
                removed.append((src, b[src]))
                b[src] = 0
                self.occ &= ~self._bits[src]
                side = -side
                src = self._least_attacker(to, side, value, floor)
                if src < 0:
                    break
        finally:
            for square, code in removed:
                b[square] = code
            self.occ = occ
        for d in range(len(gains) - 1, 0, -1):
            gains[d - 1] = -max(-gains[d - 1], gains[d])
        return gains[0]

    def _single_check(self, king: int, them: int) -> tuple[set[int], set[int]] | None:
        """For exactly one checking piece: the squares a non-King move must land on to
        answer it (capture or block), and the squares whose piece may answer it by leaving
        (a hopper's screen). ``None`` for a double check. Moves kept are still tried.
        """
        t = self.t
        b = self.board
        found: list[tuple[set[int], set[int]]] = []
        for src, codes in t.att_leap[them][king]:
            if b[src] in codes:
                found.append(({src}, set()))
        for ray, riders, hoppers in t.att_ray[them][king]:
            for i, sq in enumerate(ray):
                x = b[sq]
                if x:
                    if x in riders:
                        found.append((set(ray[: i + 1]), set()))
                    elif hoppers:
                        for j in range(i + 1, len(ray)):
                            y = b[ray[j]]
                            if y:
                                if y in hoppers:
                                    found.append((set(ray[: j + 1]), {sq}))
                                break
                    break
        for src, mids, codes in t.att_lame[them][king]:
            if b[src] in codes and not any(b[m] for m in mids):
                found.append(({src, *mids}, set()))
        for path, codes in t.att_bent[them][king]:
            corners: set[int] = set()
            for corner, sources in path:
                if b[corner]:
                    break
                corners.add(corner)
                for src in sources:
                    if b[src] in codes:
                        found.append(({src, *corners}, set()))
        if len(found) != 1:
            return None
        return found[0]

    def _suspects(self, king: int, us: int) -> tuple[set[int], set[int]]:
        """Own squares whose piece may be pinned, and squares that may become hopper screens.

        Valid only when ``us`` is not in check. A superset is fine (those moves are
        tried on the board); missing one would be a bug.
        """
        t = self.t
        b = self.board
        them = -us
        en = self._en[us]
        suspects: set[int] = set()
        screens: set[int] = set()
        for ray, riders, hoppers in t.att_ray[them][king]:
            found: list[int] = []
            limit = 3 if hoppers else 2
            for s in ray:
                if b[s]:
                    found.append(s)
                    if len(found) == limit:
                        break
            if not found:
                continue
            s1 = found[0]
            x1 = b[s1]
            if en[x1]:
                if x1 in hoppers:
                    screens.update(ray[: ray.index(s1)])
                if hoppers and len(found) == 3 and b[found[2]] in hoppers and not en[b[found[1]]]:
                    suspects.add(found[1])
                continue
            if len(found) > 1 and b[found[1]] in riders:
                suspects.add(s1)
            if hoppers and len(found) == 3 and b[found[2]] in hoppers:
                suspects.add(s1)
                if not en[b[found[1]]]:
                    suspects.add(found[1])
        for src, mids, codes in t.att_lame[them][king]:
            if b[src] in codes:
                for m in mids:
                    if b[m] and not en[b[m]]:
                        suspects.add(m)
        for path, codes in t.att_bent[them][king]:
            # The first own piece on the slide line is pinned only if, once it leaves,
            # an enemy bent rider could step onto a corner from it outwards.
            blocker = -1
            for corner, sources in path:
                x = b[corner]
                if blocker < 0:
                    if not x:
                        continue
                    if en[x]:
                        break
                    blocker = corner
                elif x:
                    break
                for src in sources:
                    if b[src] in codes:
                        suspects.add(blocker)
                        break
                if blocker in suspects:
                    break
        return suspects, screens

    # -- move generation ---------------------------------------------------------

    def _generate(
        self,
        us: int,
        safe: list[int],
        risky: list[int],
        suspects: set[int] | frozenset[int],
        pieces: dict[int, int] | None = None,
        quiet: bool = False,
    ) -> bool:
        """Pseudo-legal moves of ``us``: sure ones into ``safe``, the rest into ``risky``.

        Pieces on ``suspects`` squares and the King always go to ``risky``. ``pieces``
        restricts the generation to those ``{square: code}`` (default: all of ``us``).
        ``quiet``: only the moves onto empty squares (no capture, no en passant; a
        promotion onto an empty square is still made), in the same order as they come
        among all the moves. Returns whether any promotion was made.
        """
        t = self.t
        b = self.board
        occ = self.occ
        if quiet:
            ok = self._empty
            en = self._no_enemy
            gen = self._qgen
        else:
            ok = self._ok[us]
            en = self._en[us]
            gen = self._gen
        own = self.side_occ[us]
        royal = t.royal[us]
        promo_zone = t.promo_zone
        promo_reach = t.promo_reach
        promoted = False
        for frm, code in (self.pieces[us] if pieces is None else pieces).items():
            out = risky if (code == royal or frm in suspects) else safe
            target: list[int] | None = None
            if promo_reach[code][frm]:
                target = []
                append = target.append
                extend = target.extend
            else:
                append = out.append
                extend = out.extend
            for kind, data in gen[code][frm]:
                # the commonest kinds first (a pawn's steps and captures, leaps, rides)
                if kind == _LEAP_MOVE:
                    for to, mv in data:  # type: ignore[attr-defined]
                        if not b[to]:
                            append(mv)
                elif kind == _LAME_MOVE:
                    for mids, to, mv in data:  # type: ignore[attr-defined]
                        if not b[to]:
                            for m in mids:
                                if b[m]:
                                    break
                            else:
                                append(mv)
                elif kind == LEAP_BB:
                    # the moves depend only on which targets hold an own piece (or, for
                    # quiet moves alone, any piece): looked up, the same table serving
                    # both, as a key means "every target but these" either way
                    leap_table: LeapTable = data  # type: ignore[assignment]
                    mask, leaps, seen = leap_table
                    key = (occ if quiet else own) & mask
                    got = seen.get(key)
                    if got is None:
                        got = _leap_moves(key, leaps)
                        if len(seen) >= LEAP_TABLE_LIMIT:
                            seen.clear()
                        seen[key] = got
                    extend(got)
                elif kind == RIDE_BB:
                    for mask, inc, step, moves in data:  # type: ignore[attr-defined]
                        x = occ & mask
                        if not x:
                            extend(moves)
                            continue
                        s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                        k = (s - frm) // step - 1
                        if k:
                            extend(moves[:k])
                        if en[b[s]]:
                            append(moves[k])
                elif kind == _LEAP_TAKE:
                    for to, mv in data:  # type: ignore[attr-defined]
                        if en[b[to]]:
                            append(mv)
                elif kind == EP_CAPTURE:
                    ep = self.ep
                    if ep >= 0 and not quiet:
                        for to, mv in data:  # type: ignore[attr-defined]
                            if to == ep:
                                risky.append(mv)
                elif kind == LEAP:
                    for to, mv in data:  # type: ignore[attr-defined]
                        if ok[b[to]]:
                            append(mv)
                elif kind == HOP_BB:
                    for mask, inc, step, moves in data:  # type: ignore[attr-defined]
                        x = occ & mask
                        if not x:
                            continue
                        if inc:
                            low = x & -x
                            s = low.bit_length() - 1
                        else:
                            s = x.bit_length() - 1
                            low = 1 << s
                        k1 = (s - frm) // step  # the first square beyond the screen
                        x ^= low
                        if not x:
                            extend(moves[k1:])
                            continue
                        s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                        k2 = (s - frm) // step - 1
                        extend(moves[k1:k2])
                        if en[b[s]]:
                            append(moves[k2])
                elif kind == RIDE:
                    for ray in data:  # type: ignore[attr-defined]
                        for to, mv in ray:
                            x = b[to]
                            if not x:
                                append(mv)
                            else:
                                if en[x]:
                                    append(mv)
                                break
                else:
                    self._generate_rare(kind, data, b, ok, en, append)
            if target is not None:
                self._promotions(code, target, promo_zone[code], out)
                promoted = True
        return promoted

    @staticmethod
    def _generate_rare(
        kind: int,
        data: object,
        b: list[int],
        ok: list[bool],
        en: list[bool],
        append: object,
    ) -> None:
        """Riders restricted to moving or capturing, hoppers, lame leaps that capture, bent riders."""
        add = append  # a bound list.append
        if kind in (RIDE + 1, RIDE + 2):
            for ray in data:  # type: ignore[attr-defined]
                for to, mv in ray:
                    x = b[to]
                    if not x:
                        if kind == RIDE + 1:
                            add(mv)  # type: ignore[operator]
                    else:
                        if kind == RIDE + 2 and en[x]:
                            add(mv)  # type: ignore[operator]
                        break
        elif HOP <= kind <= HOP + 2:
            for ray in data:  # type: ignore[attr-defined]
                screen = False
                for to, mv in ray:
                    x = b[to]
                    if not screen:
                        if x:
                            screen = True
                        continue
                    if not x:
                        if kind != HOP + 2:
                            add(mv)  # type: ignore[operator]
                    else:
                        if kind != HOP + 1 and en[x]:
                            add(mv)  # type: ignore[operator]
                        break
        elif kind in (LAME, LAME + 2):
            for mids, to, mv in data:  # type: ignore[attr-defined]
                x = b[to]
                if (ok[x] if kind == LAME else en[x]) and not any(b[m] for m in mids):
                    add(mv)  # type: ignore[operator]
        elif BENT <= kind <= BENT + 2:
            can_move = kind != BENT + 2
            can_take = kind != BENT + 1
            for first, mv, rays in data:  # type: ignore[attr-defined]
                x = b[first]
                if x:
                    if can_take and en[x]:
                        add(mv)  # type: ignore[operator]
                    continue
                if can_move:
                    add(mv)  # type: ignore[operator]
                for ray in rays:
                    for to, mv2 in ray:
                        x = b[to]
                        if not x:
                            if can_move:
                                add(mv2)  # type: ignore[operator]
                        else:
                            if can_take and en[x]:
                                add(mv2)  # type: ignore[operator]
                            break

    def _promotions(
        self, code: int, moves: list[int], zone: frozenset[int], out: list[int]
    ) -> None:
        t = self.t
        choices = t.promo_choices[code]
        optional = t.promo_optional[code]
        for mv in moves:
            if (mv >> 8) & 0xFF in zone:
                if optional:
                    out.append(mv)
                for p in choices:
                    out.append(mv | p << 16)
            else:
                out.append(mv)

    def _specials(self, us: int, out: list[int]) -> None:
        """Castling and the King's jump (only called when ``us`` is not in check)."""
        t = self.t
        b = self.board
        them = -us
        shift = 0 if us > 0 else 2
        if not (self.rights >> shift) & 3:
            return
        king = self.kings[us]
        occ = self.occ
        if self.t.variant.king_jump:
            if not (self.rights >> shift) & 1:
                return
            b[king] = 0
            self.occ = occ ^ (1 << king)
            # the squares jumped over are shared by several targets: test each once
            attacked: dict[int, bool] = {}
            try:
                for to, over in t.jump_targets[king]:
                    if b[to]:
                        continue
                    for s in over:
                        hit = attacked.get(s)
                        if hit is None:
                            hit = attacked[s] = self.is_attacked(s, them)
                        if not hit:
                            break
                    else:
                        continue  # every square on the way is attacked
                    if not self.is_attacked(to, them):
                        out.append(encode(king, to, flags=KING_JUMP))
            finally:
                b[king] = t.royal[us]
                self.occ = occ
            return
        rook_code = t.castle_rook[us]
        for frm, mv in t.castle_from[us]:
            if frm != king:
                continue
            kt = (mv >> 8) & 0xFF
            rf, _rt, empty, passed, bit = t.castle[kt]
            if not self.rights & bit or b[rf] != rook_code:
                continue
            blocked = False
            for s in empty:
                if b[s]:
                    blocked = True
                    break
            if blocked:
                continue
            b[king] = 0
            self.occ = occ ^ (1 << king)
            try:
                if not any(self.is_attacked(s, them) for s in passed):
                    out.append(mv)
            finally:
                b[king] = t.royal[us]
                self.occ = occ

    def _is_safe(self, move: int) -> bool:
        """Try a pseudo-legal move on the board: does it leave the mover's King unattacked?"""
        b = self.board
        us = self.turn
        frm = move & 0xFF
        to = (move >> 8) & 0xFF
        piece = b[frm]
        captured = b[to]
        b[frm] = 0
        b[to] = piece
        occ = self.occ
        bits = self._bits
        self.occ = (occ & ~bits[frm]) | bits[to]
        victim = -1
        victim_code = 0
        if (move >> 24) & EN_PASSANT:
            victim = self.ep_victim
            victim_code = b[victim]
            b[victim] = 0
            self.occ ^= 1 << victim
        king = to if piece == self.t.royal[us] else self.kings[us]
        safe = not self.is_attacked(king, -us)
        self.occ = occ
        b[to] = captured
        b[frm] = piece
        if victim >= 0:
            b[victim] = victim_code
        return safe

    def legal_moves(self) -> list[int]:
        """Every legal move of the side to move (promotions once per choice)."""
        us = self.turn
        king = self.kings[us]
        safe: list[int] = []
        risky: list[int] = []
        if king < 0:
            self._generate(us, safe, risky, set())
            return safe + risky
        if self.is_check():
            single = self._single_check(king, -us)
            if single is None:
                self._generate(us, risky, risky, _NO_SQUARES)
            else:
                resolve, frees = single
                # only the King, a piece that may land on a resolving square, a hopper's
                # screen and an en-passant capturer can answer a single check
                needed = _mask(list(resolve))
                if self.ep >= 0:
                    needed |= 1 << self.ep
                reach = self._reach
                royal = self.t.royal[us]
                answering = {
                    frm: code
                    for frm, code in self.pieces[us].items()
                    if reach[code][frm] & needed or code == royal or frm in frees
                }
                self._generate(us, risky, risky, _NO_SQUARES, answering)
                risky = [
                    mv
                    for mv in risky
                    if (mv >> 8) & 0xFF in resolve
                    or mv & 0xFF == king
                    or mv & 0xFF in frees
                    or (mv >> 24) & EN_PASSANT
                ]
        else:
            suspects, screens = self._suspects(king, us)
            self._generate(us, safe, risky, suspects)
            if screens:
                keep = []
                for mv in safe:
                    if (mv >> 8) & 0xFF in screens:
                        risky.append(mv)
                    else:
                        keep.append(mv)
                safe = keep
            if self.rights:
                self._specials(us, safe)
        is_safe = self._is_safe
        for mv in risky:
            if is_safe(mv):
                safe.append(mv)
        return safe

    def quiet_moves(self) -> list[int]:
        """The legal moves that take nothing and do not promote, in :meth:`legal_moves`'
        order: the search's last stage, whose captures and promotions were tried before
        (generating only these spares making and then dropping the others). When in
        check: :meth:`legal_moves` so filtered.
        """
        us = self.turn
        king = self.kings[us]
        b = self.board
        if king < 0 or self.is_check():
            return [
                mv
                for mv in self.legal_moves()
                if not b[(mv >> 8) & 0xFF] and not (mv >> 16) & _PROMOTION_OR_EP
            ]
        safe: list[int] = []
        risky: list[int] = []
        suspects, screens = self._suspects(king, us)
        promoted = self._generate(us, safe, risky, suspects, None, True)
        if screens:
            keep = []
            for mv in safe:
                if (mv >> 8) & 0xFF in screens:
                    risky.append(mv)
                else:
                    keep.append(mv)
            safe = keep
        if self.rights:
            specials: list[int] = []
            self._specials(us, specials)
            safe.extend(mv for mv in specials if not b[(mv >> 8) & 0xFF])
        is_safe = self._is_safe
        for mv in risky:
            if is_safe(mv):
                safe.append(mv)
        if promoted:
            # a promotion onto an empty square was made with the rest: dropped here
            return [mv for mv in safe if not (mv >> 16) & 0xFF]
        return safe

    def captures(self) -> list[int]:
        """Pseudo-legal captures and promotions of the side to move (for quiescence).

        Not checked for the King's safety: push each, then drop it when
        :meth:`left_king_exposed` says it exposed the mover's King. Castling and the
        King's jump never capture, so they are left out.
        """
        us = self.turn
        b = self.board
        occ = self.occ
        en = self._en[us]
        capgen = self._capgen
        out: list[int] = []
        append = out.append
        promoting: dict[int, int] = {}
        enemy = self.side_occ[-us]
        reachable = enemy | 1 << self.ep if self.ep >= 0 else enemy
        size = self.t.size
        capreach = self._capreach
        for frm, code in self.pieces[us].items():
            if not reachable & capreach[code][frm]:
                continue  # no enemy piece stands anywhere this piece could ever land
            reach, lines, slides, seen, rest, parts = capgen[code][frm]
            if reach < 0:  # a move from here may promote: the full generator handles it
                promoting[frm] = code
                continue
            targets = enemy & lines
            if targets:
                # The leaps', rides' and hops' captures depend only on which squares of
                # their lines hold an enemy and, for rides and hops, which are occupied:
                # looked up, computed on first sight.
                key = targets | (occ & slides) << size if slides else targets
                taken = seen.get(key)
                if taken is None:
                    taken = _piece_captures(frm, occ, enemy, *parts)
                    if len(seen) >= CAPTURE_TABLE_LIMIT:
                        seen.clear()
                    seen[key] = taken
                out += taken
            for kind, data in rest:
                if kind == BENT_BB:
                    for first, first_bit, first_move, slides in data:  # type: ignore[attr-defined]
                        if occ & first_bit:
                            if enemy & first_bit:
                                append(first_move)
                            continue
                        for mask, inc, step, moves in slides:
                            if enemy & mask:
                                x = occ & mask
                                s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                                if en[b[s]]:
                                    append(moves[(s - first) // step - 1])
                elif kind == EP_CAPTURE:
                    ep = self.ep
                    if ep >= 0:
                        for to, mv in data:  # type: ignore[attr-defined]
                            if to == ep:
                                append(mv)
                else:
                    rare: list[int] = []
                    self._generate_rare(kind, data, b, self._ok[us], en, rare.append)
                    out.extend(mv for mv in rare if b[(mv >> 8) & 0xFF])
        if promoting:
            found: list[int] = []
            self._generate(us, found, found, set(), promoting)
            out.extend(
                mv
                for mv in found
                if b[(mv >> 8) & 0xFF] or (mv >> 16) & 0xFF or (mv >> 24) & EN_PASSANT
            )
        return out

    def count_legal(self) -> int:
        """Number of legal moves (perft's last ply)."""
        return len(self.legal_moves())

    def has_legal_move(self) -> bool:
        """Does the side to move have at least one legal move?"""
        return bool(self.legal_moves())

    # -- making and unmaking -----------------------------------------------------

    def push(self, move: int) -> None:
        """Play ``move`` (must be legal: use :meth:`push_checked` for untrusted input)."""
        t = self.t
        b = self.board
        us = self.turn
        frm = move & 0xFF
        to = (move >> 8) & 0xFF
        flag = move >> 24
        piece = b[frm]
        captured = b[to]
        z = t.zobrist
        # the fields read more than once, read once
        ep = self.ep
        old_hash = self.hash
        rights = self.rights
        h = old_hash ^ z[piece][frm] ^ t.z_side
        if ep >= 0:
            h ^= t.z_ep[ep]
        pk = self.psq_table
        occ = self.occ
        psq = self.psq
        side = self.side_occ
        white_occ = side[1]
        black_occ = side[-1]
        self._check = None
        mine = self.pieces[us]
        del mine[frm]
        b[frm] = 0
        reset = t.resets_clock[piece]
        # each square's bit made once per variant (a shift past 30 bits makes a new integer)
        bits = self._bits
        frm_bit = bits[frm]
        to_bit = bits[to]
        side[us] ^= frm_bit | to_bit
        if captured:
            del self.pieces[-us][to]
            h ^= z[captured][to]
            reset = True
            self.occ = occ ^ frm_bit
            side[-us] ^= to_bit
            # (the captured piece's term; ``psq`` itself is kept for the stack)
            moved = psq - pk[captured][to]
        else:
            self.occ = occ ^ (frm_bit | to_bit)
            moved = psq
        promo = (move >> 16) & 0xFF
        placed = promo * us if promo else piece
        b[to] = placed
        mine[to] = placed
        h ^= z[placed][to]
        tracks = self.tracked_codes
        if tracks[piece]:
            del self.tracked[frm]
        if tracks[placed]:
            self.tracked[to] = placed
        elif tracks[captured]:
            del self.tracked[to]
        self.psq = moved - pk[piece][frm] + pk[placed][to]
        new_ep = -1
        if flag:
            if flag & EN_PASSANT:
                victim = self.ep_victim
                captured = b[victim]
                b[victim] = 0
                del self.pieces[-us][victim]
                if tracks[captured]:
                    del self.tracked[victim]
                h ^= z[captured][victim]
                self.occ ^= 1 << victim
                side[-us] ^= 1 << victim
                self.psq -= pk[captured][victim]
                reset = True
            elif flag & CASTLE:
                rf, rt, _e, _p, _bit = t.castle[to]
                rook = b[rf]
                b[rf] = 0
                del mine[rf]
                b[rt] = rook
                mine[rt] = rook
                if tracks[rook]:
                    del self.tracked[rf]
                    self.tracked[rt] = rook
                h ^= z[rook][rf] ^ z[rook][rt]
                self.occ ^= 1 << rf | 1 << rt
                side[us] ^= 1 << rf | 1 << rt
                self.psq += pk[rook][rt] - pk[rook][rf]
            elif flag & DOUBLE and not promo:
                # a double step that promotes leaves no Pawn or Prince to take
                new_ep = (frm + to) // 2
        self._stack.append(
            (
                move,
                piece,
                captured,
                ep,
                self.ep_victim,
                rights,
                self.halfmove,
                old_hash,
                occ,
                psq,
                white_occ,
                black_occ,
            )
        )
        if piece == t.royal[us]:
            self.kings[us] = to
        if rights:
            new_rights = rights & t.rights_keep[frm] & t.rights_keep[to]
            if piece == t.royal[us]:
                new_rights &= ~(3 if us > 0 else 12)
            if new_rights != rights:
                h ^= t.z_rights[rights] ^ t.z_rights[new_rights]
                self.rights = new_rights
        self.turn = -us
        self.ep = -1
        self.ep_victim = -1
        if new_ep >= 0:
            self.ep = new_ep
            self.ep_victim = to
            if self.side_occ[-us] & self._ep_mask[-us][new_ep] and self._ep_possible():
                h ^= t.z_ep[new_ep]
            else:
                self.ep = self.ep_victim = -1
        self.halfmove = 0 if reset else self.halfmove + 1
        if us < 0:
            self.fullmove += 1
        self.hash = h
        self.history.append(h)

    def pop(self) -> int:
        """Unmake the last move (or null move) and return it."""
        (
            move,
            piece,
            captured,
            ep,
            ep_victim,
            rights,
            halfmove,
            h,
            occ,
            psq,
            white_occ,
            black_occ,
        ) = self._stack.pop()
        self.history.pop()
        self.occ = occ
        side = self.side_occ
        side[1] = white_occ
        side[-1] = black_occ
        self.psq = psq
        self._check = None
        us = -self.turn
        self.turn = us
        self.ep = ep
        self.ep_victim = ep_victim
        self.rights = rights
        self.halfmove = halfmove
        self.hash = h
        if not move:  # null move
            return move
        if us < 0:
            self.fullmove -= 1
        t = self.t
        b = self.board
        them = -us
        frm = move & 0xFF
        to = (move >> 8) & 0xFF
        flag = move >> 24
        mine = self.pieces[us]
        del mine[to]
        tracks = self.tracked_codes
        if tracks[b[to]]:
            del self.tracked[to]
        if tracks[piece]:
            self.tracked[frm] = piece
        b[frm] = piece
        mine[frm] = piece
        if flag & EN_PASSANT:
            b[to] = 0
            b[ep_victim] = captured
            self.pieces[them][ep_victim] = captured
            if tracks[captured]:
                self.tracked[ep_victim] = captured
        else:
            b[to] = captured
            if captured:
                self.pieces[them][to] = captured
                if tracks[captured]:
                    self.tracked[to] = captured
            if flag & CASTLE:
                rf, rt, _e, _p, _bit = t.castle[to]
                rook = b[rt]
                if tracks[rook]:
                    del self.tracked[rt]
                    self.tracked[rf] = rook
                b[rt] = 0
                del mine[rt]
                b[rf] = rook
                mine[rf] = rook
        if piece == t.royal[us]:
            self.kings[us] = frm
        return move

    def push_null(self) -> None:
        """Pass the turn (for null-move pruning; never legal in a game). Undo with pop().

        The move-rule clock starts again, so that no position after the pass counts as a
        repetition of one before it (a line with a pass in it is no game that can be
        repeated; pop() restores the clock)."""
        t = self.t
        self._stack.append(
            (
                0,
                0,
                0,
                self.ep,
                self.ep_victim,
                self.rights,
                self.halfmove,
                self.hash,
                self.occ,
                self.psq,
                self.side_occ[1],
                self.side_occ[-1],
            )
        )
        # a legal position's side not to move is never in check
        self._check = False if self._fast else None
        h = self.hash ^ t.z_side
        if self.ep >= 0:
            h ^= t.z_ep[self.ep]
        self.ep = self.ep_victim = -1
        self.turn = -self.turn
        self.halfmove = 0
        self.hash = h
        self.history.append(h)

    @property
    def move_stack(self) -> list[int]:
        """The moves pushed so far (oldest first), null moves as 0."""
        return [entry[0] for entry in self._stack]

    # -- parsing and checking moves ---------------------------------------------

    def parse_uci(self, text: str) -> int:
        """A legal move from coordinates (``e2e4``, ``e11e12q``); IllegalActionError otherwise."""
        from zanzibar.games.chess.notation import parse_coordinate

        return parse_coordinate(self, text)

    def push_checked(self, move: int) -> None:
        """Play ``move`` after checking it is legal (IllegalActionError if not)."""
        if move not in self.legal_moves():
            raise IllegalActionError("that move is not legal here")
        self.push(move)

    # -- end of game -------------------------------------------------------------

    def repetitions(self) -> int:
        """How many times the current position has occurred (1 = first time)."""
        h = self.hash
        hist = self.history
        count = 1
        i = len(hist) - 3
        stop = max(len(hist) - 1 - self.halfmove, 0)
        while i >= stop:
            if hist[i] == h:
                count += 1
            i -= 2
        return count

    def is_repetition(self, count: int = 3) -> bool:
        """Has the current position occurred ``count`` times?"""
        return self.repetitions() >= count

    def outcome(
        self, repetition_count: int | None = None, move_rule: int | None = None
    ) -> Result | None:
        """The result if the game is over, else ``None``.

        Checkmate and stalemate come first; then repetition (``repetition_count``
        occurrences, default from the variant, 0 = off) and the move rule
        (``move_rule`` moves of both sides without capture or resetting move,
        default from the variant, 0 = off).
        """
        v = self.variant
        if not self.legal_moves():
            if self.is_check():
                return Result(-self.turn, "checkmate")
            winner = {"draw": 0, "win": self.turn, "loss": -self.turn}[v.stalemate]
            return Result(winner, "stalemate")
        reps = v.repetition_count if repetition_count is None else repetition_count
        if reps and self.repetitions() >= reps:
            return Result(0, "repetition")
        rule = v.move_rule if move_rule is None else move_rule
        if rule and self.halfmove >= 2 * rule:
            return Result(0, "move_rule")
        return None

    def square_name(self, square: int) -> str:
        """``e4`` for square 28 on an 8-file board."""
        return square_name(self.variant, square)

    def parse_square(self, text: str) -> int:
        """Inverse of :meth:`square_name`."""
        return parse_square(self.variant, text)


# -- fast data: occupancy masks on rays, attack lines by square ---------------------

#: An attack ray as (mask of its squares, ``True`` if its squares increase away from the
#: target, codes attacking as riders, codes attacking as hoppers).
FastRay = tuple[int, bool, frozenset[int], frozenset[int]]
#: A bent rider's attack line (see :func:`_fast_bent`): (mask of the corners, ``True`` if
#: they increase outwards, first corner, step, reach by count of empty corners, codes,
#: mask of every source).
FastBent = tuple[int, bool, int, int, tuple[int, ...], frozenset[int], int]
#: Everything that may attack one target, for one attacking colour:
#: (mask of the leapers' source squares, {source: codes}, rays, mask of the lame
#: leapers' sources, lame entries, bent lines). The masks meet the attacker's
#: occupancy first, so a target that no piece could reach costs two integer ``&``.
AttackSet = tuple[
    int, dict[int, frozenset[int]], tuple[FastRay, ...], int, LameAttacks, tuple[FastBent, ...]
]
#: The attack entries of one target whose lines pass through one square (``None`` if
#: none): (the ray through it when it is the only one, or ``None``; the bent riders' lines
#: when they are all the rest; the other entries, or ``None`` when there are none). A lone
#: ray, the common case (with a bent rider's line on Zanzibar-S), is read without a scan.
Touching = tuple[FastRay | None, tuple[FastBent, ...], AttackSet | None] | None


@dataclass
class _FastData:
    """Per-variant data derived from :class:`Tables` for the bitmask paths."""

    gen: list[list[tuple[tuple[int, object], ...]]]
    #: gen without the entries that only capture (for the quiet moves alone)
    quiet_gen: list[list[tuple[tuple[int, object], ...]]]
    #: att[colour][target]: every way a piece of that colour may attack the target.
    att: list[list[AttackSet]]
    #: touch[colour][target]: {square: Touching}, filled on demand.
    touch: list[list[dict[int, Touching]]]
    zero_table: list[list[int]]
    #: reach[code][square]: mask of every square the piece could ever land on from there.
    reach: list[list[int]]
    #: capgen[code][square]: the capturing part of the move program (see :func:`_capture_program`).
    capgen: list[list[CaptureProgram]]
    #: capreach[code][square]: capgen's first field alone (-1, every square, where a move
    #: may promote), so that most pieces are passed over without unpacking their program.
    capreach: list[list[int]]
    #: lines[colour][target]: mask of every square whose content may decide an attack of
    #: that colour on the target (sources, rays, legs, corners): a move touching none of
    #: them cannot give check there.
    lines: list[list[int]]
    #: ep_mask[colour][square]: mask of the squares from which that colour might take en
    #: passant on the square (a double step with no such piece about asks nothing more).
    ep_mask: list[list[int]]
    #: uncover[colour][target]: (the squares a piece may leave to uncover an attack of that
    #: colour on the target: rays, legs, corners; the squares of rays with a hopper, where
    #: a piece arriving becomes a screen). A plain move leaving none of the first and
    #: landing on none of the second checks only if its piece attacks from where it lands.
    uncover: list[list[tuple[int, int]]]
    #: The masks that the check tests ask about one square at a time, as flags by square
    #: (a bit of a 64- or 144-bit mask costs a shift making a new integer, a flag an
    #: index): line_flags[colour][target] of ``lines``, uncover_flags[colour][target] of
    #: ``uncover``'s pair (tuples), reach_flags[code][square] of ``reach`` (bytes, 0 or 1).
    line_flags: list[list[tuple[int, ...]]]
    uncover_flags: list[list[tuple[tuple[int, ...], tuple[int, ...]]]]
    reach_flags: list[list[bytes]]


_FAST: dict[int, tuple[Tables, _FastData]] = {}
#: Occupancy patterns whose captures are kept per piece and square before that table
#: is emptied (see :meth:`Position.captures`).
CAPTURE_TABLE_LIMIT = 1 << 10
#: Leaps with at least this many targets are generated by look-up (see ``LEAP_BB``), and
#: the own-piece patterns kept per piece and square before that table is emptied.
LEAP_TABLE_MIN = 3
LEAP_TABLE_LIMIT = 1 << 10


#: A looked-up leap's data: (mask of its targets, its (target, move) pairs, {own pieces
#: on the targets: the moves}) filled as patterns are met.
LeapTable = tuple[int, tuple[tuple[int, int], ...], dict[int, tuple[int, ...]]]


def _leap_moves(own: int, data: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """A leap's moves (in the program's order) onto the targets ``own`` leaves free."""
    return tuple(mv for to, mv in data if not own >> to & 1)


def _mask(squares: tuple[int, ...] | list[int]) -> int:
    m = 0
    for s in squares:
        m |= 1 << s
    return m


def _fast_ray(frm: int, ray: tuple[tuple[int, int], ...]) -> tuple[int, bool, int, tuple[int, ...]]:
    """A generation ray as (mask, increasing, step, moves): the moves in ray order."""
    first = ray[0][0]
    return (_mask([s for s, _ in ray]), first > frm, first - frm, tuple(mv for _, mv in ray))


def _fast_program(
    frm: int, program: tuple[tuple[int, object], ...]
) -> tuple[tuple[int, object], ...]:
    out: list[tuple[int, object]] = []
    for kind, data in program:
        if kind == LEAP and len(data) >= LEAP_TABLE_MIN:  # type: ignore[arg-type]
            targets = tuple(to for to, _mv in data)  # type: ignore[attr-defined]
            out.append((LEAP_BB, (_mask(targets), data, {})))
        elif kind == RIDE:
            out.append((RIDE_BB, tuple(_fast_ray(frm, ray) for ray in data)))  # type: ignore[attr-defined]
        elif kind == HOP:
            out.append((HOP_BB, tuple(_fast_ray(frm, ray) for ray in data)))  # type: ignore[attr-defined]
        else:
            out.append((kind, data))
    return tuple(out)


#: The leaps, rides and hops of a capture program: mask of the leaps' targets,
#: {target bit: move}, rider rays, hopper rays.
CaptureParts = tuple[
    int,
    dict[int, int],
    tuple[tuple[int, bool, int, tuple[int, ...]], ...],
    tuple[tuple[int, bool, int, tuple[int, ...]], ...],
]
#: A move program's captures: (mask of every square it may land on, or -1 when a move
#: from there may promote; mask of every square the leaps', rides' and hops' captures
#: depend on; the rides' and hops' squares but their far ends; {occupancy key: their captures} filled
#: as positions are met; every other entry as in the program; the parts).
CaptureProgram = tuple[
    int,
    int,
    int,
    dict[int, tuple[int, ...]],
    tuple[tuple[int, object], ...],
    CaptureParts,
]


def _capture_program(
    frm: int, program: tuple[tuple[int, object], ...], reach: int
) -> CaptureProgram:
    """The capturing part of a (fast) move program: a leaper's captures are then the
    bits of ``enemy & mask``, with no walk over its targets; riders and hoppers that
    only capture join the rays of those that also move; a bent rider's slides become
    rays from its first square (see :func:`_capture_bent`)."""
    leap_mask = 0
    leap_moves: dict[int, int] = {}
    rides: list[tuple[int, bool, int, tuple[int, ...]]] = []
    hops: list[tuple[int, bool, int, tuple[int, ...]]] = []
    rest: list[tuple[int, object]] = []
    for kind, data in program:
        if kind == LEAP_BB:
            kind, data = LEAP, data[1]  # type: ignore[index]
        if kind == LEAP or kind == LEAP + 2:
            for to, mv in data:  # type: ignore[attr-defined]
                leap_mask |= 1 << to
                leap_moves[1 << to] = mv
        elif kind == RIDE_BB:
            rides.extend(data)  # type: ignore[arg-type]
        elif kind == RIDE + 2:
            rides.extend(_fast_ray(frm, ray) for ray in data)  # type: ignore[attr-defined]
        elif kind == HOP_BB:
            hops.extend(data)  # type: ignore[arg-type]
        elif kind == HOP + 2:
            hops.extend(_fast_ray(frm, ray) for ray in data)  # type: ignore[attr-defined]
        elif kind in (LEAP + 1, LAME + 1, RIDE + 1, HOP + 1, BENT + 1):
            continue  # moves that never capture
        elif kind == BENT or kind == BENT + 2:
            rest.append((BENT_BB, _capture_bent(data)))  # type: ignore[arg-type]
        else:
            rest.append((kind, data))
    slides = 0
    keyed = 0
    for mask, inc, _step, _moves in (*rides, *hops):
        slides |= mask
        # The far end of a ray matters only when an enemy stands there, which the
        # targets part of the key says: its occupancy is left out of the key.
        far = 1 << (mask.bit_length() - 1) if inc else mask & -mask
        keyed |= mask ^ far
    parts = (leap_mask, leap_moves, tuple(rides), tuple(hops))
    return reach, leap_mask | slides, keyed, {}, tuple(rest), parts


def _piece_captures(
    frm: int,
    occ: int,
    enemy: int,
    leap_mask: int,
    leap_moves: dict[int, int],
    rides: tuple[tuple[int, bool, int, tuple[int, ...]], ...],
    hops: tuple[tuple[int, bool, int, tuple[int, ...]], ...],
) -> tuple[int, ...]:
    """The captures of one piece's leaps, rides and hops on ``frm`` (see ``captures``)."""
    out: list[int] = []
    x = enemy & leap_mask
    while x:
        low = x & -x
        out.append(leap_moves[low])
        x ^= low
    for mask, inc, step, moves in rides:
        if enemy & mask:
            x = occ & mask
            s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
            if enemy >> s & 1:
                out.append(moves[(s - frm) // step - 1])
    for mask, inc, step, moves in hops:
        x = occ & mask
        if x:
            x ^= (x & -x) if inc else 1 << (x.bit_length() - 1)
            if x:
                s = (x & -x).bit_length() - 1 if inc else x.bit_length() - 1
                if enemy >> s & 1:
                    out.append(moves[(s - frm) // step - 1])
    return tuple(out)


def _capture_bent(
    data: tuple[tuple[int, int, tuple[tuple[tuple[int, int], ...], ...]], ...],
) -> tuple[tuple[int, int, int, tuple[tuple[int, bool, int, tuple[int, ...]], ...]], ...]:
    """A bent rider's program as (first square, its bit, the move there, slide rays as
    fast rays from the first square)."""
    return tuple(
        (first, 1 << first, mv, tuple(_fast_ray(first, ray) for ray in rays))
        for first, mv, rays in data
    )


def _fast_bent(path: tuple[tuple[int, tuple[int, ...]], ...], codes: frozenset[int]) -> FastBent:
    """A bent rider's attack line with masks: the corners (outwards from the target,
    each to be empty) as one ray, and for each count ``j`` of empty corners the mask of
    the squares an attacker may stand on (``reach[j]``)."""
    corners = [corner for corner, _sources in path]
    reach = [0]
    for _corner, sources in path:
        reach.append(reach[-1] | _mask(sources))
    first = corners[0] if corners else 0
    step = corners[1] - corners[0] if len(corners) > 1 else 1
    increasing = len(corners) < 2 or step > 0
    return (_mask(corners), increasing, first, step, tuple(reach), codes, reach[-1])


def _attack_set(
    leaps: LeapAttacks, rays: tuple[FastRay, ...], lames: LameAttacks, bents: BentAttacks
) -> AttackSet:
    """Pack attack entries with the masks that let a scan skip absent attackers."""
    fast_bents = tuple(_fast_bent(path, codes) for path, codes in bents)
    return (
        _mask([src for src, _ in leaps]),
        {src: codes for src, codes in leaps},
        rays,
        _mask([src for src, _mids, _codes in lames]),
        lames,
        fast_bents,
    )


def _fast_data(t: Tables) -> _FastData:
    """The bitmask data of a variant's tables, built once per tables object."""
    hit = _FAST.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    gen = [[_fast_program(frm, program) for frm, program in enumerate(row)] for row in t.gen]
    att: list[list[AttackSet]] = [[], [], []]
    touch: list[list[dict[int, Touching]]] = [[], [], []]
    for colour in (WHITE, BLACK):
        att[colour] = [
            _attack_set(
                t.att_leap[colour][target],
                tuple(
                    (_mask(ray), ray[0] > target, riders, hoppers)
                    for ray, riders, hoppers in t.att_ray[colour][target]
                ),
                t.att_lame[colour][target],
                t.att_bent[colour][target],
            )
            for target in range(t.size)
        ]
        touch[colour] = [{} for _ in range(t.size)]
    zero = [0] * t.size
    reach = [[_mask(list(program_targets(program))) for program in row] for row in t.gen]
    capgen = [
        [
            _capture_program(frm, program, -1 if t.promo_reach[code][frm] else reach[code][frm])
            for frm, program in enumerate(gen[code])
        ]
        for code in range(len(gen))
    ]
    capreach = [[program[0] for program in row] for row in capgen]
    lines: list[list[int]] = [[], [], []]
    for colour in (WHITE, BLACK):
        lines[colour] = [_attack_lines(entry) for entry in att[colour]]
    ep_mask: list[list[int]] = [[], [], []]
    for colour in (WHITE, BLACK):
        ep_mask[colour] = [_mask([src for src, _codes in row]) for row in t.ep_sources[colour]]
    uncover: list[list[tuple[int, int]]] = [[], [], []]
    for colour in (WHITE, BLACK):
        uncover[colour] = [_uncovering(entry) for entry in att[colour]]
    quiet_gen = [
        [tuple(entry for entry in program if entry[0] not in _TAKING_KINDS) for program in row]
        for row in gen
    ]
    line_flags: list[list[tuple[int, ...]]] = [[], [], []]
    uncover_flags: list[list[tuple[tuple[int, ...], tuple[int, ...]]]] = [[], [], []]
    for colour in (WHITE, BLACK):
        line_flags[colour] = [tuple(_flags(m, t.size)) for m in lines[colour]]
        uncover_flags[colour] = [
            (tuple(_flags(leave, t.size)), tuple(_flags(screens, t.size)))
            for leave, screens in uncover[colour]
        ]
    reach_flags = [[_flags(m, t.size) for m in row] for row in reach]
    data = _FastData(
        gen,
        quiet_gen,
        att,
        touch,
        [zero] * (2 * t.ntypes + 1),
        reach,
        capgen,
        capreach,
        lines,
        ep_mask,
        uncover,
        line_flags,
        uncover_flags,
        reach_flags,
    )
    _FAST[id(t)] = (t, data)
    return data


#: '0' and '1' to bytes 0 and 1 (see :func:`_flags`).
_BITS_TO_FLAGS = bytes.maketrans(b"01", b"\x00\x01")


def _flags(mask: int, size: int) -> bytes:
    """The ``size`` low bits of ``mask`` (non-negative) as bytes 0 or 1, square by square."""
    return format(mask, f"0{size}b")[::-1].encode().translate(_BITS_TO_FLAGS)[:size]


def _attack_lines(att: AttackSet) -> int:
    """Every square an attack set depends on (see ``_FastData.lines``)."""
    leap_mask, _codes, rays, lame_mask, lames, bents = att
    mask = leap_mask | lame_mask
    for ray_mask, _inc, _riders, _hoppers in rays:
        mask |= ray_mask
    for _src, mids, _codes2 in lames:
        mask |= _mask(mids)
    for corners, _inc, _first, _step, _reach, _codes3, sources in bents:
        mask |= corners | sources
    return mask


def _uncovering(att: AttackSet) -> tuple[int, int]:
    """See ``_FastData.uncover``: the squares of an attack set a piece may leave to open
    it (not a leap's or a leg's source: leaving one takes an attacker away), and those of
    its rays with a hopper."""
    _leap_mask, _codes, rays, _lame_mask, lames, bents = att
    leave = screens = 0
    for ray_mask, _inc, _riders, hoppers in rays:
        leave |= ray_mask
        if hoppers:
            screens |= ray_mask
    for _src, mids, _codes2 in lames:
        leave |= _mask(mids)
    for corners, _inc, _first, _step, _reach, _codes3, _sources in bents:
        leave |= corners
    return leave, screens


def _touching(t: Tables, att: list[list[AttackSet]], by: int, target: int, square: int) -> Touching:
    """The attack entries on ``target`` by ``by`` whose outcome depends on ``square``."""
    leaps = tuple(e for e in t.att_leap[by][target] if e[0] == square)
    bit = 1 << square
    rays = tuple(e for e in att[by][target][2] if e[0] & bit)
    lames = tuple(e for e in t.att_lame[by][target] if e[0] == square or square in e[1])
    bents = tuple(
        e
        for e in t.att_bent[by][target]
        if any(corner == square or square in sources for corner, sources in e[0])
    )
    if not (leaps or rays or lames or bents):
        return None
    ray = rays[0] if len(rays) == 1 else None
    others = rays if ray is None else ()
    if leaps or lames or others:
        return ray, (), _attack_set(leaps, others, lames, bents)
    return ray, tuple(_fast_bent(path, codes) for path, codes in bents), None


_CHEAPEST: list[tuple[list[int], int]] = []


def _cheapest(value: list[int]) -> int:
    """The smallest positive worth in a value table (cached for the last table seen)."""
    if _CHEAPEST and _CHEAPEST[0][0] is value:
        return _CHEAPEST[0][1]
    floor = min((v for v in value if v > 0), default=0)
    _CHEAPEST[:] = [(value, floor)]
    return floor


def _changed(t: Tables, move: int, ep_victim: int) -> tuple[int, ...]:
    """Squares whose content a move changes (``ep_victim``: the position's before it)."""
    frm = move & 0xFF
    to = (move >> 8) & 0xFF
    flag = move >> 24
    if flag & EN_PASSANT:
        return frm, to, ep_victim
    if flag & CASTLE:
        rf, rt, _e, _p, _bit = t.castle[to]
        return frm, to, rf, rt
    return frm, to
