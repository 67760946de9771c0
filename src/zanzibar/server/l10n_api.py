"""``GET /api/l10n/{lang}.json``: the web client's words from the one catalogue.

The body is :func:`zanzibar.l10n.webexport.export_json`; its ``ETag`` is the
catalogue's digest, so a browser revalidates with ``If-None-Match`` and gets a
304 until a message file changes.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from zanzibar.l10n import default_catalogue
from zanzibar.l10n.webexport import export_json


async def l10n_messages(request: Request) -> Response:
    """The ``web-*`` messages of one language, compiled for ``static/js/i18n.js``."""
    lang = str(request.path_params.get("lang", ""))
    catalogue = default_catalogue()
    if lang not in catalogue.languages:
        known = ", ".join(catalogue.codes)
        return JSONResponse(
            {"code": "not_found", "message": f"no language {lang[:20]!r} (known: {known})"},
            status_code=404,
        )
    etag = f'"{catalogue.etag}-{lang}"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(export_json(lang), media_type="application/json", headers=headers)
