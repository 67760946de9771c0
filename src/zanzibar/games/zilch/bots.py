"""Zilch bots: three levels.

* ``expected`` (the default): in the main game, the policy that maximises the
  expected banked score of the turn, computed exactly by :mod:`.turn_dp` with
  the player's bank threshold (500 before entering, 350 after, in seed 004).
  In a last turn or a tie-break turn it maximises instead the probability of
  passing the best score of the other contenders (a tie counted as half a win).
  Works for any number of players.
* ``optimal``: two players only: the policy that maximises the probability of
  winning (:mod:`.solver`), including the last turn and the tie-break. With
  more players, or with options the solver does not handle (the three-zilch
  penalty), it plays like ``expected``. The first use for a set of options
  solves the game (about 10 s of CPU for seed 004) and caches it on disk;
  ``zanzibar solve zilch --players 2`` fills the cache ahead of time. Rule
  sets that take minutes to solve (no bank minimum, or a 10,000 target) are
  used only from the cache; without it the bot plays like ``expected``.
* ``simple``: keeps the best-scoring dice, banks as soon as it may with at
  least 300 points and fewer than three dice to roll, or with 1000 or more;
  in a last turn it rolls on until it is ahead. Fast, and no pushover.

Every bot is deterministic: the ``seed`` is accepted for the common interface.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from zanzibar.engine.errors import CorruptDataError, OptionError, ZanzibarError
from zanzibar.games.zilch.options import scoring_table
from zanzibar.games.zilch.scoring import Counts, ScoringTable, counts_of
from zanzibar.games.zilch.solver import (
    FORBIDDEN,
    Solution,
    SolverRules,
    beat_values,
    cache_path,
    load_or_solve,
    pair_bank,
)
from zanzibar.games.zilch.state import ZilchAction, ZilchState
from zanzibar.games.zilch.turn_dp import (
    FloatArray,
    TurnSolution,
    build_model,
    scoring_unit,
    solve_turn,
)

LEVELS: tuple[str, ...] = ("expected", "optimal", "simple")

#: Turn totals (in units) searched by the expected-score bot; banking is far
#: better long before (about 10,700 points with six dice in seed 004).
EXPECTED_TOP_UNITS = 800


def selections(state: ZilchState) -> list[tuple[tuple[int, ...], int]]:
    """Each distinct scoring selection of the roll as (die indices, score)."""
    out = []
    for sub, value in state.config.table.options(counts_of(state.roll)):
        out.append((_indices(state.roll, sub), value))
    return out


def _indices(roll: tuple[int, ...], sub: Counts) -> tuple[int, ...]:
    need = list(sub)
    picked = []
    for i, face in enumerate(roll):
        if need[face - 1]:
            need[face - 1] -= 1
            picked.append(i)
    return tuple(picked)


def _last_turn(state: ZilchState) -> bool:
    """True if the current player's turn is followed by no turn of a rival."""
    return state.stage != "main" and not state.queue


def _rivals_best(state: ZilchState) -> int:
    others = [state.scores[s] for s in state.contenders if s != state.current]
    return max(others) if others else state.scores[state.current]


class SimpleBot:
    """Best-scoring dice; bank with 300+ and under three dice, or with 1000+."""

    def choose(self, state: ZilchState) -> ZilchAction:
        """Pick an action."""
        if state.phase == "start":
            return ZilchAction("roll")
        keep, value = max(selections(state), key=lambda kv: (kv[1], -len(kv[0])))
        points = state.turn_points + value
        left = len(state.roll) - len(keep)
        allowed = points >= state.threshold() and not (
            left == 0 and state.config["hot_dice_compulsory"]
        )
        if state.stage != "main":
            wants = state.scores[state.current] + points > _rivals_best(state)
        else:
            wants = (points >= 300 and 0 < left < 3) or points >= 1000
        return ZilchAction("bank" if allowed and wants else "roll", keep)


