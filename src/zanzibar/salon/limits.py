"""The salon's limits against abuse, and the rate limiter that enforces them.

Every limit is a field of :class:`Limits` with a sane default; ``zanzibar serve``
sets them from flags and environment variables (docs/security.md lists them).
Rates are written the way the ``limits`` library parses them ("5/minute;
20/hour"): several windows at once give a stepped backoff, since someone who
keeps failing meets the minute's limit, then the hour's, then the day's.

Limits keyed by address are not applied to :attr:`Limits.exempt_addresses`
(the loopback addresses by default: a local bench, the tests, a reverse proxy
on the same machine that does not forward the client's address). Each such
limit is keyed on the address the transport reports; uvicorn replaces it with
the client's address given by a trusted proxy (``X-Forwarded-For``).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from zanzibar.l10n.msg import Msg
from zanzibar.salon.errors import SalonError

DEFAULT_EXEMPT = ("127.0.0.1", "::1")


@dataclass(frozen=True)
class Limits:
    """Every limit of the salon (see docs/security.md for why each default)."""

    #: Tables one account may host at once (open, not closed).
    tables_per_user: int = 5
    #: Tables all accounts of one address may host at once.
    tables_per_address: int = 20
    #: Tables one account may create.
    table_create_rate_user: str = "5/minute;30/hour"
    #: Tables one address may create.
    table_create_rate_address: str = "20/minute;120/hour"
    #: Sockets one account may hold open at once.
    sockets_per_user: int = 8
    #: Sockets one address may hold open at once.
    sockets_per_address: int = 64
    #: Messages one account may send, summed over all its sockets.
    message_rate_user: str = "40/second;1200/minute"
    #: Messages one address may send, summed over all its sockets.
    message_rate_address: str = "200/second;6000/minute"
    #: Password sign-in attempts per name (any result).
    login_rate_name: str = "5/minute;20/hour;100/day"
    #: Password sign-in attempts per address.
    login_rate_address: str = "20/minute;200/hour"
    #: Accounts (guests and registered) one address may create.
    signup_rate_address: str = "10/minute;100/hour"
    #: Password hashes computed at once (each argon2 hash takes 64 MiB).
    hash_workers: int = 2
    #: Hashes allowed to wait for a worker; beyond, sign-in is refused as busy.
    hash_queue: int = 16
    #: A session unused this long (seconds) expires; each use slides it (30 days).
    session_idle: float = 30 * 24 * 3600.0
    #: A session expires this long (seconds) after sign-in whatever its use (365 days).
    session_max: float = 365 * 24 * 3600.0
    #: Largest page of the lobby (``limit``); the default page when none is asked.
    lobby_page_max: int = 100
    #: Largest page of a table's history; the default page when none is asked.
    history_page_max: int = 500
    #: Private messages waiting for one account while it is away (all senders together).
    offline_messages_per_recipient: int = 100
    #: Private messages one sender may leave waiting for one account.
    offline_messages_per_sender: int = 20
    #: Names one account may keep in its friends list.
    friends_max: int = 200
    #: Changes (adding or removing a friend) one account may make to its friends list.
    friends_change_rate: str = "30/minute;300/hour"
    #: Addresses to which per-address limits do not apply.
    exempt_addresses: tuple[str, ...] = field(default=DEFAULT_EXEMPT)

    def exempt(self, address: str | None) -> bool:
        """True if per-address limits do not apply to ``address`` (or it is unknown)."""
        return not address or address in self.exempt_addresses


#: Environment variables ``ZANZIBAR_LIMIT_<NAME>`` set a limit (as ``--limit name=value``).
ENV_PREFIX = "ZANZIBAR_LIMIT_"


def limits_from(pairs: list[str] | None = None, environ: Mapping[str, str] | None = None) -> Limits:
    """Limits from ``ZANZIBAR_LIMIT_<NAME>`` variables, then ``name=value`` pairs (flags win).

    Numbers are checked, rates parsed; ``exempt_addresses`` is a comma-separated
    list (empty: every address is limited). ``ValueError`` names what is wrong.

    >>> limits_from(["tables_per_user=2", "exempt_addresses="], {}).tables_per_user
    2
    >>> limits_from([], {"ZANZIBAR_LIMIT_SOCKETS_PER_USER": "3"}).sockets_per_user
    3
    >>> limits_from(["tables_per_user=-1"], {})
    Traceback (most recent call last):
    ...
    ValueError: limit tables_per_user must be a positive number, not '-1'
    """
    values: dict[str, str] = {}
    for key, value in (environ or {}).items():
        if key.startswith(ENV_PREFIX):
            values[key[len(ENV_PREFIX) :].lower()] = value
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"write a limit as name=value, not {pair!r}")
        values[name.strip()] = value.strip()
    defaults = Limits()
    changes: dict[str, Any] = {}
    for name, text in values.items():
        if name not in Limits.__dataclass_fields__:
            known = ", ".join(Limits.__dataclass_fields__)
            raise ValueError(f"unknown limit {name!r}; known limits: {known}")
        current = getattr(defaults, name)
        if isinstance(current, tuple):
            changes[name] = tuple(a.strip() for a in text.split(",") if a.strip())
        elif isinstance(current, str):
            rates(text)
            changes[name] = text
        else:
            try:
                number = type(current)(text)
            except ValueError:
                number = -1
            if number <= 0:
                raise ValueError(f"limit {name} must be a positive number, not {text!r}")
            changes[name] = number
    return dataclasses.replace(defaults, **changes)


def rates(text: str) -> list[RateLimitItem]:
    """Parse "5/minute;20/hour" (``ValueError`` if malformed).

    >>> [str(r) for r in rates("5/minute;20/hour")]
    ['5 per 1 minute', '20 per 1 hour']
    """
    try:
        return list(parse_many(text))
    except Exception as exc:
        raise ValueError(f"not a rate: {text!r} (write e.g. 5/minute;20/hour)") from exc


class RateGate:
    """Several rate limits over moving windows, checked and counted together.

    Built on the ``limits`` library (in-memory storage: the salon is one
    process). :meth:`take` counts one event for every key given, but only if
    all of them still have room, so a refused event counts nowhere.

    >>> gate = RateGate()
    >>> rule = rates("2/minute")
    >>> gate.take([(rule, "user:1")], "tables")
    >>> gate.take([(rule, "user:1")], "tables")
    >>> gate.take([(rule, "user:1")], "tables")
    Traceback (most recent call last):
    ...
    zanzibar.salon.errors.SalonError: too many tables: at most 2 per minute; try again in 60 seconds
    """

    def __init__(self) -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def retry_after(self, rule: list[RateLimitItem], key: str) -> float:
        """Seconds until ``key`` has room under every window of ``rule`` (0 if it has)."""
        wait = 0.0
        for item in rule:
            if not self._limiter.test(item, key):
                stats = self._limiter.get_window_stats(item, key)
                wait = max(wait, stats.reset_time - time.time())
        return max(wait, 0.0)

    def _blocked(
        self, checks: list[tuple[list[RateLimitItem], str]]
    ) -> tuple[RateLimitItem, float] | None:
        """The first window without room and the wait until every one has room, or None."""
        for rule, key in checks:
            for item in rule:
                if not self._limiter.test(item, key):
                    return item, self.retry_after(rule, key)
        return None

    def take(self, checks: list[tuple[list[RateLimitItem], str]], what: str) -> None:
        """Count one event under each (rule, key), or raise ``rate_limited`` counting none."""
        blocked = self._blocked(checks)
        if blocked is None:
            for rule, key in checks:
                for rate in rule:
                    self._limiter.hit(rate, key)
            return
        raise rate_limited(what, *blocked)

    def clear(self, rule: list[RateLimitItem], key: str) -> None:
        """Forget the events of ``key`` (after a successful sign-in, say)."""
        for item in rule:
            self._limiter.clear(item, key)


def rate_limited(what: str, item: RateLimitItem, wait: float) -> SalonError:
    """The refusal of an event over ``item``'s window, with the seconds to wait."""
    seconds = max(1, math.ceil(wait))
    return SalonError(
        "rate_limited",
        Msg("error-rate-limited", what=_counted(what), limits=_rate(item), seconds=seconds),
        retry_after=seconds,
    )


