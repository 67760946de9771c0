"""A generic line-oriented terminal client for turn-based dice games.

Every event is printed as one line (the game's ``render_event`` sentence), so a
screen reader reads the game as it happens. In a real terminal single keys act
at once (``1`` selects die 1, F1 gives help); when standard input is not a
terminal the client reads one typed command per line, so a game can be
scripted through a pipe.

The client is split in three so that other games and an online mode can reuse it:

* a **driver** says where actions go and where events come from. :class:`LocalDriver`
  runs a :class:`~zanzibar.engine.match.Match` with bots in this process; an online
  driver would send actions to a server and return the events it broadcasts. The
  game loop only talks to the :class:`Driver` protocol.
* a **command table** (:class:`GameCommands`), supplied by the game's cli module,
  lists the game's keys (:class:`KeyBinding`) and turns typed commands into actions
  or into answers. It may keep interface state (the dice selected for a reroll).
* the :class:`TerminalClient` owns the loop: read a key or a line, map keys to
  commands, handle the generic commands itself, hand the rest to the table, send
  actions through the driver and print the events that come back.

API (stable; the Zilch client relies on it):

``Driver`` (protocol)
    ``rules``, ``names``, ``seat`` attributes; ``state`` property;
    ``to_act() -> int | None``; ``is_over() -> bool``;
    ``submit(action) -> list[Event]`` (the human's action and everything that followed);
    ``advance() -> list[Event]`` (let the other seats play until the human must act);
    optionally ``options`` (the options in force, for ``rules``; the defaults otherwise).
``LocalDriver(match, bots, seat, names)``
    the driver for a local Match; ``bots`` maps seat -> Bot.
``KeyBinding(keys, command, help)``
    ``keys`` are key names from :mod:`zanzibar.cli.keys`; ``command`` is the typed
    command the key stands for; ``{key}`` and ``{digit}`` in it are replaced by the
    key's name and its last character, so ``KeyBinding(("1", "shift+1"), "select {digit}",
    ...)`` makes both keys type ``select 1``; ``help`` is ``{"en": ..., "fr": ...}``.
``Reply(lines=(), action=None, quit=False)``
    what a command produced: lines to print, an action to submit, or the wish to quit.
``GameCommands`` (protocol)
    ``bindings() -> Sequence[KeyBinding]``: the game's own keys and commands;
    ``command_help() -> Sequence[tuple[str, dict[str, str]]]``: typed commands with help;
    ``run(command, args, session) -> Reply | None``: handle a game command (``None``: unknown);
    ``on_events(events, session) -> None``: called with every batch of events.
``Session``
    what a command sees: ``driver``, ``lang``, ``names``, ``seat``, ``state``,
    ``my_turn``, ``last_events``, and ``describe(topic)`` (asks the rules).
``TerminalClient(driver, commands, lang="en", output=None, interactive=None, delay=0.0,
layout="qwerty")``
    ``run(lines=None) -> int`` plays until the game ends or the player quits; ``lines``
    replaces standard input (tests). Exit status 0 when the game ended, 1 if the
    player quit or the input ended first. ``layout="azerty"`` reads the unshifted
    digit row of a French keyboard (& é " ' ( -) as the digits 1-6.

Generic commands and keys handled here for every game: ``help`` (F1, ``?``, ``h``:
every key and command of the game's table and of this list), ``rules`` (Ctrl+F1:
``rules.rules_text`` with the options in force), ``scores`` (S), ``turn`` (T),
``status`` (I) (``rules.describe`` topics), ``quit`` (Q then Y, or O in French;
Ctrl+C or Ctrl+D at once).

>>> KeyBinding(("r", "enter"), "roll", {"en": "roll", "fr": "lancer"}).label("fr")
'R, Enter: lancer'
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.engine.rules import Bot, GameRules

# -- where actions go ---------------------------------------------------------------


class Driver(Protocol):
    """Where the human's actions go and where the game's events come from."""

    rules: GameRules[Any, Any]
    names: Sequence[str]
    seat: int

    @property
    def state(self) -> Any:
        """The current game state (as far as this client knows it)."""
        ...

    def to_act(self) -> int | None:
        """The seat to act, or None."""
        ...

    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    def submit(self, action: Any) -> list[Event]:
        """Send the human's action; return its events (raise ZanzibarError if refused)."""
        ...

    def advance(self) -> list[Event]:
        """Let every other seat act until the human must act or the game ends."""
        ...


