"""What the studies read from each game's state: one table entry per game.

Each :class:`GameStudy` names the state field holding the phase, how to count rounds, a
compiled score function (the score each seat would have if the game ended now, computed by
the kernel's own scoring, so there is no second copy of the rules) and extra per-decision
columns. Columns are computed over arrays of state records, so the batched engine and the
one-game loop share them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numba as nb
import numpy as np

from heist_envs.art_robbery import rules as art_rules
from heist_envs.art_robbery.state import PHASE_NAMES as ART_PHASES
from heist_envs.how_to_rob_a_bank.state import PHASE_NAMES as BANK_PHASES
from heist_envs.thiefs_market import rules as market_rules
from heist_envs.thiefs_market.actions import BUY_0, WAIVE_0
from heist_envs.thiefs_market.state import STAGE_NAMES as MARKET_STAGES
from heist_envs.toits_de_paris import rules as toits_rules
from heist_envs.toits_de_paris.state import PHASE_NAMES as TOITS_PHASES

#: Seats a score array holds: the most any game has.
MAX_SEATS = 5


@nb.njit(cache=True)
def art_robbery_score(s, out):
    """Loot value after the alibi penalty."""
    values = np.zeros(MAX_SEATS, np.int64)
    alibis = np.zeros(MAX_SEATS, np.int64)
    art_rules.final_scores(s, values, alibis)
    out[:] = values


@nb.njit(cache=True)
def toits_de_paris_score(s, out):
    """Card points plus the colour-majority tokens the collections earn now."""
    awards = np.zeros_like(s.token_award)
    totals = np.zeros_like(s.score)
    toits_rules.tally(s, awards, totals)
    out[: len(totals)] = totals[: len(out)]


@nb.njit(cache=True)
def thiefs_market_score(s, out):
    """Victory points with the end-of-game awards as they stand."""
    table = np.zeros((MAX_SEATS, market_rules.NUM_SCORE_COLUMNS), np.int64)
    market_rules.score_table(s, table)
    out[:] = table[:, market_rules.TOTAL]


def bought_card(states, actions):
    """Thief's Market: the card id (1-49) a buy action takes from the market, else 0."""
    buying = (actions >= BUY_0) & (actions < WAIVE_0)
    slots = np.where(buying, actions - BUY_0, 0)
    cards = states["market"][np.arange(len(states)), slots].astype(np.int64) + 1
    return np.where(buying, cards, 0)


@dataclass(frozen=True)
class GameStudy:
    """How the studies read one game's states.

    ``phase``: the state field holding the phase, ``phase_names`` its names; ``rounds(s)``:
    how long a finished game was, in the game's own rounds (``rounds_doc`` says how they are
    counted, printed after the word "rounds"); ``score``: a compiled ``score(s, out)``
    writing each seat's running score, or None where the game has no per-seat score race;
    ``columns``: extra per-decision columns, each ``f(states, actions) -> array``.
    """

    phase: str
    phase_names: tuple[str, ...]
    rounds: Callable
    rounds_doc: str
    score: Callable | None = None
    columns: dict[str, Callable] = field(default_factory=dict)


def state_field(name):
    def column(states, actions):
        return states[name].astype(np.int64)

    column.__doc__ = f"the state field {name!r} at the decision"
    return column


STUDIES = {
    "art_robbery": GameStudy(
        phase="phase",
        phase_names=ART_PHASES,
        rounds=lambda s: float(s.turns) / int(s.num_players),
        rounds_doc="card plays divided by the player count",
        score=art_robbery_score,
        columns={"raid": state_field("raid")},
    ),
    "toits_de_paris": GameStudy(
        phase="phase",
        phase_names=TOITS_PHASES,
        rounds=lambda s: float(s.turn) / int(s.num_players),
        rounds_doc="turns (one leader each) divided by the player count",
        score=toits_de_paris_score,
        columns={"revealed": state_field("n"), "inspector": state_field("insp")},
    ),
    "how_to_rob_a_bank": GameStudy(
        phase="phase",
        phase_names=BANK_PHASES,
        rounds=lambda s: float(s.round_num),
        rounds_doc="at most 3 in a heist",
        columns={"round": state_field("round_num"), "stolen": state_field("stolen")},
    ),
    "thiefs_market": GameStudy(
        phase="stage",
        phase_names=MARKET_STAGES,
        rounds=lambda s: float(s.round_number),
        rounds_doc="one Divide and one Purchase phase each",
        score=thiefs_market_score,
        columns={"round": state_field("round_number"), "card": bought_card},
    ),
}


_SCORERS = {}


def score_states(game_name: str, states: np.ndarray) -> np.ndarray | None:
    """The running score of every seat in each of ``states`` ([len, MAX_SEATS] floats), or
    None for a game without one. ``states`` is a plain array of the game's state dtype."""
    score = STUDIES[game_name].score
    if score is None:
        return None
    if game_name not in _SCORERS:

        @nb.njit
        def score_all(states, out):
            for i in range(len(states)):
                score(states[i], out[i])

        _SCORERS[game_name] = score_all
    out = np.zeros((len(states), MAX_SEATS), np.float64)
    _SCORERS[game_name](states, out)
    return out
