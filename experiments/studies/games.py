"""Running scores over arrays of states, for the studies.

What the studies read from each game's states (its phases, rounds, running score and extra
columns) is the game's own :attr:`~heist_envs.core.game.Game.study`
(:class:`~heist_envs.core.study.GameStudy`, in ``heist_envs/<game>/study.py``); this module
runs a game's compiled score function over many states at once.
"""

from __future__ import annotations

import numba as nb
import numpy as np

import heist_envs

#: score function -> its compiled loop over an array of states
_SCORERS = {}


def score_states(game_name: str, states: np.ndarray) -> np.ndarray | None:
    """The running score of every seat in each of ``states`` ([len, seats] floats, as many
    seats as the game's largest table), or None for a game without one. ``states`` is a plain
    array of the game's state dtype."""
    game = heist_envs.get_game(game_name)
    score = game.study.score
    if score is None:
        return None
    if score not in _SCORERS:

        @nb.njit
        def score_all(states, out):
            for i in range(len(states)):
                score(states[i], out[i])

        _SCORERS[score] = score_all
    out = np.zeros((len(states), game.num_seats(game.max_players)), np.float64)
    _SCORERS[score](states, out)
    return out
