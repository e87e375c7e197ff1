"""Vault: take one or two bars in turn; whoever takes the last bar wins."""

import numba as nb

from heist_envs.core.game import RUNNING, TERMINATED
from heist_envs.core.rng import rand_below, seed_rng

from .components import MAX_BARS, MIN_BARS, TAKES


@nb.njit(cache=True)
def init(s, seed):
    seed_rng(s, seed)
    s.bars = MIN_BARS + rand_below(s, MAX_BARS - MIN_BARS + 1)
    s.last_taker, s.actor, s.status = -1, 0, RUNNING


@nb.njit(cache=True)
def legal_mask(s, out):
    out[:] = 0
    for a in range(len(TAKES)):
        out[a] = s.status == RUNNING and TAKES[a] <= s.bars


@nb.njit(cache=True)
def apply(s, action):
    s.bars -= TAKES[action]
    s.last_taker = s.actor
    if s.bars == 0:
        s.status, s.actor = TERMINATED, -1
    else:
        s.actor = (s.actor + 1) % s.num_players


@nb.njit(cache=True)
def returns(s, out):
    out[:] = 0.0
    if s.status == TERMINATED:
        out[:] = -1.0
        out[s.last_taker] = 1.0


@nb.njit(cache=True)
def determinize(s, seat, seed):
    seed_rng(s, seed)  # nothing is hidden: only the future is re-drawn
