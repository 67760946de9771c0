"""JSON Schemas of the protocol's messages: one per message type, both directions.

The messages are the same in protocol versions 1 and 2 (version 2 only frames a
step's server messages together, as a JSON array: :mod:`zanzibar.server.framing`);
a client's frame is one message in both.

The transport checks every incoming frame against the schema of its type
before the salon sees it, so the salon only ever handles well-formed
requests; tests check every outgoing message against the server-side schemas.
Validators are compiled once, at import: every frame goes through a validator
compiled to Python code (fastjsonschema, a few microseconds a frame where
jsonschema's interpreter took over a hundred); only a frame it refuses is
checked again by jsonschema, which words the refusal (the same texts as ever)
and has the last word. ``docs/protocol.md`` is the prose;
``tests/server/test_schemas.py`` checks that every type it names has a schema here.

>>> check_incoming('{"v": 1, "type": "ping"}')
{'v': 1, 'type': 'ping'}
>>> check_incoming('{"v": 1, "type": "dance"}')
Traceback (most recent call last):
...
zanzibar.server.schemas.ProtocolError: unknown message type 'dance'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import fastjsonschema
import orjson
from jsonschema import Draft202012Validator

from zanzibar.l10n.legacy import say_english
from zanzibar.salon.errors import ERROR_CODES

PROTOCOL_VERSION = 1
#: The largest frame the server reads (in UTF-8 bytes); larger ones get ``too_large``.
MAX_FRAME_BYTES = 16 * 1024
#: Codes only the transport sends (a socket that did not say hello in time).
TRANSPORT_CODES = frozenset({"timeout"})
#: Longest chat line, in characters (the salon answers ``too_long`` beyond it).
MAX_CHAT_CHARS = 500

JsonSchema = dict[str, Any]

# -- building blocks -------------------------------------------------------------------

_ID: JsonSchema = {
    "anyOf": [
        {"type": "string", "maxLength": 64},
        {"type": "integer", "minimum": -(2**53), "maximum": 2**53},
    ]
}
_TABLE_ID: JsonSchema = {
    "anyOf": [
        {"type": "integer", "minimum": 0, "maximum": 2**53},
        {"type": "string", "minLength": 1, "maxLength": 64},
    ]
}
_NAME: JsonSchema = {"type": "string", "minLength": 1, "maxLength": 64}
_LANG: JsonSchema = {"enum": ["en", "fr"]}
_SEAT: JsonSchema = {"type": "integer", "minimum": 0, "maximum": 63}
_SEQ: JsonSchema = {"type": "integer", "minimum": 0, "maximum": 2**53}
#: A page size (the salon refuses one above its own largest page with ``invalid``).
_LIMIT: JsonSchema = {"type": "integer", "minimum": 1, "maximum": 10_000}
_USER_ID: JsonSchema = {"type": "integer", "minimum": 0, "maximum": 2**53}
_TEXT: JsonSchema = {"type": "string", "maxLength": 4 * MAX_CHAT_CHARS}
_CHANNEL: JsonSchema = {"enum": ["game", "chat", "system"]}
_OPTION_VALUE: JsonSchema = {
    "anyOf": [
        {"type": "boolean"},
        {"type": "integer", "minimum": -(2**31), "maximum": 2**31},
        {"type": "string", "maxLength": 64},
    ]
}
_OPTIONS: JsonSchema = {
    "type": "object",
    "maxProperties": 64,
    "propertyNames": {"maxLength": 64},
    "additionalProperties": _OPTION_VALUE,
}
_INVITE: JsonSchema = {"type": "string", "minLength": 1, "maxLength": 64}
_BOT_LEVEL: JsonSchema = {"type": "string", "minLength": 1, "maxLength": 32}
#: A game's own action JSON: the rules parse it; here only its size is bounded.
_ACTION: JsonSchema = {
    "anyOf": [
        {"type": "object", "maxProperties": 16},
        {"type": "string", "maxLength": 256},
        {"type": "array", "maxItems": 64},
    ]
}

_USER: JsonSchema = {
    "type": "object",
    "required": ["id", "name", "lang", "guest"],
    "properties": {"id": _USER_ID, "name": _NAME, "lang": _LANG, "guest": {"type": "boolean"}},
}
SEAT_INFO: JsonSchema = {
    "type": "object",
    "required": ["seat", "user", "name", "bot", "connected"],
    "properties": {
        "seat": _SEAT,
        "user": {"anyOf": [_USER_ID, {"type": "null"}]},
        "name": {"type": ["string", "null"]},
        "bot": {"type": ["string", "null"]},
        "connected": {"type": "boolean"},
    },
}
_TABLE_SUMMARY_PROPERTIES: JsonSchema = {
    "id": _TABLE_ID,
    "game": {"type": "string"},
    "title": {"type": "string"},
    "preset": {"type": ["string", "null"]},
    "options": {"type": "object"},
    "seats": {"type": "array", "items": SEAT_INFO},
    "host": {"type": ["integer", "string", "null"]},
    "state": {"enum": ["waiting", "playing", "paused", "finished"]},
    "spectators": {"type": "integer", "minimum": 0},
    "private": {"type": "boolean"},
    "rated": {"type": ["boolean", "null"]},
}
TABLE_SUMMARY: JsonSchema = {
    "type": "object",
    "required": [
        "id",
        "game",
        "title",
        "preset",
        "options",
        "seats",
        "host",
        "state",
        "spectators",
        "private",
    ],
    "properties": _TABLE_SUMMARY_PROPERTIES,
}
_TABLE: JsonSchema = {
    "type": "object",
    "required": [
        *TABLE_SUMMARY["required"],
        "invite",
        "you",
        "spectator_names",
        "clock",
        "game_id",
    ],
    "properties": {
        **_TABLE_SUMMARY_PROPERTIES,
        "invite": {"type": ["string", "null"]},
        "you": {
            "type": "object",
            "required": ["seat", "host", "spectator"],
            "properties": {
                "seat": {"anyOf": [_SEAT, {"type": "null"}]},
                "host": {"type": "boolean"},
                "spectator": {"type": "boolean"},
            },
        },
        "spectator_names": {"type": "array", "items": {"type": "string"}},
        "clock": {"type": ["integer", "null"]},
        "game_id": {"type": ["integer", "null"]},
    },
}
_EVENT: JsonSchema = {
    "type": "object",
    "required": ["kind", "seat", "data"],
    "properties": {
        "kind": {"type": "string"},
        "seat": {"anyOf": [_SEAT, {"type": "null"}]},
        "data": {"type": "object"},
    },
}


def _message(
    type_name: str,
    required: Mapping[str, JsonSchema] | None = None,
    optional: Mapping[str, JsonSchema] | None = None,
    *,
    closed: bool = True,
) -> JsonSchema:
    """The schema of one message: the envelope plus its own fields.

    Client messages are ``closed`` (an unexpected field is refused, so a typo
    never passes silently); server messages stay open so the server may add
    fields without breaking older clients.
    """
    properties: dict[str, JsonSchema] = {
        "v": {"const": PROTOCOL_VERSION},
        "type": {"const": type_name},
        "id": _ID,
        **(required or {}),
        **(optional or {}),
    }
    schema: JsonSchema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": type_name,
        "type": "object",
        "required": ["v", "type", *(required or {})],
        "properties": properties,
    }
    if closed:
        schema["additionalProperties"] = False
    return schema


# -- client -> server ------------------------------------------------------------------

CLIENT_SCHEMAS: dict[str, JsonSchema] = {
    "hello": _message(
        "hello", {"token": {"type": "string", "minLength": 1, "maxLength": 256}}, {"lang": _LANG}
    ),
    "ping": _message("ping"),
    "lobby.subscribe": _message("lobby.subscribe", optional={"limit": _LIMIT}),
    "lobby.unsubscribe": _message("lobby.unsubscribe"),
    "lobby.list": _message("lobby.list", optional={"limit": _LIMIT, "cursor": _SEQ}),
    "games.list": _message("games.list"),
    "table.create": _message(
        "table.create",
        {"game": {"type": "string", "minLength": 1, "maxLength": 32}},
        {
            "preset": {"type": ["string", "null"], "maxLength": 64},
            "options": _OPTIONS,
            "seats": {"type": "integer", "minimum": 1, "maximum": 64},
            "private": {"type": "boolean"},
            "rated": {"type": "boolean"},
        },
    ),
    "table.join": _message(
        "table.join", {"table": _TABLE_ID}, {"seat": _SEAT, "invite": _INVITE, "since": _SEQ}
    ),
    "table.watch": _message(
        "table.watch", {"table": _TABLE_ID}, {"invite": _INVITE, "since": _SEQ}
    ),
    "table.leave": _message("table.leave", {"table": _TABLE_ID}),
    "table.options": _message(
        "table.options",
        {"table": _TABLE_ID},
        {
            "preset": {"type": ["string", "null"], "maxLength": 64},
            "options": _OPTIONS,
            "seats": {"type": "integer", "minimum": 1, "maximum": 64},
        },
    ),
    "table.start": _message("table.start", {"table": _TABLE_ID}),
    "table.add_bot": _message(
        "table.add_bot", {"table": _TABLE_ID}, {"level": _BOT_LEVEL, "seat": _SEAT}
    ),
    "table.remove_bot": _message("table.remove_bot", {"table": _TABLE_ID, "seat": _SEAT}),
    "table.kick": _message("table.kick", {"table": _TABLE_ID, "user": _USER_ID}),
    "table.hand_host": _message("table.hand_host", {"table": _TABLE_ID, "user": _USER_ID}),
    "table.hold": _message("table.hold", {"table": _TABLE_ID, "hold": {"type": "boolean"}}),
    "table.clock": _message(
        "table.clock",
        {
            "table": _TABLE_ID,
            "seconds": {
                "anyOf": [{"type": "integer", "minimum": 1, "maximum": 86400}, {"type": "null"}]
            },
        },
    ),
    "game.action": _message(
        "game.action", {"table": _TABLE_ID, "action": _ACTION}, {"seq": _SEQ, "seat": _SEAT}
    ),
    "game.ask": _message(
        "game.ask",
        {"table": _TABLE_ID, "topic": {"type": "string", "minLength": 1, "maxLength": 32}},
    ),
    "chat.say": _message("chat.say", {"table": _TABLE_ID, "text": _TEXT}),
    "chat.me": _message("chat.me", {"table": _TABLE_ID, "text": _TEXT}),
    "chat.private": _message("chat.private", {"to": _NAME, "text": _TEXT}),
    "friends.list": _message("friends.list"),
    "friends.add": _message("friends.add", {"name": _NAME}),
    "friends.remove": _message("friends.remove", {"name": _NAME}),
    "friends.alerts": _message("friends.alerts", {"on": {"type": "boolean"}}),
    "history": _message(
        "history", {"table": _TABLE_ID}, {"since": _SEQ, "channel": _CHANNEL, "limit": _LIMIT}
    ),
}

# Swiss tournaments (salon/tournaments.py): their requests, kept together.
_TOURNAMENT_ID: JsonSchema = {"type": "integer", "minimum": 1, "maximum": 2**53}
CLIENT_SCHEMAS.update(
    {
        "tournament.create": _message(
            "tournament.create",
            {
                "game": {"type": "string", "minLength": 1, "maxLength": 32},
                "rounds": {"type": "integer", "minimum": 1, "maximum": 20},
            },
            {
                "name": {"type": "string", "maxLength": 64},
                "preset": {"type": ["string", "null"], "maxLength": 64},
                "options": _OPTIONS,
                "seats": {"type": "integer", "minimum": 2, "maximum": 16},
                "max_players": {"type": "integer", "minimum": 2, "maximum": 128},
                "start_in": {"type": "integer", "minimum": 0, "maximum": 7 * 24 * 3600},
                "bot_level": {"type": "string", "maxLength": 32},
            },
        ),
        **{
            kind: _message(kind, {"tournament": _TOURNAMENT_ID})
            for kind in (
                "tournament.register",
                "tournament.unregister",
                "tournament.start",
                "tournament.cancel",
                "tournament.show",
            )
        },
        "tournament.add_bot": _message(
            "tournament.add_bot",
            {"tournament": _TOURNAMENT_ID},
            {"level": {"type": "string", "maxLength": 32}},
        ),
        "tournament.list": _message("tournament.list"),
    }
)

# -- server -> client ------------------------------------------------------------------

_ITEM_BASE = {"table": {"anyOf": [_TABLE_ID, {"type": "null"}]}, "seq": _SEQ}

SERVER_SCHEMAS: dict[str, JsonSchema] = {
    "ok": _message("ok", closed=False),
    "error": _message(
        "error",
        {
            "code": {"enum": sorted(ERROR_CODES | TRANSPORT_CODES | {"corrupt_data", "error"})},
            "message": {"type": "string", "minLength": 1},
        },
        {"option": {"type": "string"}},
        closed=False,
    ),
    "welcome": _message("welcome", {"user": _USER, "protocol": {"enum": [1, 2]}}, closed=False),
    "pong": _message("pong", closed=False),
    "lobby": _message("lobby", {"tables": {"type": "array", "items": TABLE_SUMMARY}}, closed=False),
    "table": _message("table", {"table": _TABLE}, closed=False),
    "game.event": _message(
        "game.event",
        {**_ITEM_BASE, "channel": {"const": "game"}, "event": _EVENT, "text": {"type": "string"}},
        closed=False,
    ),
    "game.view": _message(
        "game.view",
        {
            "table": _TABLE_ID,
            "seq": _SEQ,
            "view": {"type": "object"},
            "log_length": {"type": "integer", "minimum": 0},
        },
        closed=False,
    ),
    "your_turn": _message(
        "your_turn", {"table": _TABLE_ID, "seq": _SEQ, "text": {"type": "string"}}, closed=False
    ),
    "chat": _message(
        "chat",
        {
            **_ITEM_BASE,
            "seq": {"anyOf": [_SEQ, {"type": "null"}]},  # null: a private message
            "channel": {"const": "chat"},
            "from": {"type": "string"},
            "text": {"type": "string"},
            "me": {"type": "boolean"},
            "private": {"type": "boolean"},
        },
        {"to": {"type": "string"}},
        closed=False,
    ),
    "friend": _message(
        "friend",
        {
            "user": _USER_ID,
            "name": {"type": "string"},
            "online": {"type": "boolean"},
            "text": {"type": "string"},
        },
        closed=False,
    ),
    "system": _message(
        "system",
        {
            **_ITEM_BASE,
            "channel": {"const": "system"},
            "kind": {"type": "string"},
            "text": {"type": "string"},
        },
        closed=False,
    ),
    "history": _message(
        "history",
        {
            "table": _TABLE_ID,
            "items": {"type": "array", "items": {"type": "object", "required": ["type", "seq"]}},
        },
        closed=False,
    ),
}

_TOURNAMENT_EVENT = {"tournament": _TOURNAMENT_ID, "text": {"type": "string"}}
SERVER_SCHEMAS.update(
    {
        "tournament.event": _message(
            "tournament.event", {**_TOURNAMENT_EVENT, "kind": {"type": "string"}}, closed=False
        ),
        "tournament.table": _message(
            "tournament.table",
            {**_TOURNAMENT_EVENT, "table": _TABLE_ID, "seat": _SEAT, "round": _SEQ},
            closed=False,
        ),
        "tournament.standings": _message(
            "tournament.standings",
            {**_TOURNAMENT_EVENT, "round": _SEQ, "standings": {"type": "array"}},
            closed=False,
        ),
        "tournament.finished": _message("tournament.finished", _TOURNAMENT_EVENT, closed=False),
    }
)

_CLIENT_VALIDATORS = {name: Draft202012Validator(schema) for name, schema in CLIENT_SCHEMAS.items()}
_SERVER_VALIDATORS = {name: Draft202012Validator(schema) for name, schema in SERVER_SCHEMAS.items()}

FastValidator = Callable[[Any], Any]


def compile_fast(schema: JsonSchema) -> FastValidator:
    """A compiled validator of ``schema``: returns the data, raises if it is invalid.

    fastjsonschema knows drafts 4 to 7; the keywords these schemas use (type,
    const, enum, anyOf, required, properties, additionalProperties,
    propertyNames, bounds of numbers, strings, arrays and objects) mean the
    same in draft 7 as in 2020-12, so the schema is compiled as draft 7.
    ``tests/server/test_schemas.py`` checks on generated frames that both
    validators accept the same ones.
    """
    body = {key: value for key, value in schema.items() if key != "$schema"}
    validator: FastValidator = fastjsonschema.compile(body)
    return validator


_CLIENT_FAST = {name: compile_fast(schema) for name, schema in CLIENT_SCHEMAS.items()}


class ProtocolError(Exception):
    """An incoming frame the server refuses before the salon sees it."""

    def __init__(self, code: str, message: str, request_id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id

    def reply(self, lang: str = "en") -> dict[str, Any]:
        """The ``error`` message sent back, its sentence in ``lang``."""
        out: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "error"}
        if self.request_id is not None:
            out["id"] = self.request_id
        out.update(code=self.code, message=say_english(self.message, lang))
        return out


def _request_id(obj: Mapping[str, Any]) -> Any:
    """The client's ``id`` if it is one we may echo, else None."""
    value = obj.get("id")
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and len(value) <= 64:
        return value
    if isinstance(value, int) and abs(value) <= 2**53:
        return value
    return None


