"""The games known by name: the lookup through which core resolves a game's name (an
unpickled env, a replayed record) without importing the floors above it.

:mod:`heist_envs.registry` registers the games heist-envs ships when ``heist_envs`` is
imported, which Python does before any of its modules, this one included.
"""

import importlib

from heist_envs.core.game import Game

#: game name -> the module whose ``GAME`` describes it
GAME_MODULES: dict[str, str] = {}


def register_game(name: str, module: str) -> None:
    """Make the game described by ``module``'s ``GAME`` known as ``name``."""
    GAME_MODULES[name] = module


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


def is_registered(game: Game) -> bool:
    """Whether ``game`` is the game registered under its name (so its name stands for it)."""
    return game.name in GAME_MODULES and get_game(game.name) is game
