"""The random numbers of compiled policies: numpy's default generator (PCG64) in compiled code,
draw for draw, with one state row per (game, seat) of a batch.

A compiled policy (``act(obs, mask, params, rng) -> int``, see
:class:`heist_envs.core.single_agent.CompiledOpponent`) draws from ``rng``, ``RNG_WORDS``
uint64 words: PCG64's 128-bit state and increment, high words first. :func:`rng_state` gives
the state of ``numpy.random.default_rng(seed)``, and :func:`next_double` its next
``random()``, so a compiled policy can make the draws of a Python agent seeded alike.
"""

import numba as nb
import numpy as np

#: words of a compiled policy's random state: PCG64's 128-bit state and increment, high first
RNG_WORDS = 4
_MASK64 = (1 << 64) - 1
_MULT_HI = np.uint64(0x2360ED051FC65DA4)
_MULT_LO = np.uint64(0x4385DF649FCCF645)
_LOW32 = np.uint64(0xFFFFFFFF)
_U32 = np.uint64(32)
_U64 = np.uint64(64)


def rng_state(seed=None) -> np.ndarray:
    """The state of ``numpy.random.default_rng(seed)`` as ``RNG_WORDS`` uint64 words."""
    pcg = np.random.default_rng(seed).bit_generator.state["state"]
    state, inc = pcg["state"], pcg["inc"]
    return np.array([state >> 64, state & _MASK64, inc >> 64, inc & _MASK64], np.uint64)


def check_seed(seed) -> int:
    """``seed`` as an int, or a ValueError unless it is an integer >= 0."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"a compiled policy's seed must be an integer >= 0, got {seed!r:.80}")
    return int(seed)


def seat_rng_rows(seed, num_envs, num_seats) -> np.ndarray:
    """One random state per (game, seat), ``[num_envs, num_seats, RNG_WORDS]``: that of
    ``numpy.random.default_rng([seed, game, seat])``, so every row is its own stream and
    depends on the seed and its place alone."""
    seed = check_seed(seed)
    rows = np.empty((num_envs, num_seats, RNG_WORDS), np.uint64)
    for game in range(num_envs):
        for seat in range(num_seats):
            rows[game, seat] = rng_state([seed, game, seat])
    return rows


@nb.njit(cache=True)
def _mul_high(a, b):
    """The high 64 bits of the 128-bit product of two uint64s."""
    a_lo, a_hi = a & _LOW32, a >> _U32
    b_lo, b_hi = b & _LOW32, b >> _U32
    cross = (a_lo * b_lo >> _U32) + (a_hi * b_lo & _LOW32) + a_lo * b_hi
    return a_hi * b_hi + (a_hi * b_lo >> _U32) + (cross >> _U32)


@nb.njit(cache=True)
def next_uint64(rng):
    """Step PCG64 (state = state * multiplier + increment) and return its XSL-RR output."""
    hi, lo = rng[0], rng[1]
    new_lo = lo * _MULT_LO
    new_hi = _mul_high(lo, _MULT_LO) + hi * _MULT_LO + lo * _MULT_HI
    total_lo = new_lo + rng[3]
    carry = np.uint64(1) if total_lo < new_lo else np.uint64(0)
    rng[0] = new_hi + rng[2] + carry
    rng[1] = total_lo
    xored = rng[0] ^ rng[1]
    rot = rng[0] >> np.uint64(58)
    return (xored >> rot) | (xored << ((_U64 - rot) & np.uint64(63)))


@nb.njit(cache=True)
def next_double(rng):
    """A uniform float in [0, 1): ``Generator.random()``'s next value."""
    return np.float64(next_uint64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
