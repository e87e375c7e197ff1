"""What the studies read from Art Robbery's states (:class:`~heist_envs.core.study.GameStudy`)."""

import numba as nb
import numpy as np

from heist_envs.core.study import GameStudy, state_field

from .rules import final_scores
from .state import PHASE_NAMES


@nb.njit(cache=True)
def running_score(s, out):
    """Loot value after the alibi penalty."""
    values = np.zeros(len(out), np.int64)
    alibis = np.zeros(len(out), np.int64)
    final_scores(s, values, alibis)
    out[:] = values


STUDY = GameStudy(
    phase="phase",
    phase_names=PHASE_NAMES,
    rounds=lambda s: float(s.turns) / int(s.num_players),
    rounds_doc="card plays divided by the player count",
    score=running_score,
    columns={"raid": state_field("raid")},
)
