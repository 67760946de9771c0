"""The two-player solver: the policy that maximises the probability of winning.

State of the game between turns: ``(a, b)``, the scores (in units of 50) of the
player about to roll and of the other player, both below the target. "Has this
player entered?" (made the first bank of at least the entry threshold) is part
of the state too, but when the entry threshold is positive and no penalty
exists it is simply ``score > 0``: every bank adds at least the threshold, and
nothing takes points away. The solver therefore refuses presets with the
three-zilch penalty (their state would also need the zilch streaks).

``W[a, b]`` is the probability that the player about to start a turn at ``(a, b)``
wins under optimal play of both. Within the turn, :mod:`.turn_dp` gives the
value of every (turn total, dice left) from two ingredients: what banking is
worth (``1 - W[b, a + t]``, or the final-round value once ``a + t`` reaches the
target) and what a zilch is worth (``1 - W[b, a]``).

Why it is fast: a bank adds at least ``w`` units (7 for seed 004: 350 points),
so a pair with score sum ``s`` depends only on pairs with sum ``>= s + w`` and
on its mirror ``(b, a)`` (through the zilch). Solving blocks of ``w`` sums at a
time from the top down leaves, inside a block, only the little two-state loop
``W[a, b] <-> W[b, a]``, which a secant (Newton) step per pair closes in a few
evaluations. Each evaluation is one vectorised turn DP over the whole block.
The iteration count reported is the number of those block evaluations;
convergence is declared when ``max |F(W) - W| < tolerance`` on every block.

End of game (``end="last_turn"``, seed 004): banking to the target or beyond
gives the other player one last turn, which they win by passing that score;
an equal score starts a tie-break in which the two players each take another
turn (the first to have reached the target goes first), repeated while tied.
``end="immediate"``: reaching the target wins at once (Busche & Neller's
Farkle). A turn total of ``target + CAP_POINTS`` is banked (the DP stops there).

Cache file (``.npz``, written by :meth:`Solution.save`): arrays ``W``
(``target x target`` float64), ``last_turn`` (``(M + 1) x 2``: probability that
the player with the last turn wins when needing to pass a margin of ``m``
units, not entered / entered), ``meta`` (a JSON string: the solver rules,
format version, tie-break value, iterations, residual, seconds).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from zanzibar.cache import cache_dir
from zanzibar.engine.errors import CorruptDataError, OptionError
from zanzibar.games.zilch.scoring import ScoringTable
from zanzibar.games.zilch.turn_dp import (
    FORBIDDEN,
    FloatArray,
    IntArray,
    TurnModel,
    build_model,
    scoring_unit,
    solve_turn,
    turn_start,
)

FORMAT_VERSION = 1
DEFAULT_TOLERANCE = 1e-10
#: Turn totals reaching ``target + CAP_POINTS`` are banked (see the tests: banking is
#: already far better there, as the other player passes such a margin rarely).
CAP_POINTS = 3000


@dataclass(frozen=True)
class SolverRules:
    """The rules as the solver sees them, in units."""

    table: ScoringTable
    unit: int
    target: int
    entry: int
    minimum: int
    end: str  # "last_turn" or "immediate"
    hot_dice_compulsory: bool
    cap: int

    @classmethod
    def from_options(cls, options: Mapping[str, Any], cap_points: int = CAP_POINTS) -> SolverRules:
        """Build from a game's resolved options; OptionError if the solver cannot handle them."""
        from zanzibar.games.zilch.options import scoring_table

        if options["zilch_penalty"]:
            raise OptionError(
                "the two-player solver does not handle the three-zilch penalty "
                "(its state would need each player's zilch streak)",
                option="zilch_penalty",
            )
        table = scoring_table(options)
        target, entry, minimum = options["target"], options["entry"], options["minimum"]
        unit = scoring_unit(table, target, entry, minimum, cap_points)
        return cls(
            table=table,
            unit=unit,
            target=target // unit,
            entry=entry // unit,
            minimum=minimum // unit,
            end=options["end"],
            hot_dice_compulsory=options["hot_dice_compulsory"],
            cap=cap_points // unit,
        )

    @property
    def top(self) -> int:
        """Largest turn total (units) of the main-game turn DP."""
        return self.target + self.cap

    @property
    def max_margin(self) -> int:
        """Largest margin (units) a last-turn player may have to pass."""
        return self.target + self.top

    @property
    def block(self) -> int:
        """Smallest number of units a bank adds."""
        return min(self.threshold(False), self.threshold(True))

    def threshold(self, entered: bool) -> int:
        """Smallest turn total (units) a player may bank."""
        return max(1, self.minimum if entered else self.entry)

    def model(self) -> TurnModel:
        """The turn DP's view of the dice, with every (score, dice kept) option.

        Every option, not only the best score per number of dice kept: near the
        target a player may do better with *fewer* points (at 1150 of 1500 every
        bank hands the other player a last turn, at 1100 it need not), so the
        usual pruning would be wrong here (tests measure a 0.1 % difference).
        """
        return build_model(self.table, self.unit, self.hot_dice_compulsory, every_option=True)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON form (also the cache key)."""
        out = asdict(self)
        out["table"] = asdict(self.table)
        return out

    @cached_property
    def digest(self) -> str:
        """A short digest of these rules (computed once)."""
        return self.key()

    def key(self) -> str:
        """A short digest naming the cache file."""
        text = json.dumps({"v": FORMAT_VERSION, **self.to_json()}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class Solution:
    """A solved two-player game."""

    rules: SolverRules
    W: FloatArray
    last_turn: FloatArray
    tie_break_first: float
    iterations: int
    residual: float
    seconds: float
    sweeps: float = 0.0

    @property
    def first_player_win(self) -> float:
        """Probability that the first player wins under optimal play of both."""
        return float(self.W[0, 0])

    def save(self, path: Path) -> None:
        """Write the cache file (format in the module docstring)."""
        meta = {
            "format": FORMAT_VERSION,
            "rules": self.rules.to_json(),
            "tie_break_first": self.tie_break_first,
            "iterations": self.iterations,
            "residual": self.residual,
            "seconds": self.seconds,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
        np.savez_compressed(
            tmp, W=self.W, last_turn=self.last_turn, meta=np.array(json.dumps(meta))
        )
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path, rules: SolverRules) -> Solution:
        """Read a cache file; CorruptDataError if it is unreadable or for other rules."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                W = np.array(data["W"], dtype=np.float64)
                last_turn = np.array(data["last_turn"], dtype=np.float64)
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
            raise CorruptDataError(f"cannot read solver cache {path}: {exc}") from None
        if meta.get("format") != FORMAT_VERSION or meta.get("rules") != rules.to_json():
            raise CorruptDataError(f"solver cache {path} is for other rules")
        if W.shape != (rules.target, rules.target) or last_turn.shape != (rules.max_margin + 1, 2):
            raise CorruptDataError(f"solver cache {path} has arrays of the wrong shape")
        if not (np.all(np.isfinite(W)) and np.all((W >= 0) & (W <= 1))):
            raise CorruptDataError(f"solver cache {path} holds values outside [0, 1]")
        return cls(
            rules,
            W,
            last_turn,
            float(meta["tie_break_first"]),
            int(meta["iterations"]),
            float(meta["residual"]),
            float(meta["seconds"]),
        )