class Gate(Protocol):
    """A :class:`RateGate` that may ask another process (its windows shared by every node)."""

    async def take(self, checks: list[tuple[list[RateLimitItem], str]], what: str) -> None:
        """Count one event under each (rule, key), or raise ``rate_limited`` counting none."""

    async def clear(self, rule: list[RateLimitItem], key: str) -> None:
        """Forget the events of ``key``."""


class LocalGate:
    """The one-process :class:`Gate`: a :class:`RateGate` in memory."""

    def __init__(self) -> None:
        self.gate = RateGate()

    async def take(self, checks: list[tuple[list[RateLimitItem], str]], what: str) -> None:
        self.gate.take(checks, what)

    async def clear(self, rule: list[RateLimitItem], key: str) -> None:
        self.gate.clear(rule, key)


def _counted(what: str) -> Msg:
    """What a rate limit counts ("new tables"), as the catalogue's words for it."""
    return Msg("error-many-" + "-".join(what.split()))


def _rate(item: RateLimitItem) -> Msg:
    """One rate ("5 per 1 minute") as a message: "5 per minute", "5 par minute"."""
    return Msg("error-rate", n=item.amount, count=item.multiples, unit=item.GRANULARITY.name)


class TokenBuckets:
    """A rate as token buckets, one per window, for the messages' hot path.

    Every message of every socket passes here, so this must cost next to
    nothing: the ``limits`` library's moving windows (locks, an entry object
    per event, a timer thread that rescans every key every 10 ms) measured
    100 to 150 microseconds a message with 1,000 keys, against 12 for these
    buckets in the same loop on the same (busy) machine. The rate is written as for :func:`rates` ("40/second;1200/minute"):
    each window becomes a bucket holding up to its amount, refilled evenly
    over the window, so bursts up to the amount pass and the long-run rate holds.

    >>> now = [0.0]
    >>> buckets = TokenBuckets("2/second", clock=lambda: now[0])
    >>> [buckets.wait("a") for _ in range(3)]
    [0.0, 0.0, 0.5]
    >>> now[0] = 0.5
    >>> buckets.wait("a")
    0.0
    """

    #: Idle keys (all buckets full) are forgotten every this many checks.
    PRUNE_EVERY = 4096

    def __init__(self, text: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.windows = [(float(item.amount), float(item.get_expiry())) for item in rates(text)]
        self.text = text
        self.clock = clock
        #: key -> [tokens of each window..., time of the last refill]
        self._state: dict[str, list[float]] = {}
        self._checks = 0
        #: Told of each token spent: the salon's other nodes count it too (:func:`share_buckets`).
        self.on_spend: Callable[[str], None] | None = None

    def _refilled(self, key: str, now: float) -> list[float]:
        state = self._state.get(key)
        if state is None:
            state = self._state[key] = [amount for amount, _ in self.windows] + [now]
            return state
        elapsed = now - state[-1]
        if elapsed > 0:
            for index, (amount, seconds) in enumerate(self.windows):
                state[index] = min(amount, state[index] + elapsed * amount / seconds)
            state[-1] = now
        return state

    def shortfall(self, key: str, now: float) -> float:
        """Seconds until ``key`` has a token in every bucket (0 if it has one now)."""
        state = self._refilled(key, now)
        wait = 0.0
        for index, (amount, seconds) in enumerate(self.windows):
            if state[index] < 1.0:
                wait = max(wait, (1.0 - state[index]) * seconds / amount)
        return wait

    def spend(self, key: str) -> None:
        """Take one token from each bucket of ``key`` (after :meth:`shortfall` said 0)."""
        state = self._state[key]
        for index in range(len(self.windows)):
            state[index] -= 1.0
        if self.on_spend is not None:
            self.on_spend(key)
        self._checks += 1
        if self._checks % self.PRUNE_EVERY == 0:
            self._prune(state[-1])

    def charge(self, key: str, count: int) -> None:
        """Spend ``count`` tokens ``key`` used on the salon's other nodes (may go below zero).

        A bucket is never charged below minus its amount: the wait it imposes stays
        within one window however late the other nodes' counts arrive.
        """
        state = self._refilled(key, self.clock())
        for index, (amount, _seconds) in enumerate(self.windows):
            state[index] = max(-amount, state[index] - count)

    def wait(self, key: str) -> float:
        """Spend a token if there is one (0.0), else the seconds to wait (nothing spent)."""
        wait = self.shortfall(key, self.clock())
        if wait == 0.0:
            self.spend(key)
        return wait

    def _prune(self, now: float) -> None:
        full = [
            key
            for key, state in self._state.items()
            if all(
                state[i] + (now - state[-1]) * amount / seconds >= amount
                for i, (amount, seconds) in enumerate(self.windows)
            )
        ]
        for key in full:
            del self._state[key]


def take_tokens(checks: list[tuple[TokenBuckets, str]], what: str) -> None:
    """Spend one token of each (buckets, key), or raise ``rate_limited`` spending none."""
    if not checks:
        return
    now = checks[0][0].clock()
    for buckets, key in checks:
        wait = buckets.shortfall(key, now)
        if wait > 0.0:
            seconds = max(1, math.ceil(wait))
            limits = tuple(_rate(item) for item in rates(buckets.text))
            raise SalonError(
                "rate_limited",
                Msg("error-rate-limited-wait", what=_counted(what), limits=limits),
                retry_after=seconds,
            )
    for buckets, key in checks:
        buckets.spend(key)


# -- limits that hold for the whole salon ---------------------------------------------------


class Counts(Protocol):
    """Events of this node shared with the salon's other nodes, without a round trip each.

    Each node counts its own events (:meth:`note`) and, every fraction of a
    second, adds them to a shared tally and learns how many the other nodes
    counted since; those are charged to this node's own limiter
    (:meth:`register`'s callback), so every node's limiter sees every event of
    the key, a moment late (``cluster/redis_limits.py``'s :class:`RedisCounts`).
    """

    def note(self, name: str, key: str, count: int = 1) -> None:
        """``count`` events (or, negative, taken back) of ``key`` under ``name`` on this node."""

    def register(self, name: str, charge: Callable[[str, int], None]) -> None:
        """Call ``charge(key, count)`` with the events other nodes counted under ``name``."""


class AddressTables(Protocol):
    """The tables opened from each address, over the whole salon (for ``tables_per_address``)."""

    async def add(self, address: str, table: int) -> None:
        """``table`` was opened from ``address``."""

    async def tables(self, address: str) -> set[int]:
        """The tables opened from ``address`` (closed ones too, until :meth:`forget`)."""

    async def forget(self, address: str, tables: set[int]) -> None:
        """These tables of ``address`` are closed: stop counting them."""


class AddressSockets(Protocol):
    """The sockets held from each address over the whole salon (``sockets_per_address``).

    Each node counts its own; a node that stopped beating (killed) stops counting
    for the others at once, without anyone taking its sockets off.
    """

    async def take(self, address: str, mine: int, most: int) -> bool:
        """One more socket from ``address``, making ``mine`` on this node: True (and
        counted) if every live node's together are then at most ``most``."""

    async def release(self, address: str) -> None:
        """One socket from ``address`` on this node closed."""

    async def sync(self, counts: Mapping[str, int]) -> None:
        """This node's counts are exactly ``counts`` (heals what Redis forgot or missed)."""


@dataclass
class SharedLimits:
    """What a node of several needs so that every per-account limit holds salon-wide.

    ``counts``: the message and chat rates (synced, no round trip per event);
    ``gate``: the table creation rates (several windows, rare events: asked each
    time); ``address_tables``: the tables per address; ``address_sockets``: the
    sockets per address (None: each node counts its own). Tables hosted per
    account are counted in the database, sockets per account by the presence port.
    """

    counts: Counts
    gate: Gate
    address_tables: AddressTables
    address_sockets: AddressSockets | None = None


def share_buckets(counts: Counts, name: str, buckets: TokenBuckets) -> None:
    """Make ``buckets`` count the tokens spent under the same key on every node."""
    buckets.on_spend = lambda key: counts.note(name, key)
    counts.register(name, buckets.charge)


def share_limiter(counts: Counts, name: str, limiter: Any) -> None:
    """Make a ``salon/chat.py`` :class:`RateLimiter` count every node's events of a key."""

    def recorded(key: int, added: bool) -> None:
        counts.note(name, str(key), 1 if added else -1)

    def charge(key: str, count: int) -> None:
        if key.lstrip("-").isdigit():
            limiter.charge(int(key), count)

    limiter.on_record = recorded
    counts.register(name, charge)
