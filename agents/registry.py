"""Agents by name, for the arena, the CLI and notebooks."""

import importlib
import inspect

#: name -> (module in this package, factory); each factory takes (game_name, seed=None, ...)
AGENT_FACTORIES = {
    "random": (".base", "make_random"),
    "heuristic": (".heuristic", "make_heuristic"),
    "ismcts": (".ismcts", "make_ismcts"),
    "ppo": (".ppo", "make_ppo"),
    "rllib": (".rllib", "make_rllib"),
}
#: agents that need an optional extra of the package
AGENT_EXTRAS = {"ppo": "train", "rllib": "rllib"}


#: agents that cannot be made from their name alone: the parameter each one needs
AGENT_REQUIRES = {"rllib": "checkpoint"}


def agent_names() -> list[str]:
    return sorted(AGENT_FACTORIES)


def ready_agent_names() -> list[str]:
    """The agents made from their name alone (no checkpoint path or other parameter to give):
    what a menu that takes no parameters, like the web table's, can offer."""
    return [name for name in agent_names() if name not in AGENT_REQUIRES]


def make_agent(name: str, game_name: str, seed=None, num_players=None, **kwargs):
    """An agent called ``name`` for ``game_name``; kwargs go to its constructor.

    ``num_players`` is the table's player count, passed to agents that depend on it (a
    trained policy refuses a count it was not trained for).
    """
    if name not in AGENT_FACTORIES:
        raise ValueError(f"unknown agent {name!r}; available: {', '.join(agent_names())}")
    module, factory_name = AGENT_FACTORIES[name]
    try:
        factory = getattr(importlib.import_module(module, __package__), factory_name)
    except ModuleNotFoundError as missing:
        extra = AGENT_EXTRAS.get(name)
        if extra is None:
            raise
        raise ValueError(
            f"agent {name!r} needs the {extra!r} extra ({missing.name} is not installed): "
            f'pip install -e ".[{extra}]"'
        ) from None
    parameters = inspect.signature(factory).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    allowed = [p for p in parameters if p not in ("game_name", "seed", "num_players")]
    unknown = sorted(set(kwargs) - set(allowed)) if not takes_any else []
    if unknown:
        raise ValueError(
            f"agent {name!r} has no parameter {', '.join(unknown)}; "
            f"its parameters: {', '.join(allowed) or 'none'}"
        )
    if "num_players" in parameters:
        kwargs["num_players"] = num_players
    return factory(game_name, seed=seed, **kwargs)
