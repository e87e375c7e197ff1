"""Agents by spec, for the arena, the CLI, the web table and notebooks.

An agent spec names an agent and, after a colon, its parameters (``key=value,...``):

- ``NAME[:key=value,...]``: a built-in agent (``random``, ``heuristic``, ``ismcts``, ...) or one
  that an installed package registers in the entry-point group ``heist_envs.agents``;
- ``package.module:Name[:key=value,...]``: a class or factory in an importable module;
- ``path/to/file.py:Name[:key=value,...]``: a class or factory in a Python file.

A class or factory is called as ``Name(game_name, seed=..., **parameters)`` (and given
``num_players=`` if it takes it). Loading a module or a file runs its code, as importing does.
"""

import ast
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import re
import sys
from pathlib import Path

#: name -> (module in this package, factory); each factory takes (game_name, seed=None, ...)
AGENT_FACTORIES = {
    "random": (".base", "make_random"),
    "heuristic": (".profiles", "make_heuristic"),
    "ismcts": (".ismcts", "make_ismcts"),
    "ppo": (".ppo", "make_ppo"),
    "rllib": (".rllib", "make_rllib"),
    "llm": (".llm", "LLMAgent"),
}
#: agents that need an optional extra of the package
AGENT_EXTRAS = {"ppo": "train", "rllib": "rllib", "llm": "llm"}


#: agents that cannot be made from their name alone: the parameter each one needs
AGENT_REQUIRES = {"rllib": "checkpoint", "llm": "model"}

#: the entry-point group through which installed packages add agents
ENTRY_POINT_GROUP = "heist_envs.agents"

SPEC_FORMS = (
    "accepted forms: NAME[:key=value,...] (a built-in or installed agent), "
    "package.module:Name[:key=value,...], path/to/file.py:Name[:key=value,...]"
)

#: path/to/file.py:Name[:parameters]; the path may hold colons, the name may not
FILE_SPEC = re.compile(r"(?P<path>.+\.py):(?P<name>[A-Za-z_]\w*)(?::(?P<params>.*))?")
#: package.module:Name[:parameters]
MODULE_SPEC = re.compile(r"(?P<module>[A-Za-z_][\w.]*):(?P<name>[A-Za-z_]\w*)(?::(?P<params>.*))?")

#: loaded agent files, by resolved path: each file runs once per process
_FILES: dict[Path, object] = {}
#: the last look at the installed packages: (sys.path then, what it found)
_INSTALLED: tuple[tuple, dict] | None = None


def installed_agents() -> dict:
    """The agents installed packages register: entry-point name -> entry point (a built-in
    name takes precedence over an entry point of the same name). Looked up again when
    ``sys.path`` changes: reading every package's metadata takes milliseconds, and agents are
    built for every game."""
    global _INSTALLED
    if _INSTALLED is None or _INSTALLED[0] != tuple(sys.path):
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        agents = {ep.name: ep for ep in found if ep.name not in AGENT_FACTORIES}
        _INSTALLED = (tuple(sys.path), agents)
    return _INSTALLED[1]


def agent_names() -> list[str]:
    """The agents that a bare name makes: the built-in ones and the installed ones."""
    return sorted([*AGENT_FACTORIES, *installed_agents()])


def ready_agent_names() -> list[str]:
    """The agents made from their name alone (no checkpoint path or other parameter to give):
    what a menu that takes no parameters, like the web table's, can offer."""
    return [name for name in agent_names() if name not in AGENT_REQUIRES]


def parse_spec(text: str, load_code: bool = True) -> tuple[str, dict]:
    """The agent of a spec (a name, ``module:Name``, or ``file.py:Name`` with the file's path
    made absolute) and its parameters; a ValueError names what is wrong. ``load_code=False``
    checks a module's or file's spec without running its code here (see :func:`is_outside`)."""
    name, _, params = text.partition(":")
    if name in AGENT_FACTORIES or name in installed_agents():
        return name, parse_params(text, params)
    if match := FILE_SPEC.fullmatch(text):
        path = Path(match["path"]).expanduser()
        if not path.is_file():
            raise ValueError(f"agent {text!r}: no file {match['path']}; {SPEC_FORMS}")
        target = f"{path.resolve()}:{match['name']}"
    elif match := MODULE_SPEC.fullmatch(text):
        target = f"{match['module']}:{match['name']}"
    else:
        raise ValueError(
            f"unknown agent {text!r}; available: {', '.join(agent_names())}; {SPEC_FORMS}"
        )
    kwargs = parse_params(text, match["params"] or "")
    if load_code:
        load(target, text)  # a missing module or name is an error now, not in a worker
    return target, kwargs


def is_outside(target: str) -> bool:
    """Whether a spec's target names code from outside this project: a module, a file or an
    installed package's agent (the built-in names are this project's own)."""
    return target not in AGENT_FACTORIES


#: an item of a comma-separated list that continues the spec before it: key=value
PARAM_ITEM = re.compile(r"[A-Za-z_]\w*=")


