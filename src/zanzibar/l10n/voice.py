"""Turning messages into sentences for one listener.

A :class:`Voice` speaks one language; :meth:`Voice.say` formats a :class:`Msg`
for a :class:`Listener` (their seat and the players' names), so the same event
reads "You bank 300" to its player and "Anna marque 300" to a French spectator.

Players never get silence or a raw id: a message missing in their language is
said in English and logged once. Tests run strict (``ZANZIBAR_L10N_STRICT=1`` or
:func:`set_strict`), where a missing message, a missing variable or any Fluent
error raises :class:`L10nError` instead.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fluent.runtime.resolver import MAX_PART_LENGTH

from zanzibar.l10n import catalogue as _catalogue
from zanzibar.l10n.catalogue import SOURCE_LANGUAGE, Catalogue
from zanzibar.l10n.msg import AnyOf, Msg, Seat

log = logging.getLogger(__name__)

_strict = os.environ.get("ZANZIBAR_L10N_STRICT", "") not in ("", "0")
_logged: set[tuple[str, str]] = set()
#: How many sentences a catalogue remembers (``Catalogue.said``) before starting afresh.
_SAID_MAX = 20_000


class L10nError(Exception):
    """A message could not be said exactly (strict mode only)."""


def set_strict(on: bool) -> bool:
    """Turn strict mode on or off for every Voice; returns the previous setting."""
    global _strict
    before, _strict = _strict, on
    return before


def is_strict() -> bool:
    """Whether missing messages and format errors raise."""
    return _strict


@dataclass(frozen=True)
class Listener:
    """Who hears a sentence: their seat (``None`` for spectators and replays) and the names."""

    seat: int | None = None
    names: Sequence[str] = ()

    def name(self, seat: int) -> str:
        """A seat's display name, or a numbered fallback ("#3")."""
        if 0 <= seat < len(self.names) and self.names[seat]:
            return str(self.names[seat])
        return f"#{seat + 1}"


NOBODY = Listener()


