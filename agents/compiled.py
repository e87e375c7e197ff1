"""Compiled policies: an agent's decision rule in numba, so the batched engine can play it.

A compiled policy is a jitted function ``act(obs, mask, params, rng) -> int`` over one seat's
observation and action mask (it reads nothing else, so it cannot peek), a float64 vector of
parameters (a heuristic's weights; empty where it has none) and a random-number state ``rng``.

The heuristics break ties as their Python agents do: each legal action's score plus
``1e-6`` times a uniform draw from ``numpy.random.default_rng(seed)``. :func:`rng_state` and
:func:`next_double` reproduce that generator (PCG64, numpy's default) draw for draw in compiled
code, so a compiled heuristic seeded like its Python agent makes the same moves.
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
_TIE_NOISE = 1e-6


def rng_state(seed=None) -> np.ndarray:
    """The state of ``numpy.random.default_rng(seed)`` as ``RNG_WORDS`` uint64 words."""
    pcg = np.random.default_rng(seed).bit_generator.state["state"]
    state, inc = pcg["state"], pcg["inc"]
    return np.array([state >> 64, state & _MASK64, inc >> 64, inc & _MASK64], np.uint64)


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
