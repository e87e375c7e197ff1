"""The project's ``agents`` package under a name that no module of yours can shadow.

A script's own folder comes first on ``sys.path``, so a file ``agents.py`` beside it hides the
top-level ``agents`` package from that script. ``heist_envs.agents`` is the same code (the
package's folder is this package's path) and works there: ``from heist_envs.agents.arena
import tournament``. Use one name or the other in a program, not both: each name loads its
own copy of the modules.
"""

from pathlib import Path

__path__ = [str(Path(__file__).resolve().parents[2] / "agents")]

from .base import Agent, InfoSet, RandomAgent  # noqa: E402

__all__ = ["Agent", "InfoSet", "RandomAgent"]
