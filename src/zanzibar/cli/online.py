"""Play on a running salon from the terminal: ``zanzibar play GAME --server URL``.

Three layers, each usable alone:

* :class:`SalonClient` signs in over HTTP (guest, or an account) and speaks
  protocol v1 over one WebSocket (``request`` waits for the reply carrying
  its ``id``; pushed messages are kept in arrival order);
* :class:`OnlineDriver` is a :class:`zanzibar.cli.terminal.Driver` whose actions
  go to the server and whose events come back from it, so the same
  :class:`~zanzibar.cli.terminal.TerminalClient`, with the game's own keys and
  commands, plays offline and online;
* :func:`play_online` creates a table (or joins one), fills it with bots,
  starts it and hands over to the terminal client.

Everything is synchronous (the ``websockets`` sync client): the terminal
loop is synchronous too, and a line-oriented client has nothing else to do
while it waits for the server.
"""

from __future__ import annotations

import argparse
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
from zanzibar.engine.i18n import LANGUAGES
from zanzibar.engine.rules import GameRules

Message = dict[str, Any]

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
        self._ids = itertools.count(1)
        self._stack = contextlib.ExitStack()
        self.user: Message = self._open()

    def _open(self) -> Message:
        """Open the socket and say hello; the user from ``welcome``."""
        from websockets.sync.client import connect

        self._stack.close()
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(
            connect(
                ws_url(self.server),
                proxy=None,
                max_size=4 * 1024 * 1024,
                open_timeout=REPLY_TIMEOUT_S,
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
        """The next frame; None on timeout; :class:`Reconnected` after a drop."""
        from websockets.exceptions import ConnectionClosed

        try:
            frame = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        except ConnectionClosed:
            self._reconnect()
            raise Reconnected("the connection dropped and was reopened") from None
        message: Message = json.loads(frame)
        return message

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


class OnlineDriver:
    """A terminal-client driver playing one seat of a salon table.

    The state comes from the server's ``game.view`` (``view["state"]``), the
    events from its ``game.event`` messages, in ``seq`` order. ``live`` (set by
    :func:`play_online`) prints events as they arrive while others play.
    """

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
        self.view: Message = {}
        self.log_length = 0
        self.last_seq = 0
        self.live: Callable[[list[Event]], None] | None = None
        self._state: Any = None
        client.rejoin.append(self._rejoin)

    def _rejoin(self) -> None:
        """After a reconnection: take the seat again and ask for what was missed."""
        self.client.send("table.join", table=self.table, seat=self.seat, since=self.last_seq)

    # -- what the terminal client reads ------------------------------------------------

    @property
    def state(self) -> Any:
        """The game state of the latest view."""
        if self._state is None and "state" in self.view:
            self._state = self.rules.state_from_json(self.view["state"])
        return self._state

    def to_act(self) -> int | None:
        """The seat to act, as the server last said."""
        value = self.view.get("to_act")
        return value if isinstance(value, int) else None

    def is_over(self) -> bool:
        """True once the server said the game is over."""
        return bool(self.view.get("over"))

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

    def _my_turn(self) -> bool:
        return not self.is_over() and self.to_act() == self.seat

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

    def advance(self) -> list[Event]:
        """Wait while others play; events are shown live, the last batch is returned."""
        batch: list[Event] = []
        while not (self._my_turn() or self.is_over()) or self.client.pushed:
            fresh = self.absorb(self.client.next_pushed())
            if fresh and self.live is not None:
                self.live(batch)
                batch = []
            batch.extend(fresh)
        return batch

    def wait_for_start(self) -> list[Event]:
        """Wait for the first view of the game; the events until then."""
        events: list[Event] = []
        while not self.view:
            events.extend(self.absorb(self.client.next_pushed()))
        return events


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
    create: Message = {"game": rules.name, "seats": args.seats or args.bots + 1}
    options = rules.options.parse_assignments(args.option)
    if args.preset:
        create["preset"] = args.preset
    if options:
        create["options"] = options
    if args.private:
        create["private"] = True
    info: Message = client.request("table.create", **create)["table"]
    for _ in range(args.bots):
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


def _terminal_for(
    rules: GameRules[Any, Any],
    driver: OnlineDriver,
    lang: str,
    output: Callable[[str], None] | None,
) -> Any:
    """The game's own terminal client with its own keys and commands (as offline)."""
    from zanzibar.cli.terminal import Driver, TerminalClient

    if rules.name == "421":
        from zanzibar.cli.dice421 import Dice421Commands

        return TerminalClient(cast(Driver, driver), Dice421Commands(), lang=lang, output=output)
    if rules.name == "zilch":
        from zanzibar.cli.zilch import ZilchCommands

        return TerminalClient(cast(Driver, driver), ZilchCommands(), lang=lang, output=output)
    from zanzibar.cli.chess_play import ChessClient, ChessCommands

    client = ChessClient(cast(Driver, driver), ChessCommands(cast(Any, rules)), lang)
    if output is not None:
        client._output = output
    return client


def _say(lang: str, key: str, **values: Any) -> str:
    return _WORDS.get(lang, _WORDS["en"])[key].format(**values)


_WORDS = {
    "en": {
        "created": "Table {table} is open at {server}. Others join with: zanzibar play {game} --server {server} --table {table}{invite}",
        "waiting": "Waiting for {count} more player(s) to join; the game starts when the table is full.",
        "joined": "You sit at seat {seat} of table {table}.",
        "left": "You left the table.",
    },
    "fr": {
        "created": "La table {table} est ouverte sur {server}. Pour la rejoindre : zanzibar play {game} --server {server} --table {table}{invite}",
        "waiting": "En attente de {count} joueur(s) ; la partie commence quand la table est pleine.",
        "joined": "Vous êtes à la place {seat} de la table {table}.",
        "left": "Vous avez quitté la table.",
    },
}


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
        args.server, args.name or "Player", lang, args.password, args.register
    )
    try:
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
        terminal = _terminal_for(rules, driver, lang, output)
        driver.live = terminal.show_events
        terminal.show_events(driver.wait_for_start())
        status: int = terminal.run(lines)
        if not driver.is_over():
            client.request("table.leave", table=table["id"])
            say(_say(lang, "left"))
        return status
    finally:
        client.close()


def play(argv: list[str]) -> int:
    """``zanzibar play GAME --server URL [...]``: play on a running salon."""
    from zanzibar.cli.main import make_parser
    from zanzibar.games import get_rules

    game = argv[0] if argv else ""
    parser = make_parser(f"play {game} --server", "Play on a running salon, one line per event.")
    parser.add_argument("game")
    add_online_arguments(parser)
    parser.add_argument("--preset", default=None, help="rule preset of a new table")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="change one rule"
    )
    parser.add_argument("--bots", type=int, default=1, help="bots at a new table (default 1)")
    parser.add_argument("--level", default=None, help="the bots' level")
    parser.add_argument(
        "--seats", type=int, default=None, help="seats at a new table (default: you and the bots)"
    )
    parser.add_argument(
        "--private", action="store_true", help="a private table (joined by invitation)"
    )
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    args = parser.parse_args(argv)
    if not args.server:
        parser.error("--server URL is required for online play")
    if not 0 <= args.bots <= 9:
        parser.error("--bots must be between 0 and 9")
    rules = get_rules(args.game)
    return play_online(rules, args)
