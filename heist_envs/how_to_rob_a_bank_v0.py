"""How to Rob a Bank as a PettingZoo AEC environment (``env(num_players=...)``)."""

from heist_envs.registry import env_functions

env, raw_env = env_functions("how_to_rob_a_bank")