class LocalDriver:
    """Drive a local :class:`Match`: bots play their seats, the human plays ``seat``."""

    def __init__(
        self,
        match: Match[Any, Any],
        bots: Mapping[int, Bot[Any, Any]],
        seat: int,
        names: Sequence[str],
    ) -> None:
        self.match = match
        self.rules: GameRules[Any, Any] = match.rules
        self.bots = dict(bots)
        self.seat = seat
        self.names: Sequence[str] = list(names)
        self._shown = 0

    @property
    def state(self) -> Any:
        """The match's state."""
        return self.match.state

    @property
    def options(self) -> Mapping[str, Any]:
        """The options in force (for the ``rules`` command)."""
        return self.match.options

    def to_act(self) -> int | None:
        """The seat to act."""
        return self.match.to_act

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.match.is_over

    def _fresh_events(self) -> list[Event]:
        events = [event for _, event in self.match.events[self._shown :]]
        self._shown = len(self.match.events)
        return events

    def submit(self, action: Any) -> list[Event]:
        """Apply the human's action (refusals change nothing)."""
        self.match.act(self.seat, action)
        return self._fresh_events()

    def advance(self) -> list[Event]:
        """Bots play until the human must act; the events so far, in order."""
        events = self._fresh_events()
        while not self.match.is_over:
            seat = self.match.to_act
            if seat is None or seat not in self.bots:
                break
            self.match.act(seat, self.bots[seat].choose(self.match.state))
            events.extend(self._fresh_events())
        return events


# -- the game's table of keys and commands ------------------------------------------------


@dataclass(frozen=True)
class KeyBinding:
    """Keys that stand for one typed command, with a line of help per language."""

    keys: tuple[str, ...]
    command: str
    help: Mapping[str, str]

    def label(self, lang: str) -> str:
        """``"R, Enter: roll"``: the keys and what they do."""
        keys = ", ".join(_key_label(key) for key in self.keys)
        return f"{keys}: {self.help.get(lang) or self.help.get('en', '')}"


def _key_label(key: str) -> str:
    special = {"space": "Space", "enter": "Enter", "f1": "F1", "ctrl+f1": "Ctrl+F1"}
    if key in special:
        return special[key]
    if key.startswith("shift+"):
        return "Shift+" + key[6:].upper()
    return key.upper() if len(key) == 1 else key


@dataclass(frozen=True)
class Reply:
    """What a command produced: lines to print, an action to submit, or quitting."""

    lines: tuple[str, ...] = ()
    action: Any = None
    quit: bool = False


@dataclass
class Session:
    """What a game command can see of the running client."""

    driver: Driver
    lang: str
    last_events: list[Event] = field(default_factory=list)

    @property
    def names(self) -> Sequence[str]:
        """Display names by seat."""
        return self.driver.names

    @property
    def seat(self) -> int:
        """The human's seat."""
        return self.driver.seat

    @property
    def state(self) -> Any:
        """The current game state."""
        return self.driver.state

    @property
    def my_turn(self) -> bool:
        """True when the human must act."""
        return not self.driver.is_over() and self.driver.to_act() == self.driver.seat

    def describe(self, topic: str) -> str:
        """Ask the rules a question about the state."""
        return self.driver.rules.describe(self.state, topic, self.lang, self.seat, self.names)


class GameCommands(Protocol):
    """A game's keys and typed commands (supplied by the game's cli module)."""

    def bindings(self) -> Sequence[KeyBinding]:
        """The game's own keys, each standing for a typed command."""
        ...

    def command_help(self) -> Sequence[tuple[str, Mapping[str, str]]]:
        """The game's typed commands with one line of help per language."""
        ...

    def run(self, command: str, args: list[str], session: Session) -> Reply | None:
        """Handle a game command; ``None`` if the command is not the game's."""
        ...

    def on_events(self, events: Sequence[Event], session: Session) -> None:
        """Called with every batch of events (to reset a selection, say)."""
        ...


