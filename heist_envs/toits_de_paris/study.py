"""What the studies read from Les Toits de Paris's states
(:class:`~heist_envs.core.study.GameStudy`)."""

import numba as nb
import numpy as np

from heist_envs.core.study import GameStudy, state_field

from .rules import tally
from .state import PHASE_NAMES


@nb.njit(cache=True)
def running_score(s, out):
    """Card points plus the colour-majority tokens the collections earn now."""
    awards = np.zeros_like(s.token_award)
    totals = np.zeros_like(s.score)
    tally(s, awards, totals)
    out[: len(totals)] = totals[: len(out)]


STUDY = GameStudy(
    phase="phase",
    phase_names=PHASE_NAMES,
    rounds=lambda s: float(s.turn) / int(s.num_players),
    rounds_doc="turns (one leader each) divided by the player count",
    score=running_score,
    columns={"revealed": state_field("n"), "inspector": state_field("insp")},
)
