"""SuperSuit's vector env and SB3's (unmasked) PPO on a game with
``illegal_action="terminate"``: an illegal action ends the game with -1 for the offender, so a
learner that ignores the mask still trains, as on PettingZoo's classic games.

Run: ``python -m experiments.examples.supersuit_sb3_ppo``.
"""

import supersuit as ss
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from stable_baselines3 import PPO
from stable_baselines3.common.utils import set_random_seed

import heist_envs


def main(game="art_robbery", num_players=3, steps=512, seed=0):
    env = heist_envs.make(game, num_players=num_players, illegal_action="terminate")
    vec = ss.pettingzoo_env_to_vec_env_v1(turn_based_aec_to_parallel(env))
    vec = ss.concat_vec_envs_v1(vec, 1, num_cpus=0, base_class="stable_baselines3")
    set_random_seed(seed)  # not PPO(seed=...): SuperSuit's ConcatVecEnv has no seed() for SB3
    model = PPO("MultiInputPolicy", vec, n_steps=128, batch_size=64, verbose=0)
    model.learn(total_timesteps=steps)
    return model


if __name__ == "__main__":
    main()
    print("trained")
