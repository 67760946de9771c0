"""421 bots: ``expert`` decides from exact probabilities, ``simple`` from a rule of thumb.

The expert's model
------------------
When the expert rolls it knows the throws already made this turn, its roll limit
and how many players still play after it. Each later player is modelled as
playing its own best go to *not lose*: it chases the weakest throw on the table
with the dynamic programming of :mod:`~zanzibar.games.dice421.solver`, stopping as
soon as it beats it; its rolls become the limit of the next one. Under that model
the chance that the expert loses the turn with throw ``t`` after ``j`` rolls is
exact: it is 0 if ``t`` beats an earlier throw, else the chance that every later
player, each held to the roll limit its predecessor left, beats ``t``. (An exact
tie that a rampo would settle counts as one half.)

Objective (also documented in docs/rules-421.md):

* in the charge, minimise the probability of losing the turn (with the bar's
  "loser takes its own value", minimise the expected tokens taken instead);
* in the décharge, maximise the expected tokens moved in its favour:
  ``P(win) * tokens it would give - P(lose) * tokens it would receive``. Winning
  needs beating the best earlier throw and no later player beating it; later
  players are modelled as chasing the weakest earlier throw (an approximation:
  the model does not follow a new weakest throw as it appears). The tokens
  received are the value of the best earlier throw (capped by its holder's
  tokens) or, when the bot plays first, the expected value of the best later
  throw (the later players' chase distributions, given that they beat it), plus 2
  for a losing nénette under the bar's penalty. A bot without tokens (bar rules
  keep such players in the décharge) counts winning, which takes it out, as one
  token given.

A backward induction over (rolls used, throw) with that score at every stop
gives the whole plan of the go; plans are cached by context, so after a short
warm-up a decision is a dictionary look-up.

``simple`` keeps the dice of a 421 and stops once it beats the weakest earlier
throw (or holds a straight or better when it plays first). ``random`` picks any
legal action (seeded). All bots are deterministic given their seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

import numpy as np

from zanzibar.engine.errors import OptionError
from zanzibar.games.dice421.combos import (
    ALL_THROWS,
    NENETTE,
    Throw,
    mask_positions,
    strength,
    value,
)
from zanzibar.games.dice421.options import Config
from zanzibar.games.dice421.solver import (
    N_THROWS,
    STOP_CODE,
    TRANSITIONS,
    Array,
    GoPlan,
    final_distribution,
    plan_go,
)
from zanzibar.games.dice421.state import ROLL_ALL, STOP, Action, Roll, State

LEVELS: tuple[str, ...] = ("expert", "simple", "random")

#: The Roll action of each reroll mask (index = mask).
ROLL_BY_MASK: tuple[Action, ...] = (
    STOP,
    *(Roll(frozenset(mask_positions(mask))) for mask in range(1, 8)),
)

#: Throw index by dice tuple, keyed as states hold dice (tuple[int, ...]).
_INDEX: dict[tuple[int, ...], int] = {throw: i for i, throw in enumerate(ALL_THROWS)}

#: Most cached go plans per set of options (about 0.3 kB each).
MAX_PLANS = 100_000

Target = tuple[int, int]  # (strength of a throw, rolls it took)


class TurnModel:
    """Exact go plans for one set of options, cached by context."""

    def __init__(self, config: Config) -> None:
        self.config = config
        power_map = strength(config.fiche_order)
        self.power = np.array([power_map[t] for t in ALL_THROWS], dtype=np.int64)
        self.power_of = power_map
        self.nenette_power = power_map[NENETTE]
        self.value_of_power = {power_map[t]: value(t, config.nenette) for t in ALL_THROWS}
        self.values = np.array([value(t, config.nenette) for t in ALL_THROWS], dtype=np.float64)
        self.is_nenette = np.array([1.0 if t == NENETTE else 0.0 for t in ALL_THROWS])
        self.later_wins = config.ties == "later_wins"
        self.fewer = config.fewer_rolls_win
        self._versus: dict[tuple[int, int, int], Array] = {}
        self._chase: dict[tuple[int, int, int], Array] = {}
        self._q: dict[tuple[int, int, int], Array] = {}
        self._plans: dict[tuple[object, ...], tuple[bytes, ...]] = {}
        self._wins: dict[tuple[object, ...], Array] = {}

    # -- comparing throws ------------------------------------------------------------

    def _equal_score(self, rolls: int, earlier_rolls: int, power: int = -1) -> float:
        """Score of a later throw equal to an earlier one: 1 beats, 0.5 rampo, 0 loses.

        A new nénette always beats an older one (seeds 000 and 002).
        """
        if power == self.nenette_power:
            return 1.0
        if self.fewer and rolls < earlier_rolls:
            return 1.0
        if self.fewer and rolls > earlier_rolls:
            return 0.0
        return 1.0 if self.later_wins else 0.5

    def versus(self, rolls: int, target: Target) -> Array:
        """For every throw made in ``rolls`` rolls: 1 if it beats ``target``, 0.5 tie, 0 not."""
        key = (rolls, *target)
        found = self._versus.get(key)
        if found is None:
            power, earlier_rolls = target
            found = (self.power > power).astype(np.float64)
            found += (self.power == power) * self._equal_score(rolls, earlier_rolls, power)
            self._versus[key] = found
        return found

    # -- later players ----------------------------------------------------------------

    def chase(self, target: Target, limit: int) -> Array:
        """How a later player chasing ``target`` with ``limit`` rolls ends: out[j][t]."""
        key = (*target, limit)
        found = self._chase.get(key)
        if found is None:
            scores = np.zeros((limit + 1, N_THROWS))
            for j in range(1, limit + 1):
                scores[j] = self.versus(j, target)
            found = final_distribution(plan_go(scores))
            self._chase[key] = found
        return found

    def all_beat(self, target: Target, later: int) -> Array:
        """``Q[l]``: chance that ``later`` players in a row, the first held to ``l`` rolls, beat ``target``."""
        key = (*target, later)
        found = self._q.get(key)
        if found is None:
            top = target[1]
            found = np.ones(top + 1)
            if later > 0:
                previous = self.all_beat(target, later - 1)
                for limit in range(1, top + 1):
                    out = self.chase(target, limit)
                    found[limit] = sum(
                        float(out[j] @ self.versus(j, target)) * previous[j]
                        for j in range(1, limit + 1)
                    )
            self._q[key] = found
        return found

    def lose_if_worst(self, later: int, rolls: int) -> Array:
        """For every throw ``t`` made in ``rolls`` rolls: chance all later players beat it."""
        return self._lose_if_worst(later, rolls)

    @cache  # noqa: B019 - one model per Config, kept for the process's life
    def _lose_if_worst(self, later: int, rolls: int) -> Array:
        return np.array(
            [self.all_beat((int(p), rolls), later)[rolls] for p in self.power], dtype=np.float64
        )

    @cache  # noqa: B019
    def _nobody_beats_first(self, later: int, rolls: int) -> Array:
        """Playing first: chance that no later player (chasing this throw) beats it."""
        out = np.empty(N_THROWS)
        for t in range(N_THROWS):
            target = (int(self.power[t]), rolls)
            out[t] = self._survive(target, later, rolls)
        return out

    def _survive(self, target: Target, later: int, limit: int) -> float:
        if later == 0:
            return 1.0
        out = self.chase(target, limit)
        total = 0.0
        for j in range(1, limit + 1):
            fail = float(out[j] @ (1.0 - self.versus(j, target)))
            if fail > 0:
                total += fail * self._survive(target, later - 1, j)
        return total

    @cache  # noqa: B019
    def _expected_best_after(self, later: int, rolls: int) -> Array:
        """Playing first and losing: the expected value of the best later throw, per own throw.

        Each later player chases this throw (``rolls`` rolls); if the bot loses they
        all beat it, so each final throw is drawn from the chase's distribution
        given that it beats this throw, independently; the best of them gives.
        """
        out = np.zeros(N_THROWS)
        if later == 0:
            return out
        order = np.argsort(self.power)  # weakest first
        for t in range(N_THROWS):
            target = (int(self.power[t]), rolls)
            finals = self.chase(target, rolls)
            beating = sum(finals[j] * self.versus(j, target) for j in range(1, rolls + 1))
            total = float(beating.sum())
            if total <= 0:
                continue
            cdf = np.cumsum(beating[order] / total)
            below = np.concatenate(([0.0], cdf[:-1]))
            best = cdf**later - below**later
            out[t] = float(best @ self.values[order])
        return out

    @cache  # noqa: B019
    def _later_beats_matrix(self, later_rolls: int, my_rolls: int) -> Array:
        """``M[f, t]``: 1 if a later throw ``f`` in ``later_rolls`` beats mine ``t``, 0.5 tie."""
        greater = (self.power[:, None] > self.power[None, :]).astype(np.float64)
        equal = self.power[:, None] == self.power[None, :]
        score = np.where(
            self.power == self.nenette_power, 1.0, self._equal_score(later_rolls, my_rolls)
        )
        return greater + equal * score[:, None]

    @cache  # noqa: B019
    def _nobody_beats_after(self, worst: Target, later: int, my_rolls: int, limit: int) -> Array:
        """Chance per throw ``t`` (mine, above ``worst``) that no later player chasing ``worst`` beats it."""
        if later == 0:
            return np.ones(N_THROWS)
        out = self.chase(worst, limit)
        total = np.zeros(N_THROWS)
        for j in range(1, limit + 1):
            if not out[j].any():
                continue
            keep = out[j] @ (1.0 - self._later_beats_matrix(j, my_rolls))
            total += keep * self._nobody_beats_after(worst, later - 1, my_rolls, j)
        return total

    # -- the bot's own go --------------------------------------------------------------

    def plan(self, state: State) -> tuple[bytes, ...]:
        """The decision table (rolls used x throw) for the player rolling in ``state``.

        Stored as one ``bytes`` row per roll count: indexing bytes gives a Python
        int several times faster than indexing a numpy array, in 56 bytes a row.
        The cache is bounded (a salon runs for weeks): past ``MAX_PLANS`` it starts
        afresh, which costs a few milliseconds of recomputation.
        """
        context = self.context(state)
        found = self._plans.get(context)
        if found is None:
            if len(self._plans) >= MAX_PLANS:
                self._plans.clear()
            found = _decision_rows(self.stop_rows(context))
            self._plans[context] = found
        return found

    def stop_rows(self, context: tuple[object, ...]) -> Array:
        """``S[j][t]`` for j = 0..limit: the same numbers as :meth:`_stop_score`, all rows at once.

        The parts that do not depend on the token caps (chances of winning and of
        losing, per roll count) are cached per (throws on the table, players after,
        limit), and combined here with the same floating-point operations in the
        same order as :meth:`_stop_score`, so the plans are identical (the tests
        compare them on many random contexts). A cache miss costs a few numpy
        operations instead of a Python loop over the roll counts.
        """
        if context[0] == "charge":
            _, worst, later, limit, pot = context
            lose = self._lose_rows(worst, later, limit)
            if pot:
                return -lose * np.minimum(self.values, pot)  # type: ignore[call-overload]
            return -lose
        _, worst, best, later, limit, give_cap, receive_cap = context
        lose = self._lose_rows(worst, later, limit)
        penalty = 2.0 * self.is_nenette if self.config.nenette == "penalty2" else 0.0
        if best is None:
            win, receive = self._first_rows(later, limit)
            receive = receive + penalty
        else:
            win = self._win_rows(worst, best, later, limit)  # type: ignore[arg-type]
            assert isinstance(best, tuple)
            best_value = float(self.values[_index_of_power(self.power, best[0])])
            receive = np.minimum(best_value + penalty, receive_cap)  # type: ignore[call-overload]
        give = np.minimum(self.values, give_cap)  # type: ignore[call-overload]
        return win * give - lose * receive

    @cache  # noqa: B019
    def _lose_rows(self, worst: Target | None, later: int, limit: int) -> Array:
        rows = np.zeros((limit + 1, N_THROWS))
        for j in range(1, limit + 1):
            rows[j] = self._lose_chance(worst, later, j)
        return rows

    @cache  # noqa: B019
    def _first_rows(self, later: int, limit: int) -> tuple[Array, Array]:
        win = np.zeros((limit + 1, N_THROWS))
        receive = np.zeros((limit + 1, N_THROWS))
        for j in range(1, limit + 1):
            win[j] = self._nobody_beats_first(later, j)
            receive[j] = self._expected_best_after(later, j)
        return win, receive

    def _win_rows(self, worst: Target, best: Target, later: int, limit: int) -> Array:
        """Chance of winning the décharge turn, per roll count and throw (bounded cache).

        The only one of these tables with a large key space (two targets), so its
        cache starts afresh past ``MAX_PLANS`` entries, like the plans.
        """
        key = (worst, best, later, limit)
        rows = self._wins.get(key)
        if rows is None:
            if len(self._wins) >= MAX_PLANS:
                self._wins.clear()
            rows = np.zeros((limit + 1, N_THROWS))
            for j in range(1, limit + 1):
                rows[j] = self.versus(j, best) * self._nobody_beats_after(worst, later, j, j)
            self._wins[key] = rows
        return rows

    @property
    def cached_plans(self) -> int:
        """How many contexts have a plan (for the benchmark's warm-up report)."""
        return len(self._plans)

    def context(self, state: State) -> tuple[object, ...]:
        """Everything the plan depends on, as a hashable key."""
        config = self.config
        later = len(state.order) - len(state.done) - 1
        worst = best = None
        worst_key = best_key = None
        best_holder = -1
        fewer = self.fewer
        for position, (seat, throw, rolls) in enumerate(state.done):
            p = self.power_of[throw]
            if p == self.nenette_power:  # a new nénette beats an older one
                key, target = (p, 0, position), (p, 0)
            else:
                key = (p, -rolls if fewer else 0, position if self.later_wins else 0)
                # An earlier throw's rolls only matter when fewer rolls win ties.
                target = (p, rolls if fewer else 0)
            if worst_key is None or key < worst_key:
                worst_key, worst = key, target
            if best_key is None or key > best_key:
                best_key, best, best_holder = key, target, seat
        if state.phase == "charge":
            own = config.token_amount == "own"
            return ("charge", worst, later, state.limit, min(state.pot, 10) if own else 0)
        me = state.current
        assert me is not None
        # Without tokens (bar rules keep such players in the décharge), winning the turn
        # takes the player out, safe: scored as giving one token.
        give_cap = min(state.tokens[me], 10) or 1
        receive_cap = 12
        if best is not None:
            # The cap only matters below the best value (plus a nénette penalty, when
            # the options have one): larger caps give the same plan, so one key.
            extra = 2 if config.nenette == "penalty2" else 0
            receive_cap = min(state.tokens[best_holder], self.value_of_power[best[0]] + extra)
        return ("decharge", worst, best, later, state.limit, give_cap, receive_cap)

    def go_plan(self, context: tuple[object, ...]) -> GoPlan:
        """The full plan (decisions and expected scores) for a context; not cached."""
        limit = context[3] if context[0] == "charge" else context[4]
        assert isinstance(limit, int)
        scores = np.zeros((limit + 1, N_THROWS))
        for j in range(1, limit + 1):
            scores[j] = self._stop_score(context, j)
        return plan_go(scores)

    def _lose_chance(self, worst: Target | None, later: int, rolls: int) -> Array:
        lose = self.lose_if_worst(later, rolls)
        if worst is None:
            return lose
        return (1.0 - self.versus(rolls, worst)) * lose

    def _stop_score(self, context: tuple[object, ...], rolls: int) -> Array:
        if context[0] == "charge":
            _, worst, later, _, pot = context
            assert isinstance(later, int) and isinstance(pot, int)
            lose = self._lose_chance(worst, later, rolls)  # type: ignore[arg-type]
            if pot:
                return -lose * np.minimum(self.values, pot)
            return -lose
        _, worst, best, later, _, give_cap, receive_cap = context
        assert isinstance(later, int) and isinstance(give_cap, int)
        assert isinstance(receive_cap, int)
        lose = self._lose_chance(worst, later, rolls)  # type: ignore[arg-type]
        penalty = 2.0 * self.is_nenette if self.config.nenette == "penalty2" else 0.0
        if best is None:
            win = self._nobody_beats_first(later, rolls)
            receive = self._expected_best_after(later, rolls) + penalty
        else:
            assert isinstance(best, tuple) and isinstance(worst, tuple)
            above = self.versus(rolls, best)
            win = above * self._nobody_beats_after(worst, later, rolls, rolls)
            best_value = float(self.values[_index_of_power(self.power, best[0])])
            receive = np.minimum(best_value + penalty, receive_cap)
        give = np.minimum(self.values, give_cap)
        return win * give - lose * receive


def _index_of_power(power: np.ndarray, p: int) -> int:
    return int(np.nonzero(power == p)[0][0])


#: The reroll transitions, masks 1..7 (the continuation values of plan_go).
_REROLLS = TRANSITIONS[1:]


def _decision_rows(stop: Array) -> tuple[bytes, ...]:
    """The decision table of :func:`~zanzibar.games.dice421.solver.plan_go`, as bytes rows.

    The same backward induction with the same operations and the same tie rules
    (stop on a tie within 1e-12, else the smallest mask), keeping only the
    decisions: one ``bytes`` row per roll count, since indexing bytes gives a
    Python int several times faster than indexing a numpy array.
    """
    limit = stop.shape[0] - 1
    rows = [_STOP_ROW] * (limit + 1)
    value = stop[limit]
    for j in range(limit - 1, 0, -1):
        cont = _REROLLS @ value
        best = cont.argmax(axis=0)
        best_value = cont.max(axis=0)
        stop_better = stop[j] >= best_value - 1e-12
        value = np.where(stop_better, stop[j], best_value)
        rows[j] = np.where(stop_better, STOP_CODE, best + 1).astype(np.uint8).tobytes()
    return tuple(rows)


_STOP_ROW = bytes(N_THROWS)


@cache
def turn_model(config: Config) -> TurnModel:
    """The shared model of a set of options (plans are shared by all bots)."""
    return TurnModel(config)


class ExpertBot:
    """Plays each go by the exact plan for its context (see the module docstring)."""

    def __init__(self, config: Config, seed: int = 0) -> None:
        self.model = turn_model(config)
        self.seed = seed
        # The plan of the go in progress, and the state fields it was computed from.
        self._plan: tuple[bytes, ...] = ()
        self._key: tuple[object, ...] = ()

    def choose(self, state: State) -> Action:
        """The plan's decision for the current dice.

        A go's later decisions reuse its plan: the plan is a function of the
        state's ``done``, ``order``, ``tokens``, ``phase``, ``limit`` and ``pot``
        only, and while the same objects (and equal numbers) come back, the
        context need not be rebuilt. Identity is only a shortcut: any other
        state takes the full path, so the decision is always the plan's.
        """
        rolls = state.rolls
        if rolls == 0:
            return ROLL_ALL
        key = self._key
        if (
            not key
            or state.done is not key[0]
            or state.order is not key[1]
            or state.tokens is not key[2]
            or state.limit != key[3]
            or state.pot != key[4]
            or state.phase != key[5]
        ):
            self._plan = self.model.plan(state)
            self._key = (state.done, state.order, state.tokens, state.limit, state.pot, state.phase)
        return ROLL_BY_MASK[self._plan[rolls][_INDEX[state.dice]]]


def _throw(dice: Sequence[int]) -> Throw:
    return (dice[0], dice[1], dice[2])


class SimpleBot:
    """Rule of thumb: keep the dice of a 421, stop once safe enough. Fast and weaker."""

    def __init__(self, config: Config, seed: int = 0) -> None:
        self.power = strength(config.fiche_order)
        self.straight = self.power[(3, 2, 1)]
        self.seed = seed

    def choose(self, state: State) -> Action:
        """Stop when ahead of the weakest earlier throw, else chase 4-2-1."""
        if state.rolls == 0:
            return ROLL_ALL
        mine = self.power[_throw(state.dice)]
        if state.done:
            weakest = min(self.power[throw] for _, throw, _ in state.done)
            safe = mine > weakest
        else:
            safe = mine >= self.straight
        if safe:
            return STOP
        wanted = [4, 2, 1]
        reroll = []
        for position, face in enumerate(state.dice):
            if face in wanted:
                wanted.remove(face)
            else:
                reroll.append(position)
        return Roll(frozenset(reroll)) if reroll else STOP


class RandomBot:
    """Any legal action, from a seeded generator (a reference for benchmarks)."""

    def __init__(self, config: Config, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, state: State) -> Action:
        """A uniformly random legal action."""
        if state.rolls == 0:
            return ROLL_ALL
        return self.random.choice(ROLL_BY_MASK)


def make_bot(level: str, config: Config, seed: int = 0) -> ExpertBot | SimpleBot | RandomBot:
    """A bot by level name."""
    if level == "expert":
        return ExpertBot(config, seed)
    if level == "simple":
        return SimpleBot(config, seed)
    if level == "random":
        return RandomBot(config, seed)
    raise OptionError(
        f"unknown 421 bot level {level!r} (levels: {', '.join(LEVELS)})", option="level"
    )
