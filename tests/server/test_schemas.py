"""Protocol schemas: every message type of docs/protocol.md has one, and they bite."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from zanzibar.server.schemas import (
    _CLIENT_FAST,
    _CLIENT_VALIDATORS,
    CLIENT_SCHEMAS,
    MAX_FRAME_BYTES,
    SERVER_SCHEMAS,
    ProtocolError,
    check_incoming,
    outgoing_errors,
)

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented_types() -> set[str]:
    """Message types named in protocol.md: a backticked name followed by its `{body}`,
    and the ``"type"`` of the full ``{"v":1,...}`` examples."""
    text = PROTOCOL_DOC.read_text()
    with_body = re.findall(r"`([a-z_]+(?:\.[a-z_]+)*)`\s+`\{", text)
    examples = re.findall(r'\{"v":\s*1,\s*"type":\s*"([a-z_.]+)"', text)
    return set(with_body) | set(examples)


def test_the_document_parse_finds_the_core_types() -> None:
    found = documented_types()
    assert {"hello", "welcome", "ping", "pong", "game.action", "game.event", "ok", "error"} <= found


def test_every_documented_type_has_a_schema() -> None:
    missing = documented_types() - set(CLIENT_SCHEMAS) - set(SERVER_SCHEMAS)
    assert not missing, f"protocol.md names types without a schema: {sorted(missing)}"


def test_every_schema_is_documented() -> None:
    extra = (set(CLIENT_SCHEMAS) | set(SERVER_SCHEMAS)) - documented_types()
    assert not extra, f"schemas for types protocol.md does not describe: {sorted(extra)}"


def test_each_schema_names_its_own_type() -> None:
    for table in (CLIENT_SCHEMAS, SERVER_SCHEMAS):
        for name, schema in table.items():
            assert schema["properties"]["type"] == {"const": name}
            assert schema["properties"]["v"] == {"const": 1}


VALID_CLIENT_MESSAGES = [
    {"type": "hello", "token": "abc", "lang": "fr"},
    {"type": "ping", "id": "x"},
    {"type": "lobby.subscribe"},
    {"type": "games.list", "id": 4},
    {
        "type": "table.create",
        "game": "421",
        "preset": "salon",
        "options": {"tokens": 21, "dry": True},
    },
    {"type": "table.create", "game": "zilch", "seats": 3, "private": True},
    {"type": "table.join", "table": 3, "seat": 1, "since": 12},
    {"type": "table.join", "table": 3, "invite": "K3X9"},
    {"type": "table.watch", "table": 3},
    {"type": "table.leave", "table": 3},
    {"type": "table.options", "table": 3, "options": {"tokens": "11"}},
    {"type": "table.start", "table": 3},
    {"type": "table.add_bot", "table": 3, "level": "strong"},
    {"type": "table.remove_bot", "table": 3, "seat": 2},
    {"type": "table.kick", "table": 3, "user": 12},
    {"type": "table.hand_host", "table": 3, "user": 12},
    {"type": "table.hold", "table": 3, "hold": True},
    {"type": "table.clock", "table": 3, "seconds": None},
    {"type": "table.clock", "table": 3, "seconds": 30},
    {"type": "game.action", "table": 3, "action": {"type": "roll", "dice": [0, 2]}, "seq": 5},
    {"type": "game.action", "table": 3, "action": {"type": "stop"}, "seat": 1},
    {"type": "table.options", "table": 3, "preset": "bar", "seats": 5},
    {"type": "game.ask", "table": 3, "topic": "scores"},
    {"type": "chat.say", "table": 3, "text": "hello"},
    {"type": "chat.me", "table": 3, "text": "waves"},
    {"type": "chat.private", "to": "Anna", "text": "hi"},
    {"type": "history", "table": 3, "since": 0, "channel": "chat"},
]


@pytest.mark.parametrize("message", VALID_CLIENT_MESSAGES, ids=lambda m: m["type"])
def test_valid_client_messages_pass(message: dict[str, object]) -> None:
    frame = json.dumps({"v": 1, **message})
    assert check_incoming(frame) == {"v": 1, **message}


INVALID_CLIENT_MESSAGES = [
    ({"type": "hello"}, "invalid"),
    ({"type": "hello", "token": ""}, "invalid"),
    ({"type": "hello", "token": "t", "lang": "de"}, "invalid"),
    ({"type": "table.create", "game": "421", "options": {"tokens": [21]}}, "invalid"),
    ({"type": "table.create", "game": "421", "seats": 0}, "invalid"),
    ({"type": "table.join", "table": -1}, "invalid"),
    ({"type": "table.join", "table": 1, "seat": 64}, "invalid"),
    ({"type": "table.hold", "table": 1, "hold": "yes"}, "invalid"),
    ({"type": "game.action", "table": 1}, "invalid"),
    ({"type": "game.action", "table": 1, "action": 5}, "invalid"),
    ({"type": "game.action", "table": 1, "action": {}, "seq": -1}, "invalid"),
    ({"type": "chat.say", "table": 1}, "invalid"),
    ({"type": "history", "table": 1, "channel": "music"}, "invalid"),
    ({"type": "ping", "id": {"a": 1}}, "invalid"),
    ({"type": "ping", "id": True}, "invalid"),
    ({"type": "pong"}, "unknown_type"),
    ({"type": "welcome"}, "unknown_type"),
    ({"type": 5}, "unknown_type"),
]


@pytest.mark.parametrize(("message", "code"), INVALID_CLIENT_MESSAGES)
def test_invalid_client_messages_are_refused(message: dict[str, object], code: str) -> None:
    with pytest.raises(ProtocolError) as refusal:
        check_incoming(json.dumps({"v": 1, **message}))
    assert refusal.value.code == code
    assert refusal.value.reply()["type"] == "error"


def test_too_large_is_measured_in_bytes() -> None:
    text = "é" * (MAX_FRAME_BYTES // 2)  # fits in characters, not in bytes
    frame = json.dumps({"v": 1, "type": "chat.say", "table": 1, "text": text}, ensure_ascii=False)
    assert len(frame) < 2 * MAX_FRAME_BYTES
    with pytest.raises(ProtocolError) as refusal:
        check_incoming(frame)
    assert refusal.value.code == "too_large"


def test_deep_nesting_is_bad_json_not_a_crash() -> None:
    with pytest.raises(ProtocolError) as refusal:
        check_incoming("[" * 10_000 + "]" * 10_000)
    assert refusal.value.code in {"bad_json", "too_large"}
    with pytest.raises(ProtocolError):
        check_incoming(
            '{"v": 1, "type": "game.action", "table": 1, "action": ' + "[" * 5000 + "]" * 5000 + "}"
        )


def test_the_id_is_echoed_only_when_it_is_usable() -> None:
    with pytest.raises(ProtocolError) as refusal:
        check_incoming('{"v": 1, "type": "nope", "id": "abc"}')
    assert refusal.value.reply()["id"] == "abc"
    with pytest.raises(ProtocolError) as refusal:
        check_incoming('{"v": 1, "type": "nope", "id": ["abc"]}')
    assert "id" not in refusal.value.reply()


def test_server_schemas_accept_good_and_refuse_bad_messages() -> None:
    assert outgoing_errors({"v": 1, "type": "pong"}) == []
    assert outgoing_errors({"v": 1, "type": "error", "code": "stale", "message": "old"}) == []
    assert outgoing_errors({"v": 1, "type": "error", "code": "oops", "message": "x"})
    assert outgoing_errors({"v": 1, "type": "game.event", "table": 1, "seq": 1})
    assert outgoing_errors({"v": 1, "type": "mystery"})


def documented_fields() -> dict[str, set[str]]:
    """For each ``name`` `{...}` of protocol.md, the keys its body names."""
    text = PROTOCOL_DOC.read_text()
    fields: dict[str, set[str]] = {}
    for match in re.finditer(r"`([a-z_]+(?:\.[a-z_]+)*)`\s+`(\{[^`]*\})`", text):
        keys = re.findall(r'[{,]\s*"([a-z_]+)"\??', match.group(2))
        fields.setdefault(match.group(1), set()).update(keys)
    return fields


def test_every_documented_field_of_a_client_message_is_in_its_schema() -> None:
    fields = documented_fields()
    assert "since" in fields["table.join"]  # the parse works
    problems = []
    for name, schema in CLIENT_SCHEMAS.items():
        known = set(schema["properties"]) | set(SERVER_SCHEMAS.get(name, {}).get("properties", {}))
        missing = fields.get(name, set()) - known
        if missing:
            problems.append(f"{name}: {sorted(missing)}")
    assert not problems, f"protocol.md fields the schemas refuse: {problems}"


# -- the compiled validators accept exactly what jsonschema accepts ------------------------

#: Values of every JSON type, some near the bounds the client schemas set.
_EDGE_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([0, 1, -1, 2**53 + 1, -(2**53) - 1, 0.0, 1.0, 2.5, -1.0, 1e300]),
    st.integers(),
    st.sampled_from(["", "en", "fr", "de", "game", "chat", "system", "music", "421"]),
    st.text(max_size=12),
)
_ANY_VALUE = st.recursive(
    _EDGE_SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)


def _edges(schema: Any) -> list[Any]:
    """Values on, just inside and just outside every bound a field's schema sets."""
    out: list[Any] = []
    if isinstance(schema, list):
        for part in schema:
            out.extend(_edges(part))
        return out
    if not isinstance(schema, dict):
        return out
    for key, value in schema.items():
        if key in ("minimum", "maximum"):
            out.extend([value - 1, value, value + 1, float(value), value + 0.5, -value])
        elif key in ("minLength", "maxLength"):
            out.extend(["é" * max(0, value - 1), "é" * value, "x" * (value + 1)])
        elif key == "maxItems":
            out.extend([[0] * value, [0] * (value + 1)])
        elif key == "maxProperties":
            out.extend([{f"k{i}": 0 for i in range(n)} for n in (value, value + 1)])
        elif key == "enum":
            out.extend([*value, True, 1])
        elif key == "const":
            out.extend([value, True, float(value) if isinstance(value, int) else value])
        elif key == "propertyNames":
            out.extend({"y" * n: 0} for n in _lengths(value))
        elif key == "additionalProperties" and isinstance(value, dict):
            out.extend({"o": edge} for edge in _edges(value))
        elif isinstance(value, dict | list):
            out.extend(_edges(value))
    return out


