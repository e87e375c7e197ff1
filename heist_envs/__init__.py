"""heist-envs: PettingZoo environments for four heist-themed tabletop games.

>>> import heist_envs
>>> env = heist_envs.make("art_robbery", num_players=3)
>>> from heist_envs import art_robbery_v0
>>> env = art_robbery_v0.env(num_players=3)
"""

from types import SimpleNamespace

from heist_envs.core.threads import apply_defaults
from heist_envs.registry import GAME_MODULES, game_names, get_game, make

apply_defaults()  # before the first parallel loop loads OpenMP: see heist_envs.core.threads

__all__ = ["game_names", "get_game", "make"] + [f"{name}_v0" for name in GAME_MODULES]


def __getattr__(attr):
    """``from heist_envs import art_robbery_v0``: the PettingZoo-style versioned entry point."""
    name, _, version = attr.rpartition("_v")
    if name in GAME_MODULES and version == "0":

        def env(**kwargs):
            return make(name, **kwargs)

        env.__doc__ = get_game(name).description
        return SimpleNamespace(env=env, raw_env=env, game=get_game(name))
    raise AttributeError(f"module 'heist_envs' has no attribute {attr!r}")
