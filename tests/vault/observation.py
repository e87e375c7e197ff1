"""What a seat sees: the whole table (nothing is hidden)."""

import numba as nb
import numpy as np

from heist_envs.core.layout import build_layout

from .components import MAX_BARS, NUM_PLAYERS_MAX

LAYOUT, OBS_SIZE = build_layout([("bars", MAX_BARS + 1), ("last_taker", NUM_PLAYERS_MAX + 1)])
OBS_DTYPE = np.int8
BARS, LAST_TAKER = LAYOUT["bars"].start, LAYOUT["last_taker"].start


@nb.njit(cache=True)
def observe(s, seat, out):
    out[:] = 0
    out[BARS + s.bars] = 1
    relative = 0 if s.last_taker < 0 else 1 + (s.last_taker - seat) % s.num_players
    out[LAST_TAKER + relative] = 1
