"""``GET /api/health``: what a load balancer polls, on one process and on a cluster node."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _fakesalon import FakeSalon
from starlette.testclient import TestClient

from zanzibar.server.app import create_app
from zanzibar.server.openapi import response_schema
from zanzibar.server.settings import Settings

jsonschema = pytest.importorskip("jsonschema")


def check(body: dict[str, Any], status: int) -> None:
    jsonschema.validate(body, response_schema("/api/health", "get", status))


def test_a_sqlite_salon_is_healthy_without_redis(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, node="solo")
    with TestClient(create_app(settings)) as client:
        response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "node": "solo", "db": "ok", "redis": "off"}
    assert response.headers["cache-control"] == "no-store"
    check(response.json(), 200)


class BrokenStore:
    async def read(self, *_args: Any) -> list[Any]:
        raise OSError("connection refused")


def test_an_unreachable_database_fails_the_check() -> None:
    salon = FakeSalon()
    salon.store = BrokenStore()  # type: ignore[attr-defined]
    with TestClient(create_app(salon)) as client:
        response = client.get("/api/health")
    assert response.status_code == 503
    body = response.json()
    assert (body["status"], body["db"], body["redis"]) == ("failing", "unreachable", "off")
    assert "refused" not in response.text  # no detail beyond the part's state
    check(body, 503)


def test_without_redis_the_server_never_imports_it(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from starlette.testclient import TestClient\n"
        "from zanzibar.server.app import create_app\n"
        "from zanzibar.server.settings import Settings\n"
        f"with TestClient(create_app(Settings(data_dir=Path({str(tmp_path)!r})))) as c:\n"
        "    assert c.get('/api/health').status_code == 200\n"
        "print(sorted(m for m in sys.modules if m == 'redis' or m.startswith('redis.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.live
def test_a_cluster_node_reports_redis_and_fails_when_it_goes(
    pg_url: str, redis_url: str, redis_server: Any
) -> None:
    settings = Settings(db_url=pg_url, redis_url=redis_url, node="n1")
    with TestClient(create_app(settings)) as client:
        response = client.get("/api/health")
        assert response.status_code == 200, response.text
        body = response.json()
        assert (body["status"], body["node"], body["db"], body["redis"]) == ("ok", "n1", "ok", "ok")
        assert len(body["boot"]) == 16
        check(body, 200)
        redis_server.stop()
        try:
            response = client.get("/api/health")
            assert response.status_code == 503
            assert response.json()["redis"] == "unreachable"
            check(response.json(), 503)
        finally:
            redis_server.start()
        node = client.app.state.node  # type: ignore[attr-defined]
        client.portal.call(node.drain)  # type: ignore[union-attr]
        response = client.get("/api/health")
        assert response.status_code == 503
        assert response.json()["status"] == "draining"
