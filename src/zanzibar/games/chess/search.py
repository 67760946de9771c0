"""Game-tree search for the chess bots: PVS alpha-beta with iterative deepening.

The searcher works on a :class:`~zanzibar.games.chess.position.Position` with
make/unmake, so it serves every variant the engine loads. Its parts, in the
order they pay off in Python where a move generation is the costly step:

* **Iterative deepening** to a time or node budget; the best move of the last
  finished depth is kept (and that of an unfinished one once its first move is
  searched). A node budget makes results independent of the machine's speed.
  An optional soft time limit starts no new depth late in the budget (it
  would not finish): the bots use half their time, so a move often takes
  less than its budget.
* **Transposition table** keyed by the position's 64-bit Zobrist hash: bounds
  and exact scores with their depth, and the best move, which is tried first,
  before the other moves are even generated (a cut-off saves the generation).
  An entry is replaced by a deeper one or an exact score; once the table is
  full, the half stored first (by the earliest searches) is dropped.
* **Move ordering**: table move, captures by MVV-LVA (most valuable victim,
  then least valuable attacker), promotions, two killer moves per ply, captures
  that lose material by static exchange, then quiet moves by the history
  heuristic (with "gravity": quiet moves searched before the one that cut off
  lose what it gains), and the **counter move** (the quiet move that last
  refuted the opponent's previous move) right after the killers. Out of check
  the moves are **staged** (:meth:`Searcher._staged`):
  the captures come from the cheap capture generator and the killers from their
  own piece's moves, both checked for legality only once pushed, and the quiet
  moves are generated only when none of those cut the node off.
* **Principal variation search** (null windows after the first move), a
  **null move** (R = 2, 3 from depth 4, 4 from depth 8; not in check, not in
  pawn-only endings) and **late-move reductions** of quiet moves growing with
  the logarithms of depth and move number (less in PV nodes, for killers and
  the counter move and for moves with a good history; more when the side's
  static score is not improving), re-searched at full depth when they fail high.
* Pruning near the horizon in nodes off the principal variation: **reverse
  futility** (a static score far above beta returns at once), **futility** (quiet,
  non-checking moves are skipped when the static score plus a margin growing
  with depth is below alpha) and **late move pruning** (past a count of quiet
  moves growing with the square of the depth, the rest are skipped), optional
  **SEE pruning** (``SEE_PRUNE_DEPTH``, off: captures losing by static exchange
  skipped near the horizon; measured no gain), and an
  **internal iterative reduction** (a node without a table move is searched a ply
  shallower: its ordering is poor and it was not met before).
* **Check extension** (one ply when the side to move is in check).
* **Quiescence search** on generated captures and promotions (only those: their
  legality is checked once pushed) with stand-pat (lazy: material and placement
  alone stand pat when they beat beta by ``LAZY_MARGIN``) and delta pruning (per move,
  and for the whole node when not even the enemy's best piece would lift the
  score to alpha, which spares a move generation); in check it searches every
  evasion so mates are seen. Pruned moves count at their optimistic value, so
  scores stay sound bounds for the table. Captures by a dearer piece whose
  **static exchange evaluation** loses material are skipped (checked lazily,
  when their turn comes), and quiescence stops 8 plies past the horizon: on a
  12 x 12 board full of hoppers and leapers, capture chains otherwise explode.
  Quiescence reads the table (any bound of the main search, which looked
  deeper, cuts) and stores its own result at depth 0 for a new position.
* **Aspiration windows** from depth 4: the root is searched in a window of
  +-40 centipawns around the last score, widened fourfold on the failing side.
* **Time management** (:func:`clock_limits`): a share of the remaining clock
  plus most of the increment, a hard limit of 2.5 shares (at most a third of
  what is left), and no new depth once half the share is spent, or 0.8 of it
  when the last depth changed its mind (a new best move, or a score down 30
  centipawns): an unsettled position gets more time, a settled one less.
* **Mate scores with distance** (``MATE - plies``) so the shortest mate is
  preferred and the longest defence chosen; table scores are stored relative
  to the node so they stay right at any ply.
* Draws in the tree: a position repeated once since the last irreversible move
  (or the last null move: a line through a pass repeats no game), and the move
  rule, count as 0; stalemate scores as the variant says.

>>> from zanzibar.games.chess.variant import load_variant
>>> pos = Position(load_variant("chess"), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
>>> result = Searcher(pos.variant).search(pos, SearchLimits(max_depth=3))
>>> pos.square_name(result.move & 0xFF) + pos.square_name((result.move >> 8) & 0xFF)
'a1a8'
>>> result.score == MATE - 1
True
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from zanzibar.games.chess.evaluation import Evaluator, evaluator_for
from zanzibar.games.chess.moves import EN_PASSANT
from zanzibar.games.chess.position import Position
from zanzibar.games.chess.variant import Variant

#: Score of a mate on the board (mate in n plies scores ``MATE - n``).
MATE = 100_000
#: Scores beyond this are mates.
MATE_BOUND = MATE - 1_000
INFINITE = MATE + 1
#: Deepest ply the search (with extensions and quiescence) may reach.
MAX_PLY = 96

EXACT, LOWER, UPPER = 0, 1, 2

#: Check the clock every this many nodes (a power of two minus one, as a mask).
_CLOCK_MASK = 63
#: Quiescence: skip captures that cannot lift the score near alpha even if they win the victim.
DELTA_MARGIN = 200
#: Quiescence stands pat on material and placement alone when they beat beta by this much
#: (the evaluation's other terms differ from them by less in 99 % of positions: 96-162
#: centipawns at the 99th percentile on the benchmark's positions).
LAZY_MARGIN = 200
#: Frontier futility: quiet moves are skipped when the static score plus this is below alpha.
FUTILITY_MARGIN = 250
#: Quiescence plies beyond the horizon (captures on a crowded 12x12 board chain far).
QS_MAX_DEPTH = 8
#: Quiescence skips a capture of a defended piece worth this much less than the capturer.
BAD_CAPTURE_MARGIN = 50
#: Half-width of the root's first aspiration window, in centipawns.
ASPIRATION_WINDOW = 40
#: Time management: when the last depth changed the best move or dropped the score by more
#: than UNSTABLE_DROP centipawns, the soft limit stretches by UNSTABLE_FACTOR (within the hard one).
UNSTABLE_DROP = 30
UNSTABLE_FACTOR = 1.6
#: Table entries kept before the older half is dropped (about 150 bytes each).
TT_CAPACITY = 1_000_000
#: Reverse futility: a node this near the horizon whose static score beats beta by
#: this much per ply of depth left is cut without a search.
RFP_MARGIN = 110
RFP_DEPTH = 4
#: Frontier futility margin per ply of depth left (up to FUTILITY_DEPTH plies).
FUTILITY_STEP = 150
FUTILITY_DEPTH = 3
#: Near the horizon (up to SEE_PRUNE_DEPTH plies), captures losing more than this per ply
#: of depth by static exchange are skipped, unless they give check. Off (depth 0): at 3
#: plies it scored 23/48 against the search without it at 3,000 nodes (README).
SEE_PRUNE_MARGIN = 90
SEE_PRUNE_DEPTH = 0
#: Late move pruning: near the horizon, quiet moves after this many per depth squared are skipped.
LMP_BASE = 3
#: Late move reductions: ``LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR`` plies.
LMR_BASE = 0.5
LMR_DIVISOR = 2.25
#: History scores stay within +-HISTORY_MAX (bonuses shrink as they near it: "gravity").
HISTORY_MAX = 16_384


#: Endless runs of False and of 0, zipped with the quiet moves in ``Searcher._staged``.
_FALSES = itertools.repeat(False)
_ZEROS = itertools.repeat(0)


def _lmr_table() -> list[list[int]]:
    """Reductions by depth and move number (both capped at 63)."""
    table = [[0] * 64 for _ in range(64)]
    for depth in range(1, 64):
        for number in range(1, 64):
            table[depth][number] = int(LMR_BASE + math.log(depth) * math.log(number) / LMR_DIVISOR)
    return table


_LMR = _lmr_table()


class SearchAborted(Exception):
    """Raised inside the tree when the time or node budget runs out."""


@dataclass(frozen=True)
class SearchLimits:
    """When to stop: the first of depth, time (seconds) and nodes reached."""

    max_depth: int = MAX_PLY // 2
    time_limit: float | None = None
    node_limit: int | None = None
    #: No new depth starts after this many seconds (the bots use half their time).
    soft_time_limit: float | None = None


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search: ``move`` is 0 only when there is no legal move."""

    move: int
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: tuple[int, ...] = ()

    @property
    def nodes_per_second(self) -> float:
        """Speed of the search."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def is_mate_score(score: int) -> bool:
    """Does the score announce a forced mate (for either side)?"""
    return abs(score) > MATE_BOUND


def mate_in(score: int) -> int:
    """Moves (not plies) to the mate a mate score announces; negative if being mated.

    >>> mate_in(MATE - 3), mate_in(-MATE + 2)
    (2, -1)
    """
    plies = MATE - abs(score)
    moves = (plies + 1) // 2
    return moves if score > 0 else -moves


@dataclass
class _Stats:
    nodes: int = 0
    qnodes: int = 0
    tt_hits: int = 0
    cutoffs: int = 0
    extra: dict[str, int] = field(default_factory=dict)


class Searcher:
    """Searches positions of one variant; keeps its table and history between searches.

    ``use_tt``, ``null_move``, ``reductions`` and ``extensions`` switch those parts off (for
    tests and the benchmark's reference); ``move_rule`` overrides the
    variant's move-count rule (0: off). ``root_order_seed`` shuffles the root
    moves before ordering, so equal moves are chosen differently per seed.
    """

    def __init__(
        self,
        variant: Variant,
        *,
        use_tt: bool = True,
        null_move: bool = True,
        reductions: bool = True,
        root_order_seed: int | None = None,
        move_rule: int | None = None,
        extensions: bool = True,
    ) -> None:
        self.variant = variant
        self.evaluator: Evaluator = evaluator_for(variant)
        #: The most one move can ever gain: the dearest piece plus the best promotion.
        self._max_gain = max(self.evaluator.values.values()) + self.evaluator.max_promotion_gain
        self.use_tt = use_tt
        self.null_move = null_move
        self.reductions = reductions
        self.extensions = extensions
        self.root_order_seed = root_order_seed
        #: hash -> (depth, flag, score, best move, static score or -INFINITE if unknown)
        self.tt: dict[int, tuple[int, int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        self.killers: list[list[int]] = [[0, 0] for _ in range(MAX_PLY + 2)]
        #: The quiet move that last refuted each move (keyed by the move and its side).
        self.counters: dict[int, int] = {}
        #: The move played from each ply of the current line (0: a null move).
        self._played: list[int] = [0] * (MAX_PLY + 2)
        #: The static score at each ply of the current line (-INFINITE: in check).
        self._static: list[int] = [-INFINITE] * (MAX_PLY + 2)
        self.stats = _Stats()
        self._pos: Position = Position(variant)
        self._deadline = 0.0
        self._node_limit = 0
        self._next_check = 1
        #: Set from another thread to end the search at once (UCI ``stop``): the best
        #: move found so far is returned.
        self.stop_requested = False
        #: Called after each finished depth with the result so far (UCI ``info`` lines).
        self.on_depth: Callable[[SearchResult], None] | None = None
        rule = variant.move_rule if move_rule is None else move_rule
        self._move_rule_plies = 2 * rule if rule else 1 << 30
        stalemate = {"draw": 0, "win": MATE, "loss": -MATE}[variant.stalemate]
        self._stalemate = stalemate

    # -- public --------------------------------------------------------------------

    def clear(self) -> None:
        """Forget the table, killers and history (a fresh, reproducible start)."""
        self.tt.clear()
        self.history.clear()
        self.counters.clear()
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]

    def search(self, pos: Position, limits: SearchLimits) -> SearchResult:
        """Best move of the side to move within ``limits`` (the position is left unchanged)."""
        start = time.perf_counter()
        self._pos = pos
        if pos.psq_table is not self.evaluator.packed:
            pos.attach_table(self.evaluator.packed)
        if pos.tracked_codes is not self.evaluator.rider_flags:
            pos.track(self.evaluator.rider_flags)
        self.stats = _Stats()
        self._deadline = start + limits.time_limit if limits.time_limit is not None else 0.0
        self._node_limit = limits.node_limit or 0
        self._next_check = 1
        if len(self.tt) > TT_CAPACITY:
            self._age_table()
        moves = pos.legal_moves()
        if not moves:
            score = -MATE if pos.is_check() else self._stalemate
            return SearchResult(0, score, 0, 0, time.perf_counter() - start)
        if self.root_order_seed is not None:
            random.Random(self.root_order_seed ^ pos.hash).shuffle(moves)
        best_move, best_score, depth_done = moves[0], 0, 0
        depth = 1
        while depth <= limits.max_depth:
            try:
                move, score = self._aspirate(moves, depth, best_score if depth_done else None)
            except SearchAborted as stop:
                partial = stop.args[0] if stop.args else None
                if partial is not None:
                    best_move, best_score = partial
                break
            unstable = depth_done >= 4 and (move != best_move or score < best_score - UNSTABLE_DROP)
            best_move, best_score, depth_done = move, score, depth
            moves.remove(move)
            moves.insert(0, move)
            if self.on_depth is not None:
                self.on_depth(
                    SearchResult(
                        move,
                        score,
                        depth,
                        self.stats.nodes,
                        time.perf_counter() - start,
                        self._principal_variation(pos, move, depth),
                    )
                )
            if is_mate_score(score) and MATE - abs(score) <= depth:
                break  # a mate found at full width cannot get shorter
            if limits.soft_time_limit is not None and (
                time.perf_counter()
                > start + limits.soft_time_limit * (UNSTABLE_FACTOR if unstable else 1.0)
            ):
                break  # the next depth costs several times this one: it would not finish
            depth += 1
        seconds = time.perf_counter() - start
        return SearchResult(
            best_move,
            best_score,
            depth_done,
            self.stats.nodes,
            seconds,
            self._principal_variation(pos, best_move, depth_done),
        )

    def _age_table(self) -> None:
        """Forget the older half of a full table, keep the newer half.

        A dict keeps its keys in the order they were first stored, so the first
        half holds the positions of the earliest searches (of moves long played,
        which seldom recur); the entries of the last searches, around the
        position on the board, stay. Clearing it all would start the next
        search cold.
        """
        tt = self.tt
        for key in list(itertools.islice(tt, len(tt) // 2)):
            del tt[key]

    def moves_within(
        self, pos: Position, depth: int, margin: int, limits: SearchLimits | None = None
    ) -> list[int]:
        """Legal moves scoring at least (best score - ``margin``) at ``depth``.

        One search finds the best move and score, then a null-window test per
        move says whether it reaches the threshold: much cheaper than exact
        scores. ``limits`` (time, nodes) bound the whole: when they run out,
        the moves found so far are returned (the best one at least).
        """
        limits = limits or SearchLimits()
        best = self.search(pos, replace(limits, max_depth=depth))
        if not best.move:
            return []
        threshold = best.score - margin
        near = [best.move]
        for move in pos.legal_moves():
            if move == best.move:
                continue
            pos.push(move)
            self._played[0] = move
            try:
                score = -self._search(depth - 1, -threshold, -threshold + 1, 1, True)
            except SearchAborted:
                break
            finally:
                pos.pop()
            if score >= threshold:
                near.append(move)
        return near

    # -- the tree ------------------------------------------------------------------

    def _tick(self) -> None:
        stats = self.stats
        stats.nodes += 1
        if stats.nodes >= self._next_check:
            self._budget()

    def _budget(self) -> None:
        """Every ``_CLOCK_MASK + 1`` nodes, and at the node limit: stop if the budget is spent."""
        nodes = self.stats.nodes
        if self._node_limit and nodes >= self._node_limit:
            raise SearchAborted()
        if self._deadline and time.perf_counter() >= self._deadline:
            raise SearchAborted()
        if self.stop_requested:
            raise SearchAborted()
        self._next_check = nodes + _CLOCK_MASK + 1
        if self._node_limit:
            self._next_check = min(self._next_check, self._node_limit)

    def _aspirate(self, moves: list[int], depth: int, previous: int | None) -> tuple[int, int]:
        """Search the root in a window around the previous depth's score, then widen it.

        A narrow window cuts more; when the score falls outside it, the window
        widens on that side (four times as far each time) until the score fits.
        """
        if previous is None or depth < 4 or is_mate_score(previous):
            return self._root(moves, depth, -INFINITE, INFINITE)
        low = high = ASPIRATION_WINDOW
        while True:
            alpha = max(previous - low, -INFINITE)
            beta = min(previous + high, INFINITE)
            move, score = self._root(moves, depth, alpha, beta)
            if score <= alpha and alpha > -INFINITE:
                low *= 4
                if low > 4 * ASPIRATION_WINDOW * 16:
                    low = INFINITE
            elif score >= beta and beta < INFINITE:
                high *= 4
                if high > 4 * ASPIRATION_WINDOW * 16:
                    high = INFINITE
            else:
                return move, score

    def _root(self, moves: list[int], depth: int, alpha: int, beta: int) -> tuple[int, int]:
        pos = self._pos
        original_alpha = alpha
        best_move, best_score = moves[0], -INFINITE
        ordered = self._order(pos, moves, self._tt_move(pos.hash), 0)
        self._static[0] = -INFINITE
        for index, move in enumerate(ordered):
            pos.push(move)
            self._played[0] = move
            try:
                if index == 0:
                    score = -self._search(depth - 1, -beta, -alpha, 1, True)
                else:
                    score = -self._search(depth - 1, -alpha - 1, -alpha, 1, True)
                    if score > alpha:
                        score = -self._search(depth - 1, -beta, -alpha, 1, True)
            except SearchAborted:
                pos.pop()
                partial = (best_move, best_score) if index and best_score > original_alpha else None
                raise SearchAborted(partial) from None
            pos.pop()
            if score > best_score:
                best_move, best_score = move, score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        if alpha < beta:
            self._store(pos.hash, depth, EXACT, best_score, best_move, 0)
        return best_move, best_score

    def _tt_move(self, key: int) -> int:
        entry = self.tt.get(key) if self.use_tt else None
        return entry[3] if entry else 0

    def _store(self, key: int, depth: int, flag: int, score: int, move: int, ply: int) -> None:
        if not self.use_tt:
            return
        if score > MATE_BOUND:
            score += ply
        elif score < -MATE_BOUND:
            score -= ply
        old = self.tt.get(key)
        if old is None or depth >= old[0] or flag == EXACT:
            static = self._static[ply]
            if old is not None:
                move = move or old[3]
                if static == -INFINITE:
                    static = old[4]
            self.tt[key] = (depth, flag, score, move, static)

    def _search(self, depth: int, alpha: int, beta: int, ply: int, allow_null: bool) -> int:
        pos = self._pos
        halfmove = pos.halfmove
        # a position cannot recur within 3 plies of an irreversible move (nor of a null move)
        if halfmove >= self._move_rule_plies or (halfmove >= 4 and pos.repetitions() >= 2):
            self._tick()
            return 0
        in_check = pos.is_check()
        if in_check and self.extensions and ply < MAX_PLY // 2:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(alpha, beta, ply, in_check)
        stats = self.stats
        stats.nodes += 1
        if stats.nodes >= self._next_check:
            self._budget()
        # Mate distance: no line from here can beat a mate already found nearer the root.
        if alpha < -MATE + ply:
            alpha = -MATE + ply
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
        key = pos.hash
        tt_move = 0
        known_static = -INFINITE
        if self.use_tt:
            entry = self.tt.get(key)
            if entry is not None:
                e_depth, e_flag, e_score, tt_move, known_static = entry
                if e_depth >= depth:
                    if e_score > MATE_BOUND:
                        e_score -= ply
                    elif e_score < -MATE_BOUND:
                        e_score += ply
                    if (
                        e_flag == EXACT
                        or (e_flag == LOWER and e_score >= beta)
                        or (e_flag == UPPER and e_score <= alpha)
                    ):
                        stats.tt_hits += 1
                        return e_score
        pv_node = beta - alpha > 1
        if in_check:
            static = -INFINITE
            improving = False
        else:
            # the table keeps the static score of the positions it saw: no evaluation again
            static = known_static if known_static != -INFINITE else self.evaluator.evaluate(pos)
            # improving: better than two plies ago (or that side was in check then)
            improving = ply < 2 or static > self._static[ply - 2]
        self._static[ply] = static
        prunable = self.reductions and not pv_node and not in_check and abs(beta) < MATE_BOUND
        if prunable and depth <= RFP_DEPTH and static - RFP_MARGIN * (depth - improving) >= beta:
            return static  # reverse futility: too good to need a search
        if (
            self.null_move
            and allow_null
            and not pv_node
            and not in_check
            and depth >= 3
            and beta < MATE_BOUND
            and static >= beta
            and self._has_officers(pos)
        ):
            pos.push_null()
            self._played[ply] = 0
            try:
                score = -self._search(depth - 3 - depth // 4, -beta, -beta + 1, ply + 1, False)
            finally:
                pos.pop()
            if score >= beta:
                return beta
        if not tt_move and depth >= 4 and self.reductions:
            depth -= 1  # internal iterative reduction: no table move, a poor ordering
        original_alpha = alpha
        best_score = -INFINITE
        best_move = 0
        board = pos.board
        searched = 0
        quiets: list[int] = []
        # The table move first, before generating the others: a cut-off saves the generation.
        if (
            tt_move
            and board[tt_move & 0xFF] * pos.turn > 0
            and board[(tt_move >> 8) & 0xFF] * pos.turn <= 0
        ):
            pos.push(tt_move)
            self._played[ply] = tt_move
            try:
                score = -self._search(depth - 1, -beta, -alpha, ply + 1, True)
            finally:
                pos.pop()
            searched = 1
            best_score, best_move = score, tt_move
            if score > alpha:
                alpha = score
                if score >= beta:
                    self._reward(tt_move, depth, ply, board, quiets)
                    self._store(key, depth, LOWER, score, tt_move, ply)
                    return score
            if not board[(tt_move >> 8) & 0xFF] and not tt_move >> 16:
                quiets.append(tt_move)
        else:
            tt_move = 0
        reduce_ok = self.reductions and depth >= 3 and not in_check
        # Futility near the horizon: when even a good position score cannot lift a quiet
        # move to alpha, only captures, promotions and checks are searched.
        futile = (
            prunable
            and depth <= FUTILITY_DEPTH
            and abs(alpha) < MATE_BOUND
            and static + 100 + FUTILITY_STEP * depth <= alpha
        )
        # Late move pruning: near the horizon, only the first quiet moves are searched.
        late = (LMP_BASE + depth * depth) * (1 + improving) if prunable and depth <= 3 else 1 << 30
        legal_seen = searched
        killers = self.killers[ply]
        counter = self.counters.get(self._played[ply - 1] | (pos.turn < 0) << 31, 0) if ply else 0
        history = self.history
        white = (pos.turn > 0) << 31
        if in_check:
            moves = pos.legal_moves()
            if not moves:
                return -MATE + ply
            staged: Iterable[tuple[int, bool, int]] = zip(
                self._ordered(pos, moves, 0, ply), _FALSES, _ZEROS, strict=False
            )
        else:
            staged = self._staged(pos, tt_move, ply, counter)
        # captures losing more than this by static exchange are skipped near the horizon
        see_floor = (
            -SEE_PRUNE_MARGIN * depth if prunable and depth <= SEE_PRUNE_DEPTH else -INFINITE
        )
        # the squares on the enemy King's lines of attack, read when a quiet move is pruned
        check_lines: int | None = None
        for move, unsure, swing in staged:
            if move == tt_move:
                continue
            quiet = not board[(move >> 8) & 0xFF] and not (move >> 16)
            if quiet and searched and (futile or len(quiets) >= late) and best_score > -MATE_BOUND:
                # Pruned unless it checks: a legal move is asked without a push (most
                # moves of such a node go this way); a pseudo-legal one is pushed first.
                if not unsure:
                    if check_lines is None:
                        check_lines = pos.check_lines()
                    if not (
                        check_lines >> (move & 0xFF) & 1 or check_lines >> (move >> 8) & 1
                    ) or not pos.gives_check(move):
                        legal_seen += 1
                        if alpha > best_score:
                            best_score = alpha  # a sound fail-low bound for the skipped move
                        continue
                    pos.push(move)
                else:
                    pos.push(move)
                    if pos.left_king_exposed():
                        pos.pop()
                        continue  # a pseudo-legal move that leaves the King attacked
                    if not pos.is_check():
                        pos.pop()
                        legal_seen += 1
                        if alpha > best_score:
                            best_score = alpha
                        continue
                legal_seen += 1
            else:
                pos.push(move)
                if unsure and pos.left_king_exposed():
                    pos.pop()
                    continue  # a pseudo-legal move that leaves the King attacked
                legal_seen += 1
                if (
                    swing < see_floor  # a capture losing by static exchange (SEE_PRUNE_DEPTH)
                    and searched
                    and best_score > -MATE_BOUND
                    and not pos.is_check()
                ):
                    pos.pop()
                    if alpha > best_score:
                        best_score = alpha
                    continue
            self._played[ply] = move
            try:
                if searched == 0:
                    score = -self._search(depth - 1, -beta, -alpha, ply + 1, True)
                else:
                    reduction = 0
                    if (
                        reduce_ok
                        and quiet
                        and searched >= 2
                        and move != killers[0]
                        and move != killers[1]
                        and move != counter
                        and not pos.is_check()
                    ):
                        reduction = _LMR[min(depth, 63)][min(searched, 63)]
                        reduction += not improving
                        reduction -= pv_node
                        reduction -= history.get(move | white, 0) > HISTORY_MAX // 4
                        reduction = max(min(reduction, depth - 2), 0)
                    score = -self._search(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, True)
                    if score > alpha and reduction:
                        score = -self._search(depth - 1, -alpha - 1, -alpha, ply + 1, True)
                    if score > alpha and score < beta:
                        score = -self._search(depth - 1, -beta, -alpha, ply + 1, True)
            finally:
                pos.pop()
            searched += 1
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        stats.cutoffs += 1
                        if quiet:
                            self._reward(move, depth, ply, board, quiets)
                        break
            if quiet:
                quiets.append(move)
        if not legal_seen:
            return self._stalemate_score(ply)
        if best_score >= beta:
            flag = LOWER
        elif best_score > original_alpha:
            flag = EXACT
        else:
            flag = UPPER
        self._store(key, depth, flag, best_score, best_move, ply)
        return best_score

    def _stalemate_score(self, ply: int) -> int:
        if self._stalemate > 0:
            return MATE - ply
        if self._stalemate < 0:
            return -MATE + ply
        return 0

    def _has_officers(self, pos: Position) -> bool:
        """Does the side to move own a piece other than its King and pawn-like pieces?"""
        weights = self.evaluator.phase_weight
        return any(weights[code] for code in pos.pieces[pos.turn].values())

    def _reward(self, move: int, depth: int, ply: int, board: list[int], tried: list[int]) -> None:
        """A quiet move caused a cut-off: make it a killer and the counter move, raise its
        history and lower that of the quiet moves ``tried`` before it in vain."""
        if board[(move >> 8) & 0xFF] or move >> 16:
            return
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        turn = board[move & 0xFF] > 0
        if ply:
            previous = self._played[ply - 1]
            if previous:
                self.counters[previous | (not turn) << 31] = move
        bonus = min(depth * depth, 400)
        history = self.history
        white = turn << 31
        key = move | white
        old = history.get(key, 0)
        history[key] = old + bonus - old * bonus // HISTORY_MAX
        for other in tried:
            if other != move:
                key = other | white
                old = history.get(key, 0)
                history[key] = old - bonus - old * bonus // HISTORY_MAX

    def _staged(
        self, pos: Position, tt_move: int, ply: int, counter: int = 0
    ) -> Iterator[tuple[int, bool, int]]:
        """The moves of a node not in check, best first, generated as they are needed.

        Yields ``(move, unsure, swing)``: an unsure move is only pseudo-legal and must be
        dropped if :meth:`Position.left_king_exposed` says so once pushed; ``swing`` is
        the static exchange of a losing capture (negative), 0 for the other moves. The order
        is :meth:`_order`'s: winning and even captures and promotions, killers, the
        ``counter`` move (if quiet and pseudo-legal here), losing captures, quiet moves
        by history; but the quiet moves are generated only when
        no earlier move cut the node off, and the killers are checked against their
        piece's own moves, not a whole generation.
        """
        board = pos.board
        value = self.evaluator.value_by_code
        good: list[tuple[int, bool, int]] = []
        bad: list[tuple[int, int]] = []
        for move in pos.captures():
            victim = board[(move >> 8) & 0xFF]
            if victim:
                attacker = value[board[move & 0xFF]]
                # a capture by a dearer piece gets its exchange checked when its turn comes
                risky = attacker > value[victim] + BAD_CAPTURE_MARGIN and not (move >> 16) & 0xFF
                good.append((10_000_000 + value[victim] * 1_000 - attacker, risky, move))
            else:
                promo = (move >> 16) & 0xFF
                if promo:
                    good.append((9_000_000 + value[promo] * 1_000, False, move))
                else:  # en passant
                    good.append((10_100_000, False, move))
        if good:
            good.sort(reverse=True)
            for _, risky, move in good:
                if risky:
                    swing = pos.see(move, value)
                    if swing < 0:
                        bad.append((swing, move))
                        continue
                yield move, True, 0
        killer0, killer1 = self.killers[ply]
        for killer in (killer0, killer1):
            if killer and killer != tt_move and pos.is_pseudo_legal_quiet(killer):
                yield killer, True, 0
        if (
            counter
            and counter != tt_move
            and counter != killer0
            and counter != killer1
            and pos.is_pseudo_legal_quiet(counter)
        ):
            yield counter, True, 0
        else:
            counter = 0
        if bad:
            bad.sort(reverse=True)
            for swing, move in bad:
                yield move, True, swing
        # the quiet moves alone: no victim, no promotion, not en passant
        quiet = pos.quiet_moves()
        # the killers and the counter move were tried above: taken out by the list's own
        # search, not by three more tests of every move here
        for tried in (killer0, killer1, counter):
            if tried:
                try:  # noqa: SIM105 (a with-block costs more than this, at every node)
                    quiet.remove(tried)
                except ValueError:
                    pass
        # (move, False, 0) tuples made by zip in C, not by a loop here (many are passed over)
        yield from zip(self._order_quiet(quiet, pos.turn), _FALSES, _ZEROS, strict=False)

    def _order_quiet(self, quiet: list[int], turn: int) -> list[int]:
        """Quiet moves by history: those with a positive one first, those with none in the
        generation order, then those with a negative one (stable: ties keep the order)."""
        history = self.history
        if history and len(quiet) > 1:
            # only the few quiet moves with a history are sorted; the rest keep their order
            white = (turn > 0) << 31
            get = history.get
            # each move's history (None if it has none); Black's keys are the moves
            # themselves, looked up by map in C
            found = [get(m | white) for m in quiet] if white else list(map(get, quiet))
            # (minus the history, index): sorted as they are, higher history first, ties in
            # the generation order
            known = [(-h, i) for i, h in enumerate(found) if h is not None]
            if known:
                # good histories first, then the moves with none, then the bad ones
                known.sort()
                lead = [quiet[i] for h, i in known if h < 0]
                tail = [quiet[i] for h, i in known if h >= 0]
                quiet = lead + [m for m, h in zip(quiet, found, strict=True) if h is None] + tail
        return quiet

    def _order(self, pos: Position, moves: list[int], tt_move: int, ply: int) -> list[int]:
        """Table move, winning and even captures (MVV-LVA), promotions, killers, losing
        captures (by static exchange), then quiet moves by history (stable: ties keep
        the generation order)."""
        return list(self._ordered(pos, moves, tt_move, ply))

    def _ordered(self, pos: Position, moves: list[int], tt_move: int, ply: int) -> Iterator[int]:
        """:meth:`_order` as a generator: a capture by a dearer piece has its exchange
        evaluated only when its turn comes (a cut-off before it spares the work); the
        board must be as it was between two moves."""
        board = pos.board
        value = self.evaluator.value_by_code
        killer0, killer1 = self.killers[ply]
        good: list[tuple[int, bool, int]] = []
        killers: list[tuple[int, int]] = []
        quiet: list[int] = []
        for move in moves:
            if move == tt_move:
                good.append((1 << 40, False, move))
                continue
            victim = board[(move >> 8) & 0xFF]
            if victim:
                attacker = value[board[move & 0xFF]]
                risky = attacker > value[victim] + BAD_CAPTURE_MARGIN and not (move >> 16) & 0xFF
                good.append((10_000_000 + value[victim] * 1_000 - attacker, risky, move))
            elif move >> 16:
                promo = (move >> 16) & 0xFF
                if promo:
                    good.append((9_000_000 + value[promo] * 1_000, False, move))
                elif (move >> 24) & EN_PASSANT:
                    good.append((10_100_000, False, move))
                elif move == killer0:
                    killers.append((2, move))
                elif move == killer1:
                    killers.append((1, move))
                else:
                    quiet.append(move)
            elif move == killer0:
                killers.append((2, move))
            elif move == killer1:
                killers.append((1, move))
            else:
                quiet.append(move)
        bad: list[tuple[int, int]] = []
        if good:
            good.sort(reverse=True)
            for _, risky, move in good:
                if risky:
                    swing = pos.see(move, value)
                    if swing < 0:
                        bad.append((swing, move))
                        continue
                yield move
        if killers:
            killers.sort(reverse=True)
            for _, move in killers:
                yield move
        if bad:
            bad.sort(reverse=True)
            for _, move in bad:
                yield move
        yield from self._order_quiet(quiet, pos.turn)

    def _quiesce(
        self, alpha: int, beta: int, ply: int, in_check: bool | None = None, qdepth: int = 0
    ) -> int:
        stats = self.stats
        stats.nodes += 1
        if stats.nodes >= self._next_check:
            self._budget()
        stats.qnodes += 1
        pos = self._pos
        if in_check is None:
            in_check = pos.is_check()
        if in_check and qdepth < QS_MAX_DEPTH:
            return self._quiesce_evasions(alpha, beta, ply, qdepth)
        stand = -INFINITE
        if self.use_tt:
            # any entry of the main search looked deeper than captures alone: use its bound
            entry = self.tt.get(pos.hash)
            if entry is not None:
                e_flag, e_score = entry[1], entry[2]
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if (
                    e_flag == EXACT
                    or (e_flag == LOWER and e_score >= beta)
                    or (e_flag == UPPER and e_score <= alpha)
                ):
                    stats.tt_hits += 1
                    return e_score
                stand = entry[4]  # the static score it kept (-INFINITE if none)
        # past the depth cap a check is not answered: stand pat
        if stand == -INFINITE:
            # lazy: material and placement alone far above beta stand pat without the rest
            stand = self.evaluator.evaluate_lazy(pos, beta + LAZY_MARGIN)
        if stand >= beta or ply >= MAX_PLY or qdepth >= QS_MAX_DEPTH:
            return stand
        if stand + self._max_gain + DELTA_MARGIN < alpha:
            best_target = self._best_target(pos)
            if stand + best_target + DELTA_MARGIN < alpha:
                # Node-level delta pruning: not even taking the enemy's best piece reaches alpha.
                return stand + best_target + DELTA_MARGIN
        original_alpha = alpha
        if stand > alpha:
            alpha = stand
        best = stand
        board = pos.board
        value = self.evaluator.value_by_code
        scored = []
        floor = alpha - stand - DELTA_MARGIN
        for move in pos.captures():
            victim = board[(move >> 8) & 0xFF]
            promo = (move >> 16) & 0xFF
            if victim:
                gain = value[victim]
            elif (move >> 24) & EN_PASSANT:
                gain = value[board[pos.ep_victim]]
            else:
                gain = 0
            attacker = value[board[move & 0xFF]]
            if promo:
                gain += value[promo] - attacker
            if gain < floor:
                # Delta pruning: even winning it cannot reach alpha. Count it at its
                # optimistic value, so the score stays a sound upper bound.
                if stand + gain + DELTA_MARGIN > best:
                    best = stand + gain + DELTA_MARGIN
                continue
            # a capture by a dearer piece gets its exchange checked when its turn comes
            risky = not promo and attacker > gain + BAD_CAPTURE_MARGIN
            scored.append((gain * 1_000 - attacker, risky, move))
        scored.sort(reverse=True)
        for _, risky, move in scored:
            if risky and pos.see(move, value, True) < 0:
                continue  # the exchange on that square loses material
            pos.push(move)
            if pos.left_king_exposed():
                pos.pop()
                continue  # it left the mover's King in check: not a legal move
            try:
                score = -self._quiesce(-beta, -alpha, ply + 1, None, qdepth + 1)
            finally:
                pos.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        if self.use_tt:
            key = pos.hash
            if key not in self.tt:
                # depth 0: the main search takes only the static score from it
                flag = LOWER if best >= beta else UPPER if best <= original_alpha else EXACT
                stored = (
                    best + ply if best > MATE_BOUND else best - ply if best < -MATE_BOUND else best
                )
                self.tt[key] = (0, flag, stored, 0, stand)
        return best

    def _quiesce_evasions(self, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        """In check within quiescence: every evasion is searched, so mates are seen."""
        pos = self._pos
        moves = pos.legal_moves()
        if not moves:
            return -MATE + ply
        best = -INFINITE
        for move in self._ordered(pos, moves, 0, ply):
            pos.push(move)
            try:
                score = -self._quiesce(-beta, -alpha, ply + 1, None, qdepth + 1)
            finally:
                pos.pop()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    def _best_target(self, pos: Position) -> int:
        """The most one move can gain: the enemy's best piece plus, if we may promote, a promotion."""
        value = self.evaluator.value_by_code
        best = 0
        for code in pos.pieces[-pos.turn].values():
            v = value[code]
            if v > best and code != -pos.turn * self.evaluator.royal_code:
                best = v
        return best + self.evaluator.max_promotion_gain

    def _principal_variation(self, pos: Position, first: int, depth: int) -> tuple[int, ...]:
        """The expected line, read back from the table (stops at a gap or a repetition)."""
        if not first:
            return ()
        line = [first]
        pos.push(first)
        seen = {pos.hash}
        try:
            while len(line) < max(depth, 1):
                move = self._tt_move(pos.hash)
                if not move or move not in pos.legal_moves():
                    break
                line.append(move)
                pos.push(move)
                if pos.hash in seen:
                    break
                seen.add(pos.hash)
        finally:
            for _ in line:
                pos.pop()
        return tuple(line)


def clock_limits(
    remaining: float,
    increment: float = 0.0,
    moves_to_go: int | None = None,
    cap: float | None = None,
) -> SearchLimits:
    """A move's budget from the clock: ``remaining`` and ``increment`` in seconds.

    The share of the remaining time is 1/``moves_to_go`` (1/30 when not told),
    plus most of the increment; the hard limit is two and a half times that
    share but never over a third of what is left (a margin for the move's
    transmission is kept). No new depth starts once the share is half spent.
    ``cap`` (seconds) bounds the whole, for bot levels that think less.

    >>> limits = clock_limits(60.0, 1.0)
    >>> round(limits.soft_time_limit, 1), round(limits.time_limit, 1)
    (1.4, 7.0)
    """
    remaining = max(remaining - CLOCK_MARGIN, 0.0)
    share = remaining / max(moves_to_go or 30, 1) + 0.8 * increment
    share = min(share, remaining / 2)
    hard = min(2.5 * share, remaining / 3 + 0.8 * increment, remaining)
    if cap is not None:
        share = min(share, cap)
        hard = min(hard, cap)
    hard = max(hard, 0.01)
    return SearchLimits(time_limit=hard, soft_time_limit=max(share / 2, 0.005))


#: Seconds of the clock kept back for the engine's and the interface's overhead.
CLOCK_MARGIN = 0.05


def fixed_depth_alphabeta(
    pos: Position, depth: int, evaluator: Evaluator | None = None
) -> tuple[int, int]:
    """Plain fail-hard alpha-beta to ``depth``, then the static evaluation.

    No table, no ordering, no quiescence: a reference for tests and the
    benchmark (each node costs one move generation). Returns the score for
    the side to move and the number of nodes visited.
    """
    ev = evaluator or evaluator_for(pos.variant)
    stalemate = {"draw": 0, "win": MATE, "loss": -MATE}[pos.variant.stalemate]
    counter = [0]

    def visit(d: int, alpha: int, beta: int, ply: int) -> int:
        counter[0] += 1
        moves = pos.legal_moves()
        if not moves:
            if pos.is_check():
                return -MATE + ply
            return stalemate - ply if stalemate > 0 else (stalemate + ply if stalemate else 0)
        if d == 0:
            return ev.evaluate(pos)
        for move in moves:
            pos.push(move)
            score = -visit(d - 1, -beta, -alpha, ply + 1)
            pos.pop()
            if score >= beta:
                return beta
            if score > alpha:
                alpha = score
        return alpha

    score = visit(depth, -INFINITE, INFINITE, 0)
    return score, counter[0]
