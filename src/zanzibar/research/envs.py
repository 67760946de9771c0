"""PettingZoo AEC environments for 421, Zilch, Zanzibar-S and orthodox chess.

Each environment drives a real :class:`~zanzibar.engine.match.Match`: the same
rules, the same refusals, the same seeded dice and the same action log as a
game in the salon, so any episode can be saved (``env.match.record()``) and
replayed exactly. Chance is part of the environment: whenever the rules wait
for dice, the Match throws them from its generator, seeded by ``reset(seed=)``,
before the next agent is asked to act. An agent only ever sees decision points.

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Observations are
dicts ``{"observation": float32 array, "action_mask": int8 array}``; the mask
marks the indices of :meth:`GameRules.legal_actions` (see
:mod:`~zanzibar.research.codecs` for the numbering). An illegal index raises
``ValueError`` and changes nothing. Rewards come at the end of a game: +1 for
each winner, -1 for each loser, 0 for everyone in a draw or a truncated game.
``max_steps`` (agent actions) truncates a game that runs too long (random play
in chess may wander for thousands of plies).

``bot_policy`` turns any of our bots into a policy over the same indices, so
learned agents, random agents and our bots can sit at one table.

>>> game = env("421", players=3)
>>> game.reset(seed=7)
>>> game.agent_selection, int(game.observe("player_0")["action_mask"].sum())
('player_0', 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from zanzibar.engine.errors import ZanzibarError
from zanzibar.engine.match import Match
from zanzibar.engine.rules import GameRules
from zanzibar.games import get_rules
from zanzibar.research.codecs import ChessCodec, Codec, Dice421Codec, ZilchCodec

#: The games offered, by the registry's names.
GAMES: tuple[str, ...] = ("421", "zilch", "zanzibar-s", "chess")

Policy = Callable[[dict[str, Any], str], int]


def _codec(name: str, rules: GameRules[Any, Any], seats: int, options: dict[str, Any]) -> Codec:
    if name == "421":
        return Dice421Codec(seats, options)
    if name == "zilch":
        return ZilchCodec(seats, options)
    from zanzibar.games.chess.rules import ChessRules

    assert isinstance(rules, ChessRules)
    return ChessCodec(rules)


class ZanzibarEnv(AECEnv[str, dict[str, Any], int]):
    """One of our games as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"name": "zanzibar_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        preset: str | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        name = game.strip().lower()
        if name not in GAMES:
            raise ValueError(f"unknown game {game!r} (games: {', '.join(GAMES)})")
        self.game = name
        self.rules: GameRules[Any, Any] = get_rules(name)
        self.game_options = self.rules.options.resolve(preset, dict(options or {}))
        low, high = self.rules.seat_range(self.game_options)
        if not low <= players <= high:
            raise ValueError(f"{name} is played by {low} to {high} players, not {players}")
        if render_mode not in (None, "ansi"):
            raise ValueError("the only render mode is 'ansi'")
        self.render_mode = render_mode
        self.players = players
        self.max_steps = max_steps
        self.codec = _codec(name, self.rules, players, self.game_options)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self.metadata = {**self.metadata, "name": f"zanzibar_{name.replace('-', '_')}_v0"}
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self.codec.shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.codec.size)
        self._seeds = random.Random()
        self._legal: dict[int, Any] = {}
        self._steps = 0
        self.match: Match[Any, Any] | None = None

    # -- spaces ----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(size)``, the same for every agent."""
        return self._action_space

    # -- the episode -----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes its dice (``None``: a seed from the environment's own)."""
        if seed is not None:
            self._seeds.seed(seed)
        self.match = Match(
            self.rules, self.players, self.game_options, seed=self._seeds.getrandbits(63)
        )
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._steps = 0
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat to act and refresh its legal actions."""
        assert self.match is not None
        seat = self.match.to_act
        if seat is None:  # only when the game is over, and then nobody acts
            return
        self.agent_selection = self.possible_agents[seat]
        state = self.match.state
        legal: dict[int, Any] = {}
        for action in self.rules.legal_actions(state):
            index = self.codec.encode(state, action)
            if index is not None:
                legal[index] = action
        self._legal = legal

    def observe(self, agent: str) -> dict[str, Any]:
        """The observation of ``agent``, with the mask of its legal actions (zeros if not its turn)."""
        assert self.match is not None
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.codec.size, dtype=np.int8)
        if not self.match.is_over and self.match.to_act == seat:
            mask[list(self._legal)] = 1
        return {"observation": self.codec.observe(self.match.state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (``None`` for an agent whose game has ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.match is not None
        if action is None:
            raise ValueError(f"{agent} is still playing: None is not an action")
        index = int(action)
        chosen = self._legal.get(index)
        if chosen is None:
            raise ValueError(f"action {index} is not legal for {agent} now")
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self.match.act(seat, chosen)
        self._steps += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self.match.is_over:
            outcome = self.rules.outcome(self.match.state)
            for winner in outcome.winners:
                self.rewards[self.possible_agents[winner]] = 1.0
            for loser in outcome.losers:
                self.rewards[self.possible_agents[loser]] = -1.0
            self.terminations = {a: True for a in self.agents}
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The state in words, as the salon describes it (mode ``ansi``)."""
        if self.render_mode is None or self.match is None:
            return None
        return self.rules.describe(
            self.match.state, "status", "en", None, [a for a in self.possible_agents]
        )

    def close(self) -> None:
        """Nothing to release."""


def env(game: str, players: int = 2, **kwargs: Any) -> ZanzibarEnv:
    """The environment of ``game`` ("421", "zilch", "zanzibar-s" or "chess")."""
    return ZanzibarEnv(game, players, **kwargs)


def random_policy(seed: int = 0) -> Policy:
    """A policy drawing uniformly among the legal actions (seeded)."""
    rng = np.random.default_rng(seed)

    def choose(observation: dict[str, Any], agent: str) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        return int(rng.choice(legal))

    return choose


def bot_policy(environment: ZanzibarEnv, level: str | None = None, seed: int = 0) -> Policy:
    """One of our bots as a policy over the environment's action indices.

    The bot reads the environment's game state (it plays as in the salon);
    ``level`` defaults to the game's default level.
    """
    rules = environment.rules
    chosen = level or rules.bot_levels()[0]
    bot = rules.make_bot(chosen, environment.game_options, seed=seed)

    def choose(observation: dict[str, Any], agent: str) -> int:
        match = environment.match
        if match is None:
            raise ZanzibarError("reset the environment first")
        action = bot.choose(match.state)
        index = environment.codec.encode(match.state, action)
        if index is None:
            raise ZanzibarError(f"the {chosen} bot chose {action!r}, outside the action space")
        return index

    return choose
