"""Small helpers of the message handlers: reading fields, shaping replies.

The server validates messages against JSON schemas, but the salon checks the
fields it uses again, so ``handle`` is safe with any dict (the fuzz tests
send random ones).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from zanzibar.engine.errors import ZanzibarError
from zanzibar.salon.errors import SalonError

log = logging.getLogger("zanzibar.salon.service")

PROTOCOL = 1
#: How long a stop waits for cancelled background work to end (seconds).
STOP_WAIT_S = 5.0


def log_failure(task: asyncio.Task[Any]) -> None:
    """Done-callback of background tasks: a failure is logged, never lost."""
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None and not isinstance(exc, ZanzibarError):
        log.error("salon task %s failed", task.get_name(), exc_info=exc)


async def end_tasks(tasks: Iterable[asyncio.Future[Any]], grace: float) -> None:
    """Let ``tasks`` end (``grace`` seconds at most), then cancel what is left and wait
    (:data:`STOP_WAIT_S` at most) for it to end: a stop, before the storage closes.

    None of the work spawned beside commands may outlive the storage: a task cancelled in
    the middle of a database call that was still giving its connection back when the event
    loop ended made the database driver wait for good for a worker thread that had already
    stopped (a hang seen in the test suite; ``Salon.stop``, ``TournamentRunner.stop``)."""
    every = list(tasks)
    pending = {task for task in every if not task.done()}
    if pending and grace > 0:
        _, pending = await asyncio.wait(pending, timeout=grace)
    for task in pending:
        task.cancel()
    if pending:
        _, left = await asyncio.wait(pending, timeout=STOP_WAIT_S)
        if left:
            log.warning("%d task(s) did not end when cancelled at the stop", len(left))
    for task in every:  # their failures were logged where they ran, or do not matter now
        if task.done() and not task.cancelled():
            task.exception()


def request_id(message: Any) -> Any:
    """The client's ``id`` to echo (a string or an integer), or None.

    >>> request_id({"id": 7}), request_id({"id": True}), request_id("x")
    (7, None, None)
    """
    if isinstance(message, dict):
        value = message.get("id")
        if isinstance(value, str | int) and not isinstance(value, bool):
            return value
    return None


def ok_reply(message: Any, **fields: Any) -> dict[str, Any]:
    """The ``ok`` answer to ``message`` (with its request id, if it had one), with ``fields``.

    >>> ok_reply({"id": 7, "type": "ping"}, pong=True)
    {'v': 1, 'type': 'ok', 'id': 7, 'pong': True}
    """
    reply: dict[str, Any] = {"v": PROTOCOL, "type": "ok"}
    reply_id = request_id(message)
    if reply_id is not None:
        reply["id"] = reply_id
    reply.update(fields)
    return reply


def error_reply(request_id: Any, exc: ZanzibarError, lang: str = "en") -> dict[str, Any]:
    """The ``error`` message for a refusal, its message in ``lang``, with plain details."""
    body = exc.to_json(lang)
    reply: dict[str, Any] = {"v": PROTOCOL, "type": "error"}
    if request_id is not None:
        reply["id"] = request_id
    reply["code"] = body.get("code", "invalid")
    reply["message"] = str(body.get("message", ""))
    for key, value in body.items():
        if key not in reply and isinstance(value, str | int | float | bool | type(None)):
            reply[key] = value
    return reply


def int_field(message: dict[str, Any], key: str, required: bool = True) -> int | None:
    """A whole-number field (booleans refused), or ``invalid``.

    >>> int_field({"table": 3}, "table")
    3
    >>> int_field({}, "seat", required=False) is None
    True
    """
    value = message.get(key)
    if value is None:
        if required:
            raise SalonError("invalid", f"{key} is required")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SalonError("invalid", f"{key} must be a whole number")
    return value


def bool_field(message: dict[str, Any], key: str, default: bool | None = None) -> bool:
    """A true/false field, or ``invalid``."""
    value = message.get(key, default)
    if not isinstance(value, bool):
        raise SalonError("invalid", f"{key} must be true or false")
    return value


def since_field(message: dict[str, Any]) -> int:
    """The ``since`` of a history request (0 when absent), or ``invalid``."""
    since = int_field(message, "since", required=False)
    if since is None:
        return 0
    if since < 0:
        raise SalonError("invalid", "since cannot be negative")
    return since


def seconds_value(value: float) -> int | float:
    """Seconds as a sentence shows them: 5 rather than 5.0.

    >>> seconds_value(5.0), seconds_value(0.25)
    (5, 0.2)
    """
    return int(value) if float(value).is_integer() else round(value, 1)
