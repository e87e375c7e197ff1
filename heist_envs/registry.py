"""The games heist-envs offers, loaded on first use."""

import importlib

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
