"""Swiss-system pairing and standings, pure (no storage, no salon).

Two-player games (chess, and dice games played two at a table) are paired by
the FIDE Dutch system (see :func:`pair_dutch`, with the ``pairing-core`` library):
score groups, no rematch,
colour balance (alternation, never three times in a row the same colour nor a
colour difference beyond two where avoidable) and the pairing-allocated bye to
the lowest-ranked player who has not had one. "White" is the first seat of
the table: White in chess, the player who starts in the dice games.

Games of three or more players at a table have no published Swiss system; the
salon forms tables of ``size`` seats within score groups by a small rule of its
own (:func:`pair_tables`): players in ranking order (score, then seed), each
table takes the best-ranked unseated player and fills up with the next players
who have met the fewest people already at the table; the people are spread
evenly over as few tables as possible, and the seats left over are given to
bots. Nobody gets a bye there.

A bye scores as a win (1 point), as FIDE C.04.1 says unless regulations differ.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pairing_core import (
    DUTCH_TILL2026_COMPAT,
    CanonicalPlayer,
    CanonicalRequest,
    ExecutionBudgets,
    PairingError,
    pair_canonical,
)
from pairing_core.fide2026 import DUTCH_2026, P26Player, P26Request, pair_2026

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
#: Search steps each Dutch kernel may take before the next way pairs the round. Steps, not
#: seconds: a pairing depends only on the results before it, never on how busy the machine
#: was (with a budget of 0.5 s, a loaded machine paired some rounds by the older kernel instead).
#: 25,000 steps take 0.2-0.5 s for 9-16 players on our 2-core machine, 1-2.5 s at 128.
STEP_BUDGET = 25_000
#: Search steps of the fallback before it declares the round impossible.
FALLBACK_BUDGET = 200_000
#: Points of the pairing-allocated bye.
BYE_POINTS = WIN


class PairingImpossible(ValueError):
    """No pairing exists that keeps the absolute rules (e.g. everybody has met)."""


@dataclass(frozen=True)
class Entrant:
    """One player's state before a round.

    ``seed`` is the pairing number (1 for the best-ranked at the start); ``colours``
    is one letter a round: ``w`` (first seat), ``b`` (second seat), ``-`` (no game);
    ``floats`` one letter a round: ``D`` (paired down, or a bye), ``U`` (paired up), ``-``.
    """

    id: int
    seed: int
    score: float = 0.0
    opponents: frozenset[int] = frozenset()
    colours: str = ""
    had_bye: bool = False
    floats: str = ""


@dataclass(frozen=True)
class RoundPairing:
    """The tables of a round (entrant ids in seat order, None for a bot) and the bye."""

    tables: tuple[tuple[int | None, ...], ...]
    bye: int | None = None


def pair_round(
    entrants: Sequence[Entrant], round_no: int, size: int = 2, rounds: int | None = None
) -> RoundPairing:
    """Pair round ``round_no`` (1-based) of ``rounds`` for tables of ``size`` seats.

    Raises :class:`PairingImpossible` when every pairing would repeat a game or
    give somebody a second bye (the tournament then ends early).
    """
    if size < 2:
        raise ValueError("a table has at least two seats")
    if round_no < 1:
        raise ValueError("rounds are numbered from 1")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids) or len({e.seed for e in entrants}) != len(ids):
        raise ValueError("entrant ids and seeds must be unique")
    if not entrants:
        return RoundPairing(())
    if size == 2:
        return pair_dutch(entrants, round_no, rounds or round_no)
    return pair_tables(entrants, size, round_no)


def pair_dutch(entrants: Sequence[Entrant], round_no: int, rounds: int) -> RoundPairing:
    """Two-player pairing by the Dutch system, with ``pairing-core``.

    Round 1 is :func:`first_round` (the library's search took more than half a
    second for nine players). Later rounds: first its ``dutch-2026`` ruleset, the
    FIDE (Dutch) system with its quality criteria (the transposition that gives
    everybody their colour, and so on). That search refuses some pairings that exist, in the
    late rounds of short fields (in our simulations of 5-16 players, about a
    tournament in two of more than four rounds); then the library's frozen
    ``dutch-till2026-compat`` kernel pairs the round; if it too finds nothing
    under the absolute colour rules, :func:`pair_fallback` pairs it keeping no
    rematch and one bye each, and only preferring colours. Every search is bounded
    in steps (:data:`STEP_BUDGET`), never in seconds, so the same stored results give
    the same pairing on any machine under any load (the salon pairs in a worker thread).
    """
    if len(entrants) == 1:
        return RoundPairing((), entrants[0].id)
    if round_no == 1 and all(not e.colours and not e.opponents for e in entrants):
        return first_round(entrants)
    try:
        return _pair_2026(entrants, round_no, rounds)
    except PairingError:
        pass
    try:
        return _pair_compat(entrants, round_no)
    except PairingError:
        return pair_fallback(entrants)


def first_round(entrants: Sequence[Entrant]) -> RoundPairing:
    """FIDE C.04.2 section C: in pairing-number order the top half meets the bottom
    half, colours alternating from board to board (1 v 21, 22 v 2, 3 v 23... with
    forty players, White first), and the lowest-ranked player has the bye.

    >>> first_round([Entrant(i * 10, i) for i in range(1, 6)])
    RoundPairing(tables=((10, 30), (40, 20)), bye=50)
    """
    order = [e.id for e in sorted(entrants, key=lambda e: e.seed)]
    bye = order.pop() if len(order) % 2 else None
    half = len(order) // 2
    tables = tuple(
        (top, bottom) if board % 2 == 0 else (bottom, top)
        for board, (top, bottom) in enumerate(zip(order[:half], order[half:], strict=True))
    )
    return RoundPairing(tables, bye)


def _pair_2026(entrants: Sequence[Entrant], round_no: int, rounds: int) -> RoundPairing:
    players = tuple(
        P26Player(
            id=e.id,
            tpn=e.seed,
            score=e.score,
            colors=e.colours.upper().replace("-", "u"),
            opponents=tuple(sorted(e.opponents)),
            unplayed=e.colours.count("-"),
            played=len(e.colours) - e.colours.count("-"),
            last_float=_float_tag(e.floats, 1),
            prev_float=_float_tag(e.floats, 2),
            got_pab=e.had_bye,
        )
        for e in entrants
    )
    request = P26Request(
        players=players,
        ruleset=DUTCH_2026,
        round_number=round_no,
        total_rounds=max(rounds, round_no),
        is_last_round=round_no >= rounds,
        max_steps=STEP_BUDGET,
        wall_clock_seconds=None,  # steps only: the same results, the same pairing
    )
    result = pair_2026(request)
    return RoundPairing(tuple((p.white_id, p.black_id) for p in result.pairs), result.bye_id)


def _float_tag(floats: str, back: int) -> str:
    """The float of ``back`` rounds ago ("D", "U" or "")."""
    tag = floats[-back] if len(floats) >= back else ""
    return tag if tag in ("D", "U") else ""


def _pair_compat(entrants: Sequence[Entrant], round_no: int) -> RoundPairing:
    players = tuple(
        CanonicalPlayer(
            id=e.id,
            pairing_no=e.seed,
            rating=0,
            points=e.score,
            color_hist=e.colours,
            opponents=tuple(sorted(e.opponents)),
            received_bye=e.had_bye,
            float_hist=e.floats,
        )
        for e in entrants
    )
    request = CanonicalRequest(
        players=players,
        ruleset=DUTCH_TILL2026_COMPAT,
        round_number=round_no,
        budgets=ExecutionBudgets(max_steps=STEP_BUDGET, wall_clock_seconds=None),
    )
    result = pair_canonical(request)
    tables = tuple(
        (board.white_id, board.black_id)
        for board in result.pairings
        if not board.is_bye and board.black_id is not None
    )
    return RoundPairing(tables, result.bye_player_id)


def pair_fallback(entrants: Sequence[Entrant]) -> RoundPairing:
    """A Swiss pairing keeping only no-rematch and one-bye-each as absolute rules.

    Players in ranking order (score, then seed); the bye goes to the lowest-ranked
    player who has not had one (the next one up if the rest cannot be paired);
    each player in turn meets the nearest-ranked player not yet met, preferring
    one whose colour preference fits; depth-first with backtracking.

    >>> pair_fallback([Entrant(1, 1, 1.0, frozenset({2})), Entrant(2, 2, 1.0, frozenset({1})),
    ...                Entrant(3, 3), Entrant(4, 4)])
    RoundPairing(tables=((1, 3), (2, 4)), bye=None)
    """
    order = sorted(entrants, key=lambda e: (-e.score, e.seed))
    steps = [0]
    candidates: list[Entrant | None] = [None]
    if len(order) % 2:
        candidates = [e for e in reversed(order) if not e.had_bye]
    for bye in candidates:
        rest = [e for e in order if e is not bye]
        pairs = _match(rest, steps)
        if pairs is not None:
            tables = tuple(_colours(a, b) for a, b in pairs)
            return RoundPairing(tables, bye.id if bye is not None else None)
    raise PairingImpossible("every pairing would repeat a game or give a second bye")


def _match(rest: list[Entrant], steps: list[int]) -> list[tuple[Entrant, Entrant]] | None:
    if not rest:
        return []
    steps[0] += 1
    if steps[0] > FALLBACK_BUDGET:
        raise PairingImpossible("no pairing found within the search budget")
    first, others = rest[0], rest[1:]
    choices = [o for o in others if o.id not in first.opponents]
    choices.sort(key=lambda o: (abs(o.score - first.score), _clash(first, o), o.seed))
    for other in choices:
        remaining = [o for o in others if o is not other]
        found = _match(remaining, steps)
        if found is not None:
            return [(first, other), *found]
    return None


def _preference(entrant: Entrant) -> int:
    """+1 wants the first seat (White), -1 the second, 0 either."""
    played = entrant.colours.replace("-", "")
    balance = played.count("w") - played.count("b")
    if balance:
        return -1 if balance > 0 else 1
    if played:
        return -1 if played[-1] == "w" else 1
    return 0


def _clash(a: Entrant, b: Entrant) -> int:
    """1 if both players want the same colour."""
    pa, pb = _preference(a), _preference(b)
    return int(pa != 0 and pa == pb)


def _colours(a: Entrant, b: Entrant) -> tuple[int, int]:
    """Seat order: whoever wants White more gets it; the higher-ranked on a tie."""
    pa, pb = _preference(a), _preference(b)
    return (b.id, a.id) if pb > pa else (a.id, b.id)


def _table_sizes(people: int, size: int) -> list[int]:
    """People per table: as few tables as possible, as even as possible, fullest first.

    >>> _table_sizes(9, 4), _table_sizes(8, 4), _table_sizes(5, 4), _table_sizes(1, 4)
    ([3, 3, 3], [4, 4], [3, 2], [1])
    """
    count = -(-people // size)
    base, extra = divmod(people, count)
    return [base + 1 if i < extra else base for i in range(count)]


def pair_tables(entrants: Sequence[Entrant], size: int, round_no: int = 1) -> RoundPairing:
    """Tables of ``size`` seats within score groups; empty seats are bots (None).

    Within a table the first seat rotates with the round, so that the best-ranked
    player does not always start.
    """
    order = sorted(entrants, key=lambda e: (-e.score, e.seed))
    met = {e.id: e.opponents for e in entrants}
    left = [e.id for e in order]
    tables: list[tuple[int | None, ...]] = []
    for people in _table_sizes(len(order), size):
        table = [left.pop(0)]
        while len(table) < people:
            # the next-ranked player who has met the fewest of those already seated
            best = min(
                range(len(left)),
                key=lambda i: (sum(1 for p in table if p in met[left[i]]), i),
            )
            table.append(left.pop(best))
        seats: list[int | None] = [*table, *([None] * (size - people))]
        shift = (round_no - 1) % size
        tables.append(tuple(seats[shift:] + seats[:shift]))
    return RoundPairing(tuple(tables))


# -- standings -------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One finished table: entrant id -> points scored there (bots are not listed)."""

    points: dict[int, float]