class Voice:
    """Says messages in one language.

    >>> Voice("fr").say(Msg("voice-test-tokens", n=0))
    '0 jeton'
    >>> Voice("fr").say(Msg("voice-test-turn", name=Seat(0)), Listener(1, ["Anna", "Bruno"]))
    "Au tour d'Anna."
    """

    def __init__(
        self, lang: str, catalogue: Catalogue | None = None, *, strict: bool | None = None
    ) -> None:
        self.catalogue = catalogue or _catalogue.default_catalogue()
        self.strict = _strict if strict is None else strict
        if lang not in self.catalogue.languages:
            if self.strict:
                raise L10nError(f"no messages for language {lang!r}")
            lang = SOURCE_LANGUAGE
        self.lang = lang

    # -- saying --------------------------------------------------------------------

    def say(self, msg: Msg | str, listener: Listener = NOBODY, remember: bool = True) -> str:
        """The sentence of ``msg`` (a Msg, or a plain id with no arguments).

        Sentences are remembered (a bounded cache): Fluent's resolver is slow,
        and games say the same things often ("Your turn: up to 3 rolls.").
        They are remembered under the message and listener, and also under
        the message and its resolved arguments, so that every listener who
        hears the same words ("Anna rolls 4, 2, 1" for all but Anna) costs
        one formatting, not one each.

        ``remember=False``: a sentence said once for good (a table's history item,
        whose words the table keeps itself) is neither looked up nor remembered;
        the messages inside it still are. The words are the same either way.
        """
        if isinstance(msg, str):
            msg = Msg(msg)
        seats = msg.seats()
        if not seats:  # no seat in it at all: every listener hears the same words
            listener = NOBODY
        elif listener.seat is not None and listener.seat not in seats:
            listener = Listener(None, listener.names)  # not named: hears what a spectator hears
        if not remember:
            return self._said_once(msg, listener)
        said = self.catalogue.said
        key: Any = (self.lang, self.strict, msg, listener)
        try:  # hashed once: the message's and the listener's hashes are Python calls
            known = said.get(key)
        except TypeError:  # a listener's names in a list, say: not remembered
            key = known = None
        if known is not None:
            return known
        args = self._args(msg.args, listener)
        words = _words_key(self.lang, self.strict, msg.id, args)
        text = said.get(words) if words is not None else None
        if text is None:
            text = self._format(msg.id, args)
        if len(said) >= _SAID_MAX:
            said.clear()
        if key is not None:
            said[key] = text
        if words is not None:
            said[words] = text
        return text

    def _said_once(self, msg: Msg, listener: Listener) -> str:
        """A sentence said once for good (``remember=False``), from its message's recipe.

        A message's words depend on the listener's names only through the seats'
        names; where each of those is a blank of the message's template (a variable
        Fluent only prints: :meth:`Catalogue.plain_variables`), the template and the
        other blanks' words are the same whatever the names. The recipe (the template,
        then per blank its words or the seat whose name goes there) is made once per
        language, message and listener's seat (``listener``: as :meth:`say` made it),
        and each sentence is the template filled in: a table's "Anna rolled 4 2 1" and
        another's "Bruno rolled 4 2 1" read one recipe. A message without one (a
        seat's name Fluent does more than print, a seat inside another message or a
        list, an argument of another kind) is said step by step: the same words.
        """
        recipes = self.catalogue.recipes
        key = (self.lang, self.strict, msg, listener.seat)
        try:
            recipe = recipes.get(key)
        except TypeError:  # an argument that cannot be part of a key
            recipe = _NO_RECIPE
        if recipe is None:
            recipe = self._recipe(msg, listener)
            if len(recipes) >= _SAID_MAX:
                recipes.clear()
            recipes[key] = recipe
        if recipe is not _NO_RECIPE:
            template, parts = recipe
            name = listener.name
            text = _fill(template, [p if type(p) is str else name(p) for p in parts])
            if len(text) <= MAX_PART_LENGTH:
                return text
        return self._format(msg.id, self._args(msg.args, listener))

    def _recipe(self, msg: Msg, listener: Listener) -> Any:
        """``msg``'s template for ``listener``'s seat and what fills each blank: words, or
        the index of the seat whose name goes there (``_NO_RECIPE``: none; see
        :meth:`_said_once`). Built as :meth:`_args` and :meth:`_format` build the key of
        the template, in one pass; the first sentence of a template makes it."""
        lang, catalogue = self.lang, self.catalogue
        plan = catalogue.plans.get((lang, msg.id))
        if plan is None:
            plan = self._plan(msg.id)
        if plan is _MISSING or not plan[2]:
            return _NO_RECIPE
        plain: frozenset[str] = plan[2]
        args = msg.args
        names: list[str] = []
        parts: list[str | int] = []  # a blank's words, or the seat whose name goes there
        rest: list[tuple[str, type, Any]] = []
        whos: set[str] = set()
        for key, value in args.items():  # in _args's order, each as _format takes it
            kind = type(value)
            if kind is Seat:
                who = "who" if key == "name" else f"{key}_who"
                if key not in plain or who in args or who in whos:
                    return _NO_RECIPE
                whos.add(who)
                names.append(key)
                parts.append(value.index)
                you = "you" if value.index == listener.seat else "name"
                if who in plain:
                    names.append(who)
                    parts.append(you)
                else:
                    rest.append((who, str, you))
                continue
            if kind is Msg and not value.seats():  # the same words for every listener
                value, kind = self.say(value, listener), str
            elif kind is not str and kind is not int:
                return _NO_RECIPE
            if key not in plain:
                rest.append((key, kind, value))
            elif kind is int:  # written as _format writes it
                names.append(key)
                parts.append(catalogue.number_text(lang, value))
            else:
                names.append(key)
                parts.append(value)
        if not names:
            return _NO_RECIPE
        words = (lang, self.strict, msg.id, tuple(names), tuple(rest))
        templates = catalogue.templates
        if words not in templates:  # the first sentence of its kind makes the template
            self._format(msg.id, self._args(msg.args, listener))
        template = templates.get(words)
        return _NO_RECIPE if template is None else (template, tuple(parts))

    def text(self, msg_id: str, /, **args: Any) -> str:
        """Shortcut: ``say(Msg(msg_id, **args))`` for a listener-free message."""
        return self.say(Msg(msg_id, **args))

    def join(self, items: Sequence[str], *, choice: bool = False) -> str:
        """Words joined as a sentence joins them: "a, b and c" / "a, b et c".

        With ``choice`` they are alternatives: "a, b or c" / "a, b ou c".
        """
        words = [str(i) for i in items]
        if not words:
            return self._format("voice-list-none", {})
        if len(words) == 1:
            return words[0]
        sep = self._format("voice-list-separator", {})
        last = "voice-list-or" if choice else "voice-list-and"
        return self._format(last, {"head": sep.join(words[:-1]), "last": words[-1]})

    # -- internals -----------------------------------------------------------------

    def _args(self, raw: Mapping[str, Any], listener: Listener) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in raw.items():
            kind = type(value)
            if kind is str or kind is int:  # what _value gives back unchanged (not a bool)
                out[key] = value
            elif isinstance(value, Seat):
                out[key] = listener.name(value.index)
                you = (
                    "you" if listener.seat is not None and value.index == listener.seat else "name"
                )
                out["who" if key == "name" else f"{key}_who"] = you
            else:
                out[key] = self._value(value, listener)
        return out

    def _value(self, value: Any, listener: Listener) -> Any:
        if isinstance(value, Msg):
            return self.say(value, listener)
        if isinstance(value, Seat):
            if listener.seat is not None and value.index == listener.seat:
                return self._format("voice-you", {})
            return listener.name(value.index)
        if isinstance(value, _SEQUENCES):
            words = [str(self._value(v, listener)) for v in value]
            return self.join(words, choice=isinstance(value, AnyOf))
        if value is None:
            return ""
        if isinstance(value, bool):
            return int(value)
        return value

    def _format(self, msg_id: str, args: dict[str, Any]) -> str:
        """The sentence of ``msg_id`` with these (resolved) arguments.

        Most sentences come from a template already made (:meth:`_templated`):
        this finds it in one pass over the arguments (each plain number written,
        each plain text a blank, the rest part of the template's key) and fills
        it in. Anything else (no template yet, a missing message, an argument that
        cannot be part of a key) is said by :meth:`_format_fully`, the same words
        (the same key, built the same way, finds the same template).
        """
        lang = self.lang
        catalogue = self.catalogue
        plan = catalogue.plans.get((lang, msg_id))
        if plan is None or plan is _MISSING or not plan[2]:
            return self._format_fully(msg_id, args)
        plain = plan[2]
        names: list[str] = []
        values: list[str] = []
        rest: list[tuple[str, type, Any]] = []
        for k, v in args.items():
            kind = type(v)
            if k in plain:
                if kind is int:  # a plain number: its text (as _format_fully writes it)
                    names.append(k)
                    values.append(catalogue.number_text(lang, v))
                    continue
                if kind is str:
                    names.append(k)
                    values.append(v)
                    continue
            rest.append((k, kind, v))
        if not names:
            return self._format_fully(msg_id, args)
        try:
            template = catalogue.templates.get(
                (lang, self.strict, msg_id, tuple(names), tuple(rest))
            )
        except TypeError:  # an argument that cannot be part of a key
            template = None
        if template is None:
            return self._format_fully(msg_id, args)
        text = _fill(template, values)
        # Fluent refuses a placeable longer than this: let it say (and refuse) such a text.
        return text if len(text) <= MAX_PART_LENGTH else self._format_fully(msg_id, args)

    def _format_fully(self, msg_id: str, args: dict[str, Any]) -> str:
        """:meth:`_format` step by step: the plan, the numbers, the template made if new."""
        plan = self.catalogue.plans.get((self.lang, msg_id))
        if plan is None:
            plan = self._plan(msg_id)
        if plan is _MISSING:
            return self._format_missing(msg_id, args)
        bundle, pattern, plain = plan
        if plain:  # numbers Fluent would only print: their text, remembered
            written: dict[str, Any] | None = None
            for name in plain:
                value = args.get(name)
                if type(value) is int:
                    if written is None:
                        written = dict(args)
                    written[name] = self.catalogue.number_text(self.lang, value)
            if written is not None:
                args = written
            filled = self._templated(bundle, pattern, self.lang, msg_id, args, plain)
            if filled is not None:
                return filled
        text, errors = bundle.format_pattern(pattern, args)
        if errors:
            self._problem(
                f"{self.lang} {msg_id}: {'; '.join(map(str, errors))}", (self.lang, msg_id)
            )
        return str(text)

    def _plan(self, msg_id: str) -> Any:
        """What saying ``msg_id`` in this language needs, looked up once per catalogue:
        its bundle, its value's pattern and its plain variables; ``_MISSING`` when the
        message or its value is missing here (then :meth:`_format_missing` says why)."""
        lang = self.lang
        bundle = self.catalogue.bundle(lang)
        plan: Any = _MISSING
        if bundle.has_message(msg_id):
            pattern = bundle.get_message(msg_id).value
            if pattern is not None:
                plan = (bundle, pattern, self.catalogue.plain_variables(lang, msg_id))
        plans = self.catalogue.plans
        if len(plans) >= _SAID_MAX:  # bounded whatever ids a caller asks for
            plans.clear()
        plans[(lang, msg_id)] = plan
        return plan

    def _format_missing(self, msg_id: str, args: dict[str, Any]) -> str:
        """A message missing in this language (said in English), or with no value."""
        lang = self.lang
        bundle = self.catalogue.bundle(lang)
        if not bundle.has_message(msg_id):
            self._problem(f"message {msg_id!r} is missing in {lang!r}", (lang, msg_id))
            if not self.catalogue.bundle(SOURCE_LANGUAGE).has_message(msg_id):
                return msg_id
            return Voice(SOURCE_LANGUAGE, self.catalogue, strict=self.strict)._format(msg_id, args)
        self._problem(f"message {msg_id!r} has no value in {lang!r}", (lang, msg_id))
        return msg_id

    def _templated(
        self,
        bundle: Any,
        pattern: Any,
        lang: str,
        msg_id: str,
        args: dict[str, Any],
        plain: frozenset[str],
    ) -> str | None:
        """The sentence from the message's template, or None to let Fluent say it.

        A variable Fluent only prints (:meth:`Catalogue.plain_variables`) whose
        value is a text cannot change anything else of the sentence: the words
        around it depend only on the other arguments. So Fluent says the message
        once per language and set of other arguments with markers in place of
        those texts; that template is kept (``Catalogue.templates``) and each
        sentence is the template filled in. "You rolled 4 2 1, a 421 (roll 1 of
        3)" and every other roll of every table read from one template per
        language and listener kind, where Fluent's resolver walked the pattern
        tree for each of them (a third of the salon's CPU per action).
        """
        names: list[str] = []
        values: list[str] = []
        rest: list[tuple[str, type, Any]] = []
        for k, v in args.items():
            if type(v) is str and k in plain:
                names.append(k)
                values.append(v)
            else:
                rest.append((k, type(v), v))
        if not names:
            return None
        blanks = tuple(names)
        key: Any = (lang, self.strict, msg_id, blanks, tuple(rest))
        try:
            hash(key)
        except TypeError:
            return None
        templates = self.catalogue.templates
        template = templates.get(key, _UNKNOWN)
        if template is _UNKNOWN:
            template = _template(bundle, pattern, args, blanks)
            if template is not None and _fill(template, values) != _fluent_text(
                bundle, pattern, args
            ):
                template = None  # never expected; Fluent's own words are the reference
            if len(templates) >= _SAID_MAX:
                templates.clear()
            templates[key] = template
        if template is None:
            return None
        text = _fill(template, values)
        # Fluent refuses a placeable longer than this: let it say (and refuse) such a text.
        return text if len(text) <= MAX_PART_LENGTH else None

    def _problem(self, text: str, key: tuple[str, str]) -> None:
        if self.strict:
            raise L10nError(text)
        if key not in _logged:
            _logged.add(key)
            log.warning("l10n: %s", text)