# -- the loop ---------------------------------------------------------------------------

#: Keys every game has, and the typed command they stand for.
GENERIC_BINDINGS: tuple[KeyBinding, ...] = (
    KeyBinding(
        ("f1", "?", "h"),
        "help",
        {"en": "list every key and command", "fr": "liste toutes les touches et commandes"},
    ),
    KeyBinding(
        ("ctrl+f1",),
        "rules",
        {"en": "the rules in force", "fr": "les règles en vigueur"},
    ),
    KeyBinding(
        ("s",),
        "scores",
        {"en": "say everyone's score", "fr": "annonce le score de chacun"},
    ),
    KeyBinding(("t",), "turn", {"en": "say whose turn it is", "fr": "annonce à qui est le tour"}),
    KeyBinding(
        ("i",),
        "status",
        {"en": "say the state of play", "fr": "annonce l'état de la partie"},
    ),
    KeyBinding(
        ("q",), "quit", {"en": "quit (asks to confirm)", "fr": "quitter (demande confirmation)"}
    ),
)

_GENERIC_COMMANDS: dict[str, tuple[str, Mapping[str, str]]] = {
    "help": ("help", {"en": "list every key and command", "fr": "liste touches et commandes"}),
    "rules": ("rules", {"en": "the rules in force", "fr": "les règles en vigueur"}),
    "scores": ("scores", {"en": "everyone's score", "fr": "le score de chacun"}),
    "turn": ("turn", {"en": "whose turn it is", "fr": "à qui est le tour"}),
    "status": ("status", {"en": "the state of play", "fr": "l'état de la partie"}),
    "quit": ("quit", {"en": "leave the game", "fr": "quitter la partie"}),
}

_ALIASES = {"?": "help", "aide": "help", "regles": "rules", "règles": "rules", "exit": "quit"}

_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "keys": "Keys:",
        "commands": "Typed commands (one per line when input is not a terminal):",
        "unknown": "Unknown command '{command}'. Type help for the list.",
        "not_your_turn": "It is not your turn.",
        "confirm_quit": "Press Y to quit, any other key to go on.",
        "bye": "You left the game.",
        "input_ended": "Input ended before the game did.",
        "over": "The game is over.",
    },
    "fr": {
        "keys": "Touches :",
        "commands": "Commandes tapées (une par ligne quand l'entrée n'est pas un terminal) :",
        "unknown": "Commande inconnue « {command} ». Tapez help pour la liste.",
        "not_your_turn": "Ce n'est pas votre tour.",
        "confirm_quit": "Appuyez sur O pour quitter, une autre touche pour continuer.",
        "bye": "Vous avez quitté la partie.",
        "input_ended": "L'entrée s'est terminée avant la partie.",
        "over": "La partie est terminée.",
    },
}


def _say(lang: str, key: str, **values: Any) -> str:
    return (_TEXT.get(lang) or _TEXT["en"])[key].format(**values)


