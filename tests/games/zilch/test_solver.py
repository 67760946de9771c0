"""The two-player solver: convergence, a Pig oracle, the cap, the cache file."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

import numpy as np
import pytest

from zanzibar.engine.errors import CorruptDataError, OptionError
from zanzibar.games.zilch.options import SCHEMA
from zanzibar.games.zilch.scoring import ScoringTable
from zanzibar.games.zilch.solver import (
    DEFAULT_TOLERANCE,
    Solution,
    SolverRules,
    load_or_solve,
    pair_bank,
    solve,
)
from zanzibar.games.zilch.turn_dp import RollGroups, TurnModel, build_model, solve_turn

SMALL_TARGET = 1500  # seed 004's rules with the target lowered, for speed


@pytest.fixture(scope="module")
def small() -> Solution:
    rules = SolverRules.from_options(SCHEMA.resolve(None, {"target": SMALL_TARGET}))
    return solve(rules)


def test_value_iteration_converges(small: Solution) -> None:
    assert small.residual < DEFAULT_TOLERANCE == 1e-10
    assert small.iterations > 0
    assert np.all((small.W >= 0) & (small.W <= 1))
    # Stated figure of the small game (seed rules, target 1500): the first player wins 56.404 %.
    assert small.first_player_win == pytest.approx(0.564044, abs=1e-6)


def test_solution_is_a_fixed_point_of_the_full_bellman_operator(small: Solution) -> None:
    """Re-evaluate every pair's turn at once (no blocks, no secant): nothing moves."""
    rules = small.rules
    model = rules.model()
    pairs = [(a, b) for a in range(rules.target) for b in range(rules.target)]
    banks, zilches = zip(*(pair_bank(small, a, b) for a, b in pairs), strict=True)
    bank = np.concatenate(banks, axis=1)
    zilch = np.concatenate(zilches)
    values = solve_turn(model, bank, zilch).start
    expected = np.array([small.W[a, b] for a, b in pairs])
    assert np.max(np.abs(values - expected)) < 1e-9


def test_best_score_per_dice_kept_alone_would_not_be_exact(small: Solution) -> None:
    """Offering only the best score per number of dice kept changes some values by 0.1 %."""
    rules = small.rules
    pruned = build_model(rules.table, rules.unit, rules.hot_dice_compulsory)
    bank, zilch = pair_bank(small, 22, 26)
    full_value = solve_turn(rules.model(), bank, zilch).start[0]
    pruned_value = solve_turn(pruned, bank, zilch).start[0]
    assert full_value == pytest.approx(small.W[22, 26], abs=1e-9)
    assert full_value - pruned_value > 5e-4


def test_the_other_players_points_never_help(small: Solution) -> None:
    assert np.all(np.diff(small.W, axis=1) <= 1e-12)


def test_own_points_can_hurt_near_the_target(small: Solution) -> None:
    """Not a bug: at 1150 (target 1500) every bank reaches the target and hands the
    other player a last turn, while at 1100 a bank of 350 keeps the game going.
    Solvers that prune options by assuming more points are always better would be wrong here."""
    W = small.W
    assert W[23, 26] < W[22, 26] - 1e-3
    assert W[10, 0] > W[0, 0]  # but entering is worth a lot


def test_banking_is_best_at_the_cap(small: Solution) -> None:
    rules = small.rules
    model = rules.model()
    for a, b in [(0, 0), (10, 25), (29, 29), (0, 29)]:
        bank, zilch = pair_bank(small, a, b)
        turn = solve_turn(model, bank, zilch)
        below_cap = rules.top - 1
        assert np.all(turn.R[below_cap, :, 0] <= bank[below_cap, 0])


@pytest.mark.slow
def test_pig_oracle() -> None:
    """Neller & Presser (2004): under optimal play the first player of Pig (goal 100) wins 0.5306."""
    group = RollGroups(
        n=1,
        zilch=1 / 6,
        probs=np.full(5, 1 / 6),
        gains=np.arange(2, 7),
        slots=np.ones(5, dtype=np.int64),
        starts=np.arange(5),
    )
    pig = TurnModel(unit=1, groups=(group,) * 6, hot_dice_compulsory=False)
    rules = SolverRules(ScoringTable(), 1, 100, 0, 0, "immediate", False, 0)
    solution = solve(rules, model=pig)
    assert solution.first_player_win == pytest.approx(0.5306, abs=5e-5)


def test_solver_refuses_the_zilch_penalty() -> None:
    with pytest.raises(OptionError, match="penalty"):
        SolverRules.from_options(SCHEMA.resolve("zilch_online"))


def test_cache_round_trip(tmp_path: Path, small: Solution) -> None:
    path = tmp_path / "small.npz"
    small.save(path)
    loaded = Solution.load(path, small.rules)
    assert np.array_equal(loaded.W, small.W)
    assert loaded.tie_break_first == small.tie_break_first
    again, from_cache = load_or_solve(small.rules, path)
    assert from_cache and again.first_player_win == small.first_player_win


def test_cache_refuses_garbage_and_other_rules(tmp_path: Path, small: Solution) -> None:
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not a numpy file")
    with pytest.raises(CorruptDataError):
        Solution.load(garbage, small.rules)
    path = tmp_path / "small.npz"
    small.save(path)
    other = SolverRules.from_options(SCHEMA.resolve(None, {"target": 2000}))
    with pytest.raises(CorruptDataError, match="other rules"):
        Solution.load(path, other)
    # A corrupt cache is solved again rather than trusted.
    solution, from_cache = load_or_solve(small.rules, garbage)
    assert not from_cache and solution.first_player_win == pytest.approx(small.first_player_win)


def test_immediate_end_rule_solves() -> None:
    rules = SolverRules.from_options(
        SCHEMA.resolve("farkle_busche", {"target": 1000}), cap_points=0
    )
    solution = solve(rules)
    assert 0.5 < solution.first_player_win < 0.7
    assert solution.residual < DEFAULT_TOLERANCE


#: The first player's winning chance under seed 004's rules, as main's solver gave it
#: before issue 15's speed-up (computed once with that code, tolerance 1e-10).
SEED_004_FIRST_PLAYER = 0.5425201599928388


def test_the_tests_run_numpy_on_one_blas_thread() -> None:
    """tests/conftest.py: one OpenBLAS thread per xdist worker. With two, the solve below
    took three times as long beside the other worker (its spinning thread fought it)."""
    libs = Path(np.__file__).parent.parent / "numpy.libs"
    (openblas,) = libs.glob("libscipy_openblas64_*.so")  # the library numpy's wheel bundles
    threads = ctypes.CDLL(str(openblas)).scipy_openblas_get_num_threads64_()
    assert threads == 1, (threads, os.environ.get("OPENBLAS_NUM_THREADS"))


@pytest.mark.slow
def test_seed_004_solve_is_unchanged() -> None:
    """The full solve (about 5 s) gives the same value as before the speed-up, to 12 digits."""
    solution = solve(SolverRules.from_options(SCHEMA.resolve()))
    assert abs(solution.first_player_win - SEED_004_FIRST_PLAYER) < 1e-12
    assert round(solution.first_player_win, 12) == round(SEED_004_FIRST_PLAYER, 12)
    assert solution.residual < DEFAULT_TOLERANCE
