"""Ratings: game families, finishing orders, bot anchors and one game's update.

Pure functions, no storage (that is :mod:`zanzibar.salon.rating_processor`).

Why openskill's Plackett-Luce model: it is a Bayesian rating made for games of
two or more players with a full finishing order (ties allowed), which is what a
421 or Zilch table produces; Elo and Glicko only rate pairs. Each player has a
skill estimate ``mu`` and an uncertainty ``sigma``; the rating shown to players is
``1000 + 40 × (mu − 3 sigma)`` (:func:`display`), a cautious figure that starts at
1000 and rises as the salon grows sure of a player's skill.

Ratings are kept per *family*: games played with the same rules (a 421 game of
the salon preset is not rated with one of the bar preset). A game whose options
match no named preset of its family is not rated.

Bots are rated identities with a fixed rating per (family, level): anchors that
never move, so a newcomer who beats the expert bot gains what beating a strong
player is worth from the very first game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from zanzibar.engine.events import Event
from zanzibar.games import get_rules

#: Families, in the order the clients list them.
FAMILIES: tuple[str, ...] = ("421-salon", "421-bar", "zilch", "zanzibar-s", "chess")

#: (game, preset) -> family; ``None`` as preset: any named preset of that game.
_FAMILY_OF: dict[tuple[str, str | None], str] = {
    ("421", "salon"): "421-salon",
    ("421", "bar"): "421-bar",
    ("zilch", "zilch5000"): "zilch",
    ("zanzibar-s", None): "zanzibar-s",
    ("chess", None): "chess",
}

#: A player is *provisional* (marked on the leaderboard) before this many rated games.
PROVISIONAL_GAMES = 10

#: The model, with openskill's published defaults (mu 25, sigma 25/3, beta 25/6,
#: tau 25/300): the numbers of its documentation and tests hold here.
MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma

#: The fixed rating (mu, sigma) of each bot level, per family. Stated in
#: docs/ratings.md; the order follows the levels' measured strength.
BOT_ANCHORS: dict[str, dict[str, tuple[float, float]]] = {
    "421-salon": {"random": (18.0, 2.0), "simple": (23.0, 2.0), "expert": (27.0, 2.0)},
    "421-bar": {"random": (18.0, 2.0), "simple": (23.0, 2.0), "expert": (27.0, 2.0)},
    "zilch": {"simple": (20.0, 2.0), "expected": (26.0, 2.0), "optimal": (28.0, 2.0)},
    "zanzibar-s": {
        "easy": (15.0, 2.0),
        "casual": (20.0, 2.0),
        "medium": (25.0, 2.0),
        "hard": (30.0, 2.0),
    },
    "chess": {
        "easy": (15.0, 2.0),
        "casual": (20.0, 2.0),
        "medium": (25.0, 2.0),
        "hard": (30.0, 2.0),
    },
}


@dataclass(frozen=True)
class Skill:
    """One rated identity's skill estimate."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def rating(self) -> int:
        """The figure players see (:func:`display`)."""
        return display(self.mu, self.sigma)


def display(mu: float, sigma: float) -> int:
    """The rating shown to players: ``1000 + 40 × (mu − 3 sigma)``, rounded.

    >>> display(25.0, 25.0 / 3.0)
    1000
    >>> display(27.635389493140497, 8.06590141354368)
    1138
    """
    return round(1000 + 40 * (mu - 3 * sigma))


def family_of(game: str, options: Mapping[str, Any]) -> str | None:
    """The rating family of a game played with ``options``, or None (not rated).

    >>> family_of("421", get_rules("421").options.resolve("bar"))
    '421-bar'
    >>> family_of("421", {**get_rules("421").options.resolve("bar"), "rounds_to_lose": 3}) is None
    True
    >>> family_of("shako", {}) is None
    True
    """
    if not any(g == game for g, _ in _FAMILY_OF):
        return None
    try:
        rules = get_rules(game)
        preset = rules.options.matching_preset(rules.options.validate(dict(options)))
    except Exception:
        return None
    if preset is None:
        return None
    return _FAMILY_OF.get((game, preset)) or _FAMILY_OF.get((game, None))