def split_specs(text: str) -> list[str]:
    """The agent specs of a comma-separated list; an item ``key=value`` continues the
    parameters of the spec before it (``ismcts:simulations=50,rollouts=2,random`` is two
    specs)."""
    specs = []
    for item in text.split(","):
        if specs and ":" in specs[-1] and PARAM_ITEM.match(item):
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def parse_params(text, params) -> dict:
    """``key=value,key=value`` as a dict (values as Python literals, else strings); a key
    given twice is refused."""
    kwargs = {}
    for item in filter(None, params.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"agent {text!r}: expected key=value after ':', got {item!r}")
        if key in kwargs:
            raise ValueError(f"agent {text!r}: {key} is given twice; give each parameter once")
        try:
            kwargs[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            kwargs[key] = value
    return kwargs


def load(target: str, spec: str | None = None):
    """The class or factory ``target`` names: a built-in or installed agent's name,
    ``module:Name`` or ``/path/file.py:Name``."""
    spec = spec or target
    where, _, name = target.rpartition(":")
    if not where:
        if target in AGENT_FACTORIES:
            return load_builtin(target)
        installed = installed_agents().get(target)
        if installed is None:
            raise ValueError(f"unknown agent {spec!r}; available: {', '.join(agent_names())}")
        try:
            return installed.load()
        except Exception as error:
            raise ValueError(
                f"agent {spec!r}: loading {installed.value} raised {type(error).__name__}: {error}"
            ) from error
    if where.endswith(".py"):
        module = load_file(Path(where), spec)
    else:
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError as missing:
            raise ValueError(f"agent {spec!r}: no module named {missing.name!r}") from None
        except Exception as error:
            raise ValueError(
                f"agent {spec!r}: importing {where} raised {type(error).__name__}: {error}"
            ) from error
    if not hasattr(module, name):
        raise ValueError(f"agent {spec!r}: {where} has no {name!r}; {SPEC_FORMS}")
    return getattr(module, name)


def load_builtin(name):
    module, factory_name = AGENT_FACTORIES[name]
    try:
        return getattr(importlib.import_module(module, __package__), factory_name)
    except ModuleNotFoundError as missing:
        extra = AGENT_EXTRAS.get(name)
        if extra is None:
            raise
        raise ValueError(
            f"agent {name!r} needs the {extra!r} extra ({missing.name} is not installed): "
            f'pip install -e ".[{extra}]"'
        ) from None


def load_file(path: Path, spec):
    """The module a Python file defines, run once per process (as importing it would)."""
    if path not in _FILES:
        digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
        module_name = f"heist_agent_{path.stem}_{digest}"
        loader_spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[module_name] = module  # so that its classes pickle and dataclasses work
        try:
            loader_spec.loader.exec_module(module)
        except Exception as error:
            del sys.modules[module_name]
            raise ValueError(
                f"agent {spec!r}: loading {path} raised {type(error).__name__}: {error}"
            ) from error
        _FILES[path] = module
    return _FILES[path]


def error_text(error: BaseException) -> str:
    """An exception as one line of text: its type and message."""
    return f"{type(error).__name__}: {error}"


class AgentBuildError(ValueError):
    """The agent's own class or factory raised while it was built: ``spec`` (as written),
    ``call`` (its name and the spec's parameters) and ``reason`` (the exception, as text)."""

    def __init__(self, spec: str, call: str, reason: str):
        self.spec, self.call, self.reason = spec, call, reason
        super().__init__(f"agent {spec!r}: {call} raised {reason}")


def make_agent(name: str, game_name: str, seed=None, num_players=None, spec=None, **kwargs):
    """An agent from ``name`` (a target of :func:`parse_spec`: a built-in or installed
    agent's name, ``module:Name`` or ``file.py:Name``) for ``game_name``; kwargs go to its
    class or factory. ``spec`` is the spec as the user wrote it, for the messages (default:
    ``name``).

    ``num_players`` is the table's player count, passed to agents that take it (a trained
    policy refuses a count it was not trained for). An outside agent's class or factory that
    raises gives an :class:`AgentBuildError`.
    """
    spec = spec or name
    factory = load(name, spec)
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        raise ValueError(f"agent {spec!r} is not a class or a factory") from None
    parameters = signature.parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    allowed = [p for p in parameters if p not in ("game_name", "seed", "num_players")]
    unknown = sorted(set(kwargs) - set(allowed)) if not takes_any else []
    if unknown:
        raise ValueError(
            f"agent {spec!r} has no parameter {', '.join(unknown)}; "
            f"its parameters: {', '.join(allowed) or 'none'}"
        )
    given = dict(kwargs)
    if "num_players" in parameters:
        kwargs["num_players"] = num_players
    short_name = name.rpartition(":")[2]
    try:
        signature.bind(game_name, seed=seed, **kwargs)
    except TypeError as error:
        raise ValueError(
            f"agent {spec!r} must be called as {short_name}(game_name, seed=None, "
            f"**parameters), its signature is {signature} ({error})"
        ) from None
    if not is_outside(name):  # this project's agents say what was wrong themselves
        return factory(game_name, seed=seed, **kwargs)
    try:
        return factory(game_name, seed=seed, **kwargs)
    except Exception as error:
        call = f"{short_name}({', '.join(f'{k}={v!r}' for k, v in given.items())})"
        raise AgentBuildError(spec, call, error_text(error)) from error