#: The voices :func:`voice_of` made, by (language, strictness).
_voices: dict[tuple[str, bool], Voice] = {}


def voice_of(lang: str) -> Voice:
    """``Voice(lang)`` on the shipped catalogue, made once per language and strictness
    (the salon says a sentence per item and audience: making a Voice for each cost
    a catalogue look-up and a language check every time).

    >>> voice_of("fr") is voice_of("fr"), voice_of("fr").lang
    (True, 'fr')
    """
    key = (lang, _strict)
    voice = _voices.get(key)
    if voice is None or voice.catalogue is not _catalogue.default_catalogue():
        if len(_voices) >= 64:  # a few languages; bounded whatever a caller asks for
            _voices.clear()
        voice = _voices[key] = Voice(lang)
    return voice


#: ``isinstance`` with a tuple of types (a ``tuple | list`` in the call builds a union
#: object each time: this runs for every argument of every sentence).
_SEQUENCES = (tuple, list)

#: ``Catalogue.plans``: the message, or its value, is missing in that language.
_MISSING: Any = object()
#: ``Catalogue.templates`` has no entry for a key yet.
_UNKNOWN: Any = object()
#: ``Catalogue.recipes``: the message is said step by step (``Voice._said_once``).
_NO_RECIPE: Any = object()
#: Marks a blank while Fluent says a template (private-use characters, never in a catalogue).
_MARK = re.compile("\ue000([0-9]+)\ue001")


