"""The random number generator that lives inside every game record.

A game's randomness is one 64-bit xorshift state in the record's ``rng`` field, so a
copied record carries its future, and the same seed and actions give the same game bit
for bit, jitted or not. xorshift uses only shifts and xors: no integer overflow, so the
un-jitted code (``NUMBA_DISABLE_JIT=1``) computes exactly what the compiled code does.
"""

import numba as nb
import numpy as np

_SEED_MIX = np.uint64(0x9E3779B97F4A7C15)
_NONZERO = np.uint64(0x2545F4914F6CDD1D)
_S13 = np.uint64(13)
_S7 = np.uint64(7)
_S17 = np.uint64(17)
_S11 = np.uint64(11)


@nb.njit(cache=True)
def xorshift(x):
    """One step of the generator: the next state after ``x`` (nonzero stays nonzero)."""
    x ^= x << _S13
    x ^= x >> _S7
    x ^= x << _S17
    return x


@nb.njit(cache=True)
def mix_seed(seed):
    """A well-mixed, nonzero 64-bit RNG state from any 64-bit seed."""
    x = np.uint64(seed) ^ _SEED_MIX
    if x == np.uint64(0):
        x = _NONZERO
    for _ in range(8):
        x = xorshift(x)
    return x


@nb.njit(cache=True)
def seed_rng(s, seed):
    """Set the record's RNG from a 64-bit seed (any value; 0 is remapped)."""
    s.rng = mix_seed(seed)


@nb.njit(cache=True)
def rand_below(s, n):
    """A uniform integer in [0, n), drawn from the record's RNG (n >= 1)."""
    x = xorshift(s.rng)
    s.rng = x
    return np.int64((x >> _S11) % np.uint64(n))


@nb.njit(cache=True)
def shuffle(s, values, n):
    """Fisher–Yates shuffle of ``values[:n]`` in place, with the record's RNG."""
    for i in range(n - 1, 0, -1):
        j = rand_below(s, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
