"""The salon over several processes: ports, and their in-process and shared implementations.

:mod:`zanzibar.cluster.ports` defines the small interfaces (bus, leases,
presence, lobby, node-to-node link, ids, rate limits); :mod:`zanzibar.cluster.local` implements
them in one process; ``redis_*`` on Redis (the ``cluster`` extra) and
:mod:`zanzibar.cluster.pg_ids` on PostgreSQL. The Redis modules import redis-py,
so they are imported by name, never from here. docs/cluster.md tells the plan.
"""

from zanzibar.cluster.local import (
    LocalBus,
    LocalIds,
    LocalLeases,
    LocalLink,
    LocalLobby,
    LocalPresence,
    LocalRateLimits,
    PresenceBoard,
)
from zanzibar.cluster.ports import (
    Envelope,
    Follower,
    Ids,
    Lease,
    Leases,
    LeaseWatcher,
    Link,
    Lobby,
    Presence,
    RateLimits,
    StaleVersion,
    TableBus,
)

__all__ = [
    "Envelope",
    "Follower",
    "Ids",
    "Lease",
    "LeaseWatcher",
    "Leases",
    "Link",
    "Lobby",
    "LocalBus",
    "LocalIds",
    "LocalLeases",
    "LocalLink",
    "LocalLobby",
    "LocalPresence",
    "LocalRateLimits",
    "Presence",
    "PresenceBoard",
    "RateLimits",
    "StaleVersion",
    "TableBus",
]
