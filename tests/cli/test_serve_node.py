"""``zanzibar serve --redis --node --drain``: the flags of a cluster node."""

from __future__ import annotations

import pytest

from zanzibar.cli.serve import parse_settings

PG = "postgresql+asyncpg://zanzibar@127.0.0.1:5432/zanzibar"


def test_a_node_takes_redis_a_name_and_a_drain_time() -> None:
    settings, _ = parse_settings(
        ["--db", PG, "--redis", "redis://127.0.0.1:6379/0", "--node", "n2", "--drain", "0.5"]
    )
    assert (settings.redis_url, settings.node_name, settings.drain_seconds) == (
        "redis://127.0.0.1:6379/0",
        "n2",
        0.5,
    )


def test_without_redis_nothing_changes() -> None:
    settings, _ = parse_settings(["--port", "9001"])
    assert settings.redis_url == ""
    assert settings.node_name.endswith("-9001")  # named after the host, for /api/health


@pytest.mark.parametrize(
    "argv",
    [
        ["--redis", "redis://127.0.0.1:6379/0"],  # SQLite cannot be shared
        ["--redis", "redis://127.0.0.1:6379/0", "--db", "sqlite+aiosqlite:///x.db"],
        ["--redis", "127.0.0.1:6379", "--db", PG],  # not a URL
        ["--node", "two words"],
        ["--node", "n1:8421"],
        ["--db", PG, "--redis", "redis://h/0", "--drain", "-1"],
    ],
)
def test_bad_node_flags_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        parse_settings(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.startswith("zanzibar serve: ")
