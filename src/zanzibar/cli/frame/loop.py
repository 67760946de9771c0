"""The terminal frame: one asyncio loop for every game, keys and lines, bots and server.

One loop holds the game. Inputs (keys from a terminal, typed lines from a
pipe, a script in tests) and the other players' steps (bots in worker
threads, a server's pushes) meet in it, so a key is answered at once, even
while bots play: S and T read the state that matches what was printed.

The frame owns what is the same in every game: F1 (short help), Ctrl+F1
and Shift+F1 (the rules), S, T, I, Q (then Y or O), ``:`` (type a command),
unknown keys ("Key F5 does nothing here; F1 for help."), the command words
of both languages, and "your turn" when play comes back to the human after
others acted. A :class:`~zanzibar.cli.frame.plugin.GamePlugin` brings the
rest.
"""

from __future__ import annotations

import asyncio
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zanzibar.cli.frame.drivers import Clock, Driver, RealClock
from zanzibar.cli.frame.keys import KeyDecoder, Layout
from zanzibar.cli.frame.plugin import Binding, CommandSpec, Ctx, GamePlugin, Reply
from zanzibar.cli.frame.say import attribute, say
from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.events import Event
from zanzibar.engine.i18n import LANGUAGES

#: The frame's own keys, the same in every game.
FRAME_KEYS: tuple[Binding, ...] = (
    Binding(("f1", "?"), "help", "cli-help-help"),
    Binding(("ctrl+f1", "shift+f1"), "rules", "cli-help-rules"),
    Binding(("s",), "scores", "cli-help-scores"),
    Binding(("t",), "turn", "cli-help-turn"),
    Binding(("i",), "status", "cli-help-status"),
    Binding(("up", "down"), "review", "cli-help-review", "cli-keys-arrows"),
    Binding((":",), "line", "cli-help-line"),
    Binding(("q",), "quit", "cli-help-quit"),
)
#: The frame's typed commands.
FRAME_COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("help"),
    CommandSpec("rules"),
    CommandSpec("scores"),
    CommandSpec("turn"),
    CommandSpec("status"),
    CommandSpec("quit"),
)
#: Keys that act at once even in a game whose other printable keys start a typed line.
_LINE_FIRST_KEYS = frozenset({"s", "t", "q", "?"})
#: Width of the help lines (short lines read well on a braille display).
HELP_WIDTH = 80


def command_words(specs: Sequence[CommandSpec]) -> dict[str, str]:
    """Every word of every language -> the command it names.

    The words are the message ``cli-cmd-NAME`` and its ``.also`` attribute
    (more words, space-separated). Raises ValueError if one word names two
    commands.
    """
    words: dict[str, str] = {}
    for spec in specs:
        for lang in LANGUAGES:
            found = [say(lang, f"cli-cmd-{spec.name}")]
            found += (attribute(lang, f"cli-cmd-{spec.name}", "also") or "").split()
            for word in found:
                word = word.lower()
                if words.get(word, spec.name) != spec.name:
                    raise ValueError(f"'{word}' names both {words[word]} and {spec.name}")
                words[word] = spec.name
    return words


def key_label(key: str, lang: str) -> str:
    """How a key is named to the player: ``Shift+1``, ``Maj+1``, ``Espace``, ``F1``, ``Q``.

    >>> key_label("shift+1", "fr"), key_label("space", "fr"), key_label("ctrl+f1", "en")
    ('Maj+1', 'Espace', 'Ctrl+F1')
    """
    if key.startswith("unknown:"):
        return say(lang, "cli-key-unknown")
    *modifiers, base = key.split("+") if key != "+" else ["+"]
    parts = [say(lang, f"cli-key-{modifier}") for modifier in modifiers]
    if len(base) == 1 or (base.startswith("f") and base[1:].isdigit()):
        parts.append(base.upper())
    else:
        parts.append(say(lang, f"cli-key-{base}"))
    return "+".join(parts)


