"""Whole games played inside compiled code, generic over kernels.

A jitted function can take a game's jitted functions as arguments: numba compiles one
specialisation per game, so this one loop serves every game.
"""

import numba as nb
import numpy as np

from heist_envs.core.game import RUNNING


@nb.njit(cache=True)
def random_legal_action(mask, num_actions):
    """A uniformly random legal action (numba's global numpy RNG; seed it with np.random.seed)."""
    count = 0
    for a in range(num_actions):
        count += mask[a]
    pick = np.random.randint(count)
    for a in range(num_actions):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@nb.njit(cache=True)
def random_playouts(s, init, legal_mask, apply, num_actions, num_games, seed):
    """Play ``num_games`` games of random legal moves from fresh deals of ``s``'s config;
    returns the number of decisions taken. ``s`` ends as the last game's final state."""
    mask = np.zeros(num_actions, np.int8)
    np.random.seed(seed)
    steps = 0
    for k in range(num_games):
        init(s, seed + k)
        while s.status == RUNNING:
            legal_mask(s, mask)
            apply(s, random_legal_action(mask, num_actions))
            steps += 1
    return steps


@nb.njit(cache=True)
def random_legal_actions(masks, seed, out):
    """One uniformly random legal action per row of ``masks``, into ``out``."""
    np.random.seed(seed)
    for i in range(masks.shape[0]):
        out[i] = random_legal_action(masks[i], masks.shape[1])
