"""421 / Zanzibar behind the engine's :class:`~zanzibar.engine.rules.GameRules` contract.

``RULES`` is the object the registry hands out (``get_rules("421")``). The
moving parts live in :mod:`~zanzibar.games.dice421.flow`, the sentences in
:mod:`~zanzibar.games.dice421.messages`, the texts in
:mod:`~zanzibar.games.dice421.help`.

>>> from zanzibar.engine.match import Match
>>> match = Match(RULES, 3, seed=1)
>>> match.to_act, RULES.legal_actions(match.state)
(0, (Roll(reroll=frozenset({0, 1, 2})),))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

from zanzibar.engine.chance import DiceRequest
from zanzibar.engine.errors import IllegalActionError, NotYourTurnError, OptionError
from zanzibar.engine.events import Event
from zanzibar.engine.rules import Bot, GameRules, Outcome, Transition
from zanzibar.games.dice421 import flow, messages
from zanzibar.games.dice421 import help as texts
from zanzibar.games.dice421.combos import REROLL_MASKS, mask_positions
from zanzibar.games.dice421.options import OPTIONS, Config
from zanzibar.games.dice421.state import (
    ROLL_ALL,
    STOP,
    Action,
    Roll,
    State,
    Stop,
    action_from_json,
    action_to_json,
    evolve,
    state_from_json,
    state_to_json,
)
from zanzibar.l10n import Msg, Texts

#: Every action after the first roll: the seven ways to reroll, then stopping.
_LATER_ACTIONS: tuple[Action, ...] = (
    *(Roll(frozenset(mask_positions(mask))) for mask in REROLL_MASKS),
    STOP,
)
_FIRST_ACTIONS: tuple[Action, ...] = (ROLL_ALL,)

MIN_SEATS, MAX_SEATS = 2, 10

#: Every valid outcome of 1, 2 or 3 dice (a set look-up is the fastest check).
_OUTCOMES: dict[int, frozenset[tuple[int, ...]]] = {
    n: frozenset(product(range(1, 7), repeat=n)) for n in (1, 2, 3)
}

_INT_ONLY = {int}  # 1.0 and True equal 1 in a set: the types are checked too

#: The three possible dice requests (requests are immutable values).
_REQUESTS: dict[int, DiceRequest] = {n: DiceRequest(n) for n in (1, 2, 3)}

#: Die positions of every valid reroll, sorted (anything else is refused).
_POSITIONS: dict[frozenset[int], tuple[int, ...]] = {
    frozenset(mask_positions(mask)): mask_positions(mask) for mask in REROLL_MASKS
}


class Dice421Rules(GameRules[State, Action]):
    """The rules of 421 with both rule sets (presets ``salon`` and ``bar``)."""

    name = "421"
    title = Texts(Msg("games-title-dice421"))
    options = OPTIONS

    # -- setting up -------------------------------------------------------------

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """2 to 10 players (seed 002; the Salon's text sets no limit)."""
        return (MIN_SEATS, MAX_SEATS)

    def new_state(self, seats: int, options: Mapping[str, Any]) -> State:
        """The state before the first roll."""
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise OptionError(f"421 is played by 2 to 10 players, not {seats}", option="seats")
        return flow.new_state(seats, Config.from_options(options))

    # -- whose move --------------------------------------------------------------

    def to_act(self, state: State) -> int | None:
        """The rolling player, unless dice are pending, a play-off runs or the game is over."""
        # State.current inlined: this runs several times per step.
        if state.pending or state.playoff or state.phase == "over" or state.phase == "draw":
            return None
        index = len(state.done)
        order = state.order
        return order[index] if index < len(order) else None

    def chance_request(self, state: State) -> DiceRequest | None:
        """Pending rerolls, or one throw of three dice for a play-off contender."""
        if state.pending:
            return _REQUESTS[len(state.pending)]
        if state.playoff and state.phase != "over":
            return _REQUESTS[3]
        return None

    def is_over(self, state: State) -> bool:
        """True once a player has lost the game."""
        return state.phase == "over"

    def outcome(self, state: State) -> Outcome:
        """One loser, everybody else won."""
        if state.loser is None:
            raise IllegalActionError("the game is not over")
        winners = tuple(s for s in range(state.seats) if s != state.loser)
        summary = {"rounds_lost": list(state.losses), "turns": state.turns}
        return Outcome(winners, (state.loser,), False, summary)

    # -- moving -----------------------------------------------------------------

    def legal_actions(self, state: State) -> Sequence[Action]:
        """The first roll throws all three dice; later any 1-3 dice, or stop."""
        if self.to_act(state) is None:
            return ()
        return _FIRST_ACTIONS if state.rolls == 0 else _LATER_ACTIONS

    def apply(self, state: State, seat: int, action: Action) -> Transition[State]:
        """Like :meth:`GameRules.apply` (same refusals), with the checks done once."""
        if state.phase == "over":
            raise IllegalActionError("the game is over")
        current = self.to_act(state)
        if current is None:
            raise NotYourTurnError("the game is waiting for dice, not for a player")
        if seat != current:
            raise NotYourTurnError(f"it is seat {current + 1}'s turn, not seat {seat + 1}'s")
        return self._act(state, action)

    def apply_action(self, state: State, action: Action) -> Transition[State]:
        """Roll (the dice then come as a chance outcome) or stop."""
        if self.to_act(state) is None:
            raise IllegalActionError("nobody may act now")
        return self._act(state, action)

    def _act(self, state: State, action: Action) -> Transition[State]:
        """Apply an action of the player to act (already checked to be someone)."""
        if type(action) is Stop:
            if state.rolls == 0:
                raise IllegalActionError("roll at least once before stopping")
            events: list[Event] = []
            return Transition(flow.stop(state, events), tuple(events))
        if type(action) is not Roll:
            raise IllegalActionError(f"not a 421 action: {action!r}")
        positions = _POSITIONS.get(action.reroll)
        if positions is None:
            raise IllegalActionError("reroll one, two or three of the dice 1, 2, 3")
        if state.rolls == 0 and len(positions) != 3:
            raise IllegalActionError("the first roll throws all three dice")
        if state.rolls >= state.limit:
            raise IllegalActionError(f"no rolls left: the limit is {state.limit}")
        return Transition(evolve(state, pending=positions))

    def apply_chance(self, state: State, outcome: tuple[int, ...]) -> Transition[State]:
        """Dice landed: a player's (re)roll, or a play-off throw."""
        if state.pending:
            count = len(state.pending)
        elif state.playoff and state.phase != "over":
            count = 3
        else:
            raise IllegalActionError("no dice are expected now")
        outcome = tuple(outcome)
        if outcome not in _OUTCOMES[count] or set(map(type, outcome)) != _INT_ONLY:
            raise IllegalActionError(f"expected {count} dice from 1 to 6, got {outcome!r}")
        events: list[Event] = []
        if state.pending:
            new = flow.roll_dice(state, outcome, events)
        else:
            new = flow.playoff_roll(state, outcome, events)
        return Transition(new, tuple(events))

    # -- serialising ------------------------------------------------------------

    def action_to_json(self, action: Action) -> Any:
        """``{"type": "roll", "dice": [0, 2]}`` or ``{"type": "stop"}``."""
        return action_to_json(action)

    def action_from_json(self, obj: Any) -> Action:
        """Parse an action (IllegalActionError if malformed)."""
        return action_from_json(obj)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The whole state as JSON."""
        return state_to_json(state)

    def state_from_json(self, obj: Any) -> State:
        """Inverse of state_to_json (CorruptDataError if invalid)."""
        return state_from_json(obj)

    # -- words ------------------------------------------------------------------

    def message_of(self, event: Event) -> Msg:
        """One message per event (words in l10n/<lang>/dice421.ftl)."""
        return messages.message_of(event)

    def describe(
        self, state: State, topic: str, lang: str, viewer: int | None, names: Sequence[str]
    ) -> str:
        """Topics: scores, turn, status, dice."""
        return messages.describe(state, topic, lang, viewer, names)

    def help_text(self, lang: str) -> str:
        """The game's keys and commands."""
        return texts.help_text(lang)

    def rules_text(self, lang: str, options: Mapping[str, Any]) -> str:
        """The rules in force with their sources."""
        return texts.rules_text(lang, options)

    # -- bots -------------------------------------------------------------------

    def bot_levels(self) -> Sequence[str]:
        """``expert`` (exact probabilities, the default), ``simple``, ``random``."""
        from zanzibar.games.dice421.bots import LEVELS

        return LEVELS

    def make_bot(self, level: str, options: Mapping[str, Any], seed: int = 0) -> Bot[State, Action]:
        """A bot of one level for these options."""
        from zanzibar.games.dice421.bots import make_bot

        return make_bot(level, Config.from_options(options), seed)


RULES = Dice421Rules()
