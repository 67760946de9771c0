"""The web client's messages, as JSON a few lines of JavaScript can format.

The browser does not get a second copy of the words: the server sends the
``web-*`` messages of the catalogue compiled to a small tree, and
``static/js/i18n.js`` formats it (plural categories through ``Intl.PluralRules``).
Game sentences are not exported: the server renders them, since they need the
seat names and the listener's seat.

The form of one pattern is a list whose items are a string, ``{"v": name}`` (a
variable), ``{"m": id}`` (another exported message) or a selector
``{"s": selector, "k": [[key, pattern], ...], "d": default_index}`` where the
selector is ``{"v": name}`` or ``{"f": "VOWEL", "v": name}``.
"""

from __future__ import annotations

import functools
from typing import Any

from fluent.syntax import ast

from zanzibar.l10n.catalogue import Catalogue, default_catalogue

#: Prefix of the messages sent to the browser.
PREFIX = "web-"
#: Fluent functions the browser implements.
FUNCTIONS = frozenset({"VOWEL"})


class ExportError(ValueError):
    """A web message uses Fluent syntax that the browser's formatter does not know."""


def _expression(expr: ast.BaseNode, where: str) -> Any:
    if isinstance(expr, ast.VariableReference):
        return {"v": expr.id.name}
    if isinstance(expr, ast.StringLiteral):
        return str(expr.parse()["value"])
    if isinstance(expr, ast.NumberLiteral):
        return expr.value
    if isinstance(expr, ast.MessageReference) and expr.attribute is None:
        return {"m": expr.id.name}
    if isinstance(expr, ast.FunctionReference) and expr.id.name in FUNCTIONS:
        args = expr.arguments.positional
        if len(args) == 1 and isinstance(args[0], ast.VariableReference):
            return {"f": expr.id.name, "v": args[0].id.name}
    if isinstance(expr, ast.SelectExpression):
        selector = _expression(expr.selector, where)
        keys = []
        default = 0
        for i, variant in enumerate(expr.variants):
            key = variant.key.name if isinstance(variant.key, ast.Identifier) else variant.key.value
            keys.append([key, _pattern(variant.value, where)])
            if variant.default:
                default = i
        return {"s": selector, "k": keys, "d": default}
    raise ExportError(f"{where}: {type(expr).__name__} cannot be sent to the browser")


def _pattern(pattern: ast.Pattern, where: str) -> list[Any]:
    out: list[Any] = []
    for element in pattern.elements:
        if isinstance(element, ast.TextElement):
            item: Any = element.value
        else:
            item = _expression(element.expression, where)
        if isinstance(item, str) and out and isinstance(out[-1], str):
            out[-1] += item
        else:
            out.append(item)
    return out


def _is_lines(pattern: ast.Pattern) -> bool:
    return any(isinstance(e, ast.TextElement) and "\n" in e.value for e in pattern.elements)


def export(lang: str, catalogue: Catalogue | None = None) -> dict[str, Any]:
    """The web messages of ``lang``: ``{"lang", "etag", "messages": {key: pattern}, "lines": [...]}``.

    Keys drop the ``web-`` prefix (``t("join_table")`` reads ``web-join_table``).
    A message written on several lines is a list of lines for the client (help texts).
    """
    cat = catalogue or default_catalogue()
    messages: dict[str, Any] = {}
    lines: list[str] = []
    for _, message in cat.languages[lang].messages():
        name = message.id.name
        if not name.startswith(PREFIX) or message.value is None:
            continue
        key = name[len(PREFIX) :]
        messages[key] = _pattern(message.value, f"{lang}/{name}")
        if _is_lines(message.value):
            lines.append(key)
    return {"lang": lang, "etag": cat.etag, "messages": messages, "lines": lines}


@functools.cache
def export_json(lang: str) -> bytes:
    """The shipped catalogue's export of ``lang`` as compact UTF-8 JSON (cached)."""
    import json

    body = export(lang)
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