def _describe(error: Any) -> str:
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where}: {error.message}" if where else str(error.message)


#: A run of digits orjson may read otherwise than ``json`` (an integer past 64 bits
#: becomes a float there): such a frame is left to ``json``.
_LONG_NUMBER = re.compile(rb"[0-9]{19}")


def _parse(frame: str | bytes, raw: bytes) -> Any:
    """A frame's JSON value, exactly as ``json.loads`` reads it.

    orjson reads it (in C, several times faster) unless it refuses the frame
    (a lone surrogate, a number out of range, ``NaN``: bad JSON it may be, or
    not) or the frame holds a number of 19 digits or more (an integer beyond 64
    bits, which orjson reads as a float): those go to ``json``, which decides.

    ``raw``: the frame as UTF-8.

    >>> _parse('{"n": 12345678901234567890123}', b'{"n": 12345678901234567890123}')
    {'n': 12345678901234567890123}
    """
    if _LONG_NUMBER.search(raw) is None:
        try:
            return orjson.loads(raw)
        except (orjson.JSONDecodeError, RecursionError):
            pass
    try:
        return json.loads(frame)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the message is not valid JSON") from None


def check_incoming(frame: str | bytes) -> dict[str, Any]:
    """Parse and validate one client frame; raise :class:`ProtocolError` if refused."""
    raw = frame.encode("utf-8") if isinstance(frame, str) else frame
    size = len(raw)
    if size > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", f"message of {size} bytes; the limit is {MAX_FRAME_BYTES}")
    obj = _parse(frame, raw)
    if not isinstance(obj, dict):
        raise ProtocolError("bad_json", "the message must be a JSON object")
    request_id = _request_id(obj)
    version = obj.get("v")
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise ProtocolError(
            "bad_version", f"protocol version {version!r} is not supported (use 1)", request_id
        )
    type_name = obj.get("type")
    if not isinstance(type_name, str) or type_name not in _CLIENT_FAST:
        shown = type_name if isinstance(type_name, str) and len(type_name) <= 40 else "?"
        raise ProtocolError("unknown_type", f"unknown message type '{shown}'", request_id)
    try:
        _CLIENT_FAST[type_name](obj)
    except fastjsonschema.JsonSchemaException:
        # jsonschema words the refusal, and decides should the two ever disagree
        error = next(iter(_CLIENT_VALIDATORS[type_name].iter_errors(obj)), None)
        if error is not None:
            raise ProtocolError(
                "invalid", f"invalid {type_name}: {_describe(error)}", request_id
            ) from None
    return obj


def outgoing_errors(message: Mapping[str, Any]) -> list[str]:
    """Every way a server message breaks its schema (empty if it is valid); for tests."""
    type_name = message.get("type")
    validator = _SERVER_VALIDATORS.get(type_name) if isinstance(type_name, str) else None
    if validator is None:
        return [f"no schema for server message type {type_name!r}"]
    return [_describe(e) for e in validator.iter_errors(dict(message))]
