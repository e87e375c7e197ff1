"""What agents and training know of each game: one profile per game, found by its name.

All of it lives in the game's own folder, ``agents/<game>/`` (a package named after
``Game.name``), as modules with fixed names; no table elsewhere names the game, so a new game
adds the folder with the modules it has, and agents, the arena and the trainers find them
through :func:`profile`. Every module is optional: a game without the folder, or without a
module, gets the default written beside it.

- ``compiled.py``: the heuristic, the game's rule-based player, written once in numba (see
  :mod:`agents.compiled`): ``scores(obs, mask, params) -> (legal, scores)`` (the legal actions
  and its score of each, from the seat's observation, read through the game's ``LAYOUT``, and
  the action mask alone), ``act(obs, mask, params, rng) -> int`` (the best, ties broken with
  ``rng``) and ``params(weights=None)``, the parameter vector (the weights, or empty). The first
  paragraph of its docstring states the player's strategy. A heuristic that plays a table of
  weights also defines ``WEIGHTS`` (the hand-set table, name -> value, in the vector's order),
  ``TUNED_WEIGHTS`` (the path of the learned table that ``weights="tuned"`` plays) and
  ``load_weights(weights) -> dict``. :class:`agents.compiled.HeuristicAgent` plays it as an
  agent. Default: no heuristic (:func:`make_heuristic` refuses the game).
- ``rollout.py``: ISMCTS's compiled rollout policy. A search samples a full world, so it may
  read the whole kernel state:

  - ``rollout_action(s, mask) -> int``, compiled with numba: an action legal in ``mask`` for
    ``s.actor`` in the running state ``s`` (it may draw from numba's ``np.random``, which the
    search seeds);
  - optionally ``evaluate(s, out)``, compiled: each seat's expected return (on the scale of
    the game's ``returns``) for a running state, which lets a search cut rollouts short
    (``rollout_depth``). ``s`` is the search's scratch world, so ``evaluate`` may play it on
    (to a point where it is easier to judge) before scoring it;
  - optionally ``SEARCH_DEFAULTS``, a dict of the search settings that suit the policy (keys of
    :data:`agents.ismcts.SEARCH_SETTINGS`), used where the agent is not given them;
  - optionally ``PRIOR_ALONE_PHASES``, the values of the state's ``phase`` in which a search
    with ``prior_alone`` plays its prior policy's move without searching;
  - for a heuristic with weights, ``policy_action(s, mask, weights) -> int``: the heuristic's
    valuation in compiled code over the state, ``weights`` a float array in ``WEIGHTS`` order,
    which ``experiments.train.weights`` tunes.

  Default: rollouts of uniformly random legal moves.
- ``shaping.py``: ``potential(states, seats) -> float32[num_envs]``, the potential of
  potential-based reward shaping (:mod:`experiments.train.shaping`). Default: none (a shaping
  scale other than 0 is refused).
- ``training.py``: ``TRAINING``, a :class:`TrainingDefaults` of what the trainers use unless
  told otherwise. Default: ``TrainingDefaults()``.

Other modules in the folder (a study's or a fit's scripts) are the game's own business.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from types import ModuleType

from heist_envs.core.catalog import game_names


@dataclass(frozen=True)
class TrainingDefaults:
    """What the trainers use for a game unless their flags say otherwise."""

    #: ``experiments.train.sb3 --timesteps``: the steps of a stage that names none
    timesteps: int = 400_000
    #: MaskablePPO's rollout length per env (the sb3 and imitation trainers)
    n_steps: int = 32
    #: ``--shaping``: the scale of the game's shaping potential (0: no shaping)
    shaping: float = 0.0
    #: ``--opponents``: the training stages, ``POOL[:STEPS]`` each
    opponents: tuple[str, ...] = ("random,self",)
    #: ``(obs, mask) -> (legal actions, their scores)``: the heuristic's ranking, with which
    #: imitation labels a decision with every action the heuristic ranks best (None: with
    #: the action it plays)
    teacher_scores: Callable | None = None


class GameProfile:
    """What agents and training know of one game: the parts its ``agents/<game>/`` folder
    defines (None, or the default, where it defines none). Each part is imported when first
    asked for, so one that a caller never needs costs nothing."""

    def __init__(self, game_name: str):
        self.game_name = game_name

    def __repr__(self):
        return f"GameProfile({self.game_name!r})"

    @cached_property
    def compiled(self) -> ModuleType | None:
        """``compiled.py``: the heuristic."""
        return _part(self.game_name, "compiled")

    @property
    def heuristic(self) -> type | None:
        """The heuristic agent class (:class:`agents.compiled.HeuristicAgent`, which plays
        ``compiled.py``), or None where the game has no heuristic."""
        if self.compiled is None:
            return None
        from .compiled import HeuristicAgent

        return HeuristicAgent

    @property
    def weighted(self) -> bool:
        """Whether the heuristic plays a table of weights that ``weights=`` may replace."""
        return hasattr(self.compiled, "WEIGHTS")

    @cached_property
    def rollout(self) -> ModuleType | None:
        """``rollout.py``: ISMCTS's rollout policy."""
        return _part(self.game_name, "rollout")

    @cached_property
    def potential(self) -> Callable | None:
        """``shaping.py``'s ``potential``."""
        return getattr(_part(self.game_name, "shaping"), "potential", None)

    @cached_property
    def training(self) -> TrainingDefaults:
        """``training.py``'s ``TRAINING``, else ``TrainingDefaults()``."""
        return getattr(_part(self.game_name, "training"), "TRAINING", TrainingDefaults())


