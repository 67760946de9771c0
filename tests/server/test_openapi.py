"""The OpenAPI document: a valid 3.1 skeleton, every route described, live answers matching it."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from _server import ServerProcess
from _wsclient import WsClient
from jsonschema import Draft202012Validator
from starlette.routing import Route

from zanzibar.server import openapi
from zanzibar.server.app import create_app
from zanzibar.server.settings import Settings


def _http_routes() -> set[tuple[str, str]]:
    app = create_app(Settings())
    out = set()
    for route in app.routes:
        if isinstance(route, Route):
            for method in route.methods or ():
                if method != "HEAD":
                    out.add((route.path, method.lower()))
    return out


def test_every_http_route_is_described_and_nothing_else() -> None:
    described = {
        (path, method) for path, item in openapi.document()["paths"].items() for method in item
    }
    assert described == _http_routes()


def test_document_skeleton() -> None:
    doc = openapi.document()
    assert doc["openapi"].startswith("3.1")
    assert doc["info"]["title"] and doc["info"]["version"]
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            assert operation["summary"], (path, method)
            assert "200" in operation["responses"], (path, method)
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    assert "{" + parameter["name"] + "}" in path


def test_every_reference_resolves() -> None:
    doc = openapi.document()
    refs: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                refs.append(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    assert refs
    for ref in refs:
        assert ref.startswith("#/components/schemas/")
        assert ref.rsplit("/", 1)[1] in doc["components"]["schemas"]


def test_component_schemas_are_valid_json_schema() -> None:
    for schema in openapi.COMPONENTS.values():
        Draft202012Validator.check_schema(schema)


def _check(path: str, method: str, status: int, body: Any) -> None:
    schema = openapi.response_schema(path, method, status)
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(body)]
    assert errors == [], f"{method.upper()} {path} answered {body!r:.300}: {errors}"


async def _live_answers(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        guest = await http.post("/api/guest", json={"name": "Schema", "lang": "fr"})
        _check("/api/guest", "post", 200, guest.json())
        registered = await http.post(
            "/api/register", json={"name": "Member", "password": "s3cret-enough"}
        )
        assert registered.status_code == 200, registered.text
        _check("/api/register", "post", 200, registered.json())
        again = await http.post(
            "/api/register", json={"name": "Member", "password": "s3cret-enough"}
        )
        assert again.status_code == 409
        _check("/api/register", "post", 409, again.json())
        login = await http.post("/api/login", json={"name": "Member", "password": "s3cret-enough"})
        _check("/api/login", "post", 200, login.json())
        wrong = await http.post("/api/login", json={"name": "Member", "password": "nope-nope"})
        assert wrong.status_code == 401
        _check("/api/login", "post", 401, wrong.json())
        games = await http.get("/api/games", params={"lang": "fr"})
        _check("/api/games", "get", 200, games.json())
        assert games.json()["games"]
        missing = await http.get("/api/games/424242")
        assert missing.status_code == 404
        _check("/api/games/{game_id}", "get", 404, missing.json())
        stats = await http.get("/api/users/Member/stats")
        _check("/api/users/{name}/stats", "get", 200, stats.json())
        nobody = await http.get("/api/users/Nobody-at-all/stats")
        assert nobody.status_code == 404
        # a table, so that the list is not empty
        client = await WsClient.with_token(server.url, guest.json()["token"], "Schema")
        try:
            await client.ok("table.create", game="421", seats=2)
            tables = await http.get("/api/tables")
            _check("/api/tables", "get", 200, tables.json())
            assert tables.json()["tables"]
        finally:
            await client.close()
        served = await http.get("/api/openapi.json")
        assert served.json() == openapi.document()


def test_live_answers_match_the_document(shared_server: ServerProcess) -> None:
    asyncio.run(_live_answers(shared_server))


@pytest.mark.parametrize("path", ["/api/guest", "/api/register", "/api/login"])
def test_request_schemas_refuse_unknown_fields(path: str) -> None:
    schema = openapi.document()["paths"][path]["post"]["requestBody"]["content"][
        "application/json"
    ]["schema"]
    name = schema["$ref"].rsplit("/", 1)[1]
    validator = Draft202012Validator(openapi.COMPONENTS[name])
    assert not validator.is_valid({"name": "A", "password": "p", "admin": True})