def _template(
    bundle: Any, pattern: Any, args: dict[str, Any], blanks: tuple[str, ...]
) -> str | None:
    """A message's sentence with ``{0}``, ``{1}``... where the ``blanks`` are (None if
    Fluent reports an error: then every sentence of it is said by Fluent, errors and all)."""
    marked = dict(args)
    for index, name in enumerate(blanks):
        marked[name] = f"\ue000{index}\ue001"
    text, errors = bundle.format_pattern(pattern, marked)
    if errors or not isinstance(text, str):
        return None
    escaped = text.replace("{", "{{").replace("}", "}}")
    return _MARK.sub(lambda found: "{" + found[1] + "}", escaped)


def _fill(template: str, values: list[str]) -> str:
    """A template's blanks filled in, in order."""
    return template.format(*values)


def _fluent_text(bundle: Any, pattern: Any, args: dict[str, Any]) -> str | None:
    """What Fluent itself says (None on an error)."""
    text, errors = bundle.format_pattern(pattern, args)
    return None if errors else str(text)


def _words_key(lang: str, strict: bool, msg_id: str, args: dict[str, Any]) -> Any:
    """A cache key of a sentence by its resolved arguments (None if one is unhashable).

    The type of each value is part of the key: 1, 1.0 and True are equal in
    Python but Fluent may format them differently.
    """
    key = ("words", lang, strict, msg_id, tuple((k, type(v), v) for k, v in args.items()))
    try:
        hash(key)
    except TypeError:
        return None
    return key


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-ÝÉ0-9«“])")


def sentence_lines(texts: Iterable[str]) -> list[str]:
    """Texts cut into one sentence a line, so that rules are read in short pieces.

    >>> sentence_lines(["Two phases. The charge: first.", "One round."])
    ['Two phases.', 'The charge: first.', 'One round.']
    """
    lines: list[str] = []
    for text in texts:
        lines.extend(part.strip() for part in _SENTENCE_END.split(text) if part.strip())
    return lines


def say(msg: Msg | str, lang: str, listener: Listener = NOBODY) -> str:
    """One-off: ``Voice(lang).say(msg, listener)``."""
    return Voice(lang).say(msg, listener)