@dataclass
class _Plan:
    """What banking is worth at each turn total, and the turn values that follow."""

    bank: FloatArray
    turn: TurnSolution


def _decide(state: ZilchState, plan: _Plan, unit: int) -> ZilchAction:
    """The selection with the best continuation value, then bank or roll."""
    if state.phase == "start":
        return ZilchAction("roll")
    top = plan.bank.shape[0] - 1
    compulsory = state.config["hot_dice_compulsory"]
    best: tuple[float, tuple[int, ...], str] | None = None
    for keep, value in selections(state):
        t = min((state.turn_points + value) // unit, top)
        left = len(state.roll) - len(keep)
        rolling = float(plan.turn.R[t, (left or 6) - 1, 0]) if t < top else -np.inf
        banking = float(plan.bank[t, 0])
        may_bank = (
            state.turn_points + value >= state.threshold()
            and not (left == 0 and compulsory)
            and banking > FORBIDDEN / 2
        )
        choice = ("bank", banking) if may_bank and banking >= rolling else ("roll", rolling)
        if best is None or choice[1] > best[0]:
            best = (choice[1], keep, choice[0])
    assert best is not None
    return ZilchAction(best[2], best[1])


@lru_cache(maxsize=64)
def _expected_plan(table: ScoringTable, unit: int, compulsory: bool, threshold: int) -> _Plan:
    """Max-expected-score plan of a turn with this bank threshold (points)."""
    t = np.arange(EXPECTED_TOP_UNITS + 1, dtype=np.float64) * unit
    bank = np.where(t >= threshold, t, FORBIDDEN)[:, None]
    bank[-1] = t[-1]
    return _Plan(bank, solve_turn(build_model(table, unit, compulsory), bank, np.zeros(1)))


@lru_cache(maxsize=4096)
def beat_plan(
    table: ScoringTable, unit: int, compulsory: bool, needed: int, threshold: int, tie: float
) -> _Plan:
    """Plan of a last turn that must bank more than ``needed`` (units; ``threshold`` too).

    Banking exactly ``needed`` is worth ``tie``; a zilch loses (ties if ``needed`` is 0).
    """
    top = max(needed, threshold) + 2
    t = np.arange(top + 1)
    bank = np.full(top + 1, FORBIDDEN)
    bank[(t >= threshold) & (t > needed)] = 1.0
    bank[(t >= threshold) & (t == needed)] = tie
    bank[-1] = max(bank[-1], 0.0)
    zilch = np.array([tie if needed == 0 else 0.0])
    model = build_model(table, unit, compulsory)
    return _Plan(bank[:, None], solve_turn(model, bank[:, None], zilch))


class ExpectedBot:
    """Maximise the expected banked score; in a last turn, the chance to pass the leader."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.table = scoring_table(options)
        self.unit = scoring_unit(
            self.table, options["entry"], options["minimum"], options["target"]
        )
        self.compulsory = bool(options["hot_dice_compulsory"])

    def choose(self, state: ZilchState) -> ZilchAction:
        """Pick an action."""
        if state.phase == "start":
            return ZilchAction("roll")
        return _decide(state, self.plan(state), self.unit)

    def plan(self, state: ZilchState) -> _Plan:
        """The turn plan for the current player's situation."""
        threshold = state.threshold()
        if state.stage != "main":
            needed = max(0, _rivals_best(state) - state.scores[state.current])
            return beat_plan(
                self.table,
                self.unit,
                self.compulsory,
                -(-needed // self.unit),
                -(-threshold // self.unit),
                0.5,
            )
        return _expected_plan(self.table, self.unit, self.compulsory, threshold)


_SOLUTIONS: dict[str, Solution] = {}


def solves_quickly(rules: SolverRules) -> bool:
    """True if a bot may solve these rules on its first move (seconds, not minutes).

    Seed 004's rules (5000, banks of at least 350) take about 10 s of CPU; rule sets
    without a bank minimum or with a 10,000 target take minutes (Busche & Neller's
    Farkle: two), so a bot uses them only from the cache that
    ``zanzibar solve zilch --players 2 --preset P`` fills.
    """
    return rules.target * rules.unit <= 5000 and rules.block >= 5


def cached_solution(rules: SolverRules) -> Solution | None:
    """The solution if it is in memory or in the cache, or cheap to compute; else None."""
    key = rules.digest
    if key in _SOLUTIONS:
        return _SOLUTIONS[key]
    if solves_quickly(rules):
        return solution_for(rules)
    path = cache_path(rules)
    if path.exists():
        try:
            _SOLUTIONS[key] = Solution.load(path, rules)
        except CorruptDataError:
            return None
        return _SOLUTIONS[key]
    return None


def solution_for(rules: SolverRules) -> Solution:
    """The solved game for these rules: from memory, the disk cache, or solved now."""
    key = rules.digest
    if key not in _SOLUTIONS:
        _SOLUTIONS[key] = load_or_solve(rules)[0]
    return _SOLUTIONS[key]


@lru_cache(maxsize=2048)
def _main_plan(rules: SolverRules, a: int, b: int) -> _Plan:
    """The optimal plan of a main-game turn at scores ``(a, b)`` (units)."""
    bank, zilch = pair_bank(solution_for(rules), a, b)
    return _Plan(bank, solve_turn(rules.model(), bank, zilch))


class OptimalBot:
    """Two players: maximise the probability of winning (see :mod:`.solver`)."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.fallback = ExpectedBot(options)
        try:
            self.rules: SolverRules | None = SolverRules.from_options(options)
        except OptionError:
            self.rules = None
        self._plans: dict[tuple[Any, ...], _Plan] = {}

    def choose(self, state: ZilchState) -> ZilchAction:
        """Pick an action."""
        if state.phase == "start":
            return ZilchAction("roll")
        plan = self.plan(state)
        if plan is None or self.rules is None:
            return self.fallback.choose(state)
        return _decide(state, plan, self.rules.unit)

    def plan(self, state: ZilchState) -> _Plan | None:
        """The turn plan of the current situation, or None to fall back."""
        rules = self.rules
        if rules is None or state.seats != 2:
            return None
        me, other = state.current, 1 - state.current
        unit = rules.unit
        if any(score % unit or score < 0 for score in state.scores):
            return None
        a, b = state.scores[me] // unit, state.scores[other] // unit
        solution = cached_solution(rules)
        if solution is None:
            return None
        model = rules.model()
        if state.stage == "main":
            if a >= rules.target or b >= rules.target:
                return None
            return _main_plan(rules, a, b)
        tie = 1.0 - solution.tie_break_first
        threshold = rules.threshold(state.entered[me])
        if not state.queue:
            needed = b - a
            if needed < 0 or needed > rules.max_margin:
                return None
            return beat_plan(rules.table, unit, rules.hot_dice_compulsory, needed, threshold, tie)
        key: tuple[Any, ...] = ("tiebreak-first", threshold)
        if key not in self._plans:
            second = beat_values(rules, model, threshold, tie)
            top = rules.max_margin + 1
            t = np.arange(top + 1)
            bank = np.where(
                t >= threshold, 1.0 - second[np.minimum(t, rules.max_margin)], FORBIDDEN
            )
            bank[-1] = max(bank[-1], 0.0)
            zilch = np.array([1.0 - second[0]])
            self._plans[key] = _Plan(bank[:, None], solve_turn(model, bank[:, None], zilch))
        return self._plans[key]


def make_bot(
    level: str, options: Mapping[str, Any], seed: int = 0
) -> SimpleBot | ExpectedBot | OptimalBot:
    """A bot of ``level`` for a game with these resolved options."""
    if level == "simple":
        return SimpleBot()
    if level == "expected":
        return ExpectedBot(options)
    if level == "optimal":
        return OptimalBot(options)
    raise ZanzibarError(f"unknown Zilch bot level '{level}' (levels: {', '.join(LEVELS)})")
