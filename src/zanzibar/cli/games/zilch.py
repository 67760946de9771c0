"""Zilch in the terminal frame: choose dice to set aside, roll the others or bank.

Keys: 1-6 choose a die (by position, AZERTY too), Shift+1-6 take it back,
Space says the choice and its value, A chooses the best-scoring dice, R or
Enter rolls, B banks, D repeats the last roll. Typed: ``select N`` (or just
``N``), ``unselect N`` (or ``-N``), ``keep N ...``, ``selection``, ``all``,
``roll [N ...]``, ``bank [N ...]``, ``dice`` (and their French words).
"""

from __future__ import annotations

from collections.abc import Sequence

from zanzibar.cli.frame.plugin import Binding, CommandSpec, Ctx, Reply
from zanzibar.cli.frame.say import say
from zanzibar.cli.games.dice_selection import DiceSelection, faces, positions
from zanzibar.engine.events import Event
from zanzibar.games.zilch.scoring import counts_of
from zanzibar.games.zilch.state import ZilchAction, ZilchState

_DIGITS = tuple(str(n) for n in range(1, 7))


class ZilchPlugin:
    """The Zilch part of the terminal: keys, commands and the dice set aside."""

    game = "zilch"
    line_first = False

    def __init__(self) -> None:
        self.selection = DiceSelection()
        self.last_roll: tuple[int, ...] = ()

    def keys(self) -> Sequence[Binding]:
        """1-6, Shift+1-6, Space, A, R/Enter, B, D."""
        return (
            Binding(_DIGITS, "select {digit}", "cli-zilch-help-select", "cli-keys-digits"),
            Binding(
                tuple(f"shift+{d}" for d in _DIGITS),
                "unselect {digit}",
                "cli-zilch-help-unselect",
                "cli-keys-shift-digits",
            ),
            Binding(("space",), "selection", "cli-zilch-help-selection"),
            Binding(("a",), "all", "cli-zilch-help-all"),
            Binding(("r", "enter"), "roll", "cli-zilch-help-roll"),
            Binding(("b",), "bank", "cli-zilch-help-bank"),
            Binding(("d",), "dice", "cli-zilch-help-dice"),
        )

    def commands(self) -> Sequence[CommandSpec]:
        """The typed commands of Zilch."""
        return (
            CommandSpec("roll", "[N …]"),
            CommandSpec("bank", "[N …]"),
            CommandSpec("select", "N"),
            CommandSpec("unselect", "N"),
            CommandSpec("keep", "N …"),
            CommandSpec("all"),
            CommandSpec("selection"),
            CommandSpec("dice"),
        )

    def _choosing(self, ctx: Ctx) -> bool:
        state: ZilchState = ctx.state
        return state.phase == "choose" and ctx.my_turn

    def run(self, name: str, args: list[str], ctx: Ctx) -> Reply | None:
        """Run a Zilch command."""
        state: ZilchState = ctx.state
        if name in {"select", "unselect", "keep", "all"} and not self._choosing(ctx):
            return Reply([say(ctx.lang, "cli-zilch-nothing-to-choose")])
        if name == "select":
            self.selection.add(positions(args, len(state.roll)))
        elif name == "unselect":
            self.selection.remove(positions(args, len(state.roll)))
        elif name == "keep":
            self.selection.replace(positions(args, len(state.roll)))
        elif name == "all":
            from zanzibar.games.zilch.bots import selections

            keep, _ = max(selections(state), key=lambda kv: (kv[1], -len(kv[0])))
            self.selection.replace(keep)
        elif name == "selection":
            if not self._choosing(ctx):
                return Reply([say(ctx.lang, "cli-zilch-nothing-to-choose")])
        elif name == "dice":
            if not self.last_roll:
                return Reply([say(ctx.lang, "cli-zilch-no-roll")])
            return Reply([say(ctx.lang, "cli-zilch-last-roll", dice=faces(self.last_roll))])
        elif name in {"roll", "bank"}:
            if args and self._choosing(ctx):
                self.selection.replace(positions(args, len(state.roll)))
            if state.phase == "start":
                return Reply(action=ZilchAction(name))
            return Reply(action=ZilchAction(name, tuple(sorted(self.selection.order))))
        else:
            return None
        return Reply([self.read_selection(ctx)])

    def read_selection(self, ctx: Ctx) -> str:
        """The dice chosen, in typed order, with their positions and value."""
        state: ZilchState = ctx.state
        if not self.selection.order:
            return say(ctx.lang, "cli-zilch-none-selected")
        chosen = self.selection.values(state.roll)
        where = faces([i + 1 for i in self.selection.order])
        value = state.config.table.score(counts_of(chosen))
        if value is None:
            return say(
                ctx.lang,
                "cli-zilch-selected-bad",
                dice=faces(chosen),
                positions=where,
                count=len(chosen),
            )
        return say(
            ctx.lang,
            "cli-zilch-selected",
            dice=faces(chosen),
            positions=where,
            value=value,
            count=len(chosen),
        )

    def parse_free(self, text: str, ctx: Ctx) -> Reply | None:
        """``3`` chooses die 3, ``-3`` takes it back (as typed from a pipe)."""
        words = text.split()
        if words and all(w.isdigit() for w in words):
            return self.run("select", words, ctx)
        if words and all(w.startswith("-") and w[1:].isdigit() for w in words):
            return self.run("unselect", [w[1:] for w in words], ctx)
        return None

    def on_events(self, events: Sequence[Event], ctx: Ctx) -> None:
        """A new roll clears the choice and is remembered."""
        for event in events:
            if event.kind == "roll":
                self.last_roll = tuple(event.get("dice", ()))
                self.selection.clear()
            elif event.kind in {"zilch", "bank"}:
                self.selection.clear()

    def says_turn(self, event: Event, seat: int) -> bool:
        """Zilch's ``turn`` event comes only once the player rolls: it never says it first."""
        return False

    def your_turn(self, ctx: Ctx) -> list[str]:
        """The game's own "your turn" read-out."""
        return [ctx.describe("turn")]

    def stopped(self, ctx: Ctx) -> str | None:
        """Zilch always plays to the end."""
        return None
