"""Play on a running salon from the terminal: ``zanzibar play GAME --server URL``.

Three layers, each usable alone:

* :class:`SalonClient` signs in over HTTP (guest, or an account) and speaks
  protocol v1 over one WebSocket (``request`` waits for the reply carrying
  its ``id``; pushed messages are kept in arrival order);
* :class:`OnlineDriver` is a :class:`zanzibar.cli.frame.drivers.Driver` whose
  actions go to the server and whose events come back from it, so the same
  :class:`~zanzibar.cli.frame.loop.Frame`, with the game's plugin, plays
  offline and online;
* :func:`play_online` creates a table (or joins one), fills it with bots,
  starts it and hands over to the terminal client.

Private messages and friends (issue 14): a private message, one kept while
the player was away (printed as soon as they sign in) and a friend coming
online or going offline are printed as they arrive (:attr:`SalonClient.on_note`);
typed lines starting with ``/`` are salon commands (:func:`salon_command`):
``/friends``, ``/friend NAME``, ``/unfriend NAME``, ``/msg NAME TEXT``.

The socket is the ``websockets`` sync client; the frame's asyncio loop reads
it from a worker thread, a moment at a time (:meth:`OnlineDriver.step`), so
keys are answered while others play.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from zanzibar.engine.errors import (
    IllegalActionError,
    NotYourTurnError,
    OptionError,
    ZanzibarError,
)
from zanzibar.engine.events import Event
from zanzibar.engine.rules import GameRules

Message = dict[str, Any]

#: The WebSocket subprotocol of protocol version 2 (docs/protocol.md): a frame holds a
#: step's messages (server/framing.py).
SUBPROTOCOL = "zanzibar.v2"

#: Seconds to wait for a reply to a request.
REPLY_TIMEOUT_S = 30.0
#: Seconds without any message while waiting for other players before giving up.
IDLE_TIMEOUT_S = 3600.0
#: Seconds to keep trying to reconnect after the connection drops.
RECONNECT_LIMIT_S = 60.0
#: The marker a reconnection leaves among the pushed messages.
RECONNECTED = "_reconnected"


class ServerError(ZanzibarError):
    """The server refused a request; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message, **details)
        self.code = code


def refusal(reply: Mapping[str, Any]) -> ZanzibarError:
    """The engine error matching a protocol ``error`` reply.

    >>> type(refusal({"code": "not_your_turn", "message": "wait"})).__name__
    'NotYourTurnError'
    >>> refusal({"code": "stale", "message": "old"}).code
    'stale'
    """
    code = str(reply.get("code", "error"))
    message = str(reply.get("message", code))
    if code == "not_your_turn":
        return NotYourTurnError(message)
    if code == "illegal_action":
        return IllegalActionError(message)
    if code == "bad_option":
        return OptionError(message, option=str(reply.get("option", "")))
    return ServerError(code, message)


def http_url(server: str) -> str:
    """The server's base URL, with a scheme and a trailing slash.

    >>> http_url("127.0.0.1:8421")
    'http://127.0.0.1:8421/'
    >>> ws_url("http://127.0.0.1:8421")
    'ws://127.0.0.1:8421/ws'
    """
    url = server if "://" in server else f"http://{server}"
    return url.rstrip("/") + "/"


def messages_of(frame: str | bytes) -> list[Message]:
    """The messages of one frame: a JSON array of them in protocol 2, one object in 1.

    >>> messages_of('[{"type": "ok"}, {"type": "table"}]')
    [{'type': 'ok'}, {'type': 'table'}]
    >>> messages_of('{"type": "pong"}')
    [{'type': 'pong'}]
    """
    data = json.loads(frame)
    if isinstance(data, list):
        return [m for m in data if isinstance(m, dict)]
    return [data] if isinstance(data, dict) else []


def ws_url(server: str) -> str:
    """The WebSocket endpoint of a server."""
    base = http_url(server)
    scheme = "wss://" if base.startswith("https://") else "ws://"
    return scheme + base.split("://", 1)[1] + "ws"


