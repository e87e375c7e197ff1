"""Random legal actions in compiled code, for playouts, benchmarks and random opponents."""

import numba as nb
import numpy as np


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
def random_legal_actions(masks, seed, out):
    """One uniformly random legal action per row of ``masks``, into ``out``."""
    np.random.seed(seed)
    for i in range(masks.shape[0]):
        out[i] = random_legal_action(masks[i], masks.shape[1])
