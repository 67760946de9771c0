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
    Tables,
    tables_for,
)
from zanzibar.games.chess.variant import Variant

WHITE = 1
BLACK = -1


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
        "_en",
        "_ok",
        "_stack",
        "board",
        "ep",
        "ep_victim",
        "fullmove",
        "halfmove",
        "hash",
        "history",
        "kings",
        "pieces",
        "rights",
        "t",
        "turn",
        "variant",
    )

    def __init__(self, variant: Variant, fen: str | None = None) -> None:
        self.variant = variant
        self.t: Tables = tables_for(variant)
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
        self._stack: list[tuple[int, int, int, int, int, int, int, int]] = []
        self.history: list[int] = []
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

    def captured_code(self, move: int) -> int:
        """Code of the piece the move takes (0 if none)."""
        if (move >> 24) & EN_PASSANT:
            return self.board[self.ep_victim]
        if (move >> 24) & CASTLE:
            return 0
        return self.board[(move >> 8) & 0xFF]

    def is_check(self) -> bool:
        """Is the side to move's King attacked?"""
        king = self.kings[self.turn]
        return king >= 0 and self.is_attacked(king, -self.turn)

    # -- attacks -----------------------------------------------------------------

    def is_attacked(self, square: int, by: int) -> bool:
        """Could a piece of colour ``by`` capture on ``square`` (pins ignored)?"""
        t = self.t
        b = self.board
        for src, codes in t.att_leap[by][square]:
            if b[src] in codes:
                return True
        for ray, riders, hoppers in t.att_ray[by][square]:
            for s in ray:
                x = b[s]
                if x:
                    if x in riders:
                        return True
                    if hoppers:
                        # a hopper attacks when exactly this one piece stands between
                        for s2 in ray[ray.index(s) + 1 :]:
                            x = b[s2]
                            if x:
                                if x in hoppers:
                                    return True
                                break
                    break
        for src, mids, codes in t.att_lame[by][square]:
            if b[src] in codes:
                for m in mids:
                    if b[m]:
                        break
                else:
                    return True
        for path, codes in t.att_bent[by][square]:
            # The attacker's first step lands on ``corner``, which must be empty, as must
            # every square of the slide between the corner and ``square``.
            for corner, sources in path:
                if b[corner]:
                    break
                for src in sources:
                    if b[src] in codes:
                        return True
        return False

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

    def _generate(self, us: int, safe: list[int], risky: list[int], suspects: set[int]) -> None:
        """Pseudo-legal moves of ``us``: sure ones into ``safe``, the rest into ``risky``.

        Pieces on ``suspects`` squares and the King always go to ``risky``.
        """
        t = self.t
        b = self.board
        ok = self._ok[us]
        en = self._en[us]
        gen = t.gen
        royal = t.royal[us]
        promo_zone = t.promo_zone
        promo_reach = t.promo_reach
        for frm, code in self.pieces[us].items():
            out = risky if (code == royal or frm in suspects) else safe
            target: list[int] | None = None
            if promo_reach[code][frm]:
                target = []
                append = target.append
            else:
                append = out.append
            for kind, data in gen[code][frm]:
                if kind == LEAP:
                    for to, mv in data:  # type: ignore[attr-defined]
                        if ok[b[to]]:
                            append(mv)
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
                elif kind == LEAP + 1:
                    for to, mv in data:  # type: ignore[attr-defined]
                        if not b[to]:
                            append(mv)
                elif kind == LEAP + 2:
                    for to, mv in data:  # type: ignore[attr-defined]
                        if en[b[to]]:
                            append(mv)
                elif kind == LAME + 1:
                    for mids, to, mv in data:  # type: ignore[attr-defined]
                        if not b[to]:
                            for m in mids:
                                if b[m]:
                                    break
                            else:
                                append(mv)
                elif kind == EP_CAPTURE:
                    ep = self.ep
                    if ep >= 0:
                        for to, mv in data:  # type: ignore[attr-defined]
                            if to == ep:
                                risky.append(mv)
                else:
                    self._generate_rare(kind, data, b, ok, en, append)
            if target is not None:
                self._promotions(code, target, promo_zone[code], out)

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
        if self.t.variant.king_jump:
            if not (self.rights >> shift) & 1:
                return
            b[king] = 0
            try:
                for to, over in t.jump_targets[king]:
                    if b[to]:
                        continue
                    if all(self.is_attacked(s, them) for s in over):
                        continue
                    if not self.is_attacked(to, them):
                        out.append(encode(king, to, flags=KING_JUMP))
            finally:
                b[king] = t.royal[us]
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
            try:
                if not any(self.is_attacked(s, them) for s in passed):
                    out.append(mv)
            finally:
                b[king] = t.royal[us]

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
        victim = -1
        victim_code = 0
        if (move >> 24) & EN_PASSANT:
            victim = self.ep_victim
            victim_code = b[victim]
            b[victim] = 0
        king = to if piece == self.t.royal[us] else self.kings[us]
        safe = not self.is_attacked(king, -us)
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
        if self.is_attacked(king, -us):
            self._generate(us, risky, risky, set())
            single = self._single_check(king, -us)
            if single is not None:
                resolve, frees = single
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
        h = self.hash ^ z[piece][frm] ^ t.z_side
        if self.ep >= 0:
            h ^= t.z_ep[self.ep]
        mine = self.pieces[us]
        del mine[frm]
        b[frm] = 0
        reset = t.resets_clock[piece]
        if captured:
            del self.pieces[-us][to]
            h ^= z[captured][to]
            reset = True
        promo = (move >> 16) & 0xFF
        placed = promo * us if promo else piece
        b[to] = placed
        mine[to] = placed
        h ^= z[placed][to]
        new_ep = -1
        if flag:
            if flag & EN_PASSANT:
                victim = self.ep_victim
                captured = b[victim]
                b[victim] = 0
                del self.pieces[-us][victim]
                h ^= z[captured][victim]
                reset = True
            elif flag & CASTLE:
                rf, rt, _e, _p, _bit = t.castle[to]
                rook = b[rf]
                b[rf] = 0
                del mine[rf]
                b[rt] = rook
                mine[rt] = rook
                h ^= z[rook][rf] ^ z[rook][rt]
            elif flag & DOUBLE and not promo:
                # a double step that promotes leaves no Pawn or Prince to take
                new_ep = (frm + to) // 2
        self._stack.append(
            (move, piece, captured, self.ep, self.ep_victim, self.rights, self.halfmove, self.hash)
        )
        if piece == t.royal[us]:
            self.kings[us] = to
        rights = self.rights
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
            if self._ep_possible():
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
        move, piece, captured, ep, ep_victim, rights, halfmove, h = self._stack.pop()
        self.history.pop()
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
        b[frm] = piece
        mine[frm] = piece
        if flag & EN_PASSANT:
            b[to] = 0
            b[ep_victim] = captured
            self.pieces[them][ep_victim] = captured
        else:
            b[to] = captured
            if captured:
                self.pieces[them][to] = captured
            if flag & CASTLE:
                rf, rt, _e, _p, _bit = t.castle[to]
                rook = b[rt]
                b[rt] = 0
                del mine[rt]
                b[rf] = rook
                mine[rf] = rook
        if piece == t.royal[us]:
            self.kings[us] = frm
        return move

    def push_null(self) -> None:
        """Pass the turn (for null-move pruning; never legal in a game). Undo with pop()."""
        t = self.t
        self._stack.append(
            (0, 0, 0, self.ep, self.ep_victim, self.rights, self.halfmove, self.hash)
        )
        h = self.hash ^ t.z_side
        if self.ep >= 0:
            h ^= t.z_ep[self.ep]
        self.ep = self.ep_victim = -1
        self.turn = -self.turn
        self.halfmove += 1
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
