"""Art Robbery as a PettingZoo AEC environment (``env(num_players=...)``)."""

from heist_envs.registry import env_functions

env, raw_env = env_functions("art_robbery")
