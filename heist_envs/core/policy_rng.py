"""The random numbers of compiled policies: the kernel's xorshift generator
(:mod:`heist_envs.core.rng`), one state per policy, or per (game, seat) of a batch.

A compiled policy (``act(obs, mask, params, rng) -> int``, see
:class:`heist_envs.core.single_agent.CompiledOpponent`) draws from ``rng``, an array of
``RNG_WORDS`` uint64 words that each draw updates in place (:func:`next_uint64`,
:func:`next_below`, :func:`next_double`). :func:`rng_state` makes one from a seed, and
:func:`seat_rng_rows` one per (game, seat) of a batch, each its own stream.
"""

import numba as nb
import numpy as np

from heist_envs.core.rng import mix_seed, xorshift

#: words of a compiled policy's random state: one xorshift state
RNG_WORDS = 1
_S11 = np.uint64(11)


def rng_state(seed=None) -> np.ndarray:
    """A random state of ``RNG_WORDS`` uint64 words from ``seed``: an integer >= 0, a
    sequence of them (numpy's ``SeedSequence`` mixes them into one state), or None for a
    state from fresh entropy."""
    word = np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]
    return np.array([mix_seed(word)], np.uint64)


def check_seed(seed) -> int:
    """``seed`` as an int, or a ValueError unless it is an integer >= 0."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"a compiled policy's seed must be an integer >= 0, got {seed!r:.80}")
    return int(seed)


def seat_rng_rows(seed, num_envs, num_seats) -> np.ndarray:
    """One random state per (game, seat), ``[num_envs, num_seats, RNG_WORDS]``: that of
    ``rng_state([seed, game, seat])``, so every row is its own stream and depends on the seed
    and its place alone."""
    seed = check_seed(seed)
    rows = np.empty((num_envs, num_seats, RNG_WORDS), np.uint64)
    for game in range(num_envs):
        for seat in range(num_seats):
            rows[game, seat] = rng_state([seed, game, seat])
    return rows


@nb.njit(cache=True)
def next_uint64(rng):
    """Step the state and return it: a uniform nonzero 64-bit integer."""
    rng[0] = xorshift(rng[0])
    return rng[0]


@nb.njit(cache=True)
def next_below(rng, n):
    """A uniform integer in [0, n) (n >= 1), as :func:`heist_envs.core.rng.rand_below` draws."""
    return np.int64((next_uint64(rng) >> _S11) % np.uint64(n))


@nb.njit(cache=True)
def next_double(rng):
    """A uniform float in [0, 1), from the draw's top 53 bits."""
    return np.float64(next_uint64(rng) >> _S11) * (1.0 / 9007199254740992.0)
