"""Random legal actions in compiled code, for playouts, benchmarks and random opponents."""

import numba as nb
import numpy as np

from heist_envs.core.rng import mix_seed


@nb.njit(cache=True)
def nth_legal_action(mask, n):
    """The ``n``-th legal action of ``mask`` (counting from 0), or -1."""
    for a in range(len(mask)):
        if mask[a]:
            if n == 0:
                return a
            n -= 1
    return -1


@nb.njit(cache=True)
def count_legal(mask):
    count = 0
    for a in range(len(mask)):
        count += mask[a]
    return count


@nb.njit(cache=True)
def random_legal_action(mask, num_actions):
    """A uniformly random legal action (numba's global numpy RNG; seed it with np.random.seed)."""
    return nth_legal_action(mask[:num_actions], np.random.randint(count_legal(mask[:num_actions])))


@nb.njit(cache=True)
def random_row_action(masks, seed, i):
    """Row i's random legal action, drawn from (seed, i) alone, so rows are independent."""
    x = mix_seed(np.uint64(seed) ^ (np.uint64(i) << np.uint64(24)))
    count = count_legal(masks[i])
    return nth_legal_action(masks[i], np.int64((x >> np.uint64(11)) % np.uint64(count)))


@nb.njit(cache=True)
def random_legal_actions(masks, seed, out):
    """One uniformly random legal action per row of ``masks``, into ``out``."""
    for i in range(masks.shape[0]):
        out[i] = random_row_action(masks, seed, i)


@nb.njit(cache=True, parallel=True)
def random_legal_actions_parallel(masks, seed, out):
    """:func:`random_legal_actions` on every core: the same actions, for large batches."""
    for i in nb.prange(masks.shape[0]):
        out[i] = random_row_action(masks, seed, i)