#: Where a rule came from (``[seed 000]``, ``(graine 004 : 1500)``): for us, not for players.
_SOURCE_TAG = re.compile(r"\s*[\[(](?:seeds?|graines?) [^\])]*[\])]", re.IGNORECASE)
_SOURCE_WORD = re.compile(r"\b(?:seeds?|graines?) \d{3}\b", re.IGNORECASE)
#: A sentence ends at . ! ? (then a space and a capital letter or a digit); a clause at ;.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý0-9«])|(?<=;)\s+")
#: Longest line of the rules a player hears.
RULES_WIDTH = 110


def rules_lines(text: str) -> list[str]:
    """The rules as short lines: one sentence a line, long ones wrapped, no source tags.

    >>> rules_lines("- Six dice (seed 004). Points: 1 = 100. The seed 004 says nothing of it.")
    ['Six dice.', 'Points: 1 = 100.']
    """
    lines: list[str] = []
    for raw in text.splitlines():
        line = _SOURCE_TAG.sub("", raw).strip().lstrip("-").strip()
        for sentence in _SENTENCE_END.split(line):
            if not sentence or _SOURCE_WORD.search(sentence):
                continue
            lines.extend(textwrap.wrap(sentence, RULES_WIDTH))
    return lines


@dataclass
class Input:
    """One input: a key name, a typed line, or bot steps on a manual clock (``tick``)."""

    kind: str  # "key" | "line" | "tick"
    value: str = ""


