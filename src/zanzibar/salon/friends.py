"""Friends lists: whom an account follows, who of them is online and at which table.

A friends list is one-sided, like a follow: adding someone needs no answer
from them (docs/protocol.md, "Friends", says why: it is what the accessible
game rooms do, one action and no pending requests to manage by ear, and it
reveals nothing the lobby does not already show). Only accounts keep a list
and only accounts can be in one: guests vanish when their tab closes.

Names are found as the salon finds them (NFKC, case folding) and, failing
that, by their confusable skeleton: names are unique by skeleton, so
"Аnna" typed with a Cyrillic A can only mean Anna. A friend's places name
public tables, and private tables only to someone who is at that table too;
otherwise "at a private table".

When a friend comes online or goes offline, each online follower who has not
turned alerts off gets a ``friend`` event with a sentence. Whether someone is
online is read through one function (``online``) so that a salon of several
processes can answer it from its shared presence.
"""

from __future__ import annotations

import asyncio
import functools
import time
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Protocol

from sqlalchemy import Executable, delete, func, insert, literal, select, update
from sqlalchemy.exc import IntegrityError

from zanzibar.l10n import Msg, Voice
from zanzibar.salon import models as m
from zanzibar.salon.accounts import AccountBook, User
from zanzibar.salon.connections import Connection
from zanzibar.salon.errors import SalonError
from zanzibar.salon.fields import PROTOCOL, ok_reply
from zanzibar.salon.limits import Gate, Limits, LocalGate, rates
from zanzibar.salon.lobby import members
from zanzibar.salon.mailbox import account_lock
from zanzibar.salon.names import NAME_MAX, name_skeletons
from zanzibar.salon.persistence import Fenced, Store, fenced
from zanzibar.salon.text import strip_invisible


async def find_account(accounts: AccountBook, raw: Any) -> User | None:
    """The user a typed name means: by name key, else by confusable skeleton.

    Invisible characters are dropped and spaces normalised first; ``invalid``
    if the name is not text or empty.
    """
    if not isinstance(raw, str):
        raise SalonError("invalid", Msg("error-friends-name"))
    name = " ".join(strip_invisible(unicodedata.normalize("NFC", raw)).split())
    if not name or len(name) > NAME_MAX * 2:
        raise SalonError("invalid", Msg("error-friends-name"))
    user = await accounts.find(name)
    if user is not None:
        return user
    for form in name_skeletons(name):
        user_id = accounts.user_skeletons.get(form)
        if user_id is not None and user_id in accounts.users:
            return accounts.users[user_id]
    return None


def friend_insert(user_id: int, friend_id: int, now: float, most: int) -> Executable:
    """The fenced insert of one name into a list, made only while the list holds fewer
    than ``most`` names in storage (counted in the statement itself: the database, not
    one node's memory, is what holds the limit); else it changes no row (``Fenced``)."""
    f = m.friends
    held = select(func.count()).select_from(f).where(f.c.user_id == user_id).scalar_subquery()
    values = select(
        literal(user_id, f.c.user_id.type),
        literal(friend_id, f.c.friend_id.type),
        literal(now, f.c.created.type),
    ).where(held < most)
    return fenced(insert(f).from_select(["user_id", "friend_id", "created"], values))


class Listing(Protocol):
    """The salon's table list as a friends list reads it (the lobby's)."""

    def summaries(self) -> Mapping[int, Mapping[str, Any]]:
        """Every open table's language-free summary, on every node."""

    def title(self, game: str, lang: str) -> str:
        """A game's title in ``lang``."""


def shown_name(raw: Any) -> str:
    """A typed name as it may be repeated in a refusal (visible, at most 40 characters)."""
    return strip_invisible(str(raw))[:40]


