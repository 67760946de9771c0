"""Example for researchers: random agents and our bots at one table, through PettingZoo.

Trains nothing. For each game it plays a few seeded episodes of the
``zanzibar.research`` environment, with our default bot in one seat and
uniformly random legal play in the others (then the bot alone against itself
for the dice games), and prints each seat's results: wins, losses, draws or
truncations, and the mean reward. It shows the whole loop a learning agent
would use: ``agent_iter``, ``last`` (observation with its action mask),
``step``, and ``step(None)`` for a finished agent.

Run: ``.venv/bin/python bench/research_example.py [--games N] [--seed S]``
(needs the ``research`` extra). Chess games are capped at ``--max-plies``
plies (random play wanders); our chess bot plays its ``easy`` level here.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from zanzibar.research import bot_policy, env, random_policy

Policy = Callable[[dict[str, Any], str], int]


def play(
    game: str,
    players: int,
    seats: dict[int, str],
    games: int,
    seed: int,
    max_plies: int,
) -> dict[str, dict[str, float]]:
    """Play ``games`` episodes; ``seats`` names a bot level per seat (others play randomly)."""
    limit = max_plies if game in ("chess", "zanzibar-s") else None
    environment = env(game, players=players, max_steps=limit)
    tally = {
        agent: {"won": 0.0, "lost": 0.0, "other": 0.0, "reward": 0.0}
        for agent in environment.possible_agents
    }
    policies: dict[str, Policy] = {}
    for seat, level in seats.items():
        policies[f"player_{seat}"] = bot_policy(environment, level, seed=seed + seat)
    chooser = random_policy(seed)
    for episode in range(games):
        environment.reset(seed=seed + episode)
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                row = tally[agent]
                row["reward"] += reward
                row["won" if reward > 0 else "lost" if reward < 0 else "other"] += 1
                environment.step(None)
                continue
            environment.step(policies.get(agent, chooser)(observation, agent))
    return tally


def report(title: str, tally: dict[str, dict[str, float]], games: int, seconds: float) -> None:
    """One line per seat."""
    print(f"{title}  ({games} games, {seconds:.1f} s)")
    for agent, row in tally.items():
        print(
            f"  {agent:<9} won {row['won']:>3.0f}  lost {row['lost']:>3.0f}  "
            f"draw/cut {row['other']:>3.0f}  mean reward {row['reward'] / games:+.2f}"
        )


def main() -> None:
    """Every game, bot against random play."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=200)
    args = parser.parse_args()
    tables: list[tuple[str, str, int, dict[int, str], int]] = [
        ("421: expert bot (player_0) vs 3 random", "421", 4, {0: "expert"}, args.games),
        ("421: 4 expert bots", "421", 4, {s: "expert" for s in range(4)}, args.games),
        ("Zilch: expected-score bot (player_0) vs random", "zilch", 2, {0: "expected"}, args.games),
        ("Zilch: optimal bot (player_0) vs expected-score bot", "zilch", 2,
         {0: "optimal", 1: "expected"}, args.games),
        ("Chess: easy bot (player_0, White) vs random", "chess", 2, {0: "easy"}, 2),
        ("Zanzibar-S: easy bot (player_1, Black) vs random", "zanzibar-s", 2, {1: "easy"}, 2),
    ]  # fmt: skip
    for title, game, players, seats, games in tables:
        started = time.perf_counter()
        tally = play(game, players, seats, games, args.seed, args.max_plies)
        report(title, tally, games, time.perf_counter() - started)


if __name__ == "__main__":
    main()
