"""MaskablePPO (sb3-contrib) with its network on the GPU, fed by the GPU engine
(``vector_games(..., device="cuda")``), reporting the environment's share of training time.

One policy plays every seat of every game (self-play); a step's reward is the return of the
seat that acted when its game ended, 0 before. The games, their observations, masks and
rewards are computed on the GPU; SB3 collects rollouts as numpy arrays, so each step copies
the observations, masks and outcomes to the host (the network's input goes back to the GPU
as SB3 always sends it). Needs a CUDA GPU and ``pip install 'heist-envs[gpu]'``.

    python -m experiments.examples.sb3_gpu_engine [--game art_robbery] [--envs 4096]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from gymnasium import spaces

import heist_envs
from heist_envs.core.engines import vector_games
from heist_envs.core.errors import DeviceError
from heist_envs.core.sb3_vec import BatchedVecEnv


class GpuSelfPlayVecEnv(BatchedVecEnv):
    """``num_envs`` games on the GPU as an SB3 VecEnv whose one agent plays every seat."""

    def __init__(self, game, num_envs, num_players=None, seed=0):
        self.games = vector_games(game, num_envs, num_players, device="cuda")
        self.seed_value = seed
        self.env_seconds = 0.0
        self.masks = np.zeros((num_envs, game.num_actions), bool)
        self.actors = np.zeros(num_envs, np.int64)
        low, high = game.obs_bounds
        obs_space = spaces.Box(low, high, (game.obs_size,), np.float32)
        super().__init__(num_envs, obs_space, spaces.Discrete(game.num_actions))

    def reset(self):
        start = time.perf_counter()
        actors, obs, masks = self.games.reset(seed=self.seed_value)
        host_obs = self.to_host(actors, obs, masks)
        self.env_seconds += time.perf_counter() - start
        return host_obs

    def to_host(self, actors, obs, masks):
        self.actors = actors.copy_to_host().astype(np.int64)
        self.masks = masks.copy_to_host().astype(bool)
        return obs.copy_to_host().astype(np.float32)

    def step_async(self, actions):
        self.actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def step_wait(self):
        start = time.perf_counter()
        acted = self.actors
        actors, obs, masks, rewards, terminated, truncated = self.games.step(self.actions)
        host_obs = self.to_host(actors, obs, masks)
        rewards = rewards.copy_to_host()[np.arange(self.num_envs), acted]
        dones = terminated.copy_to_host() | truncated.copy_to_host()
        self.env_seconds += time.perf_counter() - start
        return host_obs, rewards, dones, [{} for _ in range(self.num_envs)]

    def action_masks(self):
        return self.masks


ROLLOUT_STEPS = 16


def train(game="art_robbery", num_envs=4096, steps=1 << 20, seed=0, network_device="cuda"):
    """Train, then return (env steps per second inside ``learn``, the env's share of it)."""
    from sb3_contrib import MaskablePPO

    env = GpuSelfPlayVecEnv(heist_envs.get_game(game), num_envs, seed=seed)
    batch_size = min(8192, num_envs * ROLLOUT_STEPS)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=ROLLOUT_STEPS,
        batch_size=batch_size,
        device=network_device,
        seed=seed,
        verbose=0,
    )
    model.learn(num_envs * ROLLOUT_STEPS)  # warm-up: kernel compilation, first rollout
    env.env_seconds = 0.0
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    elapsed = time.perf_counter() - start
    return steps / elapsed, env.env_seconds / elapsed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="art_robbery", choices=heist_envs.game_names())
    parser.add_argument("--envs", type=int, default=4096, help="games stepped together")
    parser.add_argument("--steps", type=int, default=1 << 20, help="env steps to train for")
    args = parser.parse_args(argv)
    try:
        rate, share = train(args.game, args.envs, args.steps)
    except DeviceError as error:
        parser.exit(2, f"error: {error}\n")
    print(f"{args.game}: {rate:,.0f} env steps/s in learn(), env share {share:.1%}")


if __name__ == "__main__":
    main()
