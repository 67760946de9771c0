"""The PettingZoo environments: PettingZoo's own API test, seeding, replay, bots at the table."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from zanzibar.engine.match import Match
from zanzibar.research import GAMES, bot_policy, env, random_policy

SETTINGS = {
    "421": {"players": 4},
    "zilch": {"players": 3},
    "zanzibar-s": {"players": 2, "max_steps": 300},
    "chess": {"players": 2, "max_steps": 300},
}


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test(game: str) -> None:
    """PettingZoo's own checks: spaces, masks, rewards, agent removal, seeded resets."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice (e.g. sparse masks) is not a failure
        api_test(env(game, **SETTINGS[game]), num_cycles=200)


def _play(
    game: str, seed: int, policies: dict[str, object] | None = None
) -> tuple[list[int], dict[str, float]]:
    environment = env(game, **SETTINGS[game])
    environment.reset(seed=seed)
    chooser = random_policy(seed)
    actions = []
    totals = {agent: 0.0 for agent in environment.possible_agents}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        policy = (policies or {}).get(agent, chooser)
        action = policy(observation, agent)  # type: ignore[operator]
        assert observation["action_mask"][action] == 1
        actions.append(action)
        environment.step(action)
    return actions, totals


def test_dice_come_from_the_seed() -> None:
    """Same seed, same dice and same game; another seed, another game."""
    first, totals = _play("421", 5)
    again, _ = _play("421", 5)
    other, _ = _play("421", 6)
    assert first == again and first != other
    # One loser, everybody else won: the rewards say so.
    assert sorted(totals.values()) == [-1.0, 1.0, 1.0, 1.0]


def test_an_episode_replays_through_the_salon_record() -> None:
    environment = env("zilch", players=2)
    environment.reset(seed=3)
    chooser = random_policy(3)
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        environment.step(None if terminated or truncated else chooser(observation, agent))
    assert environment.match is not None and environment.match.is_over
    replayed = Match.from_record(environment.rules, environment.match.record())
    assert replayed.state == environment.match.state


def test_illegal_index_is_refused_and_changes_nothing() -> None:
    environment = env("421", players=2)
    environment.reset(seed=1)
    assert environment.match is not None
    before = environment.match.state
    mask = environment.observe(environment.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        environment.step(illegal)
    assert environment.match.state == before


@pytest.mark.parametrize("game", ["421", "zilch"])
def test_our_bot_beats_random_play(game: str) -> None:
    """The default bot, seated through the environment, wins more than random play."""
    won = 0
    games = 30
    for seed in range(games):
        environment = env(game, players=2)
        policies = {"player_0": bot_policy(environment, seed=seed)}
        environment.reset(seed=seed)
        chooser = random_policy(seed)
        totals = {agent: 0.0 for agent in environment.possible_agents}
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            totals[agent] += reward
            if terminated or truncated:
                environment.step(None)
                continue
            policy = policies.get(agent, chooser)
            environment.step(policy(observation, agent))
        won += totals["player_0"] > 0
    assert won >= games * 0.7


def test_chess_observation_shows_the_board() -> None:
    environment = env("chess")
    environment.reset(seed=0)
    observation = environment.observe("player_0")["observation"]
    assert observation.shape == (8, 8, 2 * 6 + 2)
    assert observation[:, :, :12].sum() == 32  # 32 pieces on their planes
    assert observation[0, 4, 0] == 1.0  # the White king (first piece kind) on e1
    mask = environment.observe("player_0")["action_mask"]
    assert mask.sum() == 20  # the 20 first moves


def test_unknown_game_and_bad_player_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        env("go")
    with pytest.raises(ValueError, match="players"):
        env("chess", players=3)


@pytest.mark.parametrize("game", GAMES)
def test_render_says_whose_turn_it_is(game: str) -> None:
    environment = env(game, render_mode="ansi")
    environment.reset(seed=1)
    text = environment.render()
    assert isinstance(text, str) and environment.agent_selection in text
    assert env(game).render() is None  # no render mode, nothing drawn


def test_truncation_ends_a_long_game_without_rewards() -> None:
    environment = env("chess", max_steps=6)
    environment.reset(seed=2)
    chooser = random_policy(2)
    steps = 0
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            environment.step(None)
            continue
        environment.step(chooser(observation, agent))
        steps += 1
    assert steps == 6 and environment.agents == []
