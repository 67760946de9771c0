"""The OpenAPI 3.1 description of the salon's HTTP JSON API.

Written by hand so that every body has a real schema (OpenAPI 3.1 schemas are
JSON Schema 2020-12, shared with :mod:`zanzibar.server.schemas`). The app
validates sign-in bodies with the request schemas below, and
``tests/server/test_openapi.py`` checks that every HTTP route of the app is
described here and that live answers match their response schemas.
"""

from __future__ import annotations

import copy
from typing import Any

from zanzibar import __version__
from zanzibar.server.schemas import SEAT_INFO
from zanzibar.server.schemas import TABLE_SUMMARY as PROTOCOL_TABLE_SUMMARY
from zanzibar.server.standing_openapi import STANDING_COMPONENTS, STANDING_PATHS

JsonSchema = dict[str, Any]

_NAME: JsonSchema = {"type": "string", "minLength": 1, "maxLength": 32}
_LANG: JsonSchema = {"type": "string", "enum": ["en", "fr"]}
_PASSWORD: JsonSchema = {"type": "string", "minLength": 1, "maxLength": 256}

GUEST_REQUEST: JsonSchema = {
    "type": "object",
    "required": ["name"],
    "properties": {"name": _NAME, "lang": _LANG},
    "additionalProperties": False,
}
REGISTER_REQUEST: JsonSchema = {
    "type": "object",
    "required": ["name", "password"],
    "properties": {"name": _NAME, "password": _PASSWORD, "lang": _LANG},
    "additionalProperties": False,
}
LOGIN_REQUEST: JsonSchema = {
    "type": "object",
    "required": ["name", "password"],
    "properties": {"name": _NAME, "password": _PASSWORD},
    "additionalProperties": False,
}

PASSWORD_REQUEST: JsonSchema = {
    "type": "object",
    "required": ["old", "new"],
    "properties": {"old": _PASSWORD, "new": _PASSWORD},
    "additionalProperties": False,
}

USER: JsonSchema = {
    "type": "object",
    "required": ["id", "name", "lang", "guest"],
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "lang": _LANG,
        "guest": {"type": "boolean"},
    },
}
SESSION: JsonSchema = {
    "type": "object",
    "required": ["token", "user"],
    "properties": {
        "token": {"type": "string", "minLength": 1},
        "user": {"$ref": "#/components/schemas/User"},
    },
}
ERROR: JsonSchema = {
    "type": "object",
    "required": ["code", "message"],
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "option": {"type": "string"},
    },
}
#: The same shapes the WebSocket protocol sends (one definition for both).
SEAT: JsonSchema = SEAT_INFO
TABLE_SUMMARY: JsonSchema = PROTOCOL_TABLE_SUMMARY
GAME_INFO: JsonSchema = {
    "type": "object",
    "required": ["name", "title", "options", "presets", "seats", "bot_levels"],
    "properties": {
        "name": {"type": "string"},
        "title": {"type": "string"},
        "options": {
            "type": "array",
            "description": "every option: name, type, default, allowed values, description",
            "items": {"type": "object", "required": ["name", "type", "default"]},
        },
        "presets": {
            "type": "array",
            "description": "named sets of option values, the default first",
            "items": {"type": "object", "required": ["name", "values"]},
        },
        "seats": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        "bot_levels": {"type": "array", "items": {"type": "string"}},
    },
}
MATCH_RECORD: JsonSchema = {
    "type": "object",
    "description": "engine.match.MatchRecord.to_json(): replays to the identical game",
    "required": ["game", "seats", "options", "seed", "log"],
    "properties": {
        "game": {"type": "string"},
        "seats": {"type": "integer"},
        "options": {"type": "object"},
        "seed": {
            "type": ["integer", "null"],
            "description": "the dice seed; null while the game runs (published once it has ended)",
        },
        "log": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["kind", "seat", "value"],
                "properties": {
                    "kind": {"enum": ["action", "chance"]},
                    "seat": {"type": ["integer", "null"]},
                },
            },
        },
    },
}
GAME_RECORD: JsonSchema = {
    "type": "object",
    "required": ["id", "game", "options", "seats", "record", "outcome", "started", "finished"],
    "properties": {
        "id": {"type": "integer"},
        "game": {"type": "string"},
        "options": {"type": "object"},
        "seats": {"type": "array", "items": {"type": ["string", "null"]}},
        "record": {"$ref": "#/components/schemas/MatchRecord"},
        "seed_sha256": {
            "type": "string",
            "description": "SHA-256 of the seed's decimal text: commits to the dice from the start",
        },
        "private": {"type": "boolean", "description": "played at a private table"},
        "status": {"enum": ["running", "finished", "abandoned"]},
        "outcome": {"type": ["object", "null"]},
        "started": {"type": ["string", "number", "null"]},
        "finished": {"type": ["string", "number", "null"]},
    },
}
USER_STATS: JsonSchema = {
    "type": "object",
    "description": "Games played, won and lost, in total and per game.",
    "required": ["user", "games"],
    "properties": {
        "user": {"type": "string"},
        "id": {"type": "integer"},
        "games": {
            "type": "object",
            "description": "per game name (and 'total'): played, won, lost, drawn",
            "additionalProperties": {"type": "object"},
        },
    },
}

