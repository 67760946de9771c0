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

from fluent.syntax import ast

from zanzibar.l10n.catalogue import SOURCE_LANGUAGE, Catalogue, default_catalogue
from zanzibar.l10n.msg import Msg

#: Ids of messages that may be matched from English text.
PREFIX = "error-"


def _regex(pattern: ast.Pattern) -> str | None:
    parts: list[str] = []
    for element in pattern.elements:
        if isinstance(element, ast.TextElement):
            parts.append(re.escape(element.value))
        elif isinstance(element, ast.Placeable) and isinstance(
            element.expression, ast.VariableReference
        ):
            name = element.expression.id.name
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
    return "".join(parts)


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


def _value(text: str) -> str | int:
    return int(text) if re.fullmatch(r"-?\d{1,15}", text) else text


def from_english(text: str, catalogue: Catalogue | None = None) -> Msg | None:
    """The message whose English pattern ``text`` matches (the most specific one), or None.

    >>> from_english("seat 3 is taken")
    Msg('error-seat-taken', seat=3)
    """
    for _, name, regex in _patterns(catalogue or default_catalogue()):
        found = regex.fullmatch(text)
        if found:
            return Msg(name, **{k: _value(v) for k, v in found.groupdict().items()})
    return None
