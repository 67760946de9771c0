"""GET /api/l10n/{lang}.json: the web client's words come from the server's catalogue."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from _fakesalon import FakeSalon
from starlette.testclient import TestClient

from zanzibar.l10n import default_catalogue
from zanzibar.server.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(FakeSalon())) as test_client:
        yield test_client


def test_french_messages_are_served_with_an_etag(client: TestClient) -> None:
    response = client.get("/api/l10n/fr.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["lang"] == "fr"
    assert body["messages"]["join_table"] == ["Rejoindre la table ", {"v": "id"}]
    assert "help_dice" in body["lines"]
    assert response.headers["etag"] == f'"{default_catalogue().etag}-fr"'


def test_unchanged_messages_answer_304(client: TestClient) -> None:
    etag = client.get("/api/l10n/en.json").headers["etag"]
    again = client.get("/api/l10n/en.json", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    other = client.get("/api/l10n/fr.json", headers={"If-None-Match": etag})
    assert other.status_code == 200


@pytest.mark.parametrize("lang", ["de", "..", "fr.json", "x" * 300])
def test_unknown_language_is_404(client: TestClient, lang: str) -> None:
    response = client.get(f"/api/l10n/{lang}.json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
