"""The rules of Zilch 5000 (seed 004) and its Farkle cousins, as a GameRules object.

A turn: roll six dice; a roll with no scoring die is a zilch (the turn's
points are lost); otherwise set aside at least one scoring die, every die set
aside scoring, then roll the others or bank (if the turn total reaches the
threshold: 500 for a first bank, 350 afterwards in seed 004). Setting aside
all the dice ("hot dice") gives six fresh dice. The first to reach the target
gives every other player one last turn; the highest score wins; tied leaders
each take another turn until the tie breaks.

>>> from zanzibar.engine.match import Match
>>> m = Match(RULES, 2, seed=1)
>>> m.state.phase, m.to_act
('start', 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from zanzibar.engine.chance import DiceRequest
from zanzibar.engine.errors import IllegalActionError
from zanzibar.engine.events import Event
from zanzibar.engine.options import OptionSchema
from zanzibar.engine.rules import TOPIC_ALIASES, Bot, GameRules, Outcome, Transition
from zanzibar.games.zilch import help as help_texts
from zanzibar.games.zilch import messages as zilch_messages
from zanzibar.games.zilch.messages import dice_words
from zanzibar.games.zilch.options import PENALTY_STREAK, SCHEMA
from zanzibar.games.zilch.scoring import counts_of
from zanzibar.games.zilch.state import (
    ZilchAction,
    ZilchState,
    new_state,
    state_from_json,
    state_to_json,
)
from zanzibar.l10n import Listener, Msg, Seat, Texts, Voice

MAX_SEATS = 8


class ZilchRules(GameRules[ZilchState, ZilchAction]):
    """Zilch 5000 and the Farkle family (see :mod:`zanzibar.games.zilch.options`)."""

    name = "zilch"
    title = Texts(Msg("games-title-zilch"))
    options: OptionSchema = SCHEMA

    # -- setting up -----------------------------------------------------------------

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """Seed 004: two or more players (up to eight at a table)."""
        return (2, MAX_SEATS)

    def new_state(self, seats: int, options: Mapping[str, Any]) -> ZilchState:
        """Everyone at 0, not entered; seat 0 starts."""
        return new_state(seats, options)

    # -- whose move ----------------------------------------------------------------

    def to_act(self, state: ZilchState) -> int | None:
        """The current player, unless dice are awaited or the game is over."""
        return state.current if state.phase in ("start", "choose") else None

    def chance_request(self, state: ZilchState) -> DiceRequest | None:
        """The dice to roll in the ``rolling`` phase."""
        return DiceRequest(state.dice_left) if state.phase == "rolling" else None

    def is_over(self, state: ZilchState) -> bool:
        """True once a winner is known."""
        return state.phase == "over"

    def outcome(self, state: ZilchState) -> Outcome:
        """The winner and the final scores."""
        winners = state.winners
        losers = tuple(s for s in range(state.seats) if s not in winners)
        return Outcome(
            winners, losers, False, {"scores": list(state.scores), "turns": list(state.turns)}
        )

    # -- moving --------------------------------------------------------------------

    def legal_actions(self, state: ZilchState) -> Sequence[ZilchAction]:
        """Every scoring selection of the roll, each with roll and (where allowed) bank."""
        if state.phase == "start":
            return [ZilchAction("roll")]
        if state.phase != "choose":
            return []
        table = state.config.table
        actions: list[ZilchAction] = []
        for size in range(1, len(state.roll) + 1):
            for keep in combinations(range(len(state.roll)), size):
                value = table.score(counts_of(state.roll[i] for i in keep))
                if value is None:
                    continue
                actions.append(ZilchAction("roll", keep))
                if self._bank_problem(state, keep, value) is None:
                    actions.append(ZilchAction("bank", keep))
        return actions

    def _bank_problem(self, state: ZilchState, keep: tuple[int, ...], value: int) -> str | None:
        """Why banking after setting aside ``keep`` is not allowed, or None."""
        total = state.turn_points + value
        needed = state.threshold()
        if total < needed:
            first = "" if state.entered[state.current] else " for a first bank"
            return (
                f"banking needs at least {needed} points in the turn{first}; you would have {total}"
            )
        if len(keep) == len(state.roll) and state.config["hot_dice_compulsory"]:
            return "after hot dice you must roll all six dice again"
        return None

    def selection_value(self, state: ZilchState, keep: Sequence[int]) -> int:
        """Score of setting aside the dice at ``keep``; IllegalActionError if not allowed."""
        if state.phase != "choose":
            raise IllegalActionError("there are no dice to set aside now")
        if not keep:
            raise IllegalActionError("set aside at least one scoring die")
        for i in keep:
            if not 0 <= i < len(state.roll):
                raise IllegalActionError(
                    f"there is no die {i + 1}: {len(state.roll)} dice were rolled"
                )
        if len(set(keep)) != len(keep):
            raise IllegalActionError("a die cannot be set aside twice")
        chosen = [state.roll[i] for i in keep]
        value = state.config.table.score(counts_of(chosen))
        if value is None:
            raise IllegalActionError(
                f"{dice_words(sorted(chosen))} do not all score: only scoring dice may be set aside"
            )
        return value

    def apply_action(self, state: ZilchState, action: ZilchAction) -> Transition[ZilchState]:
        """Start a turn, or set aside dice and roll or bank."""
        if not isinstance(action, ZilchAction):
            raise IllegalActionError(f"not a Zilch action: {action!r}")
        if state.phase == "start":
            if action.type != "roll" or action.keep:
                raise IllegalActionError("a turn starts by rolling the six dice")
            event = Event("turn", state.current, {"stage": state.stage})
            return Transition(
                state.with_changes(phase="rolling", dice_left=6, kept=(), roll=()), (event,)
            )
        if state.phase != "choose":
            raise IllegalActionError("no action is possible now")
        value = self.selection_value(state, action.keep)
        seat = state.current
        chosen = tuple(state.roll[i] for i in action.keep)
        points = state.turn_points + value
        left = len(state.roll) - len(chosen)
        events = [Event("set_aside", seat, {"dice": list(chosen), "points": value, "turn": points})]
        if action.type == "bank":
            problem = self._bank_problem(state, action.keep, value)
            if problem is not None:
                raise IllegalActionError(problem)
            return self._bank(state, points, events)
        kept = state.kept + chosen
        if left == 0:
            events.append(Event("hot_dice", seat, {"turn": points}))
            left, kept = 6, ()
        new = state.with_changes(
            phase="rolling", turn_points=points, dice_left=left, kept=kept, roll=()
        )
        return Transition(new, tuple(events))

    def _bank(self, state: ZilchState, points: int, events: list[Event]) -> Transition[ZilchState]:
        seat = state.current
        scores = list(state.scores)
        scores[seat] += points
        entered = list(state.entered)
        entered[seat] = True
        streaks = list(state.streaks)
        streaks[seat] = 0
        events.append(Event("bank", seat, {"points": points, "total": scores[seat]}))
        new = state.with_changes(
            scores=tuple(scores), entered=tuple(entered), streaks=tuple(streaks), turn_points=0
        )
        target = new.config["target"]
        if new.stage == "main" and scores[seat] >= target:
            if new.config["end"] == "immediate":
                events.append(Event("game_over", None, {"winners": [seat], "score": scores[seat]}))
                return Transition(self._finish(new, (seat,)), tuple(events))
            order = tuple((seat + k) % new.seats for k in range(1, new.seats))
            events.append(Event("final_round", seat, {"score": scores[seat]}))
            new = new.with_changes(
                stage="final", trigger=seat, queue=order, contenders=tuple(range(new.seats))
            )
        return self._end_turn(new, events)

    def _finish(self, state: ZilchState, winners: tuple[int, ...]) -> ZilchState:
        return state.with_changes(
            phase="over",
            winners=winners,
            roll=(),
            kept=(),
            queue=(),
            turn_points=0,
            turns=self._counted(state),
        )

    @staticmethod
    def _counted(state: ZilchState) -> tuple[int, ...]:
        turns = list(state.turns)
        turns[state.current] += 1
        return tuple(turns)

    def _end_turn(self, state: ZilchState, events: list[Event]) -> Transition[ZilchState]:
        """Pass the dice on: to the next seat, the next final-round player, or a tie-break."""
        base = state.with_changes(turn_points=0, roll=(), kept=(), dice_left=6)
        if base.stage == "main":
            nxt = (state.current + 1) % state.seats
            new = base.with_changes(current=nxt, phase="start", turns=self._counted(state))
            return Transition(new, tuple(events))
        if base.queue:
            new = base.with_changes(
                current=base.queue[0],
                queue=base.queue[1:],
                phase="start",
                turns=self._counted(state),
            )
            return Transition(new, tuple(events))
        best = max(base.scores[s] for s in base.contenders)
        leaders = tuple(s for s in base.contenders if base.scores[s] == best)
        if len(leaders) == 1:
            events.append(Event("game_over", None, {"winners": list(leaders), "score": best}))
            return Transition(self._finish(base, leaders), tuple(events))
        order = tuple(sorted(leaders, key=lambda s: (s - state.current - 1) % state.seats))
        events.append(Event("tie_break", None, {"seats": list(leaders), "score": best}))
        new = base.with_changes(
            stage="tiebreak",
            contenders=order,
            current=order[0],
            queue=order[1:],
            phase="start",
            turns=self._counted(state),
        )
        return Transition(new, tuple(events))

    def apply_chance(self, state: ZilchState, outcome: tuple[int, ...]) -> Transition[ZilchState]:
        """The dice fall: a zilch ends the turn, anything else waits for a choice."""
        if state.phase != "rolling":
            raise IllegalActionError("no dice are awaited")
        DiceRequest(state.dice_left).validate(outcome)
        seat = state.current
        roll_event = Event("roll", seat, {"dice": list(outcome), "turn": state.turn_points})
        if not state.config.table.is_zilch(counts_of(outcome)):
            return Transition(
                state.with_changes(phase="choose", roll=tuple(outcome)), (roll_event,)
            )
        events = [
            roll_event,
            Event("zilch", seat, {"lost": state.turn_points, "dice": list(outcome)}),
        ]
        streaks = list(state.streaks)
        streaks[seat] += 1
        scores = list(state.scores)
        penalty = state.config["zilch_penalty"]
        if penalty and streaks[seat] >= PENALTY_STREAK:
            scores[seat] -= penalty
            streaks[seat] = 0
            events.append(Event("penalty", seat, {"points": penalty, "total": scores[seat]}))
        new = state.with_changes(streaks=tuple(streaks), scores=tuple(scores), roll=tuple(outcome))
        return self._end_turn(new, events)

    # -- serialising ---------------------------------------------------------------

    def action_to_json(self, action: ZilchAction) -> Any:
        """``{"type": "roll" | "bank", "keep": [indices from 0]}``."""
        return action.to_json()

    def action_from_json(self, obj: Any) -> ZilchAction:
        """Parse an action; IllegalActionError if malformed."""
        return ZilchAction.from_json(obj)

    def state_to_json(self, state: ZilchState) -> dict[str, Any]:
        """Lossless JSON."""
        return state_to_json(state)

    def state_from_json(self, obj: Any) -> ZilchState:
        """Inverse of state_to_json; CorruptDataError if invalid."""
        return state_from_json(obj)

    def view(self, state: ZilchState, viewer: int | None, lang: str) -> dict[str, Any]:
        """The default view plus the bank threshold of the player to act."""
        out = super().view(state, viewer, lang)
        out["threshold"] = state.threshold() if state.phase != "over" else None
        return out

    # -- words ---------------------------------------------------------------------

    def message_of(self, event: Event) -> Msg:
        """One message per event (words in l10n/<lang>/zilch.ftl)."""
        return zilch_messages.message_of(event)

    def describe(
        self, state: ZilchState, topic: str, lang: str, viewer: int | None, names: Sequence[str]
    ) -> str:
        """Answer "scores", "turn", "status" or "dice"."""
        voice, listener = Voice(lang), Listener(viewer, tuple(names))
        topic = TOPIC_ALIASES.get(topic.strip().lower(), topic.strip().lower())
        msgs = self.describe_msgs(state, topic)
        sep = "zilch-scores-separator" if topic == "scores" else "zilch-separator"
        return voice.say(sep).join(voice.say(m, listener) for m in msgs)

    def describe_msgs(self, state: ZilchState, topic: str) -> list[Msg]:
        """The read-out of ``topic`` as messages, one per clause."""
        if topic == "scores":
            return [
                Msg(
                    "zilch-scores-entry" if state.entered[seat] else "zilch-scores-not-entered",
                    name=Seat(seat),
                    score=state.scores[seat],
                )
                for seat in range(state.seats)
            ]
        if topic == "turn":
            return self._describe_turn(state)
        if topic == "status":
            return [self._describe_status(state)]
        if topic == "dice":
            parts = [
                Msg("zilch-dice-roll", dice=dice_words(state.roll))
                if state.roll and state.phase == "choose"
                else Msg("zilch-dice-none")
            ]
            if state.kept:
                parts.append(Msg("zilch-dice-kept", dice=dice_words(state.kept)))
            return parts
        return [Msg("zilch-unknown-topic", topic=topic)]

    def _describe_turn(self, state: ZilchState) -> list[Msg]:
        if state.phase == "over":
            return [Msg("zilch-describe-over")]
        seat = Seat(state.current)
        if state.phase == "start":
            parts = [Msg("zilch-describe-start", name=seat)]
        elif state.phase == "rolling":
            parts = [
                Msg(
                    "zilch-describe-rolling",
                    name=seat,
                    dice=state.dice_left,
                    points=state.turn_points,
                )
            ]
        else:
            parts = [
                Msg(
                    "zilch-describe-choose",
                    name=seat,
                    points=state.turn_points,
                    dice=dice_words(state.roll),
                )
            ]
        if state.kept:
            parts.append(Msg("zilch-describe-kept", dice=dice_words(state.kept)))
        if state.threshold():
            parts.append(Msg("zilch-describe-threshold", needed=state.threshold()))
        return parts

    def _describe_status(self, state: ZilchState) -> Msg:
        if state.phase == "over":
            best = max(state.scores[s] for s in state.winners)
            return Msg("zilch-status-over", winners=_plain(state.winners), score=best)
        if state.stage == "main":
            return Msg("zilch-status-main", name=Seat(state.current), target=state.config["target"])
        if state.stage == "final":
            trigger = state.trigger if state.trigger is not None else 0
            still = (state.current, *state.queue)
            return Msg(
                "zilch-status-final",
                trigger=_plain((trigger,)),
                score=state.scores[trigger],
                queue=_plain(still),
            )
        return Msg("zilch-status-tiebreak", names=_plain(state.contenders))

    def help_text(self, lang: str) -> str:
        """Keys and typed commands."""
        return help_texts.help_text(lang)

    def rules_text(self, lang: str, options: Mapping[str, Any]) -> str:
        """The rules in force, with sources."""
        return help_texts.rules_text(lang, self.options.validate(options))

    # -- bots ----------------------------------------------------------------------

    def bot_levels(self) -> Sequence[str]:
        """``expected`` (default), ``optimal`` (two players), ``simple``."""
        from zanzibar.games.zilch.bots import LEVELS

        return LEVELS

    def make_bot(
        self, level: str, options: Mapping[str, Any], seed: int = 0
    ) -> Bot[ZilchState, ZilchAction]:
        """A bot of this level for these options."""
        from zanzibar.games.zilch.bots import make_bot

        return make_bot(level, self.options.validate(options), seed)


def _plain(seats: Sequence[int]) -> tuple[Msg, ...]:
    """Seats read by their names, never as "you" (statuses list players by name)."""
    return tuple(Msg("voice-seat-name", name=Seat(s)) for s in seats)


RULES = ZilchRules()