# -- the end of the game -------------------------------------------------------------


def beat_values(
    rules: SolverRules, model: TurnModel, threshold: int, tie_value: float
) -> FloatArray:
    """P(win) of a last turn needing to pass each margin ``m`` = 0..max_margin (units).

    Banking more than ``m`` wins, exactly ``m`` ties (worth ``tie_value``), a
    zilch loses (or ties, when ``m`` is 0).
    """
    margins = np.arange(rules.max_margin + 1)
    top = rules.max_margin + 1
    t = np.arange(top + 1)[:, None]
    allowed = t >= threshold
    bank = np.full((top + 1, len(margins)), FORBIDDEN)
    bank[allowed & (t > margins[None, :])] = 1.0
    bank[allowed & (t == margins[None, :])] = tie_value
    zilch = np.where(margins == 0, tie_value, 0.0)
    return turn_start(model, bank, zilch)


def _tie_break(rules: SolverRules, model: TurnModel, tolerance: float) -> float:
    """P(win) of the player who plays first in a two-player tie-break (both entered)."""
    threshold = rules.threshold(True)
    top = rules.max_margin + 1

    def first_player(value: float) -> float:
        second = beat_values(rules, model, threshold, 1.0 - value)
        t = np.arange(top + 1)
        bank = np.where(t >= threshold, 1.0 - second[np.minimum(t, rules.max_margin)], FORBIDDEN)
        bank[-1] = max(bank[-1], 0.0)
        return float(solve_turn(model, bank[:, None], np.array([1.0 - second[0]])).start[0])

    return _scalar_fixed_point(first_player, 0.5, tolerance)


