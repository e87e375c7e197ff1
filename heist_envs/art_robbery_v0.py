"""Art Robbery as a PettingZoo AEC environment (``env(num_players=...)``),
and as a parallel one (``parallel_env(...)``)."""

from heist_envs.registry import env_functions

env, raw_env, parallel_env = env_functions("art_robbery")
