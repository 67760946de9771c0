"""Exact dynamic programming over one turn, vectorised with NumPy.

Within a turn the points only go up (every scoring roll adds at least one
scoring unit, 50 points), so a turn is an acyclic decision problem: given what
banking is worth at each turn total and what a zilch is worth, the value of
every (turn total, dice to roll) follows by backward induction from the
largest turn total down to 0. This module does that one computation; the
callers decide what "worth" means:

* expected banked score (``bank[t] = t``, zilch worth 0): :func:`expected_turn`;
* probability of winning, for the two-player solver (:mod:`.solver`);
* probability of beating a leader in a last turn.

The batch axis ``K`` lets one call solve many independent turns at once (all
score pairs of a block of the solver), which is where the speed comes from.

Arrays are indexed by turn total in *units* (the greatest common divisor of all
scores, 50 in every preset). At the top turn total ``T`` the player must bank
(turn totals beyond ``T`` are counted as ``T``); callers choose ``T`` far enough
out that banking is the best move there anyway, and tests check it.

Slots: ``C[t, s]`` is the value of standing at turn total ``t`` with the choice
to bank or roll, where slot ``s`` in 1..6 means "s dice left to roll" and slot 0
means "hot dice" (all dice scored: six dice to roll again, banking allowed only
if hot dice are not compulsory).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import gcd

import numpy as np
import numpy.typing as npt

from zanzibar.games.zilch.scoring import ScoringTable, roll_outcomes

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Batches at least this large take the bucketed path of :func:`solve_turn`.
_BUCKET_BATCH = 64

#: Value standing for "not allowed" (banking below a threshold).
FORBIDDEN = -1.0e18


@dataclass(frozen=True, eq=False)
class RollGroups:
    """The outcomes of a roll of ``n`` dice, grouped by what they let the player do.

    Two outcomes that offer the same best score for every number of dice kept
    are interchangeable for any player who prefers more points to fewer with
    the same dice left, so they are merged and their probabilities added.
    Row ``r`` is one option (gain ``gains[r]`` units, then ``slots[r]``); the
    rows of group ``g`` are ``starts[g]`` to ``starts[g + 1] - 1``.
    """

    n: int
    zilch: float
    probs: FloatArray
    gains: IntArray
    slots: IntArray
    starts: IntArray

    @property
    def rows(self) -> int:
        """Number of option rows."""
        return len(self.gains)

    @cached_property
    def buckets(self) -> tuple[tuple[int, IntArray, IntArray, FloatArray], ...]:
        """The groups sorted by their number of options: ``(size, gains, slots, probs)``.

        With every group of a bucket the same size, the best option of each is
        a plain ``max`` over a reshaped axis, about twice as fast on large
        batches as ``maximum.reduceat`` over ragged groups.
        """
        ends = np.append(self.starts, self.rows)
        by_size: dict[int, list[int]] = {}
        for g, (lo, hi) in enumerate(itertools.pairwise(ends)):
            by_size.setdefault(int(hi - lo), []).append(g)
        out = []
        for size, members in sorted(by_size.items()):
            rows = np.concatenate(
                [np.arange(self.starts[g], self.starts[g] + size) for g in members]
            )
            out.append((size, self.gains[rows], self.slots[rows], self.probs[members]))
        return tuple(out)


@dataclass(frozen=True, eq=False)
class TurnModel:
    """Everything the turn DP needs to know about the rules."""

    unit: int
    groups: tuple[RollGroups, ...]  # index n - 1 for n dice
    hot_dice_compulsory: bool

    def zilch_probability(self, n: int) -> float:
        """Probability that a roll of ``n`` dice scores nothing."""
        return self.groups[n - 1].zilch

    @cached_property
    def padded(self) -> PaddedGroups:
        """The groups laid out for :func:`turn_start` (built on first use)."""
        return _padded(self)

    @cached_property
    def stacked(self) -> tuple[IntArray, IntArray, IntArray, FloatArray, IntArray, FloatArray]:
        """All six roll sizes in one set of arrays, for few numpy calls on small batches.

        ``(gains, slots, starts, probs, size_starts, zilch)``: the option rows of
        every group of 1..6 dice one after the other, where each group starts,
        each group's probability, where each roll size's groups start, and the
        zilch probability of each roll size.
        """
        offsets = np.cumsum([0] + [g.rows for g in self.groups])[:-1]
        group_counts = np.cumsum([0] + [len(g.probs) for g in self.groups])[:-1]
        return (
            np.concatenate([g.gains for g in self.groups]),
            np.concatenate([g.slots for g in self.groups]),
            np.concatenate([g.starts + o for g, o in zip(self.groups, offsets, strict=True)]),
            np.concatenate([g.probs for g in self.groups]),
            np.asarray(group_counts, dtype=np.int64),
            np.array([g.zilch for g in self.groups]),
        )


@dataclass(frozen=True, eq=False)
class PaddedGroups:
    """Every group of every roll size, laid out for :func:`turn_start` (few numpy calls a step).

    The groups are sorted into classes by their number of options, each class
    padded to its largest size by repeating a group's first option (which
    leaves the group's best option unchanged). For each class, ``index`` holds
    its option rows, option-major (all groups' first options, then all second
    options ...), as positions in a *window*: the ``gain_max x 7`` values
    ``C[t + 1 .. t + gain_max, slot]`` flattened, the option ``(gain, slot)``
    at ``(gain - 1) * 7 + slot``; the same positions serve at every turn
    total ``t``. ``weights[n - 1, g]`` is the probability of group ``g`` in a
    roll of ``n`` dice (0 for the groups of other roll sizes).
    """

    gain_max: int
    classes: tuple[tuple[int, int, int, IntArray], ...]  # (first group, groups, size, index)
    weights: FloatArray
    zilch: FloatArray


def _padded(model: TurnModel) -> PaddedGroups:
    """Build :class:`PaddedGroups` from a model's groups."""
    gain_max = max(int(g.gains.max()) for g in model.groups if g.rows)
    members: list[tuple[int, float, list[int]]] = []  # (roll size n, probability, positions)
    # The roll size is the group's place in the model (a test model may reuse one group).
    for n, g in enumerate(model.groups, start=1):
        ends = np.append(g.starts, g.rows)
        for k, (lo, hi) in enumerate(itertools.pairwise(ends)):
            positions = [(int(g.gains[r]) - 1) * 7 + int(g.slots[r]) for r in range(lo, hi)]
            members.append((n, float(g.probs[k]), positions))
    # Classes of sizes: a class starting at size s takes sizes up to 4s/3, so
    # padding adds at most a third more rows (single options stay alone: no max).
    bounds: list[int] = []
    smallest = 0
    for size in sorted({len(m[2]) for m in members}):
        if bounds and smallest > 1 and 3 * size <= 4 * smallest:
            bounds[-1] = size
        else:
            bounds.append(size)
            smallest = size
    classes = []
    columns: list[tuple[int, float]] = []
    previous = 0
    for bound in bounds:
        chosen = [m for m in members if previous < len(m[2]) <= bound]
        previous = bound
        # Option-major (size x groups): the max then runs over the outer axis,
        # element-wise over contiguous rows, which numpy does fastest.
        index = np.array(
            [pos + [pos[0]] * (bound - len(pos)) for _, _, pos in chosen], dtype=np.int64
        ).T.reshape(-1)
        classes.append((len(columns), len(chosen), bound, index))
        columns.extend((n, p) for n, p, _ in chosen)
    weights = np.zeros((6, len(columns)))
    for column, (n, p) in enumerate(columns):
        weights[n - 1, column] = p
    zilch = np.array([g.zilch for g in model.groups])
    return PaddedGroups(gain_max, tuple(classes), weights, zilch)


