"""HTTP API of standing: leaderboards, profiles, the profile's visibility.

- ``GET /api/leaderboard``: the rating families with their titles and the number
  of games under which a rating is provisional.
- ``GET /api/leaderboard/{family}?cursor=N&limit=N``: one page of a family's
  leaderboard, best first; with ``Authorization: Bearer`` also the caller's own
  rating and rank (``you``). Public, like the lobby.
- ``GET /api/profile/{name}``: a player's ratings with history, last games (with
  their replay address) and statistics. Signed-in players only (401 without a
  session); an unknown name, a guest and a hidden profile all answer the same
  404 (a hidden profile still answers its owner).
- ``PUT /api/profile/settings`` ``{"hidden": true|false}``: hide or show one's
  own profile (an account's setting; guests have no profile).

The salon object is ``request.app.state.salon``; its ``standing`` attribute is
a :class:`zanzibar.salon.standing.Standing`.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zanzibar.engine.errors import ZanzibarError
from zanzibar.l10n.msg import Msg
from zanzibar.l10n.voice import Voice
from zanzibar.salon.ratings import FAMILIES, PROVISIONAL_GAMES
from zanzibar.server.guards import lang_of

_STATUS = {"not_found": 404, "unauthenticated": 401, "forbidden": 403, "invalid": 400}


def _refusal(request: Request, code: str, message: Msg) -> JSONResponse:
    text = Voice(lang_of(request.scope)).say(message)
    return JSONResponse({"code": code, "message": text}, status_code=_STATUS.get(code, 400))


def _refused(request: Request, exc: ZanzibarError) -> JSONResponse:
    body = exc.to_json(lang_of(request.scope))
    return JSONResponse(body, status_code=_STATUS.get(str(body.get("code")), 400))


def _standing(request: Request) -> Any:
    return getattr(request.app.state.salon, "standing", None)


def family_title(family: str, lang: str) -> str:
    """A family's name in ``lang`` ("421, salon rules")."""
    return Voice(lang).say(Msg(f"standing-family-{family}"))


async def _session_user(request: Request) -> Any:
    """The signed-in user of ``Authorization: Bearer``; None without one; a refusal if bad."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    user = None
    if scheme.lower() == "bearer" and token.strip() and len(token) <= 512:
        user = await request.app.state.salon.resume(token.strip())
    if user is None:
        return _refusal(request, "unauthenticated", Msg("error-unknown-or-expired-session-token"))
    return user


def _number(request: Request, key: str) -> int | JSONResponse | None:
    raw = request.query_params.get(key)
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 9:
        from zanzibar.salon.leaderboards import LEADERBOARD_PAGE_MAX

        return _refusal(request, "invalid", Msg("error-page", largest=LEADERBOARD_PAGE_MAX))
    return int(raw)


async def families(request: Request) -> Response:
    """The rating families, in order, with their titles."""
    lang = lang_of(request.scope)
    return JSONResponse(
        {
            "families": [{"family": f, "title": family_title(f, lang)} for f in FAMILIES],
            "provisional_games": PROVISIONAL_GAMES,
        }
    )


async def leaderboard(request: Request) -> Response:
    """One page of a family's leaderboard (and the caller's own place when signed in)."""
    standing = _standing(request)
    family = str(request.path_params["family"])
    if standing is None:
        return _refusal(
            request,
            "not_found",
            Msg("error-no-family", family=family[:32], known=", ".join(FAMILIES)),
        )
    user = await _session_user(request)
    if isinstance(user, Response):
        return user
    cursor, limit = _number(request, "cursor"), _number(request, "limit")
    for value in (cursor, limit):
        if isinstance(value, Response):
            return value
    assert not isinstance(cursor, Response) and not isinstance(limit, Response)
    try:
        page = await standing.leaderboard(
            family, cursor or 0, limit, getattr(user, "id", None) if user is not None else None
        )
    except ZanzibarError as exc:
        return _refused(request, exc)
    page["title"] = family_title(family, lang_of(request.scope))
    return JSONResponse(page)


async def profile(request: Request) -> Response:
    """A player's profile, for signed-in players."""
    standing = _standing(request)
    name = str(request.path_params["name"])[:64]
    user = await _session_user(request)
    if isinstance(user, Response):
        return user
    if user is None:
        return _refusal(request, "unauthenticated", Msg("error-profile-sign-in"))
    user_id = await standing.user_id_of(name) if standing is not None else None
    found = await standing.profile(user_id, int(user.id)) if user_id is not None else None
    if found is None:
        return _refusal(request, "not_found", Msg("error-no-profile", name=name))
    lang = lang_of(request.scope)
    for rating in found["ratings"]:
        rating["title"] = family_title(rating["family"], lang)
    return JSONResponse(found)


async def profile_settings(request: Request) -> Response:
    """Hide or show one's own profile."""
    standing = _standing(request)
    user = await _session_user(request)
    if isinstance(user, Response):
        return user
    if user is None:
        return _refusal(request, "unauthenticated", Msg("error-profile-sign-in"))
    if getattr(user, "guest", False) or standing is None:
        return _refusal(request, "forbidden", Msg("error-profile-guest"))
    try:
        data = json.loads(await request.body())
    except (ValueError, RecursionError):
        data = None
    if (
        not isinstance(data, dict)
        or set(data) != {"hidden"}
        or not isinstance(data.get("hidden"), bool)
    ):
        return _refusal(request, "invalid", Msg("error-hidden-flag"))
    await standing.set_hidden(int(user.id), data["hidden"])
    return JSONResponse({"hidden": data["hidden"]})


def standing_routes() -> list[Route]:
    """The routes above, for the application's route list."""
    return [
        Route("/api/leaderboard", families, methods=["GET"]),
        Route("/api/leaderboard/{family}", leaderboard, methods=["GET"]),
        Route("/api/profile/settings", profile_settings, methods=["PUT"]),
        Route("/api/profile/{name}", profile, methods=["GET"]),
    ]
