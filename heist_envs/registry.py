"""The games heist-envs offers, loaded on first use, and their entries in PettingZoo's and
Gymnasium's registries."""

import gymnasium
import pettingzoo

# the lookup of games by name lives in core; GAME_MODULES and game_names are used from here too
from heist_envs.core.catalog import GAME_MODULES, game_names, get_game, register_game  # noqa: F401

#: the games heist-envs ships, each described by the package ``heist_envs.<name>``
BUILT_IN_GAMES = ("art_robbery", "how_to_rob_a_bank", "toits_de_paris", "thiefs_market")
for _name in BUILT_IN_GAMES:
    register_game(_name, f"heist_envs.{_name}")


def make(name: str, **kwargs):
    """A PettingZoo AEC environment of game ``name``; kwargs go to :class:`HeistEnv`."""
    from heist_envs.core.aec import HeistEnv

    return HeistEnv(get_game(name), **kwargs)


def make_single_agent(game: str, **kwargs):
    """A Gymnasium env in which one seat of game ``game`` learns (:class:`SingleAgentEnv`)."""
    from heist_envs.core.single_agent import SingleAgentEnv

    return SingleAgentEnv(get_game(game), **kwargs)


def env_functions(name: str):
    """``env``, ``raw_env`` and ``parallel_env`` of a ``heist_envs.<game>_v0`` module,
    PettingZoo style."""

    def env(**kwargs):
        return make(name, **kwargs)

    def parallel_env(**kwargs):
        from heist_envs.core.aec import HeistParallelEnv

        return HeistParallelEnv(make(name, **kwargs))

    env.__doc__ = f"A {name} environment (:class:`HeistEnv`); kwargs go to its constructor."
    parallel_env.__doc__ = (
        f"A {name} environment as a PettingZoo ``ParallelEnv`` (:class:`HeistParallelEnv`: "
        "one agent acts per step); kwargs as for ``env``."
    )
    return env, env, parallel_env


def gymnasium_id(name: str) -> str:
    """The Gymnasium id of a game's single-agent env: ``heist/ArtRobbery-v0``."""
    return f"heist/{name.title().replace('_', '')}-v0"


def register_envs():
    """Register every game as ``heist/<game>_v0`` in PettingZoo's AEC and parallel registries
    and its single-agent env as :func:`gymnasium_id` in Gymnasium's."""
    for name in GAME_MODULES:
        if hasattr(pettingzoo, "register"):  # PettingZoo 1.27 on; 1.25-1.26 have no registry
            for kind, function in (("aec", "env"), ("parallel", "parallel_env")):
                entry_point = f"heist_envs.{name}_v0:{function}"
                pettingzoo.register(kind, f"heist/{name}_v0", entry_point=entry_point)
        gymnasium.register(
            gymnasium_id(name),
            entry_point="heist_envs.registry:make_single_agent",
            kwargs={"game": name},
        )