def _scalar_fixed_point(f: Callable[[float], float], x0: float, tolerance: float) -> float:
    """Solve ``x = f(x)`` for a contraction by secant steps."""
    x1 = f(x0)
    for _ in range(100):
        x2 = f(x1)
        if abs(x2 - x1) < tolerance:
            return x2
        slope = (x2 - x1) / (x1 - x0) if x1 != x0 else 0.0
        x0, x1 = x1, (x2 - slope * x1) / (1 - slope) if slope < 1 else x2
    raise RuntimeError("tie-break value did not converge")


# -- the main game -------------------------------------------------------------------


class _Block:
    """The score pairs with sums in one band, and how to evaluate their turns."""

    def __init__(self, rules: SolverRules, lo: int, hi: int) -> None:
        a, b = np.meshgrid(np.arange(rules.target), np.arange(rules.target), indexing="ij")
        mask = (a + b >= lo) & (a + b <= hi)
        self.a = a[mask]
        self.b = b[mask]
        position = {
            (int(x), int(y)): i for i, (x, y) in enumerate(zip(self.a, self.b, strict=True))
        }
        self.partner = np.array(
            [position[(int(y), int(x))] for x, y in zip(self.a, self.b, strict=True)]
        )
        t = np.arange(rules.top + 1)[:, None]
        reached = self.a[None, :] + t
        self.inside = reached < rules.target
        self.reached_inside = np.minimum(reached, rules.target - 1)
        self.margin = np.minimum(reached - self.b[None, :], rules.max_margin)
        self.other_entered = (self.b > 0).astype(np.int64)
        thresholds = np.where(self.a > 0, rules.threshold(True), rules.threshold(False))
        self.forbidden = t < thresholds[None, :]
        self.forbidden[-1] = False

    def __len__(self) -> int:
        return len(self.a)


def _final_bank(rules: SolverRules, block: _Block, last_turn: FloatArray) -> FloatArray:
    if rules.end == "immediate":
        return np.ones_like(block.margin, dtype=np.float64)
    return 1.0 - last_turn[block.margin, block.other_entered[None, :]]


def solve(
    rules: SolverRules,
    tolerance: float = DEFAULT_TOLERANCE,
    progress: Callable[[float], None] | None = None,
    model: TurnModel | None = None,
) -> Solution:
    """Solve the two-player game exactly (to ``tolerance``).

    ``model`` replaces the dice of ``rules`` (tests solve Pig this way).
    """
    started = time.perf_counter()
    model = model or rules.model()
    if rules.end == "immediate":
        tie_first = 0.5
        last_turn = np.zeros((rules.max_margin + 1, 2))
    else:
        tie_first = _tie_break(rules, model, tolerance / 10)
        last_turn = np.stack(
            [
                beat_values(rules, model, rules.threshold(False), 1.0 - tie_first),
                beat_values(rules, model, rules.threshold(True), 1.0 - tie_first),
            ],
            axis=1,
        )
    W = np.full((rules.target, rules.target), np.nan)
    top_sum = 2 * (rules.target - 1)
    evaluations = 0
    sweeps = 0.0
    worst = 0.0
    hi = top_sum
    while hi >= 0:
        lo = max(0, hi - rules.block + 1)
        block = _Block(rules, lo, hi)
        final = _final_bank(rules, block, last_turn)

        def evaluate(
            x: FloatArray, cols: IntArray, block: _Block = block, final: FloatArray = final
        ) -> FloatArray:
            """New turn-start values of the pairs ``cols`` given the block's values ``x``."""
            W[block.a, block.b] = x
            inside = 1.0 - W[block.b[None, cols], block.reached_inside[:, cols]]
            bank = np.where(block.inside[:, cols], inside, final[:, cols])
            bank[block.forbidden[:, cols]] = FORBIDDEN
            zilch = 1.0 - x[block.partner[cols]]
            return turn_start(model, bank, zilch)

        x, count, pair_evaluations, residual = _solve_block(evaluate, block, tolerance)
        W[block.a, block.b] = x
        evaluations += count
        sweeps += pair_evaluations / (rules.target * rules.target)
        worst = max(worst, residual)
        if progress is not None:
            progress(1.0 - lo / (top_sum + 1))
        hi = lo - 1
    return Solution(
        rules, W, last_turn, tie_first, evaluations, worst, time.perf_counter() - started, sweeps
    )


