"""heist-envs: PettingZoo environments for four heist-themed tabletop games.

>>> import heist_envs
>>> env = heist_envs.make("art_robbery", num_players=3)
>>> from heist_envs import art_robbery_v0  # or: import heist_envs.art_robbery_v0
>>> env = art_robbery_v0.env(num_players=3)
>>> parallel = heist_envs.art_robbery_v0.parallel_env(num_players=3)  # a ParallelEnv
>>> import pettingzoo
>>> env = pettingzoo.make("aec", "heist/art_robbery_v0", num_players=3)

Importing heist_envs registers every game in PettingZoo's registry and its single-agent env
in Gymnasium's (``gymnasium.make("heist/ArtRobbery-v0", num_players=3)``).
"""

import importlib

from heist_envs.core.threads import apply_defaults
from heist_envs.registry import GAME_MODULES, game_names, get_game, make, register_envs

apply_defaults()  # before the first parallel loop loads OpenMP: see heist_envs.core.threads

__all__ = ["game_names", "get_game", "make"] + [f"{name}_v0" for name in GAME_MODULES]

register_envs()


def __getattr__(name):
    """``heist_envs.<game>_v0``, imported on first use (PettingZoo's tutorials reach the
    games this way), so that importing the package loads no game."""
    if name.endswith("_v0") and name.removesuffix("_v0") in GAME_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