#: The state of one part checked by ``GET /api/health`` (no more detail: the address is public).
_PART_STATES = ["ok", "unreachable", "timeout", "no heartbeat", "off", "n/a"]
HEALTH: JsonSchema = {
    "type": "object",
    "required": ["status", "node", "db", "redis"],
    "additionalProperties": False,
    "properties": {
        "status": {"enum": ["ok", "failing", "draining"]},
        "node": {"type": "string", "description": "This node's name (--node)"},
        "boot": {
            "type": "string",
            "description": "A random nonce of this process (nodes in a cluster only): it changes "
            "at every restart",
        },
        "db": {"enum": _PART_STATES, "description": "The database (`n/a`: not checked)"},
        "redis": {"enum": _PART_STATES, "description": "Redis (`off`: one process, no Redis)"},
    },
}


COMPONENTS: dict[str, JsonSchema] = {
    "User": USER,
    "Session": SESSION,
    "Error": ERROR,
    "Seat": SEAT,
    "TableSummary": TABLE_SUMMARY,
    "GameInfo": GAME_INFO,
    "MatchRecord": MATCH_RECORD,
    "GameRecord": GAME_RECORD,
    "UserStats": USER_STATS,
    "GuestRequest": GUEST_REQUEST,
    "RegisterRequest": REGISTER_REQUEST,
    "LoginRequest": LOGIN_REQUEST,
    "PasswordRequest": PASSWORD_REQUEST,
    "Health": HEALTH,
}


def _ref(name: str) -> JsonSchema:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: JsonSchema, description: str) -> JsonSchema:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_REFUSED = _json(_ref("Error"), "Refused; nothing changed (same codes as the WebSocket protocol)")
#: Any request: a body over the size limit (413, ``too_large``) or too slow to arrive
#: (408, ``timeout``); refused while it streams in (docs/security.md).
_BODY_REFUSALS = {"408": _REFUSED, "413": _REFUSED}


def _sign_in(summary: str, request: str, refusals: dict[str, Any]) -> JsonSchema:
    return {
        "post": {
            "summary": summary,
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(request)}},
            },
            "responses": {
                "200": _json(_ref("Session"), "Signed in"),
                **refusals,
                **_BODY_REFUSALS,
            },
        }
    }


_LANG_PARAMETER = {
    "name": "lang",
    "in": "query",
    "required": False,
    "schema": _LANG,
    "description": "Language of titles and option descriptions (default en)",
}

_BEARER = {
    "name": "Authorization",
    "in": "header",
    "required": True,
    "schema": {"type": "string", "pattern": "^Bearer "},
    "description": "`Bearer <session token>`",
}