def _lengths(schema: dict[str, Any]) -> list[int]:
    limit = int(schema.get("maxLength", 8))
    return [limit, limit + 1]


@st.composite
def _client_like(draw: st.DrawFn) -> dict[str, Any]:
    """A message of a real client type: some fields, each on a bound or any JSON; a stray."""
    name = draw(st.sampled_from(sorted(CLIENT_SCHEMAS)))
    properties = CLIENT_SCHEMAS[name]["properties"]
    fields = [key for key in properties if key not in ("v", "type")]
    chosen = draw(st.lists(st.sampled_from(fields), unique=True)) if fields else []
    message: dict[str, Any] = {"v": 1, "type": name}
    for key in chosen:
        edges = _edges(properties[key])
        message[key] = (
            draw(st.sampled_from(edges) if edges else _ANY_VALUE)
            if draw(st.integers(0, 3))
            else draw(_ANY_VALUE)
        )
    if draw(st.integers(0, 9)) == 0:
        message[draw(st.sampled_from(["x", "Type", "seat", "text"]))] = draw(_EDGE_SCALARS)
    return message


@settings(max_examples=500, deadline=None)
@given(message=_client_like())
def test_the_compiled_validators_agree_with_jsonschema(message: dict[str, Any]) -> None:
    name = message["type"]
    expected = not list(_CLIENT_VALIDATORS[name].iter_errors(message))
    try:
        _CLIENT_FAST[name](message)
        fast = True
    except fastjsonschema.JsonSchemaException:
        fast = False
    assert fast == expected, message


