"""MaskablePPO (sb3-contrib) on a game's single-agent env, made from Gymnasium's registry.

The learner takes one seat (drawn per episode) against random opponents; ``action_masks()``
hands MaskablePPO the legal actions. Run: ``python -m experiments.examples.sb3_maskable_ppo``.
"""

import gymnasium
from sb3_contrib import MaskablePPO

import heist_envs  # noqa: F401  (registers heist/ArtRobbery-v0 and the other games)


def main(env_id="heist/ArtRobbery-v0", steps=512, seed=0):
    env = gymnasium.make(env_id, num_players=3)
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, seed=seed, verbose=0)
    model.learn(total_timesteps=steps)
    obs, _ = env.reset(seed=seed)
    terminated = truncated = False
    while not (terminated or truncated):
        masks = env.unwrapped.action_masks()
        action, _ = model.predict(obs, action_masks=masks, deterministic=True)  # a 0-d array
        obs, reward, terminated, truncated, _ = env.step(action)
    return model, reward


if __name__ == "__main__":
    print("final reward of one game:", main()[1])