def _part(game_name: str, part: str) -> ModuleType | None:
    """The module ``<game_name>.<part>`` of this package, or None if the game's folder or the
    module is missing. The package is this module's own (``agents``, or ``heist_envs.agents``
    where a user's ``agents`` module hides it)."""
    folder = f"{__package__}.{game_name}"
    spec = importlib.util.find_spec(folder) if game_name.isidentifier() else None
    if spec is None or spec.submodule_search_locations is None:
        return None  # no folder (a module of the same name, like agents.registry, is none)
    if importlib.util.find_spec(f"{folder}.{part}") is None:
        return None
    return importlib.import_module(f"{folder}.{part}")


@cache
def _profile(game_name: str) -> GameProfile:
    return GameProfile(game_name)


def profile(game_name: str) -> GameProfile:
    """The profile of ``game_name`` (with or without its ``_v0`` suffix), with the defaults
    for whatever its ``agents/<game>/`` folder lacks (all of them for a game without one)."""
    return _profile(game_name.removesuffix("_v0"))


def heuristic_games() -> list[str]:
    """The registered games that have a heuristic agent."""
    return [name for name in game_names() if profile(name).heuristic is not None]


def weighted_games() -> list[str]:
    """The registered games whose heuristic plays a table of weights."""
    return [name for name in game_names() if profile(name).weighted]


def check_weights(game_name: str, weights) -> None:
    """Refuse ``weights`` (other than None) for a game whose heuristic has none to replace."""
    name = game_name.removesuffix("_v0")
    if weights is not None and not profile(name).weighted:
        raise ValueError(
            f"the {name} heuristic has no weights to replace; games with weights: "
            + ", ".join(weighted_games())
        )


def make_heuristic(game_name, seed=None, weights=None):
    """The heuristic agent for ``game_name`` (with or without its ``_v0`` suffix): the
    ``heuristic`` agent spec, :class:`agents.compiled.HeuristicAgent`.

    ``weights`` (games whose heuristic has weights only): "tuned" for the weights learned by
    ``experiments.train.weights``, or the path of a file it wrote; None: the hand-set ones.
    """
    from .compiled import HeuristicAgent

    return HeuristicAgent(game_name, seed, weights)
