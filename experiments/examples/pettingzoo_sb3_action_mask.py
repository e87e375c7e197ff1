"""PettingZoo's own SB3 action-mask tutorial (tutorials/SB3/connect_four/
sb3_connect_four_action_mask.py in the PettingZoo repository), run on a heist game.

The wrapper and ``mask_fn`` below are the tutorial's: one MaskablePPO model plays every seat,
and the game module takes connect_four_v3's place (``env_fn.env(**kwargs)``). One change: the
wrapper also derives from ``gymnasium.Env``, which Gymnasium 1's ``ActionMasker`` requires (the
tutorial as published stops on Gymnasium > 0.29.1 for that reason).
Run: ``python -m experiments.examples.pettingzoo_sb3_action_mask``.
"""

import gymnasium
import pettingzoo.utils
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from sb3_contrib.common.wrappers import ActionMasker

from heist_envs import art_robbery_v0


class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
    """Wrapper to allow PettingZoo environments to be used with SB3 illegal action masking."""

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        # Strip the action mask out from the observation space
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        # Return initial observation, info (PettingZoo AEC envs do not by default)
        return self.observe(self.agent_selection), {}

    def step(self, action):
        current_agent = self.agent_selection
        super().step(action)
        next_agent = self.agent_selection
        return (
            self.observe(next_agent),
            self._cumulative_rewards[current_agent],
            self.terminations[current_agent],
            self.truncations[current_agent],
            self.infos[current_agent],
        )

    def observe(self, agent):
        """Return only raw observation, removing action mask."""
        return super().observe(agent)["observation"]

    def action_mask(self):
        """Separate function used in order to access the action mask."""
        return super().observe(self.agent_selection)["action_mask"]


def mask_fn(env):
    return env.action_mask()


def train_action_mask(env_fn, steps=10_000, seed=0, **env_kwargs):
    """The tutorial's training function (without saving the model)."""
    env = env_fn.env(**env_kwargs)
    env = SB3ActionMaskWrapper(env)
    env.reset(seed=seed)  # Must call reset() in order to re-define the spaces
    env = ActionMasker(env, mask_fn)  # Wrap to enable masking (SB3 function)
    model = MaskablePPO(MaskableActorCriticPolicy, env, n_steps=256, batch_size=64, verbose=0)
    model.set_random_seed(seed)
    model.learn(total_timesteps=steps)
    env.close()
    return model


def main(env_fn=art_robbery_v0, steps=512, **env_kwargs):
    return train_action_mask(env_fn, steps=steps, seed=0, **env_kwargs)


if __name__ == "__main__":
    main(num_players=3)
    print("trained")
