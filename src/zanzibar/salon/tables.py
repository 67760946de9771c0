"""A table: seats, host, options, state, its game and its history.

The table is plain state; its :class:`~zanzibar.salon.actor.TableActor`
changes it through the transitions of :mod:`zanzibar.salon.seating` and
:mod:`zanzibar.salon.play`, one command at a time, in order. States: ``waiting`` (seats filling), ``playing``, ``paused``
(between rounds), ``finished`` (the host may start again).

New history items are first *staged*; once stored they are committed to the
history and sent. If storing fails they are dropped with the change.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.events import Event
from zanzibar.engine.match import Match
from zanzibar.engine.rules import Bot, GameRules
from zanzibar.l10n import Listener, Msg, Voice
from zanzibar.l10n.voice import voice_of
from zanzibar.salon.history import Channel, History, Item
from zanzibar.salon.messages import display_names, system_text
from zanzibar.salon.seats import Seat

#: Rendered sentences a table keeps before starting its cache afresh.
TEXT_CACHE_SIZE = 4096

State = Literal["waiting", "playing", "paused", "finished"]
STATES: tuple[str, ...] = ("waiting", "playing", "paused", "finished")


@dataclass
class GameInfo:
    """Who played one game of a table, seat by seat (to render its events)."""

    id: int
    names: tuple[str, ...]
    users: tuple[int | None, ...]

    def seat_of(self, user: int | None) -> int | None:
        """The seat ``user`` held in this game, if any."""
        if user is None:
            return None
        for seat, holder in enumerate(self.users):
            if holder == user:
                return seat
        return None

    @functools.cached_property
    def players(self) -> tuple[tuple[int, int], ...]:
        """(seat, user) of each player at his first seat (one who held two reads from the
        first), found once per game: every game item asks who reads it from a seat.

        >>> GameInfo(1, ("A", "B", "C"), (7, None, 7)).players
        ((0, 7),)
        """
        return tuple(
            (seat, user)
            for seat, user in enumerate(self.users)
            if user is not None and self.seat_of(user) == seat
        )


@dataclass
class Table:
    """One table of the salon."""

    id: int
    rules: GameRules[Any, Any]
    preset: str | None
    options: dict[str, Any]
    #: Seats when no game runs; a game uses only the occupied ones, renumbered.
    capacity: int
    seats: list[Seat]
    private: bool = False
    invite: str | None = None
    host: int | None = None
    state: State = "waiting"
    hold: bool = False
    clock: int | None = None
    game_id: int | None = None
    banned: set[int] = field(default_factory=set)
    created: float = 0.0
    match: Match[Any, Any] | None = None
    games: dict[int, GameInfo] = field(default_factory=dict)
    history: History = field(default_factory=History)
    #: Users watching (not seated).
    spectators: set[int] = field(default_factory=set)
    staged: list[Item] = field(default_factory=list)
    #: Rendered sentences by :meth:`audience` (seq, language, viewer seat): each rendered once.
    texts: dict[tuple[int, str, int | None], str] = field(default_factory=dict)
    #: Game items' named seats by seq (None: the game words events itself, any seat may differ).
    named: dict[int, frozenset[int] | None] = field(default_factory=dict)
    #: Game items' messages by seq (games that keep the engine's wording), made once.
    msgs: dict[int, Msg] = field(default_factory=dict)
    #: Game items' events by seq, decoded once for every audience that renders them.
    events: dict[int, Event] = field(default_factory=dict)
    #: Who hears a game's items, by (game id, language, viewer seat): the seat and the
    #: players' names said in that language, made once per game rather than per item.
    listeners: dict[tuple[int, str, int | None], Listener] = field(default_factory=dict)
    bots: dict[tuple[int, str], Bot[Any, Any]] = field(default_factory=dict)
    #: The seat whose turn the clock gave to a bot (until that seat's turn ends).
    clock_seat: int | None = None
    #: The fence: the claim this process runs the table under, and its committed changes.
    epoch: int = 0
    version: int = 0
    #: The table row as last stored (to skip writing it when unchanged; empty: never stored).
    stored_row: dict[str, Any] = field(default_factory=dict)
    #: Deadlines (wall-clock instants, see :mod:`zanzibar.salon.deadlines`): the turn
    #: clock's and the (game, log length, seat) it runs for; the pause's end; the bot's move.
    clock_deadline: float | None = None
    clock_key: tuple[int | None, int, int] | None = None
    pause_until: float | None = None
    bot_due: float | None = None
    bot_key: tuple[int | None, int, int] | None = None

    # -- seats ---------------------------------------------------------------------

    def seat_of(self, user: int | None) -> int | None:
        """The seat ``user`` holds, if any."""
        if user is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.user == user:
                return index
        return None

    def humans(self) -> list[int]:
        """Users holding a seat (present or away)."""
        return [s.user for s in self.seats if s.user is not None]

    def present_humans(self) -> list[int]:
        """Users holding a seat who have not left it."""
        return [s.user for s in self.seats if s.user is not None and not s.left]

    def is_member(self, user: int) -> bool:
        """Seated (even away) or watching."""
        return self.seat_of(user) is not None or user in self.spectators

    def is_present(self, user: int) -> bool:
        """Seated and not gone (left or kicked), or watching: may talk and ask here."""
        seat = self.seat_of(user)
        if seat is not None:
            return not self.seats[seat].left
        return user in self.spectators

    @property
    def running(self) -> bool:
        """A game is in progress (playing or paused between rounds)."""
        return self.state in ("playing", "paused")

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot that plays ``seat`` now, or None if a person does."""
        holder = self.seats[seat]
        if holder.bot is not None and holder.user is None:
            return holder.bot
        if holder.away or self.clock_seat == seat:
            return self.rules.bot_levels()[0]
        return None

    # -- history ---------------------------------------------------------------------

    def stage(self, channel: Channel, data: dict[str, Any]) -> Item:
        """Prepare the next history item (kept once stored)."""
        item = self.history.make(channel, data, pending=len(self.staged))
        self.staged.append(item)
        return item

    def stage_system(self, kind: str, **values: Any) -> Item:
        """Prepare a system item."""
        return self.stage("system", {"kind": kind, "values": values})

    def commit_staged(self) -> list[Item]:
        """The staged items were stored: append them to the history."""
        items, self.staged = self.staged, []
        for item in items:
            self.history.add(item)
        return items

    def drop_staged(self) -> None:
        """Storing failed: forget the staged items."""
        self.staged = []

    # -- words -----------------------------------------------------------------------

    def title(self, lang: str) -> str:
        """The game's title in ``lang``."""
        titles = self.rules.title
        return titles.get(lang) or titles.get("en") or self.rules.name

    def audience(
        self, item: Item, lang: str, user: int | None, data: dict[str, Any]
    ) -> tuple[int, str, int | None]:
        """Who reads the same words of an item as ``user``: (seq, language, seat or None).

        A chat line reads the same in every language; a system line in each
        language; a game event also from the seat it names ("You rolled" to
        that seat's player), while every seat it does not name hears what a
        spectator hears ("Anna rolled"). So a table's fan-out renders, builds
        and encodes each item once per audience, not once per follower.
        """
        if item.channel == "chat":
            return (item.seq, "", None)
        if item.channel != "game":
            return (item.seq, lang, None)
        return (item.seq, lang, self.viewers(item, data).get(user))

    def viewers(self, item: Item, data: dict[str, Any]) -> dict[int | None, int]:
        """The users who read a game item from their own seat: user -> seat.

        The players of the item's game whose seat its message names (all of
        them when the game words its events itself); everyone else reads it
        as a spectator does. Found once per item, then one look-up per follower.
        """
        info = self.games.get(int(data["game_id"]))
        if info is None:
            return {}
        named = self._named(item.seq, data)
        if named is None:
            return {user: seat for seat, user in info.players}
        return {user: seat for seat, user in info.players if seat in named}

    def _named(self, seq: int, data: dict[str, Any]) -> frozenset[int] | None:
        """The seats a game item's message names (None: the game words events itself)."""
        if seq in self.named:
            return self.named[seq]
        named: frozenset[int] | None = None
        if type(self.rules).render_event is GameRules.render_event:
            named = self._msg(seq, data).seats()
        if len(self.named) >= TEXT_CACHE_SIZE:
            self.named.clear()
        self.named[seq] = named
        return named

    def _msg(self, seq: int, data: dict[str, Any]) -> Msg:
        """A game item's message (``rules.message_of`` of its event), made once per item:
        every audience of the item reads it (its seats, then its words)."""
        msg = self.msgs.get(seq)
        if msg is None:
            if len(self.msgs) >= TEXT_CACHE_SIZE:
                self.msgs.clear()
            msg = self.msgs[seq] = message_of(self.rules, data["event"])
        return msg

    def _event(self, seq: int, data: dict[str, Any]) -> Event:
        """A game item's event (decoded once per item: every audience renders it)."""
        event = self.events.get(seq)
        if event is None:
            if len(self.events) >= TEXT_CACHE_SIZE:
                self.events.clear()
            event = self.events[seq] = Event.from_json(data["event"])
        return event

    def render(
        self,
        item: Item,
        lang: str,
        user: int | None,
        data: dict[str, Any] | None = None,
        key: tuple[int, str, int | None] | None = None,
    ) -> str:
        """The sentence of an item for one user (cached per item and :meth:`audience`;
        ``key``: that audience, if already known)."""
        data = item.data if data is None else data
        if item.channel == "chat":
            return str(data["text"])
        if key is None:
            key = self.audience(item, lang, user, data)
        text = self.texts.get(key)
        if text is None:
            if item.channel == "system":
                values = data.get("values", {})
                if data["kind"] == "options_changed":
                    values = {"options": [self._option_change(c, lang) for c in values["options"]]}
                text = system_text(data["kind"], lang, values)
            elif type(self.rules).render_event is GameRules.render_event:
                # what GameRules.render_event says, from the item's message made once
                listener = self._listener(int(data["game_id"]), lang, key[2])
                # said once: this table keeps the sentence (texts), the catalogue need not
                text = voice_of(lang).say(self._msg(item.seq, data), listener, remember=False)
            else:
                info = self.games.get(int(data["game_id"]))
                names = display_names(info.names, lang) if info else []
                event = self._event(item.seq, data)
                text = self.rules.render_event(event, lang, key[2], names)
            if len(self.texts) >= TEXT_CACHE_SIZE:  # old items are rarely asked again
                self.texts.clear()
            self.texts[key] = text
        return text

    def _listener(self, game_id: int, lang: str, seat: int | None) -> Listener:
        """Who hears a game's item from ``seat`` in ``lang`` (its names said in that
        language), made once per game, language and seat: every item of the game reads it."""
        key = (game_id, lang, seat)
        listener = self.listeners.get(key)
        if listener is None:
            info = self.games.get(game_id)
            names = tuple(display_names(info.names, lang)) if info else ()
            if len(self.listeners) >= TEXT_CACHE_SIZE:
                self.listeners.clear()
            listener = self.listeners[key] = Listener(seat, names)
        return listener

    def _option_change(self, change: str, lang: str) -> str:
        """ "target=10000" as a player reads it: "Score that ends the game: 10,000"."""
        name, sep, value = str(change).partition("=")
        if not sep:
            return Voice(lang).say(Msg("salon-option-preset", preset=name))
        try:
            spec = self.rules.options.spec(name)
        except ZanzibarError:
            return str(change)
        words: Any = value
        if spec.choices and value in spec.choice_labels:
            words = spec.choice_labels[value].get(lang, value)
        elif spec.type == "bool":
            words = Msg("salon-option-yes" if value == "True" else "salon-option-no")
        elif spec.type == "int" and value.lstrip("-").isdigit():
            words = int(value)
        option = spec.description.get(lang, name).rstrip(".")
        return Voice(lang).say(Msg("salon-option-change", option=option, value=words))

    def message(
        self,
        item: Item,
        lang: str,
        user: int | None,
        data: dict[str, Any] | None = None,
        key: tuple[int, str, int | None] | None = None,
    ) -> dict[str, Any]:
        """The protocol message of a history item for one user (``data``: already decoded;
        ``key``: the user's :meth:`audience` of it, if already known)."""
        data = item.data if data is None else data
        if item.channel == "game":
            return {
                "v": 1,
                "type": "game.event",
                "table": self.id,
                "seq": item.seq,
                "channel": "game",
                "game_id": data["game_id"],
                "event": data["event"],
                "text": self.render(item, lang, user, data, key),
            }
        if item.channel == "chat":
            return {
                "v": 1,
                "type": "chat",
                "table": self.id,
                "seq": item.seq,
                "channel": "chat",
                "from": data["from"],
                "user": data["user"],
                "text": data["text"],
                "me": bool(data["me"]),
                "private": False,
            }
        return {
            "v": 1,
            "type": "system",
            "table": self.id,
            "seq": item.seq,
            "channel": "system",
            "kind": data["kind"],
            "text": self.render(item, lang, user, data, key),
        }

    def current_names(self) -> list[str]:
        """Seat names now (empty seats as "")."""
        return [s.name or "" for s in self.seats]

    # -- JSON -----------------------------------------------------------------------

    def summary(
        self, lang: str, connected: Callable[[int], bool], name_of: Callable[[int], str]
    ) -> dict[str, Any]:
        """The protocol's ``TableSummary``."""
        return {
            "id": self.id,
            "game": self.rules.name,
            "title": self.title(lang),
            "preset": self.preset,
            "options": dict(self.options),
            "seats": [
                {
                    "seat": index,
                    "user": seat.user,
                    "name": seat.name,
                    "bot": seat.bot
                    if seat.user is None
                    else (self.rules.bot_levels()[0] if seat.away else None),
                    "away": seat.away,
                    "connected": seat.user is not None and connected(seat.user),
                }
                for index, seat in enumerate(self.seats)
            ],
            "host": self.host,
            "host_name": name_of(self.host) if self.host is not None else None,
            "state": self.state,
            "spectators": len(self.spectators),
            "private": self.private,
        }

    def to_json_for(
        self,
        user: int,
        lang: str,
        connected: Callable[[int], bool],
        name_of: Callable[[int], str],
    ) -> dict[str, Any]:
        """The protocol's ``Table`` as ``user`` sees it."""
        out = self.summary(lang, connected, name_of)
        seat = self.seat_of(user)
        out["invite"] = self.invite if (seat is not None or user == self.host) else None
        out["you"] = {
            "seat": seat,
            "host": user == self.host,
            "spectator": user in self.spectators,
        }
        out["spectator_names"] = sorted(name_of(u) for u in self.spectators)
        out["clock"] = self.clock
        out["hold"] = self.hold
        out["game_id"] = self.game_id
        out["log_length"] = len(self.match.log) if self.match is not None else 0
        out["last_seq"] = self.history.last_seq
        return out

    def row(self) -> dict[str, Any]:
        """The stored columns (without ``created``/``closed``)."""
        return {
            "game": self.rules.name,
            "preset": self.preset,
            "options": dict(self.options),
            "capacity": self.capacity,
            "private": self.private,
            "invite": self.invite,
            "host_id": self.host,
            "state": self.state,
            "hold": self.hold,
            "clock": self.clock,
            "game_id": self.game_id,
            "seats": [s.to_json() for s in self.seats],
            "banned": sorted(self.banned),
        }

    def deadline_row(self) -> dict[str, Any]:
        """The stored deadlines (see :mod:`zanzibar.salon.deadlines`)."""
        dropped = {
            str(i): s.dropped_at for i, s in enumerate(self.seats) if s.dropped_at is not None
        }
        return {
            "clock_seat": self.clock_seat,
            "clock_deadline": self.clock_deadline,
            "pause_until": self.pause_until,
            "dropped": dropped or None,
        }


