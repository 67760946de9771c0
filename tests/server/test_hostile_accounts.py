"""Sign-in abuse and session tokens against a real server (issue 10, points 7 and 10).

- Wrong passwords are rate-limited per name and per address, with a wait
  that grows (minute, then hour windows); a flood of parallel sign-ins costs a
  bounded number of argon2 hashes (memory) and does not starve a real sign-in.
- An unknown name takes as long to refuse as a wrong password.
- Sessions expire when unused (sliding), sign-out and a password change revoke
  tokens, and a revoked token is refused on every route, even after a restart.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path

import httpx
import pytest
from _server import ServerProcess, start_server
from _wsclient import WsClient

from zanzibar.games import game_names

pytestmark = pytest.mark.skipif("421" not in game_names(), reason="421 is not installed yet")


def _peak_rss_mib(pid: int) -> float:
    """The process's peak resident memory (VmHWM) in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_wrong_passwords_are_rate_limited_per_name_with_growing_waits(
    server: ServerProcess,
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        assert http.post("/api/register", json={"name": "Vera", "password": "right-pw"}).is_success
        codes = []
        for _ in range(5):
            wrong = http.post("/api/login", json={"name": "vera", "password": "wrong-pw"})
            codes.append(wrong.json()["code"])
        assert codes == ["unauthenticated"] * 5
        locked = http.post("/api/login", json={"name": "VERA", "password": "wrong-pw"})
        assert locked.status_code == 429 and locked.json()["code"] == "rate_limited"
        wait = int(locked.headers["retry-after"])
        assert 1 <= wait <= 60 and locked.json()["retry_after"] == wait
        assert "sign-in attempts" in locked.json()["message"]
        # the right password waits too: guessing cannot go on by trying it in between
        right = http.post("/api/login", json={"name": "Vera", "password": "right-pw"})
        assert right.status_code == 429
        # another name is not affected (loopback is exempt from per-address limits here)
        assert http.post("/api/register", json={"name": "Wim", "password": "right-pw"}).is_success
        assert http.post("/api/login", json={"name": "Wim", "password": "right-pw"}).is_success


def test_sign_in_is_rate_limited_per_address(tmp_path: Path) -> None:
    server = start_server(
        tmp_path / "data",
        extra_args=["--limit", "exempt_addresses=", "--limit", "login_rate_address=8/minute"],
    )
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            codes = [
                http.post("/api/login", json={"name": f"Nobody{i}", "password": "x" * 8}).json()[
                    "code"
                ]
                for i in range(10)
            ]
            assert codes[:8] == ["unauthenticated"] * 8
            assert codes[8:] == ["rate_limited"] * 2
    finally:
        server.stop()