@dataclass
class Standing:
    """One line of the standings."""

    id: int
    seed: int
    score: float = 0.0
    buchholz: float = 0.0
    buchholz_cut1: float = 0.0
    sonneborn_berger: float = 0.0
    games: int = 0
    wins: int = 0
    byes: int = 0
    rank: int = 0
    opponents: list[int] = field(default_factory=list)


def standings(
    seeds: dict[int, int],
    rounds: Iterable[tuple[Sequence[GameResult], int | None]],
) -> list[Standing]:
    """Standings after the given rounds: each round is (its results, its bye).

    Order: score, then Buchholz (sum of the final scores of every opponent met),
    Buchholz cut-1 (the same without the lowest one), Sonneborn-Berger (for each
    opponent, their score times the points made against them), then seed.
    A bye counts its points in the score and adds no opponent.
    At a table of more than two, every other entrant there is an opponent and
    the points made at the table count against each of them.
    """
    lines = {pid: Standing(pid, seed) for pid, seed in seeds.items()}
    played: list[tuple[int, int, float]] = []  # (player, opponent, points made)
    for results, bye in rounds:
        if bye is not None and bye in lines:
            lines[bye].score += BYE_POINTS
            lines[bye].byes += 1
        for result in results:
            for pid, points in result.points.items():
                line = lines.get(pid)
                if line is None:
                    continue
                line.score += points
                line.games += 1
                line.wins += points == WIN
                for other in result.points:
                    if other != pid and other in lines:
                        line.opponents.append(other)
                        played.append((pid, other, points))
    for line in lines.values():
        met = sorted(lines[o].score for o in line.opponents)
        line.buchholz = sum(met)
        line.buchholz_cut1 = sum(met[1:])
    for pid, other, points in played:
        lines[pid].sonneborn_berger += points * lines[other].score
    ordered = sorted(
        lines.values(),
        key=lambda s: (-s.score, -s.buchholz, -s.buchholz_cut1, -s.sonneborn_berger, s.seed),
    )
    previous: tuple[float, ...] | None = None
    for index, line in enumerate(ordered, start=1):
        key = (line.score, line.buchholz, line.buchholz_cut1, line.sonneborn_berger)
        line.rank = ordered[index - 2].rank if key == previous else index
        previous = key
    return ordered


