"""Every heist game as a Ray RLlib ``MultiAgentEnv``, in RLlib's action-masking convention.

Needs the ``rllib`` extra (``pip install -e ".[rllib]"``).

Observations are ``{"observations": float32 vector, "action_mask": float32 0/1 vector}``,
the keys and dtypes RLlib's ``ActionMaskingTorchRLModule`` expects. Only the acting agent
gets an observation at each step (the game is turn-based); when the game ends every agent
gets its last observation and its terminal reward.

Illegal actions: RLlib's environment check sends one random action without looking at the
mask. Instead of raising, :class:`HeistMultiAgentEnv` ends the episode there as a forfeit:
the offender's side gets -1, every other seat 0 (the game was not played out, so nobody won
it). Masked policies never forfeit.

Policies: the symmetric games share one policy (``"main"``) between every seat; a game whose
sides play different roles (``Game.side_names``) has one per side, named after it and shared
by the side's seats (How to Rob a Bank: ``"bank"``, and ``"robbers"`` for every robber).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import heist_envs
from heist_envs.core.game import Game

#: the policy every seat shares in a symmetric game
SHARED_POLICY = "main"


def seat_policies(game: Game, num_players: int) -> list[str]:
    """The trained policy that plays each seat."""
    if not game.side_names:
        return [SHARED_POLICY] * game.num_seats(num_players)
    return [game.side_names[team] for team in game.teams(num_players)]


def trained_policies(game: Game, num_players: int) -> list[str]:
    """The game's trained policies, each once, in seat order."""
    return list(dict.fromkeys(seat_policies(game, num_players)))


def observing_seat(game: Game, observation) -> int | None:
    """The observer's seat, read from the observation where the game has one policy per
    side (its layout has an ``observer`` one-hot); None in the symmetric games."""
    if not game.side_names:
        return None
    return int(np.argmax(np.asarray(observation)[game.layout["observer"]]))


def observation_space(game: Game) -> gym.spaces.Dict:
    """One agent's observation space: the game's observation (within its finite
    ``obs_bounds``) and mask, as float32."""
    low, high = game.obs_bounds
    return gym.spaces.Dict(
        {
            "observations": gym.spaces.Box(low, high, (game.obs_size,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (game.num_actions,), np.float32),
        }
    )


class HeistMultiAgentEnv(MultiAgentEnv):
    """A heist game for RLlib; ``config`` is ``{"game": name, "num_players": n, **options}``
    (options as for :func:`heist_envs.make`)."""

    def __init__(self, config=None):
        super().__init__()
        config = dict(config or {})
        if "game" not in config:
            raise ValueError(
                f"env config needs 'game', one of: {', '.join(heist_envs.game_names())}"
            )
        self.env = heist_envs.make(
            config.pop("game"), num_players=config.pop("num_players", None), **config
        )
        self.game = self.env.game
        self.agents = self.possible_agents = list(self.env.possible_agents)
        space = observation_space(self.game)
        self.observation_spaces = dict.fromkeys(self.agents, space)
        self.action_spaces = {a: gym.spaces.Discrete(self.game.num_actions) for a in self.agents}
        self._teams = self.game.teams(self.env.num_players)

    def reset(self, *, seed=None, options=None):
        self.env.reset(seed=seed, options=options)
        actor = self.env.agent_selection
        return {actor: self._observe(actor)}, {}

    def step(self, action_dict):
        actor = self.env.agent_selection
        if actor not in action_dict:
            raise ValueError(f"it is {actor}'s turn; got actions for {sorted(action_dict)}")
        action = action_dict[actor]
        if int(action) not in self.env.legal_actions():
            return self._forfeit(actor)
        self.env.step(int(action))
        if not (self.env.terminations[actor] or self.env.truncations[actor]):
            following = self.env.agent_selection
            return (
                {following: self._observe(following)},
                {actor: 0.0},
                _flags(False),
                _flags(False),
                {},
            )
        terminated = self.env.terminations[actor]
        return self._final(self.env.rewards, terminated)

    def _forfeit(self, offender):
        team = self._teams[self.agents.index(offender)]
        rewards = {
            a: -1.0 if t == team else 0.0 for a, t in zip(self.agents, self._teams, strict=True)
        }
        return self._final(rewards, terminated=True)

    def _final(self, rewards, terminated):
        """Every agent's last observation and reward, and the episode's end flags."""
        observations = {a: self._observe(a) for a in self.agents}
        done = {a: True for a in self.agents} | {"__all__": True}
        not_done = {a: False for a in self.agents} | {"__all__": False}
        rewards = {a: float(rewards[a]) for a in self.agents}
        if terminated:
            return observations, rewards, done, not_done, {}
        return observations, rewards, not_done, done, {}

    def _observe(self, agent):
        observation = self.env.observe(agent)
        return {
            "observations": observation["observation"].astype(np.float32),
            "action_mask": observation["action_mask"].astype(np.float32),
        }


def _flags(value) -> dict:
    return {"__all__": value}