async def _flood(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        assert (
            await http.post("/api/register", json={"name": "Real", "password": "right-pw"})
        ).is_success
        started = time.monotonic()
        warm = await http.post("/api/login", json={"name": "Real", "password": "right-pw"})
        assert warm.is_success
        one_hash = time.monotonic() - started
        await asyncio.sleep(0.5)
        before = _peak_rss_mib(server.process.pid)

        async def real_sign_in() -> tuple[httpx.Response, float]:
            await asyncio.sleep(0.2)  # in the middle of the flood
            started = time.monotonic()
            reply = await http.post("/api/login", json={"name": "Real", "password": "right-pw"})
            return reply, time.monotonic() - started

        flood = [
            http.post("/api/login", json={"name": f"Flood{i}", "password": "wrong-password"})
            for i in range(200)
        ]
        started = time.monotonic()
        *replies, (real, real_seconds) = await asyncio.gather(*flood, real_sign_in())
        flood_seconds = time.monotonic() - started
        codes = [r.json()["code"] for r in replies]
        assert set(codes) <= {"unauthenticated", "rate_limited"}
        busy = [r for r in replies if r.json()["code"] == "rate_limited"]
        assert busy, "a flood beyond the hashing queue must be refused at once"
        assert all("busy" in r.json()["message"] for r in busy)
        # a real sign-in during the flood waits at most for the bounded queue (16 hashes
        # on 2 workers), or is told at once that the salon is busy and gets in on retry.
        # On a machine busier during the flood than when one hash was timed, the flood's
        # own length is the yardstick: behind an unbounded queue the real sign-in, sent
        # last, would end with the flood's 200 hashes, not well before.
        if real.is_success:
            bounded = real_seconds < 12 * one_hash + 1.0 or real_seconds < 0.75 * flood_seconds
            assert bounded, (real_seconds, one_hash, flood_seconds)
        else:
            # refused without waiting for the queue (8 hashes a worker): under half of that,
            # on a machine as busy as when one hash was timed, or well before the flood's
            # end on a busier one (a clean-clone CI run: refused after 2.5 s of a 12 s flood,
            # one hash timed at 0.26 s while the other worker was between tests)
            assert real.json()["code"] == "rate_limited", real.json()
            quick = real_seconds < 4 * one_hash + 1.0 or real_seconds < 0.5 * flood_seconds
            assert quick, (real_seconds, one_hash, flood_seconds)
            retry = await http.post("/api/login", json={"name": "Real", "password": "right-pw"})
            assert retry.is_success
        grown = _peak_rss_mib(server.process.pid) - before
        # at most 2 argon2 hashes (64 MiB each) at once, not one per request
        assert grown < 200, f"peak memory grew by {grown:.0f} MiB (flood {flood_seconds:.1f}s)"


def test_a_flood_of_parallel_sign_ins_costs_bounded_memory(server: ServerProcess) -> None:
    asyncio.run(_flood(server))


def test_an_unknown_name_takes_as_long_as_a_wrong_password(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data", extra_args=["--limit", "login_rate_name=1000/minute"])
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            assert http.post(
                "/api/register", json={"name": "Known", "password": "right-pw"}
            ).is_success
            guest = http.post("/api/guest", json={"name": "Guesty"})  # no password at all
            assert guest.is_success

            def timed(name: str) -> float:
                started = time.perf_counter()
                reply = http.post("/api/login", json={"name": name, "password": "wrong-pw"})
                assert reply.status_code == 401, reply.json()
                assert reply.json()["message"] == "wrong name or password"
                return time.perf_counter() - started

            for name in ("Known", "Nobody"):
                timed(name)  # warm up
            # interleaved, so that other work on the machine weighs on all three alike
            rounds = [(timed("Known"), timed(f"Nobody{i}"), timed("Guesty")) for i in range(9)]
            known, unknown, guest_time = (statistics.median(r[k] for r in rounds) for k in range(3))
            for other in (unknown, guest_time):
                assert 0.5 < other / known < 2.0, (known, unknown, guest_time)
    finally:
        server.stop()


async def _sessions(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        first = (
            await http.post("/api/register", json={"name": "Tess", "password": "first-pw"})
        ).json()
        second = (
            await http.post("/api/login", json={"name": "Tess", "password": "first-pw"})
        ).json()
        third = (
            await http.post("/api/login", json={"name": "Tess", "password": "first-pw"})
        ).json()
        a = await WsClient.with_token(server.url, first["token"], "Tess-1")
        b = await WsClient.with_token(server.url, second["token"], "Tess-2")
        try:
            # signing out revokes the token: its socket is told, and is signed out
            out = await http.post(
                "/api/logout", headers={"Authorization": f"Bearer {first['token']}"}
            )
            assert out.status_code == 200 and out.json() == {"ok": True}
            told = await a.wait_for(lambda m: m["type"] == "error")
            assert told["code"] == "unauthenticated"
            assert (await a.request("lobby.subscribe"))["code"] == "unauthenticated"
            refused = await a.hello(first["token"])
            assert refused["type"] == "error" and refused["code"] == "unauthenticated"
            again = await http.post(
                "/api/logout", headers={"Authorization": f"Bearer {first['token']}"}
            )
            assert again.status_code == 401
            # the other sessions still work
            assert (await b.request("lobby.subscribe"))["type"] == "ok"
            # a password change revokes every other session, keeps the one asking
            changed = await http.post(
                "/api/password",
                json={"old": "first-pw", "new": "second-pw"},
                headers={"Authorization": f"Bearer {third['token']}"},
            )
            assert changed.status_code == 200, changed.json()
            told = await b.wait_for(lambda m: m["type"] == "error")
            assert told["code"] == "unauthenticated"
            assert (await b.hello(second["token"]))["code"] == "unauthenticated"
            wrong_old = await http.post(
                "/api/password",
                json={"old": "first-pw", "new": "third-pw"},
                headers={"Authorization": f"Bearer {third['token']}"},
            )
            assert wrong_old.status_code == 401
            login_old = await http.post("/api/login", json={"name": "Tess", "password": "first-pw"})
            assert login_old.status_code == 401
            login_new = await http.post(
                "/api/login", json={"name": "Tess", "password": "second-pw"}
            )
            assert login_new.status_code == 200
        finally:
            await a.close()
            await b.close()
        kept = await WsClient.with_token(server.url, third["token"], "Tess-3")
        await kept.close()
        no_bearer = await http.post("/api/logout")
        assert no_bearer.status_code == 401 and no_bearer.json()["code"] == "unauthenticated"
    # after a restart, revoked tokens stay revoked and the kept one still works
    restarted = server.restart()
    try:
        for token in (first["token"], second["token"]):
            client = await WsClient.open(restarted.ws_url, "revoked")
            try:
                assert (await client.hello(token))["code"] == "unauthenticated"
            finally:
                await client.close()
        kept = await WsClient.with_token(restarted.url, third["token"], "Tess-3")
        await kept.close()
    finally:
        restarted.stop()


def test_sign_out_and_password_change_revoke_tokens_everywhere(server: ServerProcess) -> None:
    asyncio.run(_sessions(server))


async def _expiry(server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        idle = (await http.post("/api/guest", json={"name": "Idle"})).json()["token"]
        busy = (await http.post("/api/guest", json={"name": "Busy"})).json()["token"]
    # both stay connected; Busy sends a ping every half second for 5 s (its session
    # slides), Idle says nothing for as long (its session, idle 2.5 s, expires)
    busy_socket = await WsClient.with_token(server.url, busy, "Busy")
    idle_socket = await WsClient.with_token(server.url, idle, "Idle")
    try:
        for _ in range(10):
            assert (await busy_socket.ping())["type"] == "pong"
            await asyncio.sleep(0.5)
        refused = await idle_socket.request("lobby.subscribe")
        assert refused["type"] == "error" and refused["code"] == "unauthenticated"
        assert "expired" in refused["message"]
        again = await idle_socket.hello(idle)
        assert again["type"] == "error" and again["code"] == "unauthenticated"
        # a fresh socket with the busy token is still welcome
        fresh = await WsClient.with_token(server.url, busy, "Busy-2")
        await fresh.close()
    finally:
        await busy_socket.close()
        await idle_socket.close()
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        out = await http.post("/api/logout", headers={"Authorization": f"Bearer {idle}"})
        assert out.status_code == 401


def test_sessions_expire_when_unused_and_use_slides_the_expiry(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data", extra_args=["--limit", "session_idle=2.5"])
    try:
        asyncio.run(_expiry(server))
    finally:
        server.stop()
