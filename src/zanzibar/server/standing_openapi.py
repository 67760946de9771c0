"""The OpenAPI description of standing's routes (:mod:`zanzibar.server.standing_api`).

Merged into :mod:`zanzibar.server.openapi` (its ``PATHS`` and ``COMPONENTS``).
"""

from __future__ import annotations

from typing import Any

JsonSchema = dict[str, Any]


def _ref(name: str) -> JsonSchema:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: JsonSchema, description: str) -> JsonSchema:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_REFUSED = _json(_ref("Error"), "Refused; nothing changed (same codes as the WebSocket protocol)")
_LANG = {
    "name": "lang",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "enum": ["en", "fr"]},
    "description": "Language of the family titles (default en)",
}
_FAMILY: JsonSchema = {"enum": ["421-salon", "421-bar", "zilch", "zanzibar-s", "chess"]}

RATING: JsonSchema = {
    "type": "object",
    "description": "One player's rating in one family.",
    "required": ["family", "rating", "mu", "sigma", "games", "provisional", "rank"],
    "properties": {
        "family": _FAMILY,
        "title": {"type": "string"},
        "rating": {
            "type": "integer",
            "description": "1000 + 40 (mu - 3 sigma), rounded: what players see",
        },
        "mu": {"type": "number"},
        "sigma": {"type": "number"},
        "games": {"type": "integer", "minimum": 0},
        "provisional": {
            "type": "boolean",
            "description": "fewer rated games than provisional_games",
        },
        "rank": {"type": "integer", "minimum": 1},
        "history": {
            "type": "array",
            "description": "the rating after each rated game, oldest first",
            "items": {
                "type": "object",
                "required": ["game", "rating", "change", "place", "date"],
                "properties": {
                    "game": {"type": "integer"},
                    "rating": {"type": "integer"},
                    "change": {"type": "integer"},
                    "place": {"type": "integer", "minimum": 1},
                    "date": {"type": ["string", "null"]},
                },
            },
        },
    },
}
LEADERBOARD: JsonSchema = {
    "type": "object",
    "required": ["family", "players", "total", "next", "provisional_games", "you", "bots"],
    "properties": {
        "family": _FAMILY,
        "title": {"type": "string"},
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["rank", "user", "name", "rating", "games", "provisional", "profile"],
                "properties": {
                    "rank": {"type": "integer", "minimum": 1},
                    "user": {"type": "integer"},
                    "name": {"type": "string"},
                    "rating": {"type": "integer"},
                    "games": {"type": "integer"},
                    "provisional": {"type": "boolean"},
                    "profile": {"type": "boolean", "description": "false: the profile is hidden"},
                },
            },
        },
        "total": {"type": "integer", "minimum": 0},
        "next": {"type": ["integer", "null"], "description": "the cursor of the next page"},
        "provisional_games": {"type": "integer"},
        "you": {"anyOf": [_ref("Rating"), {"type": "null"}]},
        "bots": {
            "type": "array",
            "description": "the fixed rating of each bot level (anchors, never updated)",
            "items": {
                "type": "object",
                "required": ["level", "rating"],
                "properties": {"level": {"type": "string"}, "rating": {"type": "integer"}},
            },
        },
    },
}
PROFILE: JsonSchema = {
    "type": "object",
    "required": ["user", "id", "hidden", "ratings", "games", "stats", "provisional_games"],
    "properties": {
        "user": {"type": "string"},
        "id": {"type": "integer"},
        "hidden": {"type": "boolean", "description": "true only in the owner's own view"},
        "ratings": {"type": "array", "items": _ref("Rating")},
        "games": {
            "type": "array",
            "description": "the last finished games, newest first",
            "items": {
                "type": "object",
                "required": ["id", "game", "finished", "result", "players", "replay"],
                "properties": {
                    "id": {"type": "integer"},
                    "game": {"type": "string"},
                    "family": {"anyOf": [_FAMILY, {"type": "null"}]},
                    "finished": {"type": ["string", "null"]},
                    "result": {"type": ["string", "null"]},
                    "place": {"type": ["integer", "null"]},
                    "change": {"type": ["integer", "null"]},
                    "players": {"type": "array", "items": {"type": "string"}},
                    "replay": {"type": "string", "description": "GET this for the game's record"},
                },
            },
        },
        "stats": {"type": "object", "additionalProperties": {"type": "object"}},
        "provisional_games": {"type": "integer"},
    },
}
HIDDEN: JsonSchema = {
    "type": "object",
    "required": ["hidden"],
    "properties": {"hidden": {"type": "boolean"}},
    "additionalProperties": False,
}

STANDING_COMPONENTS: dict[str, JsonSchema] = {
    "Rating": RATING,
    "Leaderboard": LEADERBOARD,
    "Profile": PROFILE,
    "ProfileSettings": HIDDEN,
}

_OPTIONAL_BEARER = {
    "name": "Authorization",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "pattern": "^Bearer "},
    "description": "`Bearer <session token>`: adds your own rating and rank (`you`)",
}
_BEARER = {**_OPTIONAL_BEARER, "required": True, "description": "`Bearer <session token>`"}

STANDING_PATHS: dict[str, Any] = {
    "/api/leaderboard": {
        "get": {
            "summary": "The rating families, with their titles",
            "parameters": [_LANG],
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["families", "provisional_games"],
                        "properties": {
                            "families": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "required": ["family", "title"],
                                    "properties": {
                                        "family": _FAMILY,
                                        "title": {"type": "string"},
                                    },
                                },
                            },
                            "provisional_games": {"type": "integer"},
                        },
                    },
                    "The families",
                )
            },
        }
    },
    "/api/leaderboard/{family}": {
        "get": {
            "summary": "One page of a family's leaderboard, best first (and your own place)",
            "parameters": [
                {"name": "family", "in": "path", "required": True, "schema": _FAMILY},
                {
                    "name": "cursor",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 0},
                    "description": "players before the page (the `next` of the previous one)",
                },
                {
                    "name": "limit",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 1, "maximum": 100},
                },
                _LANG,
                _OPTIONAL_BEARER,
            ],
            "responses": {
                "200": _json(_ref("Leaderboard"), "The page"),
                "400": _REFUSED,
                "401": _REFUSED,
                "404": _REFUSED,
            },
        }
    },
    "/api/profile/{name}": {
        "get": {
            "summary": "A player's profile: ratings with history, last games, statistics",
            "description": (
                "Signed-in players only. An unknown name, a guest and a hidden profile all "
                "answer the same 404 (a hidden profile still answers its owner)."
            ),
            "security": [{"session": []}],
            "parameters": [
                {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}},
                _LANG,
                _BEARER,
            ],
            "responses": {
                "200": _json(_ref("Profile"), "The profile"),
                "401": _REFUSED,
                "404": _REFUSED,
            },
        }
    },
    "/api/profile/settings": {
        "put": {
            "summary": "Hide or show your own profile (an account's setting)",
            "security": [{"session": []}],
            "parameters": [_BEARER],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref("ProfileSettings")}},
            },
            "responses": {
                "200": _json(_ref("ProfileSettings"), "The setting now"),
                "400": _REFUSED,
                "401": _REFUSED,
                "403": _REFUSED,
            },
        }
    },
}