class Friends:
    """Every account's friends list, in memory and in storage (tables ``friends``, ``friend_settings``).

    ``online(user_id)``: is this user connected (on any node); ``tables``: the
    open tables' lobby summaries, on every node (to say where a friend is; see
    :func:`zanzibar.salon.lobby.summary_of`), and games' titles; ``conns_of(user_id)``: the connections here to send a ``friend`` event to; ``grace``: seconds of absence before "went offline"
    is said (see :meth:`presence_changed`).
    """

    def __init__(
        self,
        store: Store,
        accounts: AccountBook,
        limits: Limits,
        online: Callable[[int], bool],
        tables: Listing,
        conns_of: Callable[[int], Iterable[Connection]],
        clock: Callable[[], float] = time.time,
        grace: float = 0.0,
        gate: Gate | None = None,
    ) -> None:
        self.store = store
        self.accounts = accounts
        #: Seconds someone must stay away before their followers hear they went offline.
        self.grace = grace
        #: user -> the pending "went offline" announcement
        self._going: dict[int, asyncio.TimerHandle] = {}
        self.limits = limits
        self.online = online
        self.tables = tables
        self.conns_of = conns_of
        self.clock = clock
        #: user -> the ids in their list
        self.lists: dict[int, set[int]] = {}
        #: user -> the ids of those who keep them in their list
        self.followers: dict[int, set[int]] = {}
        #: users who turned friend alerts off
        self.quiet: set[int] = set()
        #: Counts the list changes per account: shared by every node of a salon (Redis),
        #: so an account changing its list on two nodes gets one budget, not one per node.
        self._gate: Gate = gate if gate is not None else LocalGate()
        self._change_rate = rates(limits.friends_change_rate)
        #: Called with a user's id once his list or alerts changed (other nodes read it again).
        self.changed: Callable[[int], None] = lambda _user_id: None

    async def load(self) -> None:
        """Read every list and setting from storage."""
        self.lists.clear()
        self.followers.clear()
        self.quiet.clear()
        for user_id, friend_id in await self.store.read(
            select(m.friends.c.user_id, m.friends.c.friend_id)
        ):
            self._link(user_id, friend_id)
        for user_id, alerts in await self.store.read(
            select(m.friend_settings.c.user_id, m.friend_settings.c.alerts)
        ):
            if not alerts:
                self.quiet.add(user_id)

    async def reload(self, user_id: int) -> None:
        """Read ``user_id``'s list and alert setting again (he may have changed them on
        another node of the salon), and the accounts in it this node has not met yet."""
        rows = await self.store.read(
            select(m.friends.c.friend_id).where(m.friends.c.user_id == user_id)
        )
        stored = {int(row[0]) for row in rows}
        for friend_id in self.lists.get(user_id, set()) - stored:
            self._unlink(user_id, friend_id)
        for friend_id in stored:
            self._link(user_id, friend_id)
            if friend_id not in self.accounts.users:
                await self.accounts.user(friend_id)
        settings = m.friend_settings
        alerts = await self.store.read(
            select(settings.c.alerts).where(settings.c.user_id == user_id)
        )
        if alerts and not alerts[0][0]:
            self.quiet.add(user_id)
        else:
            self.quiet.discard(user_id)

    def _link(self, user_id: int, friend_id: int) -> None:
        self.lists.setdefault(user_id, set()).add(friend_id)
        self.followers.setdefault(friend_id, set()).add(user_id)

    def _unlink(self, user_id: int, friend_id: int) -> None:
        self.lists.get(user_id, set()).discard(friend_id)
        self.followers.get(friend_id, set()).discard(user_id)

    @staticmethod
    def _require_account(user: User) -> None:
        if user.guest:
            raise SalonError("forbidden", Msg("error-friends-guest"))

    async def _count_change(self, user: User) -> None:
        """One change to ``user``'s list (``rate_limited`` beyond ``friends_change_rate``).

        Counted only for a change that will be made: a refusal costs nothing.
        """
        await self._gate.take([(self._change_rate, f"user:{user.id}")], "friends list changes")

    async def _target(self, raw: Any) -> User:
        friend = await find_account(self.accounts, raw)
        if friend is None:
            raise SalonError("not_found", Msg("error-nobody-called", to=shown_name(raw)))
        return friend

    # -- changing a list ---------------------------------------------------------------

    async def add(self, user: User, raw: Any) -> User:
        """Put the account called ``raw`` in ``user``'s list; the friend added."""
        self._require_account(user)
        friend = await self._target(raw)
        if friend.id == user.id:
            raise SalonError("invalid", Msg("error-friends-self"))
        if friend.guest:
            raise SalonError("forbidden", Msg("error-friends-not-account", name=friend.name))
        mine = self.lists.get(user.id, set())
        if friend.id not in mine and len(mine) >= self.limits.friends_max:
            await self.reload(user.id)  # full here; storage may know of a removal elsewhere
            mine = self.lists.get(user.id, set())
        if friend.id in mine:
            raise SalonError("conflict", Msg("error-friends-already", name=friend.name))
        if len(mine) >= self.limits.friends_max:
            raise SalonError("quota", Msg("error-friends-full", max=self.limits.friends_max))
        await self._count_change(user)
        self._link(user.id, friend.id)  # reserved before waiting: two adds cannot both pass
        added = friend_insert(user.id, friend.id, self.clock(), self.limits.friends_max)
        try:
            await self.store.write([*account_lock(self.store, user.id), (added, None)])
        except (Fenced, IntegrityError) as exc:  # changed on another node meanwhile
            self._unlink(user.id, friend.id)
            await self.reload(user.id)
            if isinstance(exc, IntegrityError) or friend.id in self.lists.get(user.id, set()):
                raise SalonError(
                    "conflict", Msg("error-friends-already", name=friend.name)
                ) from None
            raise SalonError(
                "quota", Msg("error-friends-full", max=self.limits.friends_max)
            ) from None
        except Exception:
            self._unlink(user.id, friend.id)
            raise SalonError("internal", Msg("error-friends-not-stored")) from None
        self.changed(user.id)
        return friend

    async def remove(self, user: User, raw: Any) -> User:
        """Take the account called ``raw`` out of ``user``'s list; the friend removed."""
        self._require_account(user)
        friend = await self._target(raw)
        if friend.id not in self.lists.get(user.id, set()):
            raise SalonError("not_found", Msg("error-friends-not-friend", name=friend.name))
        await self._count_change(user)
        self._unlink(user.id, friend.id)
        friends = m.friends
        try:
            await self.store.write(
                [
                    (
                        delete(friends).where(
                            friends.c.user_id == user.id, friends.c.friend_id == friend.id
                        ),
                        {},
                    )
                ]
            )
        except Exception:
            self._link(user.id, friend.id)
            raise SalonError("internal", Msg("error-friends-not-stored")) from None
        self.changed(user.id)
        return friend

    async def set_alerts(self, user: User, on: bool) -> None:
        """Turn ``user``'s friend alerts on or off (kept across sign-ins)."""
        self._require_account(user)
        was_quiet = user.id in self.quiet
        if was_quiet == (not on):
            return
        settings = m.friend_settings
        known = await self.store.read(
            select(settings.c.user_id).where(settings.c.user_id == user.id)
        )
        op: Any = (
            (update(settings).where(settings.c.user_id == user.id), {"alerts": on})
            if known
            else (insert(settings), {"user_id": user.id, "alerts": on})
        )
        try:
            await self.store.write([op])
        except Exception:
            raise SalonError("internal", Msg("error-friends-not-stored")) from None
        if on:
            self.quiet.discard(user.id)
        else:
            self.quiet.add(user.id)
        self.changed(user.id)

    # -- reading a list ------------------------------------------------------------------

    def places(
        self, friend_ids: Iterable[int], viewer_id: int, lang: str = "en"
    ) -> dict[int, list[dict[str, Any]]]:
        """Where each of ``friend_ids`` sits or watches, as ``viewer_id`` may know it.

        A place is ``{"table", "game", "title", "seat"}`` (``title``: the game's
        name in ``lang``; ``seat`` null when watching). A private table is named
        only to someone who is at it too; to anyone else every field is null.
        One pass over the tables, whatever the length of the list.
        """
        wanted = set(friend_ids)
        out: dict[int, list[dict[str, Any]]] = {friend: [] for friend in wanted}
        hidden = {"table": None, "game": None, "title": None, "seat": None}
        for table_id, summary in self.tables.summaries().items():
            # seated and not gone (left or kicked), or watching: as Table.is_present
            seats = summary["seats"]
            present: list[tuple[int, int | None]] = [
                (seat["user"], seat["seat"])
                for seat in seats
                if seat["user"] in wanted and not seat.get("left")
            ]
            present += [(user, None) for user in summary.get("watchers", ()) if user in wanted]
            if not present:
                continue
            known = viewer_id in members(summary) or summary.get("host") == viewer_id
            if summary.get("private") and not known:
                for friend, _ in present:
                    out[friend].append(dict(hidden))
                continue
            game = summary["game"]
            title = self.tables.title(game, lang)
            for friend, index in present:
                place = {"table": table_id, "game": game, "title": title, "seat": index}
                out[friend].append(place)
        for found in out.values():
            found.sort(key=lambda place: (place["table"] is None, place["table"] or 0))
        return out

    def entry(
        self,
        viewer: User,
        friend_id: int,
        lang: str,
        places: dict[int, list[dict[str, Any]]] | None = None,
    ) -> dict[str, Any]:
        """One line of a friends list: who, online or not, where, and the sentence of it."""
        friend = self.accounts.users[friend_id]
        online = self.online(friend_id)
        where: list[dict[str, Any]] = []
        if online:
            known = places if places is not None else self.places([friend_id], viewer.id, lang)
            where = known.get(friend_id, [])
        return {
            "user": friend.id,
            "name": friend.name,
            "online": online,
            "places": where,
            "text": _where_text(lang, friend.name, online, _places_key(where)),
        }

    def listing(self, user: User, lang: str) -> list[dict[str, Any]]:
        """``user``'s friends, those online first, then by name."""
        self._require_account(user)
        ids = [f for f in self.lists.get(user.id, set()) if f in self.accounts.users]
        places = self.places([f for f in ids if self.online(f)], user.id, lang)
        entries = [self.entry(user, friend_id, lang, places) for friend_id in ids]
        entries.sort(key=lambda e: (not e["online"], e["name"].casefold(), e["user"]))
        return entries

    def alerts(self, user: User) -> bool:
        """Whether ``user`` hears friends come and go."""
        return user.id not in self.quiet

    # -- presence --------------------------------------------------------------------------

    def presence_changed(self, user_id: int, online: bool) -> int:
        """``user_id`` came online (first socket) or went offline (last one closed).

        Going offline is announced only once the user has stayed away for
        ``grace`` seconds: a page reload or a network blink says nothing (and
        coming back within the grace says nothing either), and someone
        flapping their connection cannot flood their followers. Returns how
        many connections were told now.
        """
        user = self.accounts.users.get(user_id)
        if user is None or user.guest:
            return 0
        pending = self._going.pop(user_id, None)
        if online and pending is not None:
            pending.cancel()  # back within the grace: they never left, for their friends
            return 0
        if not online and self.grace > 0:
            if pending is not None:
                pending.cancel()
            loop = asyncio.get_running_loop()
            self._going[user_id] = loop.call_later(self.grace, self._gone, user_id)
            return 0
        return self._tell(user, online)

    def _gone(self, user_id: int) -> None:
        """The grace is over: say they went offline, unless they are back."""
        self._going.pop(user_id, None)
        user = self.accounts.users.get(user_id)
        if user is not None and not self.online(user_id):
            self._tell(user, False)

    def close(self) -> None:
        """Forget the offline announcements still waiting (the salon is stopping)."""
        for handle in self._going.values():
            handle.cancel()
        self._going.clear()

    def _tell(self, user: User, online: bool) -> int:
        """Send the ``friend`` event to every connection of each follower online with alerts on."""
        told = 0
        for follower in sorted(self.followers.get(user.id, ())):
            if follower in self.quiet or not self.online(follower):
                continue
            key = "friends-came-online" if online else "friends-went-offline"
            for conn in list(self.conns_of(follower)):
                conn.put(
                    {
                        "v": PROTOCOL,
                        "type": "friend",
                        "user": user.id,
                        "name": user.name,
                        "online": online,
                        "text": Voice(conn.lang).say(Msg(key, name=user.name)),
                    }
                )
                told += 1
        return told


