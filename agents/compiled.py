"""Compiled policies: an agent's decision rule in numba, so the batched engine can play it.

A compiled policy is a jitted function ``act(obs, mask, params, rng) -> int`` over one seat's
observation and action mask (it reads nothing else, so it cannot peek), a float64 vector of
parameters (a heuristic's weights; empty where it has none) and a random-number state ``rng``
(``RNG_WORDS`` words; :mod:`heist_envs.core.policy_rng`, whose names this module re-exports
for the policies written against it). :class:`heist_envs.core.single_agent.CompiledOpponent`
plays one inside the batched engine's loop; :func:`compiled_heuristic` finds a game's.

The heuristics break ties as their Python agents do: each legal action's score plus
``1e-6`` times a uniform draw from ``numpy.random.default_rng(seed)``. :func:`rng_state` and
:func:`next_double` reproduce that generator (PCG64, numpy's default) draw for draw in compiled
code, so a compiled heuristic seeded like its Python agent makes the same moves.
"""

import numba as nb
import numpy as np

from heist_envs.core.policy_rng import RNG_WORDS, next_double, next_uint64, rng_state
from heist_envs.core.single_agent import CompiledOpponent

from .profiles import profile

__all__ = [
    "RNG_WORDS",
    "best_with_ties_at_random",
    "best_actions",
    "compiled_heuristic",
    "next_double",
    "next_uint64",
    "rng_state",
]

_TIE_NOISE = 1e-6


@nb.njit(cache=True)
def best_with_ties_at_random(legal, scores, rng):
    """The legal action of highest score, ties broken as the Python heuristics break them
    (a draw of ``1e-6 * uniform`` added to every score, one draw per legal action)."""
    best, best_value = legal[0], -np.inf
    for k in range(len(legal)):
        value = scores[k] + _TIE_NOISE * next_double(rng)
        if value > best_value:
            best, best_value = legal[k], value
    return best


def compiled_heuristic(game_name, weights=None, seed=0) -> CompiledOpponent | None:
    """The game's heuristic as a compiled opponent (its profile's ``compiled`` module, with
    ``act`` and ``params(weights)``), or None where the game has none: the caller then plays
    the Python heuristic. ``weights`` as :func:`agents.profiles.make_heuristic` takes them."""
    module = profile(game_name.removesuffix("_v0")).compiled
    if module is None:
        return None
    label = "heuristic" if weights is None else f"heuristic:weights={weights}"
    return CompiledOpponent(module.act, module.params(weights), name=label, seed=seed)


_LABELLERS = {}


def best_actions(game_name, weights=None):
    """A function ``label(obs, masks) -> bool[n, num_actions]`` that marks, for each row of a
    batch of observations and masks, every legal action the game's compiled heuristic scores
    best (its ties, of which the agent plays one at random), in one compiled loop; or None
    where the game has no compiled heuristic. Imitation learning labels decisions with it at
    engine speed (about 60 times the Python agent's ``action_scores``: docs/training)."""
    module = profile(game_name.removesuffix("_v0")).compiled
    if module is None:
        return None
    params = module.params(weights)
    if module.scores not in _LABELLERS:
        _LABELLERS[module.scores] = _build_labeller(module.scores)
    loop = _LABELLERS[module.scores]

    def label(obs, masks):
        best = np.zeros(masks.shape, np.bool_)
        loop(np.ascontiguousarray(obs), np.ascontiguousarray(masks, np.int8), params, best)
        return best

    return label


def _build_labeller(scores):
    @nb.njit
    def label_rows(obs, masks, params, best):
        for i in range(len(obs)):
            legal, values = scores(obs[i], masks[i], params)
            top = values.max()
            for k in range(len(legal)):
                best[i, legal[k]] = values[k] >= top - _TIE_NOISE

    return label_rows