#: Messages of game events by (rules, the event's JSON text), for every table.
_MESSAGES: dict[tuple[GameRules[Any, Any], bytes], Msg] = {}


def message_of(rules: GameRules[Any, Any], event: dict[str, Any]) -> Msg:
    """``rules.message_of`` of a stored event (its JSON), made once per game and event for
    every table of the salon.

    A history item is words from its JSON alone (a replay reads it years later), so the
    same event's JSON is the same message wherever it happens: "Anna rolled 4 2 1" at
    one table and "Hugo rolled 4 2 1" at another are one message (a seat, not a name),
    decoded and made once; and its sentence's recipe (``Voice._said_once``) is found
    by that one message. An event orjson cannot write (an integer beyond 64 bits) is
    made each time; so are those of rules that cannot be a key.

    >>> from zanzibar.games import get_rules
    >>> roll = {"kind": "roll", "seat": 0, "data": {"dice": [4, 2, 1], "roll": 1, "limit": 3}}
    >>> message_of(get_rules("421"), roll) is message_of(get_rules("421"), dict(roll))
    True
    """
    try:
        key = (rules, orjson.dumps(event))
        msg = _MESSAGES.get(key)
    except TypeError:  # orjson.JSONEncodeError is a TypeError (so is unhashable rules)
        return rules.message_of(Event.from_json(event))
    if msg is None:
        if len(_MESSAGES) >= 4 * TEXT_CACHE_SIZE:  # bounded: the events of a few games
            _MESSAGES.clear()
        msg = _MESSAGES[key] = rules.message_of(Event.from_json(event))
    return msg


#: Event kinds that close a round, for games without an ``is_round_end`` method
#: ("round_lost": 421 when a player has lost a round of charge and décharge).
ROUND_END_KINDS: frozenset[str] = frozenset({"round_end", "round_lost"})


def round_ended(rules: GameRules[Any, Any], events: Sequence[Event]) -> bool:
    """True if these events close a round (the salon then pauses between rounds).

    A game may say so itself with an ``is_round_end(event) -> bool`` method;
    otherwise an event whose kind is in :data:`ROUND_END_KINDS` closes a round.

    >>> class NoHook: pass
    >>> round_ended(NoHook(), [Event("roll", 0, {}), Event("round_lost", 1, {})])  # type: ignore[arg-type]
    True
    """
    hook = getattr(rules, "is_round_end", None)
    if hook is not None:
        return any(bool(hook(event)) for event in events)
    return any(event.kind in ROUND_END_KINDS for event in events)