def bot_anchor(family: str, level: str) -> Skill:
    """The fixed skill of a bot level (an unknown level counts as a newcomer)."""
    mu, sigma = BOT_ANCHORS.get(family, {}).get(level, (DEFAULT_MU, DEFAULT_SIGMA))
    return Skill(mu, sigma)


# -- finishing orders --------------------------------------------------------------------


def competition_ranks(keys: Sequence[Any]) -> list[int]:
    """Places from sort keys (smaller is better), ties sharing a place ("1224").

    >>> competition_ranks([(0, 2), (0, 1), (1, 0), (0, 1)])
    [3, 1, 4, 1]
    """
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    places = [0] * len(keys)
    for position, seat in enumerate(order):
        if position and keys[seat] == keys[order[position - 1]]:
            places[seat] = places[order[position - 1]]
        else:
            places[seat] = position + 1
    return places


def placings_421(
    seats: int, outcome: Mapping[str, Any], events: Iterable[tuple[int, Event]]
) -> list[int]:
    """A 421 game's finishing order, place by seat (1 is best).

    The engine names only the loser; the order of the others comes from the game:
    fewer rounds lost ranks better; then, in the last round, whoever went *out*
    first (got rid of all their tokens) ranks better; players who went out in
    the same move tie, and those still in when the round ended come after them.
    The loser is last.

    >>> from zanzibar.engine.events import Event
    >>> events = [(3, Event("out", 2)), (5, Event("round_start", 1)), (9, Event("out", 3)),
    ...           (12, Event("out", 0))]
    >>> placings_421(4, {"losers": [1], "summary": {"rounds_lost": [0, 1, 0, 0]}}, events)
    [2, 4, 3, 1]
    """
    losers = set(outcome.get("losers") or [])
    lost = list((outcome.get("summary") or {}).get("rounds_lost") or [0] * seats)
    out_at: dict[int, int] = {}
    for index, event in events:
        if event.kind == "round_start":
            out_at.clear()
        elif event.kind == "out" and event.seat is not None and event.seat not in out_at:
            out_at[event.seat] = index
    never = 1 << 62
    keys = [
        (1 if seat in losers else 0, lost[seat] if seat < len(lost) else 0, out_at.get(seat, never))
        for seat in range(seats)
    ]
    return competition_ranks(keys)


def placings(
    game: str, seats: int, outcome: Mapping[str, Any], events: Iterable[tuple[int, Event]]
) -> list[int]:
    """The finishing order of a finished game, place by seat (1 is best; ties share).

    A draw puts everybody first. 421: :func:`placings_421`. Zilch: by final score
    (the winners first). Otherwise: winners, then players neither won nor lost,
    then losers.

    >>> placings("zilch", 3, {"winners": [1], "summary": {"scores": [4200, 5150, 4200]}}, [])
    [2, 1, 2]
    >>> placings("chess", 2, {"winners": [], "losers": [], "draw": True}, [])
    [1, 1]
    """
    if outcome.get("draw"):
        return [1] * seats
    if game == "421":
        return placings_421(seats, outcome, events)
    winners = set(outcome.get("winners") or [])
    losers = set(outcome.get("losers") or [])
    if game == "zilch":
        scores = list((outcome.get("summary") or {}).get("scores") or [0] * seats)
        return competition_ranks(
            [
                (0 if s in winners else 1, -(scores[s] if s < len(scores) else 0))
                for s in range(seats)
            ]
        )
    return competition_ranks([0 if s in winners else 2 if s in losers else 1 for s in range(seats)])


def with_leavers(places: Sequence[int], left: Iterable[int]) -> list[int]:
    """Players who left a game before its end lose it: they share the last place.

    >>> with_leavers([1, 2, 3, 4], [1])
    [1, 4, 2, 3]
    """
    gone = {seat for seat in left if 0 <= seat < len(places)}
    if not gone:
        return list(places)
    keys = [(1, 0) if s in gone else (0, p) for s, p in enumerate(places)]
    return competition_ranks(keys)


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Every player's skill after one game (a free-for-all of one-player teams).

    >>> after = rate([Skill(), Skill()], [1, 2])
    >>> [round(s.mu, 6) for s in after]
    [27.635389, 22.364611]
    """
    if len(skills) != len(places) or len(skills) < 2:
        raise ValueError("a rated game has at least two players, each with a place")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    result = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in result]