class Frame:
    """Play one game in the terminal: one printed line per event and per answer."""

    def __init__(
        self,
        driver: Driver,
        plugin: GamePlugin,
        lang: str = "en",
        output: Callable[[str], None] | None = None,
        layout: str = "auto",
        delay: float = 0.0,
        clock: Clock | None = None,
        echo: Callable[[str], None] | None = None,
    ) -> None:
        self.driver = driver
        self.plugin = plugin
        self.lang = lang
        self.ctx = Ctx(driver, lang)
        self.output = output or (lambda line: print(line, flush=True))
        self.echo = echo
        self.layout = Layout(layout)
        self.delay = delay
        self.clock = clock or RealClock()
        self.key_map: dict[str, str] = {}
        for binding in (*plugin.keys(), *FRAME_KEYS):
            for key in binding.keys:
                self.key_map.setdefault(key, binding.command.format(digit=key[-1]))
        self.words = command_words((*plugin.commands(), *FRAME_COMMANDS))
        self.status: int | None = None
        self._line: list[str] | None = None
        self._confirming = False
        self._layout_said = False
        self._turn_seen: tuple[bool, int] = (False, -1)
        self._since_turn: list[Event] = []
        #: What the game said (events), for the arrow keys to walk back through.
        self.said: list[str] = []
        self._review = 0
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._done = asyncio.Event()

    # -- saying ------------------------------------------------------------------------

    def say(self, msg_id: str, **args: Any) -> None:
        """Print one of the frame's sentences."""
        self.output(say(self.lang, msg_id, **args))

    def show(self, events: Sequence[Event]) -> None:
        """Print each event as the game's sentence; say "your turn" if it came back."""
        if not events:
            return
        rules, names, seat = self.driver.rules, self.driver.names, self.driver.seat
        for event in events:
            line = rules.render_event(event, self.lang, seat, names)
            self.said.append(line)
            self.output(line)
        self._review = len(self.said)
        self.ctx.last_events = list(events)
        self.plugin.on_events(events, self.ctx)
        self._check_turn(events)

    def _check_turn(self, events: Sequence[Event]) -> None:
        """Say "your turn" when play comes to the human after others acted.

        Online the server's view (whose turn) may come after the events, so
        the events since the last check are kept until the turn is known.
        """
        self._since_turn.extend(events)
        now = (self.ctx.my_turn, self.ctx.seat)
        came_back = now[0] and now != self._turn_seen
        if came_back and not any(self.plugin.says_turn(e, now[1]) for e in self._since_turn):
            for line in self.plugin.your_turn(self.ctx):
                self.output(line)
        if now != self._turn_seen or now[0]:
            self._since_turn = []
        self._turn_seen = now

    def help_lines(self) -> list[str]:
        """F1: at most six short lines, the same shape in every game."""
        own = getattr(self.plugin, "help_lines", None)
        if own is not None:
            paragraphs: list[str] = own(self.lang)
        else:
            game = self._keys_text(self.plugin.keys())
            paragraphs = [say(self.lang, "cli-help-game-keys", keys=game)]
        frame_keys = FRAME_KEYS
        if self.plugin.line_first:
            frame_keys = tuple(
                Binding(keys, b.command, b.help, b.label)
                for b in FRAME_KEYS
                if (keys := tuple(k for k in b.keys if len(k) > 1 or k in _LINE_FIRST_KEYS))
            )
        frame = self._keys_text(frame_keys)
        paragraphs.append(say(self.lang, "cli-help-frame-keys", keys=frame))
        if self.plugin.line_first:
            paragraphs.append(say(self.lang, "cli-help-commands-typed"))
        paragraphs.append(say(self.lang, f"cli-help-layout-{self.layout.name}"))
        return [line for text in paragraphs for line in textwrap.wrap(text, HELP_WIDTH)]

    def _keys_text(self, bindings: Sequence[Binding]) -> str:
        parts = []
        for binding in bindings:
            if binding.label:
                keys = say(self.lang, binding.label)
            else:
                keys = say(
                    self.lang,
                    "cli-keys-or",
                    first=", ".join(key_label(k, self.lang) for k in binding.keys[:-1]),
                    last=key_label(binding.keys[-1], self.lang),
                    count=len(binding.keys),
                )
            parts.append(
                say(self.lang, "cli-key-does", keys=keys, what=say(self.lang, binding.help))
            )
        separator = say(self.lang, "cli-list-separator")
        return say(self.lang, "cli-list-end", items=separator.join(parts))

    def command_lines(self) -> list[str]:
        """Typed ``help``: every typed command in this language (the other's words work too)."""
        lines = [say(self.lang, "cli-commands-intro")]
        for spec in (*self.plugin.commands(), *FRAME_COMMANDS):
            msg = f"cli-cmd-{spec.name}"
            shown = " ".join(filter(None, (say(self.lang, msg), spec.args)))
            lines.append(
                say(
                    self.lang,
                    "cli-command-line",
                    command=shown,
                    what=attribute(self.lang, msg, "help") or "",
                )
            )
        return lines

    # -- inputs ------------------------------------------------------------------------

    async def handle(self, item: Input) -> None:
        """Act on one input."""
        if item.kind == "key":
            await self.on_key(item.value)
        elif item.kind == "line":
            await self.execute(item.value)
        elif item.kind == "tick":
            await self.tick(item.value)
        self._after_input()

    def _after_input(self) -> None:
        if self.status is None and self.driver.is_over():
            self._finish(0, "cli-over")

    async def on_key(self, key: str) -> None:
        """One key press."""
        if key in {"ctrl+c", "ctrl+d"}:
            self._finish(1, "cli-bye")
            return
        if self._confirming:
            self._confirming = False
            if key.lower() in {"y", "o"}:
                self._finish(1, "cli-bye")
            else:
                self.say("cli-stay")
            return
        if self._line is not None:
            await self._edit(key)
            return
        if (
            self.plugin.line_first
            and len(key) == 1
            and key not in _LINE_FIRST_KEYS
            and key != ":"
            and key.isprintable()
        ):
            self._open_line(key)
            return
        if key == "/" and hasattr(self.driver, "command"):
            self._open_line("/")  # online: a salon command (/friends, /msg NAME TEXT)
            return
        name = self.layout.digit_key(key) if len(key) == 1 else key
        if self.layout.switched and not self._layout_said:
            self._layout_said = True
            self.say("cli-layout-switched")
        command = self.key_map.get(name.lower() if len(name) == 1 else name)
        if command is None:
            self.say("cli-key-nothing", key=key_label(name, self.lang))
            return
        if command == "line":
            self._open_line("")
        elif command == "review":
            self._walk(-1 if name == "up" else 1)
        elif command == "quit":
            self._confirming = True
            self.say("cli-confirm-quit")
        elif command == "help":
            for line in self.help_lines():
                self.output(line)
        else:
            await self.execute(command, from_key=True)

    def _walk(self, step: int) -> None:
        """Up and Down: walk back and forth through what the game said."""
        if not self.said:
            self.say("cli-review-empty")
            return
        self._review = min(max(self._review + step, 0), len(self.said) - 1)
        self.output(self.said[self._review])

    def _open_line(self, first: str) -> None:
        self._line = list(first)
        if self.echo is not None:
            self.echo(say(self.lang, "cli-line-prompt") + first)

    async def _edit(self, key: str) -> None:
        assert self._line is not None
        if key == "enter":
            text, self._line = "".join(self._line), None
            if self.echo is not None:
                self.echo("\n")
            await self.execute(text)
        elif key == "escape":
            self._line = None
            self.say("cli-line-cancelled")
        elif key == "backspace":
            if self._line:
                self._line.pop()
                if self.echo is not None:
                    self.echo("\b \b")
        elif key == "space":
            self._line.append(" ")
            if self.echo is not None:
                self.echo(" ")
        elif len(key) == 1 and key.isprintable():
            self._line.append(key)
            if self.echo is not None:
                self.echo(key)
        elif key in self.key_map:
            # F1, Ctrl+F1, the arrows ... act while a line is being typed; the line stays
            typed, self._line = self._line, None
            await self.on_key(key)
            if self.status is None:
                self._line = typed

    async def execute(self, text: str, from_key: bool = False) -> None:
        """One typed command (or the command a key stands for)."""
        if "\x1b" in text and not from_key:
            await self._line_with_keys(text)
            return
        salon_command = getattr(self.driver, "command", None)  # online: /friends, /msg ...
        if salon_command is not None and not from_key and text.strip().startswith("/"):
            for line in await salon_command(text):
                self.output(line)
            return
        words = text.strip().split()
        if not words:
            return
        name = self.words.get(words[0].lower())
        args = words[1:]
        if not from_key and name is None and len(words) == 1 and len(words[0]) == 1:
            # one character typed on a line is the key of that character (s, t, d, 3 ...)
            key = self.layout.digit_key(words[0])
            command = self.key_map.get(key.lower())
            if command is not None and command not in {"line", "quit"}:
                if command == "help":
                    for line in self.help_lines():
                        self.output(line)
                    return
                await self.execute(command, from_key=True)
                return
        if not from_key and name is None:
            # a typed line may use AZERTY's digit row (chess squares): read it by position
            fixed = self.layout.typed_digits(text)
            if self.layout.switched and not self._layout_said:
                self._layout_said = True
                self.say("cli-layout-switched")
            text = fixed
            words = text.strip().split()
        try:
            reply = self._generic(name, args)
            if reply is None and name is not None:
                reply = self.plugin.run(name, args, self.ctx)
            if reply is None and name is None:
                reply = self.plugin.parse_free(text.strip(), self.ctx)
        except ZanzibarError as exc:
            self.output(exc.text(self.lang))
            return
        if reply is None:
            self.say("cli-unknown-command", command=words[0])
            return
        for line in reply.say:
            self.output(line)
        if reply.quit:
            self._finish(1, "cli-bye")
        elif reply.action is not None:
            await self.submit(reply.action)

    async def _line_with_keys(self, text: str) -> None:
        """A line holding escape sequences (F1 pressed where a line is read): keys, not words."""
        decoder = KeyDecoder()
        keys = decoder.feed(text.encode("utf-8")) + decoder.flush()
        rest = "".join(k if len(k) == 1 else " " if k == "space" else "" for k in keys)
        for key in keys:
            if len(key) > 1 and key != "space":
                await self.on_key(key)
        if rest.strip():
            await self.execute(rest)

    def _generic(self, name: str | None, args: list[str]) -> Reply | None:
        if name == "help":
            return Reply([*self.help_lines(), *self.command_lines()])
        if name == "rules":
            text = self.driver.rules.rules_text(self.lang, self.driver.options)
            return Reply(rules_lines(text))
        if name in {"scores", "turn", "status"}:
            return Reply([self.ctx.describe(name)])
        if name == "quit":
            return Reply(quit=True)
        return None

    async def submit(self, action: Any) -> None:
        """Send the human's action; print what followed."""
        if not self.ctx.my_turn:
            self.say("cli-not-your-turn")
            return
        try:
            events = self.driver.submit(action)
        except ZanzibarError as exc:
            self.output(exc.text(self.lang))
            return
        self.show(events)
        self._idle.clear()
        self._wake.set()

    async def tick(self, value: str) -> None:
        """``tick``, ``tick N`` or ``tick *``: bot steps on a manual clock (scripts, tests)."""
        count = 10**6 if value.strip() == "*" else int(value or "1")
        for _ in range(count):
            if self.status is not None or self.driver.is_over() or self.ctx.my_turn:
                break
            events = await self.driver.step()
            if not events:
                break
            self.show(events)
            self._after_input()
            self._check_stopped()

    # -- the other players ---------------------------------------------------------------

    async def others(self) -> None:
        """Let the other players act, one step at a time, until the game ends."""
        try:
            await self._others()
        except BaseException:
            self._done.set()
            self._idle.set()
            raise

    async def _others(self) -> None:
        while self.status is None and not self._done.is_set():
            if self.driver.is_over():
                self._finish(0, "cli-over")
                return
            if self._check_stopped():
                return
            if self.ctx.my_turn:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            events = await self.driver.step()
            if self.status is not None or self._done.is_set():
                return
            if events:
                self.show(events)
                await self.clock.sleep(self.delay)
            elif self.ctx.my_turn:
                self._check_turn([])  # online: the view saying whose turn came alone
            elif getattr(self.driver, "finished", lambda: False)():
                self._finish(0, "cli-replay-end")  # an unfinished game's replay ends here
                return
            elif not getattr(self.driver, "remote", False):
                # nobody to play (a capped local game): wait for the human
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()

    def _check_stopped(self) -> bool:
        reason = self.plugin.stopped(self.ctx)
        if reason is not None and self.status is None:
            self.output(reason)
            self.status = 0
            self._done.set()
            self._idle.set()
        return reason is not None

    def _finish(self, status: int, msg_id: str) -> None:
        if self.status is None:
            self.say(msg_id)
            self.status = status
            self._done.set()
            self._idle.set()
            self._wake.set()

    # -- running -------------------------------------------------------------------------

    def open(self) -> None:
        """Show what happened before the human's first move, and say whose turn it is."""
        self.show(self.driver.pending())
        if self.status is None and not self._turn_seen[0]:
            self._check_turn([])
        self._after_input()
        self._check_stopped()

    async def run(self, source: Any, auto_bots: bool = True, wait_idle: bool = False) -> int:
        """Play until the game ends (0) or the player quits or the input ends (1).

        ``source.next()`` gives the next :class:`Input` (None at the end);
        ``auto_bots``: the others play by themselves (off: ``tick`` inputs
        drive them); ``wait_idle``: wait for the human's turn before reading
        the next input (piped commands, typed ahead).
        """
        self.open()
        bots = asyncio.create_task(self.others()) if auto_bots else None
        try:
            while self.status is None:
                if wait_idle:
                    await self._idle.wait()
                    if self.status is not None:
                        break
                item = await self._first(source.next())
                if self.status is not None or self._done.is_set():
                    break
                if item is None:
                    self._finish(1, "cli-input-ended")
                    break
                await self.handle(item)
        finally:
            self._done.set()
            self._wake.set()
            if bots is not None:
                await asyncio.gather(bots, return_exceptions=True)
        if bots is not None and not bots.cancelled() and bots.exception() is not None:
            raise bots.exception()  # type: ignore[misc]
        return self.status if self.status is not None else 1

    async def _first(self, waiting: Any) -> Input | None:
        """The next input, unless the game ends first."""
        task = asyncio.ensure_future(waiting)
        done = asyncio.ensure_future(self._done.wait())
        finished, _ = await asyncio.wait({task, done}, return_when=asyncio.FIRST_COMPLETED)
        if task in finished:
            done.cancel()
            result: Input | None = task.result()
            return result
        task.cancel()
        return None
