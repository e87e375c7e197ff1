"""Compiled policies: an agent's decision rule in numba, written once, played one decision at a
time, a batch at a time, or inside the batched engine's loop.

A compiled policy is a jitted function ``act(obs, mask, params, rng) -> int`` over one seat's
observation and action mask (it reads nothing else, so it cannot peek), a float64 vector of
parameters (a heuristic's weights; empty where it has none) and a random state ``rng``
(:mod:`heist_envs.core.policy_rng`, whose names this module re-exports for the policies written
against it). Each game's heuristic is one: ``agents/<game>/compiled.py`` scores every legal
action (``scores(obs, mask, params) -> (legal, scores)``) and its ``act`` plays the best
(:func:`best_with_ties_at_random`). It plays

- as an agent, :class:`HeuristicAgent` (the ``heuristic`` agent spec): ``act`` for one
  decision, ``act_batch`` for a batch in one compiled call;
- as an opponent the batched engine plays in its loop, :func:`compiled_heuristic`
  (:class:`heist_envs.core.single_agent.CompiledOpponent`);
- as a teacher, :func:`best_actions`: every move it scores best, for a batch of decisions.
"""

import numba as nb
import numpy as np

import heist_envs
from heist_envs.core.policy_rng import (
    RNG_WORDS,
    next_below,
    next_double,
    next_uint64,
    rng_state,
)
from heist_envs.core.single_agent import CompiledOpponent

from .profiles import heuristic_games, profile

__all__ = [
    "RNG_WORDS",
    "TIE",
    "HeuristicAgent",
    "best_actions",
    "best_with_ties_at_random",
    "compiled_heuristic",
    "next_below",
    "next_double",
    "next_uint64",
    "rng_state",
]

#: Scores within this of the best are ties: the heuristic plays one of them at random.
TIE = 1e-6


@nb.njit(cache=True)
def best_with_ties_at_random(legal, scores, rng):
    """The legal action of highest score: a uniformly random one of those within ``TIE`` of
    the best (one draw from ``rng``)."""
    top = scores.max()
    ties = 0
    for k in range(len(legal)):
        if scores[k] >= top - TIE:
            ties += 1
    pick = next_below(rng, ties)
    for k in range(len(legal)):
        if scores[k] >= top - TIE:
            if pick == 0:
                return legal[k]
            pick -= 1
    return legal[0]  # not reached: ``pick`` < ``ties``


class HeuristicAgent:
    """A game's heuristic (``agents/<game>/compiled.py``, whose docstring states its rules of
    thumb) as an agent: ``act(observation, action_mask)`` plays one decision, ``act_batch(obs,
    masks)`` one per row in a single compiled call, and ``scores`` gives its ranking of the
    legal actions. Ties are broken with its own random state, from ``seed``; ``weights``
    (games whose heuristic has them): "tuned" for the ones ``experiments.train.weights``
    learned, the path of a file it wrote, or a dict naming some of them (None: the hand-set
    ones)."""

    def __init__(self, game_name, seed=None, weights=None):
        self.game_name = game_name.removesuffix("_v0")
        module = profile(self.game_name).compiled
        if module is None:
            raise ValueError(
                f"no heuristic agent for game {game_name!r}; "
                f"available: {', '.join(heuristic_games())}"
            )
        self.policy = module.act
        self._scores = module.scores
        self.params = module.params(weights)
        self.rng = rng_state(seed)
        self.obs_dtype = heist_envs.get_game(self.game_name).obs_dtype

    def _rows(self, obs, masks):
        """The observations and masks as the compiled policy takes them (the game's
        ``obs_dtype``, int8), so that every caller plays one compiled version."""
        return np.asarray(obs, self.obs_dtype), np.asarray(masks, np.int8)

    def act(self, observation, action_mask) -> int:
        obs, mask = self._rows(observation, action_mask)
        return int(self.policy(obs, mask, self.params, self.rng))

    def act_batch(self, obs, masks) -> np.ndarray:
        """One action per row of ``obs`` and ``masks``, the rows played in order."""
        obs, masks = self._rows(obs, masks)
        out = np.empty(len(masks), np.int64)
        _batch_loop(self.policy)(obs, masks, self.params, self.rng, out)
        return out

    def scores(self, observation, action_mask):
        """The legal actions and the heuristic's score of each (it plays the best)."""
        obs, mask = self._rows(observation, action_mask)
        return self._scores(obs, mask, self.params)


def compiled_heuristic(game_name, weights=None, seed=0) -> CompiledOpponent | None:
    """The game's heuristic as a compiled opponent (its profile's ``compiled`` module, with
    ``act`` and ``params(weights)``), or None where the game has none. ``weights`` as
    :class:`HeuristicAgent` takes them."""
    module = profile(game_name.removesuffix("_v0")).compiled
    if module is None:
        return None
    label = "heuristic" if weights is None else f"heuristic:weights={weights}"
    return CompiledOpponent(module.act, module.params(weights), name=label, seed=seed)


def best_actions(game_name, weights=None):
    """A function ``label(obs, masks) -> bool[n, num_actions]`` that marks, for each row of a
    batch of observations and masks, every legal action the game's compiled heuristic scores
    best (its ties, of which the agent plays one at random), in one compiled loop; or None
    where the game has no compiled heuristic. Imitation learning labels decisions with it at
    engine speed."""
    module = profile(game_name.removesuffix("_v0")).compiled
    if module is None:
        return None
    params = module.params(weights)
    loop = _label_loop(module.scores)

    def label(obs, masks):
        best = np.zeros(masks.shape, np.bool_)
        loop(np.ascontiguousarray(obs), np.ascontiguousarray(masks, np.int8), params, best)
        return best

    return label


_LOOPS = {}


def _batch_loop(act):
    """The compiled loop that plays ``act`` on every row of a batch, built once per policy."""
    key = ("act", act)
    if key not in _LOOPS:

        @nb.njit
        def act_rows(obs, masks, params, rng, out):
            for i in range(len(obs)):
                out[i] = act(obs[i], masks[i], params, rng)

        _LOOPS[key] = act_rows
    return _LOOPS[key]


def _label_loop(scores):
    """The compiled loop that marks each row's best actions by ``scores``, built once."""
    key = ("label", scores)
    if key not in _LOOPS:

        @nb.njit
        def label_rows(obs, masks, params, best):
            for i in range(len(obs)):
                legal, values = scores(obs[i], masks[i], params)
                top = values.max()
                for k in range(len(legal)):
                    best[i, legal[k]] = values[k] >= top - TIE

        _LOOPS[key] = label_rows
    return _LOOPS[key]
