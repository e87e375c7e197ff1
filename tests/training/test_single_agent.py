"""One learning seat against opponents, on the batched engine."""

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

import heist_envs  # noqa: E402
from heist_envs.core.errors import IllegalActionError  # noqa: E402
from heist_envs.core.single_agent import (  # noqa: E402
    AgentOpponent,
    RandomOpponent,
    SelfPlayVecEnv,
    SingleAgentEnv,
)


def play_random(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    obs = env.reset()
    episodes = []
    for _ in range(steps):
        masks = env.action_masks()
        assert masks.any(axis=1).all(), "a learner decision with no legal action"
        assert obs.shape == (env.num_envs, env.game.obs_size)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        episodes.extend(rewards[dones].tolist())
        assert (rewards[~dones] == 0).all()
    return episodes


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_learner_acts_only_on_its_turns_and_gets_terminal_rewards(name):
    game = heist_envs.get_game(name)
    env = SelfPlayVecEnv(game, num_envs=4, seed=1)
    episodes = play_random(env, 400 if name != "thiefs_market" else 1200)
    assert episodes, "no episode finished"
    assert set(episodes) <= {-1.0, 0.0, 1.0} | {1 / k for k in range(1, 6)}
    learner_team = env.team_of_seat[env.learner_seat]
    assert (env.team_of_seat[env.games.actors] == learner_team).all()


def test_team_play_gives_the_learner_every_seat_of_its_side():
    game = heist_envs.get_game("how_to_rob_a_bank")
    env = SelfPlayVecEnv(game, num_envs=8, seed=3)
    env.reset()
    robbers = env.team_of_seat[env.learner_seat] == 1
    assert robbers.any()
    env.team_play = False
    env.reset()
    assert (env.games.actors == env.learner_seat).all()


class IllegalAgent:
    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask == 0)[0])


def test_an_opponent_returning_an_illegal_action_is_named():
    game = heist_envs.get_game("art_robbery")
    env = SelfPlayVecEnv(game, num_envs=2, opponents=[AgentOpponent(IllegalAgent())], seed=0)
    with pytest.raises(IllegalActionError, match="an opponent returned an illegal action.*game"):
        play_random(env, 20)


def test_opponent_pool_can_be_swapped_between_episodes():
    game = heist_envs.get_game("art_robbery")
    env = SelfPlayVecEnv(game, num_envs=2, seed=0)
    play_random(env, 50)
    env.set_opponents([RandomOpponent(5), RandomOpponent(6)])
    assert set(np.unique(env.opponent_of)) <= {0, 1}
    play_random(env, 50)


def test_gymnasium_env_steps_with_masks_and_is_reproducible():
    game = heist_envs.get_game("art_robbery")

    def run(seed):
        env = SingleAgentEnv(game, num_players=3)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace = [obs.tobytes()]
        for _ in range(300):
            action = rng.choice(np.flatnonzero(env.action_masks()))
            obs, reward, terminated, truncated, _ = env.step(action)
            trace.append((obs.tobytes(), reward, terminated, truncated))
            if terminated or truncated:
                obs, info = env.reset()
        return trace

    first = run(4)
    assert first == run(4)
    assert any(t[2] for t in first[1:]), "no game terminated"
