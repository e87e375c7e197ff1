"""SuperSuit's vector env and SB3's (unmasked) PPO on a game with
``illegal_action="terminate"``: an illegal action ends the game with -1 for the offender, so a
learner that ignores the mask still runs, as on PettingZoo's classic games.

What this route is for: it shows the SuperSuit plumbing (PettingZoo parallel env -> SuperSuit
vector env -> SB3) working on these games. It does not learn to play them: an unmasked
learner spends its games on illegal moves (it forfeited about every game after 4,096 steps).
To learn, use a masked learner (``sb3_maskable_ppo.py``, ``pettingzoo_sb3_action_mask.py``).

Seeding: SuperSuit's ``ConcatVecEnv`` has no ``seed()`` for SB3 and PPO's first reset passes
no seed, so the example seeds the games with ``vec.venv.reset(seed=...)`` before training
(PPO's unseeded reset then carries on from that seed) and the networks with
``set_random_seed``: two runs with the same seed train the same weights.

Run: ``python -m experiments.examples.supersuit_sb3_ppo``.
"""

import supersuit as ss
from stable_baselines3 import PPO
from stable_baselines3.common.utils import set_random_seed

import heist_envs


def main(game="art_robbery", num_players=3, steps=512, seed=0):
    module = getattr(heist_envs, f"{game}_v0")  # heist_envs.art_robbery_v0 by default
    env = module.parallel_env(num_players=num_players, illegal_action="terminate")
    vec = ss.pettingzoo_env_to_vec_env_v1(env)
    vec = ss.concat_vec_envs_v1(vec, 1, num_cpus=0, base_class="stable_baselines3")
    vec.venv.reset(seed=seed)  # seeds the games; PPO's own first reset is unseeded
    set_random_seed(seed)  # not PPO(seed=...): SuperSuit's ConcatVecEnv has no seed() for SB3
    model = PPO("MultiInputPolicy", vec, n_steps=128, batch_size=64, verbose=0)
    model.learn(total_timesteps=steps)
    return model


if __name__ == "__main__":
    main()
    print("trained")
