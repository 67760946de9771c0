"""Per-player statistics: games played, won, lost and drawn, per game.

Counted from the stored results of finished games (``game_players.result``),
so they are always consistent with the saved games; abandoned games do not count.
"""

from __future__ import annotations

from collections.abc import Iterable


def stats_from_rows(rows: Iterable[tuple[str, str | None]]) -> dict[str, dict[str, int]]:
    """Totals per game from ``(game, result)`` pairs.

    A result is ``won``, ``lost``, ``draw`` or ``none`` (the game had other
    winners and losers, as in a many-player 421 where only one player loses).

    >>> stats_from_rows([("421", "won"), ("421", "lost"), ("zilch", "none")])
    {'421': {'played': 2, 'won': 1, 'lost': 1, 'draw': 0}, 'zilch': {'played': 1, 'won': 0, 'lost': 0, 'draw': 0}}
    """
    out: dict[str, dict[str, int]] = {}
    for game, result in rows:
        totals = out.setdefault(game, {"played": 0, "won": 0, "lost": 0, "draw": 0})
        totals["played"] += 1
        if result in ("won", "lost", "draw"):
            totals[result] += 1
    return out
