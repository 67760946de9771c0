"""Refusals raised with an English sentence, mapped back to their catalogue message.

Many refusals are raised as ``SalonError("conflict", f"seat {wanted} is taken")``
deep in the salon and the rules. Rather than threading a message id through
every call site, the English pattern of each ``error-*`` message is turned into
a regular expression once, and a refusal's English text is matched against
them: ``seat 3 is taken`` becomes ``Msg("error-seat-taken", seat=3)`` and can be
said in any language. New code passes a :class:`Msg` directly; a test scans the
sources so that every literal refusal has its message.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from fluent.syntax import ast

from zanzibar.l10n.catalogue import SOURCE_LANGUAGE, Catalogue, default_catalogue
from zanzibar.l10n.msg import Msg

#: Ids of messages that may be matched from English text.
PREFIX = "error-"


def _variable_of(expression: ast.BaseNode) -> str:
    """The variable a placeable shows: ``{ $id }``, or ``{ NUMBER($id, ...) }`` (formatting only)."""
    if isinstance(expression, ast.VariableReference):
        return str(expression.id.name)
    if (
        isinstance(expression, ast.FunctionReference)
        and expression.id.name == "NUMBER"
        and expression.arguments.positional
        and isinstance(expression.arguments.positional[0], ast.VariableReference)
    ):
        return str(expression.arguments.positional[0].id.name)
    return ""


def _regex(pattern: ast.Pattern) -> str | None:
    parts: list[str] = []
    for element in pattern.elements:
        if isinstance(element, ast.TextElement):
            parts.append(re.escape(element.value))
        elif isinstance(element, ast.Placeable) and _variable_of(element.expression):
            name = _variable_of(element.expression)
            if f"(?P<{name}>" in "".join(parts):
                parts.append(f"(?P={name})")
            else:
                parts.append(f"(?P<{name}>.+?)")
        elif isinstance(element, ast.Placeable) and isinstance(
            element.expression, ast.StringLiteral
        ):
            parts.append(re.escape(element.expression.parse()["value"]))
        else:
            return None
    # repr() quotes strings but not numbers: "'abc' is not ..." and "5.5 is not ..."
    return re.sub(
        r"'\(\?P<(\w+)>\.\+\?\)'",
        r"(?:'(?P<\1>.+?)'|(?P<\1__num>-?\\d+(?:\\.\\d+)?))",
        "".join(parts),
    )


@functools.cache
def _patterns(catalogue: Catalogue) -> Sequence[tuple[int, str, re.Pattern[str]]]:
    out = []
    for _, message in catalogue.languages[SOURCE_LANGUAGE].messages():
        name = message.id.name
        if not name.startswith(PREFIX) or message.value is None:
            continue
        source = _regex(message.value)
        if source is None:
            continue
        literal = len(re.sub(r"\(\?P[^)]*\)", "", source))
        out.append((literal, name, re.compile(source, re.DOTALL)))
    out.sort(key=lambda t: -t[0])
    return tuple(out)


#: Captures that name something (a game, a table, an HTTP status) rather than count it:
#: they stay text, so they are never grouped like quantities ("game 12345", not "12,345").
_NAMES = frozenset({"id", "table_id", "table", "game", "status"})


def _value(key: str, text: str) -> str | int:
    if key in _NAMES:
        return text
    return int(text) if re.fullmatch(r"-?\d{1,15}", text) else text


def from_english(text: str, catalogue: Catalogue | None = None, depth: int = 0) -> Msg | None:
    """The message whose English pattern ``text`` matches (the most specific one), or None.

    A captured part that is itself a refusal (``option 'x': 5 is above the
    maximum 3``) becomes a nested message, so it is translated too.

    >>> from_english("seat 3 is taken")
    Msg('error-seat-taken', wanted=3)
    """
    cat = catalogue or default_catalogue()
    for _, name, regex in _patterns(cat):
        found = regex.fullmatch(text)
        if found:
            args: dict[str, Any] = {}
            for key, value in found.groupdict().items():
                if value is None:
                    continue
                key = key.removesuffix("__num")
                inner = from_english(value, cat, depth + 1) if depth < 2 else None
                args[key] = inner if inner is not None else _value(key, value)
            return Msg(name, **args)
    return None


def say_english(text: str, lang: str, catalogue: Catalogue | None = None) -> str:
    """An English refusal said in ``lang`` through its message (unchanged if it has none).

    >>> say_english("seat 3 is taken", "fr")
    'la place 3 est prise'
    """
    msg = from_english(text, catalogue)
    if msg is None:
        return text
    from zanzibar.l10n.voice import Voice

    return Voice(lang, catalogue).say(msg)