class TerminalClient:
    """Play one game in the terminal: one printed line per event."""

    def __init__(
        self,
        driver: Driver,
        commands: GameCommands,
        lang: str = "en",
        output: Callable[[str], None] | None = None,
        interactive: bool | None = None,
        delay: float = 0.0,
        layout: str = "qwerty",
    ) -> None:
        self.driver = driver
        self.commands = commands
        self.session = Session(driver, lang)
        self.lang = lang
        self._output = output or self._print
        self.interactive = sys.stdin.isatty() if interactive is None else interactive
        self.delay = delay
        self.layout = layout
        self._key_map: dict[str, str] = {}
        for binding in (*commands.bindings(), *GENERIC_BINDINGS):
            for key in binding.keys:
                command = binding.command.format(key=key, digit=key[-1])
                self._key_map.setdefault(key, command)

    @staticmethod
    def _print(line: str) -> None:
        print(line, flush=True)

    # -- output --------------------------------------------------------------------

    def show_events(self, events: Sequence[Event]) -> None:
        """Print each event as one sentence and let the game's table see them."""
        rules, names = self.driver.rules, self.driver.names
        for event in events:
            self._output(rules.render_event(event, self.lang, self.driver.seat, names))
            if self.delay and self.interactive:
                time.sleep(self.delay)
        self.session.last_events = list(events)
        self.commands.on_events(events, self.session)

    def help_lines(self) -> list[str]:
        """Every key and every typed command, in the client's language."""
        lines = [_say(self.lang, "keys")]
        for binding in (*self.commands.bindings(), *GENERIC_BINDINGS):
            lines.append("  " + binding.label(self.lang))
        lines.append(_say(self.lang, "commands"))
        for name, help_ in (
            *self.commands.command_help(),
            *_GENERIC_COMMANDS.values(),
        ):
            lines.append(f"  {name}: {help_.get(self.lang) or help_.get('en', '')}")
        return lines

    # -- commands ------------------------------------------------------------------

    def execute(self, line: str) -> bool:
        """Run one typed command; return False when the player quits."""
        words = line.strip().split()
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        command = _ALIASES.get(command, command)
        if command == "quit":
            self._output(_say(self.lang, "bye"))
            return False
        if self._generic(command):
            return True
        try:
            reply = self.commands.run(command, args, self.session)
        except ZanzibarError as exc:
            self._output(exc.message)
            return True
        if reply is None:
            self._output(_say(self.lang, "unknown", command=command))
            return True
        for text in reply.lines:
            self._output(text)
        if reply.quit:
            return False
        if reply.action is not None:
            self._submit(reply.action)
        return True

    def _generic(self, command: str) -> bool:
        if command == "help":
            for text in self.help_lines():
                self._output(text)
            return True
        if command == "rules":
            options = getattr(self.driver, "options", None)
            if options is None:
                options = self.driver.rules.options.resolve()
            for line in self.driver.rules.rules_text(self.lang, options).splitlines():
                self._output(line)
            return True
        if command in {"scores", "turn", "status"}:
            self._output(self.session.describe(command))
            return True
        return False

    def _submit(self, action: Any) -> None:
        if not self.session.my_turn:
            self._output(_say(self.lang, "not_your_turn"))
            return
        try:
            events = self.driver.submit(action)
        except ZanzibarError as exc:
            self._output(exc.message)
            return
        self.show_events(events)
        self.show_events(self.driver.advance())

    # -- the loop ------------------------------------------------------------------

    def run(self, lines: Iterable[str] | None = None) -> int:
        """Play until the game ends (0) or the player quits or input ends (1)."""
        if lines is None and self.interactive:
            return self._run_keys()
        if self._open():
            return self._finish()
        source: Iterator[str] = iter(lines) if lines is not None else iter(sys.stdin)
        for line in source:
            if not self.execute(line):
                return 1
            if self.driver.is_over():
                return self._finish()
        self._output(_say(self.lang, "input_ended"))
        return 1

    def _open(self) -> bool:
        """Show what happened before the human's first move; True if the game is over."""
        opening = self.driver.advance()
        self.show_events(opening)
        if self.driver.is_over():
            return True
        if self.session.my_turn and not opening:
            self._output(self.session.describe("turn"))
        return False

    def _finish(self) -> int:
        self._output(_say(self.lang, "over"))
        return 0

    def _run_keys(self) -> int:  # pragma: no cover - needs a real terminal
        from zanzibar.cli.keys import raw_terminal, read_key

        fd = sys.stdin.fileno()
        layout = self.layout
        with raw_terminal(fd):
            # Keys typed from now on arrive one by one, unechoed: only then say "your turn".
            if self._open():
                return self._finish()
            while not self.driver.is_over():
                key = read_key(fd, layout)
                if key in {"ctrl+c", "ctrl+d"}:
                    self._output(_say(self.lang, "bye"))
                    return 1
                command = self._key_map.get(key)
                if command is None:
                    continue
                if command == "quit":
                    self._output(_say(self.lang, "confirm_quit"))
                    if read_key(fd, layout) in {"y", "o"}:
                        self._output(_say(self.lang, "bye"))
                        return 1
                    continue
                self.execute(command)
        return self._finish()