def _valid_value(schema: dict[str, Any]) -> Any:
    """Some value a field's schema accepts (for the required fields around the one probed)."""
    for candidate in (1, "abc", {}, True, "en", "game", None, 60):
        if Draft202012Validator(schema).is_valid(candidate):
            return candidate
    raise AssertionError(f"no candidate fits {schema}")


def _edge_messages() -> list[dict[str, Any]]:
    """Every client type with each of its fields on each of its bounds, the rest valid."""
    out = []
    for name, schema in CLIENT_SCHEMAS.items():
        properties = schema["properties"]
        base = {"v": 1, "type": name}
        for key in schema["required"]:
            if key not in base:
                base[key] = _valid_value(properties[key])
        for key, field in properties.items():
            if key in ("v", "type"):  # check_incoming looks at these two itself, first
                continue
            for edge in [*_edges(field), None, True, 1.0, [], {}]:
                out.append({**base, key: edge})
    return out


def test_the_compiled_validators_agree_with_jsonschema_on_every_bound() -> None:
    messages = _edge_messages()
    assert len(messages) > 500
    disagree = []
    for message in messages:
        name = message["type"]
        expected = _CLIENT_VALIDATORS[name].is_valid(message)
        try:
            _CLIENT_FAST[name](message)
            fast = True
        except fastjsonschema.JsonSchemaException:
            fast = False
        if fast != expected:
            disagree.append(message)
    assert not disagree, disagree[:3]


def test_a_refusal_still_names_the_field_and_the_reason() -> None:
    frame = '{"v": 1, "type": "game.action", "table": 1, "action": {}, "seq": -1}'
    with pytest.raises(ProtocolError) as refusal:
        check_incoming(frame)
    assert refusal.value.message == "invalid game.action: seq: -1 is less than the minimum of 0"
