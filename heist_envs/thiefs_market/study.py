"""What the studies read from Thief's Market's states
(:class:`~heist_envs.core.study.GameStudy`)."""

import numba as nb
import numpy as np

from heist_envs.core.study import GameStudy, state_field

from .actions import BUY_0, WAIVE_0
from .components import NUM_PLAYERS_MAX
from .rules import NUM_SCORE_COLUMNS, TOTAL, score_table
from .state import STAGE_NAMES


@nb.njit(cache=True)
def running_score(s, out):
    """Victory points with the end-of-game awards as they stand."""
    table = np.zeros((NUM_PLAYERS_MAX, NUM_SCORE_COLUMNS), np.int64)
    score_table(s, table)
    out[:] = table[:, TOTAL]


def bought_card(states, actions):
    """The card id (1-49) a buy action takes from the market, else 0."""
    buying = (actions >= BUY_0) & (actions < WAIVE_0)
    slots = np.where(buying, actions - BUY_0, 0)
    cards = states["market"][np.arange(len(states)), slots].astype(np.int64) + 1
    return np.where(buying, cards, 0)


STUDY = GameStudy(
    phase="stage",
    phase_names=STAGE_NAMES,
    rounds=lambda s: float(s.round_number),
    rounds_doc="one Divide and one Purchase phase each",
    score=running_score,
    columns={"round": state_field("round_number"), "card": bought_card},
)