def sign_in(
    server: str, name: str, lang: str = "en", password: str | None = None, register: bool = False
) -> Message:
    """A session ``{"token", "user"}``: as a guest, or with an account."""
    import httpx

    if password is None:
        route, body = "api/guest", {"name": name, "lang": lang}
    elif register:
        route, body = "api/register", {"name": name, "password": password, "lang": lang}
    else:
        route, body = "api/login", {"name": name, "password": password}
    try:
        response = httpx.post(http_url(server) + route, json=body, timeout=REPLY_TIMEOUT_S)
    except httpx.HTTPError as exc:
        raise ZanzibarError(f"cannot reach {server}: {exc}") from None
    data = (
        response.json()
        if response.headers.get("content-type", "").startswith("application/json")
        else {}
    )
    if response.status_code != 200:
        raise refusal(
            data or {"code": "error", "message": f"{server} answered {response.status_code}"}
        )
    session: Message = data
    return session


class Reconnected(ZanzibarError):
    """The connection dropped and was opened again; a pending request may not have been done."""


class SalonClient:
    """One signed-in WebSocket session of protocol v1, reopened if it drops.

    When the socket closes (the server restarted, the network blinked), the
    client reconnects with the same session token, for up to
    ``RECONNECT_LIMIT_S`` seconds, says hello again and runs the ``rejoin``
    callbacks (the driver rejoins its table with the last ``seq`` it showed,
    so the server sends exactly the missed items).
    """

    def __init__(self, server: str, token: str, lang: str | None = None) -> None:
        self.server = http_url(server)
        self.token = token
        self.lang = lang
        self.pushed: collections.deque[Message] = collections.deque()
        self.rejoin: list[Callable[[], None]] = []
        self.reconnections = 0
        #: Called with the line to print for each private message and friend event
        #: (they are not kept among the pushed messages); None: kept like the others.
        self.on_note: Callable[[str], None] | None = None
        self._ids = itertools.count(1)
        self._stack = contextlib.ExitStack()
        #: Messages of the last frame not read yet (protocol 2 sends a step's messages
        #: in one frame: a JSON array).
        self._unread: collections.deque[Message] = collections.deque()
        self.user: Message = self._open()

    def _open(self) -> Message:
        """Open the socket and say hello; the user from ``welcome``."""
        from websockets.sync.client import connect
        from websockets.typing import Subprotocol

        self._stack.close()
        self._stack = contextlib.ExitStack()
        self._unread.clear()  # what the old socket sent and we did not read is sent again
        self.ws = self._stack.enter_context(
            connect(
                ws_url(self.server),
                proxy=None,
                max_size=4 * 1024 * 1024,
                open_timeout=REPLY_TIMEOUT_S,
                subprotocols=[Subprotocol(SUBPROTOCOL)],  # protocol 2; a server without it speaks 1
            )
        )
        hello: Message = {"v": 1, "type": "hello", "token": self.token}
        if self.lang:
            hello["lang"] = self.lang
        self.ws.send(json.dumps(hello))
        welcome = self._receive_until(lambda m: m["type"] in {"welcome", "error"}, REPLY_TIMEOUT_S)
        if welcome["type"] == "error":
            self.close()
            raise refusal(welcome)
        user: Message = welcome["user"]
        return user

    @property
    def protocol(self) -> int:
        """The protocol version the server agreed to (2 when it accepted ``zanzibar.v2``)."""
        return 2 if self.ws.subprotocol == SUBPROTOCOL else 1

    def _reconnect(self) -> None:
        """Reopen the session (bounded in time), then rejoin what we followed."""
        from websockets.exceptions import WebSocketException

        deadline = time.monotonic() + RECONNECT_LIMIT_S
        for attempt in range(1_000):
            try:
                self.user = self._open()
                break
            except (OSError, TimeoutError, WebSocketException, ZanzibarError):
                if time.monotonic() > deadline:
                    raise ZanzibarError("the connection to the salon is lost") from None
                time.sleep(min(2.0, 0.1 * (attempt + 1)))
        self.reconnections += 1
        self.pushed.append({"type": RECONNECTED})
        for callback in self.rejoin:
            callback()

    @classmethod
    def sign_in(
        cls,
        server: str,
        name: str,
        lang: str = "en",
        password: str | None = None,
        register: bool = False,
    ) -> SalonClient:
        """Sign in over HTTP and open the socket."""
        session = sign_in(server, name, lang, password, register)
        return cls(server, session["token"], lang)

    # -- receiving ---------------------------------------------------------------------

    def _read(self, timeout: float) -> Message | None:
        """The next frame; None on timeout; :class:`Reconnected` after a drop.

        Private messages and friend events go to :attr:`on_note` when it is set.
        """
        from websockets.exceptions import ConnectionClosed

        deadline = time.monotonic() + timeout
        while True:
            if not self._unread:
                try:
                    frame = self.ws.recv(timeout=max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    return None
                except ConnectionClosed:
                    self._reconnect()
                    raise Reconnected("the connection dropped and was reopened") from None
                self._unread.extend(messages_of(frame))
                if not self._unread:
                    continue
            message = self._unread.popleft()
            if self.on_note is None or not is_note(message):
                return message
            line = note_line(message, self.user, self.lang or "en")
            if line:
                self.on_note(line)

    def _receive_until(self, predicate: Callable[[Message], bool], timeout: float) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ZanzibarError("the server did not answer in time")
            message = self._read(remaining)
            if message is None:
                continue
            if predicate(message):
                return message
            self.pushed.append(message)

    def next_pushed(self, timeout: float = IDLE_TIMEOUT_S) -> Message:
        """The next message the server pushed (table, game.event, chat ...)."""
        for _ in range(100):
            if self.pushed:
                return self.pushed.popleft()
            try:
                message = self._read(timeout)
            except Reconnected:
                continue  # pushed messages resume after the rejoin
            if message is None:
                raise ZanzibarError("nothing happened for too long; leaving")
            return message
        raise ZanzibarError("the connection keeps dropping")

    def poll(self, timeout: float) -> Message | None:
        """The next pushed message, or None if none came within ``timeout`` seconds."""
        if self.pushed:
            return self.pushed.popleft()
        try:
            return self._read(timeout)
        except Reconnected:
            return None  # pushed messages resume after the rejoin

    # -- sending -----------------------------------------------------------------------

    def send(self, type_name: str, **fields: Any) -> int:
        """Send a message without waiting for its reply; return its id."""
        request_id = next(self._ids)
        self.ws.send(json.dumps({"v": 1, "type": type_name, "id": request_id, **fields}))
        return request_id

    def request(self, type_name: str, **fields: Any) -> Message:
        """Send a request and return its ``ok`` reply; raise the matching error if refused.

        Raises :class:`Reconnected` if the connection dropped before the reply:
        the request may or may not have been done.
        """
        from websockets.exceptions import ConnectionClosed

        try:
            request_id = self.send(type_name, **fields)
        except ConnectionClosed:
            self._reconnect()
            raise Reconnected("the connection dropped and was reopened") from None
        reply = self._receive_until(
            lambda m: m["type"] in {"ok", "error"} and m.get("id") == request_id, REPLY_TIMEOUT_S
        )
        if reply["type"] == "error":
            raise refusal(reply)
        return reply

    def close(self) -> None:
        """Close the socket."""
        self._stack.close()


def is_note(message: Mapping[str, Any]) -> bool:
    """A private message or a friend event (not part of any table).

    >>> is_note({"type": "friend"}), is_note({"type": "chat", "table": None, "private": True})
    (True, True)
    >>> is_note({"type": "chat", "table": 3})
    False
    """
    kind = message.get("type")
    return kind == "friend" or (kind == "chat" and message.get("table") is None)


def note_line(message: Mapping[str, Any], me: Mapping[str, Any], lang: str) -> str:
    """The line printed for a private message or friend event ("" for one's own echo)."""
    from zanzibar.l10n import Voice

    if message.get("type") == "friend":
        return str(message.get("text", ""))
    if message.get("offline") and message.get("sentence"):
        return str(message["sentence"])
    if message.get("user") == me.get("id") and message.get("to") != me.get("name"):
        return ""  # the echo of one's own message: the command already said it went
    key = "friends-cli-private-me" if message.get("me") else "friends-cli-private"
    return Voice(lang).text(key, name=str(message.get("from", "?")), text=str(message["text"]))


def salon_command(client: SalonClient, text: str, lang: str) -> list[str]:
    """A typed salon command; the lines to print (refusals included, in ``lang``).

    ``/friends`` (``/amis``) lists the friends with where they are;
    ``/friend NAME`` (``/ami``) adds one; ``/unfriend NAME`` (``/plusami``)
    removes one; ``/msg NAME TEXT`` (``/w``) sends a private message (to a
    friend who is away, it is kept and delivered at their next sign-in). Any
    other ``/`` word gets the list of these commands.
    """
    from zanzibar.l10n import Voice

    verb, _, rest = text.strip()[1:].partition(" ")
    verb, rest = verb.lower(), rest.strip()
    voice = Voice(lang)
    try:
        if verb in {"friends", "amis"}:
            reply = client.request("friends.list")
            return [str(reply["text"]), *(str(f["text"]) for f in reply["friends"])]
        if verb in {"friend", "ami"} and rest:
            reply = client.request("friends.add", name=rest)
            return [str(reply["text"]), str(reply["friend"]["text"])]
        if verb in {"unfriend", "plusami"} and rest:
            return [str(client.request("friends.remove", name=rest)["text"])]
        name, _, body = rest.partition(" ")
        if verb in {"msg", "w"} and name and body.strip():
            reply = client.request("chat.private", to=name, text=body.strip())
            if reply.get("kept"):
                return [str(reply.get("sentence", ""))]
            return [voice.text("friends-cli-sent", name=name)]
    except ZanzibarError as exc:
        return [exc.text(lang)]
    return [voice.text("friends-cli-usage")]


class OnlineDriver:
    """A terminal-frame driver playing one seat of a salon table.

    The state comes from the server's ``game.view`` (``view["state"]``), the
    events from its ``game.event`` messages, in ``seq`` order. :meth:`step`
    waits a little for the next pushed message in a worker thread, so the
    frame keeps answering keys while others play.
    """

    #: The frame keeps polling while others play (steps may bring nothing).
    remote = True
    #: Seconds one :meth:`step` waits for a message.
    POLL_S = 0.25

    def __init__(
        self,
        client: SalonClient,
        table: Any,
        rules: GameRules[Any, Any],
        seat: int,
        names: Sequence[str],
    ) -> None:
        self.client = client
        self.table = table
        self.rules = rules
        self.seat = seat
        self.names: Sequence[str] = list(names)
        #: The table's game options (``table`` message), when known.
        self.table_options: Mapping[str, Any] | None = None
        self.view: Message = {}
        self.log_length = 0
        self.last_seq = 0
        self._state: Any = None
        self._pending: list[Event] = []
        self._quiet_since = time.monotonic()
        #: The language salon commands answer in (set by :func:`play_online`).
        self.lang = client.lang or "en"
        #: One reader of the socket at a time: a salon command waits for a step's poll.
        self._socket = asyncio.Lock()
        client.rejoin.append(self._rejoin)

    def _rejoin(self) -> None:
        """After a reconnection: take the seat again and ask for what was missed."""
        self.client.send("table.join", table=self.table, seat=self.seat, since=self.last_seq)

    # -- what the frame reads ------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The game state of the latest view."""
        if self._state is None and "state" in self.view:
            self._state = self.rules.state_from_json(self.view["state"])
        return self._state

    @property
    def options(self) -> Mapping[str, Any]:
        """The options of the game (from the view when the server sends them)."""
        options = self.view.get("options")
        if isinstance(options, Mapping):
            return options
        resolved: Mapping[str, Any] = self.rules.options.resolve()
        return resolved

    def to_act(self) -> int | None:
        """The seat to act, as the server last said."""
        value = self.view.get("to_act")
        return value if isinstance(value, int) else None

    def is_over(self) -> bool:
        """True once the server said the game is over."""
        return bool(self.view.get("over"))

    def pending(self) -> list[Event]:
        """Events received before the frame started."""
        events, self._pending = self._pending, []
        return events

    # -- the server's messages ---------------------------------------------------------

    def absorb(self, message: Message) -> list[Event]:
        """Take one pushed message into account; return any new game events."""
        if message.get("table") != self.table:
            return []
        kind = message["type"]
        if kind == "history":
            events: list[Event] = []
            for item in message.get("items", []):
                events.extend(self.absorb({**item, "table": self.table}))
            return events
        if kind == "game.event" and message.get("seq", 0) > self.last_seq:
            self.last_seq = message["seq"]
            return [Event.from_json(message["event"])]
        if kind in {"chat", "system"} and message.get("seq", 0) > self.last_seq:
            self.last_seq = message["seq"]
        if kind == "game.view":
            self.view = message["view"]
            self.log_length = int(message.get("log_length", self.log_length))
            self._state = None
        if kind == "table":
            self._update_names(message["table"])
        return []

    def _update_names(self, table: Mapping[str, Any]) -> None:
        self.names = _names_of(table, len(self.names))

    def submit(self, action: Any) -> list[Event]:
        """Send the action; return the events up to the view that includes it.

        If the connection drops before the answer, the driver rejoins, waits
        for the fresh view and sends the action again only if the game did
        not move: the ``seq`` (log length) it carries makes a second copy of
        an action already done a harmless ``stale`` refusal.
        """
        before = self.log_length
        action_json = self.rules.action_to_json(action)
        events: list[Event] = []
        for _ in range(3):
            try:
                self.client.request("game.action", table=self.table, action=action_json, seq=before)
                break
            except Reconnected:
                events.extend(self._until_fresh_view())
                if self.log_length > before:
                    return events
        else:
            raise ZanzibarError("the action could not be sent")
        while self.log_length <= before:
            events.extend(self.absorb(self.client.next_pushed(REPLY_TIMEOUT_S)))
        return events

    def _until_fresh_view(self) -> list[Event]:
        """After a rejoin: the missed events, up to the view the server sends."""
        events: list[Event] = []
        rejoined = False
        for _ in range(100_000):
            message = self.client.next_pushed(REPLY_TIMEOUT_S)
            events.extend(self.absorb(message))
            rejoined = rejoined or message["type"] == RECONNECTED
            if rejoined and message["type"] == "game.view" and message.get("table") == self.table:
                return events
        raise ZanzibarError("no fresh view of the game after reconnecting")

    async def command(self, text: str) -> list[str]:
        """A typed ``/`` command for the salon (see :func:`salon_command`)."""
        async with self._socket:
            return await asyncio.to_thread(salon_command, self.client, text, self.lang)

    async def step(self) -> list[Event]:
        """What the server pushed within a moment ([] if nothing came)."""
        async with self._socket:
            message = await asyncio.to_thread(self.client.poll, self.POLL_S)
        if message is None:
            if time.monotonic() - self._quiet_since > IDLE_TIMEOUT_S:
                raise ZanzibarError("nothing happened for too long; leaving")
            return []
        self._quiet_since = time.monotonic()
        return self.absorb(message)

    def wait_for_start(self) -> None:
        """Wait for the first view of the game; keep the events until then for the frame."""
        while not self.view:
            self._pending.extend(self.absorb(self.client.next_pushed()))


# -- the command line ------------------------------------------------------------------------


def add_online_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of online play (``--server`` turns it on)."""
    group = parser.add_argument_group("online play (with --server)")
    group.add_argument(
        "--server", metavar="URL", help="play on a running salon, e.g. http://127.0.0.1:8421"
    )
    group.add_argument(
        "--name", default="", help="your name at the salon (default: your login name)"
    )
    group.add_argument(
        "--password", default=None, help="sign in to an account instead of as a guest"
    )
    group.add_argument("--register", action="store_true", help="create the account first")
    group.add_argument("--table", default=None, help="join this table instead of creating one")
    group.add_argument("--invite", default=None, help="invitation code of a private table")
    group.add_argument(
        "--seats", type=int, default=None, help="seats at a new table (default: you and the bots)"
    )
    group.add_argument("--private", action="store_true", help="a private table (by invitation)")
    group.add_argument(
        "--tournaments", action="store_true", help="list the salon's tournaments and stop"
    )
    group.add_argument(
        "--tournament",
        type=int,
        default=None,
        metavar="ID",
        help="register for tournament ID and play each of its rounds at the table given",
    )
    group.add_argument(
        "--standings", type=int, default=None, metavar="ID", help="say tournament ID's standings"
    )


def _table_id(raw: str) -> Any:
    return int(raw) if raw.isdigit() else raw


def _names_of(table: Mapping[str, Any], seats: int) -> list[str]:
    names = [f"#{n + 1}" for n in range(seats)]
    for seat in table.get("seats", []):
        if isinstance(seat.get("seat"), int) and seat["seat"] < seats and seat.get("name"):
            names[seat["seat"]] = str(seat["name"])
    return names


def join_table(client: SalonClient, table: Any, invite: str | None = None) -> tuple[Message, int]:
    """Sit at an existing table (or take one's seat back); return (table, seat)."""
    fields: Message = {"table": table}
    if invite:
        fields["invite"] = invite
    reply = client.request("table.join", **fields)
    return _table_of(client, reply["table"]), int(reply["seat"])


def create_table(
    client: SalonClient, rules: GameRules[Any, Any], args: argparse.Namespace
) -> Message:
    """Open a table with the command line's preset, options and seats; add the bots."""
    bots = 1 if args.bots is None else args.bots
    create: Message = {"game": rules.name, "seats": args.seats or bots + 1}
    options = rules.options.parse_assignments(getattr(args, "option", None) or [])
    if getattr(args, "preset", None):
        create["preset"] = args.preset
    if options:
        create["options"] = options
    if args.private:
        create["private"] = True
    info: Message = client.request("table.create", **create)["table"]
    for _ in range(bots):
        bot: Message = {"table": info["id"]}
        if args.level:
            bot["level"] = args.level
        client.request("table.add_bot", **bot)
    return info


def _table_of(client: SalonClient, table_id: Any) -> Message:
    """The latest ``table`` message about ``table_id`` (waiting for it if none came yet).

    Messages read while waiting are put back, in order, for the driver.
    """
    for message in reversed(client.pushed):
        if message["type"] == "table" and message["table"]["id"] == table_id:
            found: Message = message["table"]
            return found
    kept: list[Message] = []
    try:
        for _ in range(10_000):
            message = client.next_pushed(REPLY_TIMEOUT_S)
            kept.append(message)
            if message["type"] == "table" and message["table"]["id"] == table_id:
                found = message["table"]
                return found
    finally:
        client.pushed = collections.deque([*kept, *client.pushed])
    raise ZanzibarError(f"the server did not describe table {table_id}")


def _say(lang: str, key: str, **values: Any) -> str:
    from zanzibar.l10n import Voice

    return Voice(lang).text(f"cli-online-{key}", **values)


def _wait_until_full(
    client: SalonClient, table_id: Any, say: Callable[[str], None], lang: str
) -> None:
    """Wait (bounded by the idle limit) until every seat is taken.

    The messages read meanwhile are put back, in order, for the driver.
    """
    table = _table_of(client, table_id)
    kept: list[Message] = []
    announced = -1
    try:
        for _ in range(100_000):
            seats = table.get("seats", [])
            empty = sum(1 for seat in seats if seat.get("user") is None and seat.get("bot") is None)
            if seats and empty == 0:
                return
            if empty != announced:
                say(_say(lang, "waiting", count=empty))
                announced = empty
            message = client.next_pushed()
            kept.append(message)
            if message["type"] == "table" and message["table"]["id"] == table_id:
                table = message["table"]
        raise ZanzibarError("the table did not fill up")
    finally:
        client.pushed = collections.deque([*kept, *client.pushed])


def play_online(
    rules: GameRules[Any, Any],
    args: argparse.Namespace,
    *,
    lines: Sequence[str] | None = None,
    output: Callable[[str], None] | None = None,
) -> int:
    """Play one game on ``args.server`` with the game's own terminal client."""
    lang = args.lang
    say = output or (lambda line: print(line, flush=True))
    client = SalonClient.sign_in(
        args.server, args.name or _say(lang, "guest"), lang, args.password, args.register
    )
    client.on_note = say  # kept private messages come right after the welcome
    try:
        if getattr(args, "tournaments", False) or getattr(args, "standings", None) is not None:
            return tournament_info(client, args, say)
        if getattr(args, "tournament", None) is not None:
            return play_tournament(client, rules, args, say, lines, output)
        if args.table:
            table, seat = join_table(client, _table_id(args.table), args.invite)
            say(_say(lang, "joined", seat=seat + 1, table=table["id"]))
        else:
            info = create_table(client, rules, args)
            invite = f" --invite {info['invite']}" if info.get("invite") else ""
            server = client.server.rstrip("/")
            say(
                _say(
                    lang, "created", table=info["id"], server=server, game=rules.name, invite=invite
                )
            )
            _wait_until_full(client, info["id"], say, lang)
            client.request("table.start", table=info["id"])
            table, seat = _table_of(client, info["id"]), int(info["you"]["seat"])
        names = _names_of(table, max(len(table.get("seats", [])), seat + 1))
        driver = OnlineDriver(client, table["id"], rules, seat, names)
        driver.table_options = table.get("options")  # the rating family of the table's rules
        driver.wait_for_start()
        status = _run_online_frame(driver, rules, args, lines, output)
        if not driver.is_over():
            client.request("table.leave", table=table["id"])
            say(_say(lang, "left"))
        return status
    finally:
        client.close()


# -- Swiss tournaments ----------------------------------------------------------------------


def tournament_info(
    client: SalonClient, args: argparse.Namespace, say: Callable[[str], None]
) -> int:
    """``--tournaments``: one line a tournament; ``--standings ID``: its standings said."""
    lang = args.lang
    if getattr(args, "standings", None) is not None:
        shown = client.request("tournament.show", tournament=args.standings)["tournament"]
        say(shown["standings_text"] or _say(lang, "tournament-no-standings", name=shown["name"]))
        return 0
    listed = client.request("tournament.list")["tournaments"]
    if not listed:
        say(_say(lang, "no-tournaments"))
    for tour in listed:
        say(
            _say(
                lang,
                "tournament-line",
                id=str(tour["id"]),
                name=tour["name"],
                game=tour["title"],
                players=tour["players"],
                most=tour["max_players"],
                round=tour["round"],
                rounds=tour["rounds"],
                state=tour["state"],
            )
        )
    return 0


def play_tournament(
    client: SalonClient,
    rules: GameRules[Any, Any],
    args: argparse.Namespace,
    say: Callable[[str], None],
    lines: Sequence[str] | None,
    output: Callable[[str], None] | None,
) -> int:
    """``--tournament ID``: register (unless already), then play each round's game at the
    table the salon gives, saying every tournament sentence, until the tournament ends."""
    tid = args.tournament
    shown = client.request("tournament.show", tournament=tid)["tournament"]
    if shown["game"] != rules.name:
        raise ZanzibarError(f"tournament {tid} is a game of {shown['game']}, not {rules.name}")
    mine = any(e.get("user") == client.user.get("id") for e in shown["entrants"])
    if shown["state"] == "registering" and not mine:
        client.request("tournament.register", tournament=tid)
        say(_say(args.lang, "tournament-registered", name=shown["name"]))
    elif shown["state"] != "running":
        say(shown["standings_text"] or _say(args.lang, "tournament-closed", name=shown["name"]))
        return 0
    status = 0
    while True:
        message = client.next_pushed()
        if (
            not str(message.get("type", "")).startswith("tournament.")
            or message.get("tournament") != tid
        ):
            continue
        if message.get("text"):
            say(str(message["text"]))
        if message["type"] == "tournament.finished" or message.get("kind") == "cancelled":
            return status
        if message["type"] == "tournament.table":
            table, seat = join_table(client, message["table"])
            names = _names_of(table, max(len(table.get("seats", [])), seat + 1))
            driver = OnlineDriver(client, table["id"], rules, seat, names)
            driver.wait_for_start()
            status = _run_online_frame(driver, rules, args, lines, output)
            if not driver.is_over():
                client.request("table.leave", table=table["id"])
                say(_say(args.lang, "left"))
                return status


def _run_online_frame(
    driver: OnlineDriver,
    rules: GameRules[Any, Any],
    args: argparse.Namespace,
    lines: Sequence[str] | None,
    output: Callable[[str], None] | None,
) -> int:
    """The same frame as offline, its driver talking to the salon."""
    from zanzibar.cli.frame.loop import Frame
    from zanzibar.cli.frame.plugin import GamePlugin
    from zanzibar.cli.play import plugin_for, run_frame
    from zanzibar.cli.standing import with_standing

    plugin: GamePlugin = with_standing(plugin_for(rules), driver)  # L: one's rating and rank
    frame = Frame(
        cast(Any, driver),
        plugin,
        lang=args.lang,
        output=output,
        layout=getattr(args, "layout", "auto"),
        delay=0.0,
    )
    if lines is not None:
        return run_frame(frame, lines=lines)
    return run_frame(frame)