def _places_key(places: list[dict[str, Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple((p["table"], p["game"], p["title"], p["seat"]) for p in places)


@functools.lru_cache(maxsize=4096)
def _where_text(lang: str, name: str, online: bool, places: tuple[tuple[Any, ...], ...]) -> str:
    """A friend's sentence, remembered: a list asked again says the same lines for free."""
    where = [dict(zip(("table", "game", "title", "seat"), p, strict=True)) for p in places]
    return Voice(lang).say(where_msg(name, online, where))


def where_msg(name: str, online: bool, places: list[dict[str, Any]]) -> Msg:
    """The sentence of a friend's state: offline, in the lobby, or at tables."""
    if not online:
        return Msg("friends-offline", name=name)
    if not places:
        return Msg("friends-in-lobby", name=name)
    return Msg("friends-at", name=name, places=tuple(place_msg(p) for p in places))


def place_msg(place: dict[str, Any]) -> Msg:
    """One place: "table 3 (421), seat 2", "table 4 (Zilch), watching", "a private table".

    Ids are passed as text: a table id is a name, never "table 12,345".
    """
    if place["table"] is None:
        return Msg("friends-place-private")
    game = str(place["title"])
    if place["seat"] is None:
        return Msg("friends-place-watching", table=str(place["table"]), game=game)
    seat = place["seat"] + 1
    return Msg("friends-place-seat", table=str(place["table"]), game=game, seat=seat)


#: The node message saying a user's friends list changed (his other nodes read it again).
LIST_CHANGED = "friends.changed"


async def tell_nodes(ports: Any, hub: Any, user_id: int) -> None:
    """The other nodes holding sockets of ``user_id`` read his list again."""
    for node in sorted(await ports.presence.where(user_id)):
        if node != hub.node:
            await hub.send(node, LIST_CHANGED, {"user": user_id})


def list_changed(
    friends: Friends, conns_of: Callable[[int], Iterable[Connection]]
) -> Callable[[str, Mapping[str, Any]], Awaitable[None]]:
    """The handler of :data:`LIST_CHANGED` node messages."""

    async def handle(_sender: str, body: Mapping[str, Any]) -> None:
        user_id = body.get("user")
        if isinstance(user_id, int) and any(True for _ in conns_of(user_id)):
            await friends.reload(user_id)

    return handle


def friend_handlers(book: Friends) -> dict[str, Callable[[Connection, dict[str, Any]], Any]]:
    """The gateway's handlers of ``friends.*`` messages (``book``, the salon's, does the work).

    The gateway calls them for signed-in sockets only.
    """

    def _user(conn: Connection) -> User:
        assert conn.user is not None
        return conn.user

    async def listing(conn: Connection, message: dict[str, Any]) -> None:
        user = _user(conn)
        entries = book.listing(user, conn.lang)
        online = sum(1 for entry in entries if entry["online"])
        voice = Voice(conn.lang)
        text = (
            voice.say(Msg("friends-count", count=len(entries), online=online))
            if entries
            else voice.say(Msg("friends-empty"))
        )
        conn.put(ok_reply(message, friends=entries, alerts=book.alerts(user), text=text))

    async def add(conn: Connection, message: dict[str, Any]) -> None:
        user = _user(conn)
        friend = await book.add(user, message.get("name"))
        text = Voice(conn.lang).say(Msg("friends-added", name=friend.name))
        conn.put(ok_reply(message, friend=book.entry(user, friend.id, conn.lang), text=text))

    async def remove(conn: Connection, message: dict[str, Any]) -> None:
        user = _user(conn)
        friend = await book.remove(user, message.get("name"))
        text = Voice(conn.lang).say(Msg("friends-removed", name=friend.name))
        conn.put(ok_reply(message, user=friend.id, name=friend.name, text=text))

    async def alerts(conn: Connection, message: dict[str, Any]) -> None:
        user = _user(conn)
        on = message.get("on")
        if not isinstance(on, bool):
            raise SalonError("invalid", Msg("error-must-true-or-false", key="on"))
        await book.set_alerts(user, on)
        text = Voice(conn.lang).say(Msg("friends-alerts-on" if on else "friends-alerts-off"))
        conn.put(ok_reply(message, alerts=on, text=text))

    return {
        "friends.list": listing,
        "friends.add": add,
        "friends.remove": remove,
        "friends.alerts": alerts,
    }
