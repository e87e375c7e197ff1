"""The project's ``agents`` package under a name that no module of yours can shadow.

A script's own folder comes first on ``sys.path``, so a file ``agents.py`` beside it hides the
top-level ``agents`` package from that script; ``heist_envs.agents`` reaches it there:
``from heist_envs.agents.arena import tournament``. Where the top-level ``agents`` is the
project's package, ``heist_envs.agents.X`` is the module ``agents.X`` itself (one copy of each
module, so classes are the same under both names); where it is shadowed, the project's
package loads under this name alone.
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

AGENTS_DIR = Path(__file__).resolve().parents[2] / "agents"


def top_level_is_ours() -> bool:
    """Whether ``import agents`` gives the project's package (not a user's module)."""
    module = sys.modules.get("agents")
    spec = getattr(module, "__spec__", None) if module else importlib.util.find_spec("agents")
    origin = getattr(spec, "origin", None)
    return origin is not None and Path(origin).resolve() == AGENTS_DIR / "__init__.py"


class AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``heist_envs.agents.X`` as the module ``agents.X``, imported once."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(f"{__name__}."):
            return None
        module = importlib.import_module(f"agents{fullname.removeprefix(__name__)}")
        is_package = hasattr(module, "__path__")
        spec = importlib.util.spec_from_loader(fullname, self, is_package=is_package)
        spec.loader_state = module.__spec__
        return spec

    def create_module(self, spec):
        return sys.modules[spec.loader_state.name]

    def exec_module(self, module):
        """Nothing to run (the module ran as ``agents.X``); the import system gave it the
        alias's ``__spec__``, so it gets its own back."""
        module.__spec__ = module.__spec__.loader_state


#: where numba caches the compiled functions of the package loaded under this name: the cache
#: beside the sources names their module ``agents.X``, and reading it would import the user's
#: ``agents`` in its place
SHADOWED_CACHE_DIR = Path.home() / ".cache" / "heist-envs" / "numba-under-heist_envs.agents"


class ShadowedFinder(importlib.abc.MetaPathFinder):
    """Where the top-level ``agents`` is a user's: loads ``heist_envs.agents.X`` from the
    project's folder, its compiled functions cached in :data:`SHADOWED_CACHE_DIR`."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(f"{__name__}."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None:
            spec.loader = SeparateCacheLoader(spec.loader)
        return spec


class SeparateCacheLoader(importlib.abc.Loader):
    """Runs a module with numba's cache folder set to :data:`SHADOWED_CACHE_DIR` (numba picks
    a function's cache folder when it is decorated)."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        import numba

        saved = numba.config.CACHE_DIR
        numba.config.CACHE_DIR = str(SHADOWED_CACHE_DIR)
        try:
            self.loader.exec_module(module)
        finally:
            numba.config.CACHE_DIR = saved


if top_level_is_ours():
    sys.meta_path.insert(0, AliasFinder())
    from agents import Agent, InfoSet, RandomAgent
else:
    __path__ = [str(AGENTS_DIR)]
    sys.meta_path.insert(0, ShadowedFinder())
    from .base import Agent, InfoSet, RandomAgent

__all__ = ["Agent", "InfoSet", "RandomAgent"]