def entrants_after(
    seeds: dict[int, int],
    rounds: Iterable[tuple[Sequence[tuple[int | None, ...]], Sequence[GameResult], int | None]],
) -> list[Entrant]:
    """Each entrant's pairing state after the given rounds: (tables, results, bye) each.

    Colours come from the tables (first seat ``w``, second ``b``; only for tables
    of two); opponents from everybody who sat at the same table; floats from the
    scores before each round (the higher of two unequal scores floated down).
    """
    score = dict.fromkeys(seeds, 0.0)
    opponents: dict[int, set[int]] = {pid: set() for pid in seeds}
    colours = dict.fromkeys(seeds, "")
    floats = dict.fromkeys(seeds, "")
    byes: set[int] = set()
    for tables, results, bye in rounds:
        before = dict(score)
        seen: set[int] = set()
        for table in tables:
            people = [p for p in table if p is not None and p in seeds]
            for pid in people:
                seen.add(pid)
                opponents[pid].update(p for p in people if p != pid)
            if len(table) == 2:
                for seated, letter in zip(table, "wb", strict=True):
                    if seated is not None and seated in seeds:
                        colours[seated] += letter
            for pid in people:
                others = [before[p] for p in people if p != pid]
                tag = "-"
                if others and before[pid] > max(others):
                    tag = "D"
                elif others and before[pid] < min(others):
                    tag = "U"
                floats[pid] += tag
        for result in results:
            for pid, points in result.points.items():
                if pid in score:
                    score[pid] += points
        if bye is not None and bye in seeds:
            score[bye] += BYE_POINTS
            byes.add(bye)
        for pid in seeds:
            if pid not in seen:
                colours[pid] += "-"
                floats[pid] += "D" if pid == bye else "-"
    return [
        Entrant(
            pid,
            seed,
            score[pid],
            frozenset(opponents[pid]),
            colours[pid],
            pid in byes,
            floats[pid],
        )
        for pid, seed in seeds.items()
    ]
