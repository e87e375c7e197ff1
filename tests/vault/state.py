"""Vault's state record."""

import numpy as np

from heist_envs.core.game import state_dtype

STATE_DTYPE = state_dtype([("bars", np.int8), ("last_taker", np.int8)])
