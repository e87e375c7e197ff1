"""Agents by name, for the arena, the CLI and notebooks."""

import importlib

#: name -> (module, factory); each factory takes (game_name, seed=None, **kwargs)
AGENT_FACTORIES = {
    "random": ("agents.base", "make_random"),
    "heuristic": ("agents.heuristic", "make_heuristic"),
    "ismcts": ("agents.ismcts", "make_ismcts"),
    "ppo": ("agents.ppo", "make_ppo"),
    "rllib": ("agents.rllib", "make_rllib"),
}


def agent_names() -> list[str]:
    return sorted(AGENT_FACTORIES)


def make_agent(name: str, game_name: str, seed=None, **kwargs):
    """An agent called ``name`` for ``game_name``; kwargs go to its constructor."""
    if name not in AGENT_FACTORIES:
        raise ValueError(f"unknown agent {name!r}; available: {', '.join(agent_names())}")
    module, factory = AGENT_FACTORIES[name]
    return getattr(importlib.import_module(module), factory)(game_name, seed=seed, **kwargs)