def scoring_unit(table: ScoringTable, *others: int) -> int:
    """The greatest common divisor of every score (and of ``others``, e.g. thresholds)."""
    values = [table.one, table.five, table.three_ones, 200, 300, 400, 500, 600]
    values += [table.straight, table.three_pairs, table.four_and_pair, table.two_triplets]
    values += [table.nothing, *others]
    unit = 0
    for value in values:
        unit = gcd(unit, value)
    return unit or 1


@lru_cache(maxsize=32)
def build_model(
    table: ScoringTable, unit: int, hot_dice_compulsory: bool, every_option: bool = False
) -> TurnModel:
    """Group the rolls of 1..6 dice for the DP.

    By default an outcome offers, for each number of dice kept, only its best
    score. ``every_option=True`` keeps every distinct (score, dice kept) pair:
    exact even for a player who might prefer fewer points (tests use it to
    check that the default loses nothing).
    """
    groups = []
    for n in range(1, 7):
        merged: dict[tuple[tuple[int, int], ...], int] = {}
        zilch_ways = 0
        for counts, ways in roll_outcomes(n):
            if every_option:
                best = tuple(sorted({(sum(sub), value) for sub, value in table.options(counts)}))
            else:
                best = table.best_by_kept(counts)
            if not best:
                zilch_ways += ways
                continue
            merged[best] = merged.get(best, 0) + ways
        probs: list[float] = []
        gains: list[int] = []
        slots: list[int] = []
        starts: list[int] = []
        for best, ways in sorted(merged.items()):
            starts.append(len(gains))
            probs.append(ways / 6**n)
            for kept, value in best:
                if value % unit:
                    raise ValueError(f"score {value} is not a multiple of the unit {unit}")
                gains.append(value // unit)
                slots.append(n - kept)
        groups.append(
            RollGroups(
                n=n,
                zilch=zilch_ways / 6**n,
                probs=np.array(probs, dtype=np.float64),
                gains=np.array(gains, dtype=np.int64),
                slots=np.array(slots, dtype=np.int64),
                starts=np.array(starts, dtype=np.int64),
            )
        )
    return TurnModel(unit, tuple(groups), hot_dice_compulsory)


@dataclass
class TurnSolution:
    """Values of one batch of turns: ``C[t, slot, k]`` and ``R[t, n - 1, k]``.

    ``R[t, n - 1]`` is the value of rolling ``n`` dice with turn total ``t``
    (before the roll); ``C`` as described in the module docstring.
    """

    C: FloatArray
    R: FloatArray

    @property
    def start(self) -> FloatArray:
        """Value of a turn's first roll (six dice, turn total 0), per batch item."""
        return self.R[0, 5]


def solve_turn(model: TurnModel, bank: FloatArray, zilch: FloatArray) -> TurnSolution:
    """Backward induction over one turn.

    ``bank[t, k]``: value of banking at turn total ``t`` (``FORBIDDEN`` where not
    allowed; it must be allowed at the top ``t = T``). ``zilch[k]``: value of
    losing the turn's points. Returns the values of every decision point.
    """
    top = bank.shape[0] - 1
    batch = bank.shape[1]
    C = np.empty((top + 1, 7, batch))
    R = np.full((top + 1, 6, batch), np.nan)
    C[top, :, :] = bank[top]
    flat = C.reshape((top + 1) * 7, batch)
    hot_compulsory = model.hot_dice_compulsory
    bucketed = batch >= _BUCKET_BATCH
    gains, slots, starts, probs, size_starts, zilch_by_size = model.stacked
    zilch_terms = zilch_by_size[:, None] * zilch[None, :]
    for t in range(top - 1, -1, -1):
        if bucketed:
            for n in range(1, 7):
                g = model.groups[n - 1]
                total = zilch_terms[n - 1]
                for size, bucket_gains, bucket_slots, bucket_probs in g.buckets:
                    options = flat[np.minimum(t + bucket_gains, top) * 7 + bucket_slots]
                    if size > 1:
                        options = options.reshape(-1, size, batch).max(axis=1)
                    total = total + bucket_probs @ options
                R[t, n - 1] = total
        else:
            best = np.maximum.reduceat(flat[np.minimum(t + gains, top) * 7 + slots], starts, axis=0)
            best *= probs[:, None]
            R[t] = np.add.reduceat(best, size_starts, axis=0) + zilch_terms
        np.maximum(R[t], bank[t], out=C[t, 1:])
        C[t, 0] = R[t, 5] if hot_compulsory else C[t, 6]
    return TurnSolution(C, R)


def turn_start(model: TurnModel, bank: FloatArray, zilch: FloatArray) -> FloatArray:
    """``solve_turn(model, bank, zilch).start``, in about a fifth of the numpy calls.

    The two-player solver evaluates thousands of batched turns and needs only
    their start values; there the cost of :func:`solve_turn` is mostly the
    overhead of its many small numpy calls per turn total. This does the same
    backward induction (same options, same maxima, same probabilities) with the
    layout of :class:`PaddedGroups`: per turn total, one gather and one ``max``
    per class of group sizes into a buffer, then one matrix product for all six
    roll sizes. Turn totals beyond the top are rows holding the top's value, as
    :func:`solve_turn` counts them as the top. The sums run in another order, so
    the results agree with :func:`solve_turn` to rounding (about 1e-16; the
    tests compare them), not bit for bit.
    """
    top = bank.shape[0] - 1
    batch = bank.shape[1]
    layout = model.padded
    gain_max = layout.gain_max
    # C[t, slot, k] for t = 0 .. top + gain_max (rows past the top repeat it).
    C = np.empty((top + 1 + gain_max, 7, batch))
    C[top:] = bank[top]
    flat = C.reshape(-1, batch)
    width = gain_max * 7
    best = np.empty((layout.weights.shape[1], batch))
    zilch_terms = layout.zilch[:, None] * zilch[None, :]
    R = np.empty((6, batch))
    hot_compulsory = model.hot_dice_compulsory
    weights = layout.weights
    for t in range(top - 1, -1, -1):
        window = flat[(t + 1) * 7 : (t + 1) * 7 + width]
        for first, groups, size, index in layout.classes:
            # Fancy indexing: several times faster here than ``np.take(..., out=)``.
            if size == 1:
                best[first : first + groups] = window[index]
            else:
                window[index].reshape(size, groups, batch).max(
                    axis=0, out=best[first : first + groups]
                )
        np.matmul(weights, best, out=R)
        R += zilch_terms
        np.maximum(R, bank[t], out=C[t, 1:])
        C[t, 0] = R[5] if hot_compulsory else C[t, 6]
    return R[5].copy()


def expected_turn(model: TurnModel, threshold: int, top_units: int = 800) -> TurnSolution:
    """Max-expected-banked-score values of one turn (batch of one).

    ``threshold`` is the smallest turn total (points) that may be banked.
    """
    t = np.arange(top_units + 1, dtype=np.float64) * model.unit
    bank = np.where(t >= threshold, t, FORBIDDEN)[:, None]
    bank[-1] = t[-1]
    return solve_turn(model, bank, np.zeros(1))


def beat_turn(
    model: TurnModel, needed: int, threshold: int, tie_value: float, top_units: int
) -> TurnSolution:
    """Values of a last turn that wins by banking more than ``needed`` points.

    Banking exactly ``needed`` (if allowed) is worth ``tie_value``; a zilch is a
    loss, or a tie when ``needed`` is 0.
    """
    t = np.arange(top_units + 1) * model.unit
    bank = np.full(top_units + 1, FORBIDDEN)
    allowed = t >= threshold
    bank[allowed & (t > needed)] = 1.0
    bank[allowed & (t == needed)] = tie_value
    bank[-1] = max(bank[-1], 0.0)
    zilch = np.array([tie_value if needed == 0 else 0.0])
    return solve_turn(model, bank[:, None], zilch)
