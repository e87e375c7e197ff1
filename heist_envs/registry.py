"""The games heist-envs offers, loaded on first use, and their entries in PettingZoo's and
Gymnasium's registries."""

import importlib

import gymnasium
import pettingzoo

from heist_envs.core.game import Game

#: game name -> the module whose ``GAME`` describes it
GAME_MODULES = {
    "art_robbery": "heist_envs.art_robbery",
    "how_to_rob_a_bank": "heist_envs.how_to_rob_a_bank",
    "toits_de_paris": "heist_envs.toits_de_paris",
    "thiefs_market": "heist_envs.thiefs_market",
}


def game_names() -> list[str]:
    return sorted(GAME_MODULES)


def get_game(name: str) -> Game:
    """The :class:`Game` called ``name`` (with or without its ``_v0`` suffix)."""
    if not isinstance(name, str):
        raise ValueError(
            f"game must be a name, got {name!r:.80}; available: {', '.join(game_names())}"
        )
    base = name
    for game in GAME_MODULES:
        if name in (game, f"{game}_v0"):
            base = game
    if base not in GAME_MODULES:
        raise ValueError(f"unknown game {name!r}; available: {', '.join(game_names())}")
    return importlib.import_module(GAME_MODULES[base]).GAME


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
        from pettingzoo.utils.conversions import turn_based_aec_to_parallel

        return turn_based_aec_to_parallel(make(name, **kwargs))

    env.__doc__ = f"A {name} environment (:class:`HeistEnv`); kwargs go to its constructor."
    parallel_env.__doc__ = (
        f"A {name} environment as a PettingZoo ``ParallelEnv`` (through PettingZoo's "
        "``turn_based_aec_to_parallel``: one agent acts per step); kwargs as for ``env``."
    )
    return env, env, parallel_env


def gymnasium_id(name: str) -> str:
    """The Gymnasium id of a game's single-agent env: ``heist/ArtRobbery-v0``."""
    return f"heist/{name.title().replace('_', '')}-v0"


def register_envs():
    """Register every game as ``heist/<game>_v0`` in PettingZoo's AEC registry and its
    single-agent env as :func:`gymnasium_id` in Gymnasium's."""
    for name in GAME_MODULES:
        if hasattr(pettingzoo, "register"):  # PettingZoo 1.27 on; 1.25-1.26 have no registry
            pettingzoo.register("aec", f"heist/{name}_v0", entry_point=f"heist_envs.{name}_v0:env")
        gymnasium.register(
            gymnasium_id(name),
            entry_point="heist_envs.registry:make_single_agent",
            kwargs={"game": name},
        )