def _solve_block(
    evaluate: Callable[[FloatArray, IntArray], FloatArray], block: _Block, tolerance: float
) -> tuple[FloatArray, int, int, float]:
    """Close the ``W[a, b] <-> W[b, a]`` loops of a block by secant steps.

    Within the current policy, ``F(x)[i] = c[i] - d[i] * x[partner[i]]``; two
    evaluations give ``d``, and the 2x2 system of each pair is solved directly.
    Pairs whose residual (and their mirror's) is below ``tolerance`` are frozen
    and no longer evaluated. Returns the values, the number of evaluations,
    the number of pair evaluations, and the largest final residual.
    """
    size = len(block)
    p = block.partner
    diagonal = p == np.arange(size)
    x0 = np.full(size, 0.5)
    everything = np.arange(size)
    y0 = evaluate(x0, everything)
    x1 = y0.copy()
    active = everything
    count, pair_evaluations, worst = 1, size, 0.0
    for _ in range(60):
        y1 = x1.copy()
        y1[active] = evaluate(x1, active)
        count += 1
        pair_evaluations += len(active)
        gap = np.abs(y1 - x1)
        done = np.maximum(gap, gap[p]) < tolerance
        if done[active].all():
            worst = max(worst, float(gap[active].max()))
            return y1, count, pair_evaluations, max(worst, float(gap.max()))
        newly = active[done[active]]
        if newly.size:
            worst = max(worst, float(gap[newly].max()))
        dx = x1[p] - x0[p]
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.where(np.abs(dx) > 1e-14, -(y1 - y0) / dx, 0.0)
        d = np.clip(d, 0.0, 1.0)
        c = y1 + d * x1[p]
        pair = (c - d * c[p]) / (1.0 - d * d[p])
        solo = c / (1.0 + d)
        x_next = np.clip(np.where(diagonal, solo, pair), 0.0, 1.0)
        x_next[done] = y1[done]
        x0, y0, x1 = x1, y1, x_next
        active = active[~done[active]]
    raise RuntimeError("value iteration did not converge")


def pair_bank(solution: Solution, a: int, b: int) -> tuple[FloatArray, FloatArray]:
    """Bank values ``(T + 1, 1)`` and zilch value ``(1,)`` of a main-game turn at ``(a, b)``.

    The same ingredients the solver used for this pair, for a bot to replay
    the optimal decisions of one turn.
    """
    rules = solution.rules
    t = np.arange(rules.top + 1)
    reached = a + t
    inside = 1.0 - solution.W[b, np.minimum(reached, rules.target - 1)]
    if rules.end == "immediate":
        final = np.ones(len(t))
    else:
        margin = np.minimum(reached - b, rules.max_margin)
        final = 1.0 - solution.last_turn[margin, int(b > 0)]
    bank = np.where(reached < rules.target, inside, final)
    bank[t < rules.threshold(a > 0)] = FORBIDDEN
    bank[-1] = final[-1] if reached[-1] >= rules.target else inside[-1]
    return bank[:, None], np.array([1.0 - solution.W[b, a]])


# -- cache -----------------------------------------------------------------------------


def cache_path(rules: SolverRules, directory: Path | None = None) -> Path:
    """The cache file of these rules."""
    return (directory or cache_dir()) / f"zilch-2p-{rules.key()}.npz"


def load_or_solve(
    rules: SolverRules,
    path: Path | None = None,
    progress: Callable[[float], None] | None = None,
    use_cache: bool = True,
) -> tuple[Solution, bool]:
    """A solution from the cache if present and valid, else solved and cached.

    Returns ``(solution, loaded_from_cache)``.
    """
    target = path or cache_path(rules)
    if use_cache and target.exists():
        try:
            return Solution.load(target, rules), True
        except CorruptDataError:
            pass
    solution = solve(rules, progress=progress)
    if use_cache:
        with contextlib.suppress(OSError):
            solution.save(target)
    return solution, False
