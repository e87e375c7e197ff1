"""Vault, the test game: take one or two gold bars in turn; whoever takes the last one wins.

=================  =====================================================
Agents             ``player_0`` ... ``player_{n-1}``, 2 to 3 players
Actions            ``Discrete(2)``: 0 take one bar, 1 take two bars
Rewards            terminal: +1 to the player who took the last bar, -1 otherwise
=================  =====================================================

A whole game in one small folder, registered from the tests alone: it proves that every floor
(the AEC env, the batched engine, the arena, the metrics, the docs generator, the web table)
serves a game it was never told about.
"""

import numpy as np

from heist_envs.core.breakdown import breakdown, part, ranking
from heist_envs.core.game import Game

from . import rules


def setup(s, seed, options):
    rules.init(s, seed)


def took_last(s):
    """1 for the seat that took the last bar, 0 for the others."""
    won = np.zeros(int(s.num_players), np.int64)
    if s.last_taker >= 0 and s.bars == 0:
        won[s.last_taker] = 1
    return won


def scores(s):
    return {"took_last": took_last(s).tolist()}


def score_breakdown(s):
    names = GAME.agent_names(int(s.num_players))
    winners, text = ranking(names, [("last bars", took_last(s))])
    return breakdown(s, [part("took the last bar", took_last(s))], winners, text)


GAME = Game.from_package(__name__, title="Vault", default_players=2, chance=True)