PATHS: dict[str, Any] = {
    "/api/guest": _sign_in(
        "Sign in as a guest (a name) and get a session token",
        "GuestRequest",
        {"400": _REFUSED, "409": _REFUSED},
    ),
    "/api/register": _sign_in(
        "Create an account (password hashed with argon2) and sign in",
        "RegisterRequest",
        {"400": _REFUSED, "409": _REFUSED},
    ),
    "/api/login": _sign_in(
        "Sign in to an account", "LoginRequest", {"400": _REFUSED, "401": _REFUSED}
    ),
    "/api/logout": {
        "post": {
            "summary": "Sign out: the session token is revoked on every route",
            "parameters": [_BEARER],
            "responses": {
                "200": _json(
                    {"type": "object", "required": ["ok"], "properties": {"ok": {"const": True}}},
                    "Signed out",
                ),
                "401": _REFUSED,
            },
        }
    },
    "/api/password": {
        "post": {
            "summary": "Change the password; every other session of the account is revoked",
            "parameters": [_BEARER],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref("PasswordRequest")}},
            },
            "responses": {
                "200": _json(
                    {"type": "object", "required": ["user"], "properties": {"user": _ref("User")}},
                    "Password changed",
                ),
                "400": _REFUSED,
                "401": _REFUSED,
                "403": _REFUSED,
                "429": _REFUSED,
            },
        }
    },
    "/api/games": {
        "get": {
            "summary": "The games of the salon with their option schemas",
            "parameters": [_LANG_PARAMETER],
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["games"],
                        "properties": {"games": {"type": "array", "items": _ref("GameInfo")}},
                    },
                    "The games",
                )
            },
        }
    },
    "/api/tables": {
        "get": {
            "summary": "A page of the public tables as the lobby lists them",
            "parameters": [
                _LANG_PARAMETER,
                {
                    "name": "limit",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 1},
                    "description": "Tables per page (default and most: the salon's lobby page size)",
                },
                {
                    "name": "cursor",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 0},
                    "description": "The `next` of the previous page",
                },
            ],
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["tables"],
                        "properties": {
                            "tables": {"type": "array", "items": _ref("TableSummary")},
                            "next": {"type": ["integer", "null"]},
                            "total": {"type": "integer", "minimum": 0},
                        },
                    },
                    "The public tables",
                ),
                "400": _REFUSED,
            },
        }
    },
    "/api/games/{game_id}": {
        "get": {
            "summary": "A finished (or running) game with its full log; `zanzibar replay ID` replays it",
            "description": (
                "A running game's dice seed is null until the game ends (seed_sha256 commits "
                "to it). A private table's games answer only the people who played them, "
                "signed in with `Authorization: Bearer <token>`; anyone else gets 404, as "
                "for a game that does not exist."
            ),
            "security": [{}, {"session": []}],
            "parameters": [
                {
                    "name": "game_id",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "integer", "minimum": 0},
                }
            ],
            "responses": {
                "200": _json(_ref("GameRecord"), "The game"),
                "401": _REFUSED,
                "404": _REFUSED,
            },
        }
    },
    "/api/users/{name}/stats": {
        "get": {
            "summary": "Games played, won and lost by a player, per game",
            "parameters": [
                {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
            "responses": {"200": _json(_ref("UserStats"), "The statistics"), "404": _REFUSED},
        }
    },
    "/api/l10n/{lang}.json": {
        "get": {
            "summary": "The web client's messages in one language (Fluent, compiled to JSON)",
            "parameters": [
                {"name": "lang", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
            "responses": {
                "200": {
                    "description": "The messages, with an ETag",
                    "content": {"application/json": {}},
                },
                "304": {"description": "Unchanged since the ETag given in If-None-Match"},
                "404": _REFUSED,
            },
        }
    },
    "/api/openapi.json": {
        "get": {
            "summary": "This OpenAPI document",
            "responses": {
                "200": {"description": "OpenAPI 3.1", "content": {"application/json": {}}}
            },
        }
    },
    "/api/health": {
        "get": {
            "summary": "Whether this node can serve: what a load balancer polls",
            "description": (
                "200 when the database and (on a node of several) Redis answer and the node "
                "is not draining; 503 with the same body otherwise. A node that received "
                "SIGTERM answers 503 `draining` for its drain time before it stops. See "
                "docs/deploy.md."
            ),
            "responses": {
                "200": _json(_ref("Health"), "This node can serve"),
                "503": _json(_ref("Health"), "This node should not get new connections"),
            },
        }
    },
}
# leaderboards and profiles (server/standing_api.py)
PATHS.update(STANDING_PATHS)
COMPONENTS.update(STANDING_COMPONENTS)


_TOURNAMENT: dict[str, Any] = {
    "type": "object",
    "required": ["id", "name", "game", "rounds", "round", "state", "players"],
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "game": {"type": "string"},
        "title": {"type": "string"},
        "seats": {"type": "integer", "description": "Seats at each table"},
        "rounds": {"type": "integer"},
        "round": {"type": "integer", "description": "The round being played (0 before)"},
        "max_players": {"type": "integer"},
        "players": {"type": "integer"},
        "starts_at": {"type": ["number", "null"], "description": "Epoch seconds, or null"},
        "state": {"enum": ["registering", "running", "finished", "cancelled"]},
        "host": {"type": "string"},
        "note": {"type": ["string", "null"]},
    },
}
_STANDING: dict[str, Any] = {
    "type": "object",
    "required": ["rank", "entrant", "name", "points", "buchholz"],
    "properties": {
        "rank": {"type": "integer"},
        "entrant": {"type": "integer"},
        "name": {"type": "string"},
        "seed": {"type": "integer"},
        "points": {"type": "number"},
        "buchholz": {"type": "number"},
        "buchholz_cut1": {"type": "number"},
        "sonneborn_berger": {"type": "number"},
        "games": {"type": "integer"},
        "wins": {"type": "integer"},
        "byes": {"type": "integer"},
    },
}
PATHS["/api/tournaments"] = {
    "get": {
        "summary": "The newest Swiss tournaments",
        "parameters": [_LANG_PARAMETER],
        "responses": {
            "200": _json(
                {
                    "type": "object",
                    "required": ["tournaments"],
                    "properties": {"tournaments": {"type": "array", "items": _TOURNAMENT}},
                },
                "The tournaments, newest first",
            )
        },
    }
}
PATHS["/api/tournaments/{tournament_id}"] = {
    "get": {
        "summary": "A Swiss tournament with its entrants, rounds, results and standings",
        "description": (
            "Standings order: points, Buchholz (sum of the opponents' points), Buchholz "
            "cut-1, Sonneborn-Berger, then seed. A bye scores one point and adds no opponent."
        ),
        "parameters": [
            _LANG_PARAMETER,
            {
                "name": "tournament_id",
                "in": "path",
                "required": True,
                "schema": {"type": "integer", "minimum": 1},
            },
        ],
        "responses": {
            "200": _json(
                {
                    **_TOURNAMENT,
                    "properties": {
                        **_TOURNAMENT["properties"],
                        "standings": {"type": "array", "items": _STANDING},
                        "standings_text": {"type": "string"},
                        "entrants": {"type": "array"},
                        "rounds_played": {"type": "array"},
                    },
                },
                "The tournament",
            ),
            "404": _REFUSED,
        },
    }
}


def document() -> dict[str, Any]:
    """The whole OpenAPI document (a fresh copy each time)."""
    return copy.deepcopy(
        {
            "openapi": "3.1.0",
            "info": {
                "title": "Zanzibar salon HTTP API",
                "version": __version__,
                "description": (
                    "Sign-in and read-only queries of the Zanzibar game salon. Playing goes "
                    "through the WebSocket endpoint /ws, described in docs/protocol.md "
                    "(version 2, one frame per step, with the subprotocol zanzibar.v2)."
                ),
            },
            "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
            "paths": PATHS,
            "components": {
                "schemas": COMPONENTS,
                "securitySchemes": {
                    "session": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "the token of POST /api/guest, /api/register or /api/login",
                    }
                },
            },
        }
    )


def response_schema(path: str, method: str, status: int) -> JsonSchema:
    """The response body schema of one route, resolvable on its own (for tests).

    >>> response_schema("/api/guest", "post", 200)["required"]
    ['token', 'user']
    """
    doc = document()
    body = doc["paths"][path][method]["responses"][str(status)]["content"]["application/json"]
    schema: JsonSchema = body["schema"]
    if "$ref" in schema:
        schema = COMPONENTS[schema["$ref"].rsplit("/", 1)[1]]
    return {
        **copy.deepcopy(schema),
        "$defs": {},
        "components": {"schemas": doc["components"]["schemas"]},
    }
