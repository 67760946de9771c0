"""421 in the terminal frame: choose dice to reroll, roll, keep your throw.

Keys: 1-6 choose a die to reroll (by position, AZERTY too), Shift+1-6 take
it back, Space says the choice, R or Enter rolls, K keeps the throw, D
repeats the last roll. Typed: ``roll [1 2 3]``, ``stop``, ``select N``,
``unselect N``, ``selection``, ``dice`` (and their French words).
"""

from __future__ import annotations

from collections.abc import Sequence

from zanzibar.cli.frame.plugin import Binding, CommandSpec, Ctx, Reply
from zanzibar.cli.frame.say import say
from zanzibar.cli.games.dice_selection import DiceSelection, faces, positions
from zanzibar.engine.events import Event
from zanzibar.games.dice421.state import ROLL_ALL, STOP, Roll, State

#: 421 is played with three dice.
DICE = 3
_DIGITS = tuple(str(n) for n in range(1, 7))


class Dice421Plugin:
    """The 421 part of the terminal: keys, commands and the dice to reroll."""

    game = "421"
    line_first = False

    def __init__(self) -> None:
        self.selection = DiceSelection()
        self.last_roll: Event | None = None

    def keys(self) -> Sequence[Binding]:
        """1-6, Shift+1-6, Space, R/Enter, K, D."""
        return (
            Binding(_DIGITS, "select {digit}", "cli-421-help-select", "cli-keys-digits"),
            Binding(
                tuple(f"shift+{d}" for d in _DIGITS),
                "unselect {digit}",
                "cli-421-help-unselect",
                "cli-keys-shift-digits",
            ),
            Binding(("space",), "selection", "cli-421-help-selection"),
            Binding(("r", "enter"), "roll", "cli-421-help-roll"),
            Binding(("k",), "stop", "cli-421-help-stop"),
            Binding(("d",), "dice", "cli-421-help-dice"),
        )

    def commands(self) -> Sequence[CommandSpec]:
        """The typed commands of 421."""
        return (
            CommandSpec("roll", "[1 2 3]"),
            CommandSpec("stop"),
            CommandSpec("select", "N"),
            CommandSpec("unselect", "N"),
            CommandSpec("selection"),
            CommandSpec("dice"),
        )

    def run(self, name: str, args: list[str], ctx: Ctx) -> Reply | None:
        """Run a 421 command."""
        state: State = ctx.state
        if name in {"select", "unselect"}:
            if not ctx.my_turn:
                return Reply([say(ctx.lang, "cli-421-not-yours")])
            if not state.dice:
                return Reply([say(ctx.lang, "cli-421-no-dice-yet")])
            chosen = positions(args, DICE)
            if name == "select":
                self.selection.add(chosen)
            else:
                self.selection.remove(chosen)
            return Reply([self.read_selection(ctx)])
        if name == "selection":
            return Reply([self.read_selection(ctx)])
        if name == "dice":
            if self.last_roll is None:
                return Reply([say(ctx.lang, "cli-421-no-roll")])
            rules = ctx.driver.rules
            return Reply([rules.render_event(self.last_roll, ctx.lang, ctx.seat, ctx.names)])
        if name == "roll":
            named = positions(args, DICE)
            if state.rolls == 0:
                return Reply(action=ROLL_ALL)
            chosen = named if args else self.selection.order
            return Reply(action=Roll(frozenset(chosen)) if chosen else ROLL_ALL)
        if name == "stop":
            if ctx.my_turn and state.rolls == 0:
                return Reply([say(ctx.lang, "cli-421-roll-first")])
            return Reply(action=STOP)
        return None

    def read_selection(self, ctx: Ctx) -> str:
        """The dice chosen to reroll, in typed order, and those kept."""
        state: State = ctx.state
        if not state.dice:
            return say(ctx.lang, "cli-421-no-dice-yet")
        if not self.selection.order:
            return say(ctx.lang, "cli-421-none-selected")
        rerolled = self.selection.values(state.dice)
        kept = self.selection.others(state.dice)
        return say(
            ctx.lang,
            "cli-421-selected",
            rerolled=faces(rerolled),
            count=len(rerolled),
            kept=faces(kept),
            kept_count=len(kept),
        )

    def parse_free(self, text: str, ctx: Ctx) -> Reply | None:
        """No free-form input in 421."""
        return None

    def on_events(self, events: Sequence[Event], ctx: Ctx) -> None:
        """A roll or a new turn clears the choice; remember the last roll."""
        for event in events:
            if event.kind == "roll":
                self.last_roll = event
                self.selection.clear()
            elif event.kind in {"next", "round_start", "turn_start", "turn_end"}:
                self.selection.clear()

    def says_turn(self, event: Event, seat: int) -> bool:
        """``next`` and ``turn_start`` already say who plays."""
        return event.kind in {"next", "turn_start"} and event.seat == seat

    def your_turn(self, ctx: Ctx) -> list[str]:
        """The game's own "your turn" read-out."""
        return [ctx.describe("turn")]

    def stopped(self, ctx: Ctx) -> str | None:
        """421 always plays to the end."""
        return None
