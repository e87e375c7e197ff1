"""How to Rob a Bank invariants over random playouts (hypothesis picks seeds and player counts)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from heist_envs.core.game import RUNNING, TERMINATED
from heist_envs.how_to_rob_a_bank import GAME
from heist_envs.how_to_rob_a_bank.components import DECK_COUNTS, NUM_BAGS, NUM_CYCLES, NUM_ROUNDS
from heist_envs.how_to_rob_a_bank.state import (
    CARRIED,
    FLOOR,
    GAME_OVER,
    ROB,
    ROBBERS_WIN,
    STACK_SIZE,
    STOLEN,
    SUPPLY,
)
from tests.helpers import random_playout

from .positions import connected


def check_invariants(s):
    seats = int(s.n_seats)
    robbers, guards = int(s.n_robbers), int(s.n_guards)
    # 7 bags, each in exactly one place; only floor bags can be locked.
    where, at = s.bag_where, s.bag_at
    assert len(where) == NUM_BAGS
    assert np.isin(where, [SUPPLY, FLOOR, CARRIED, STOLEN]).all()
    assert ((at >= 0) & (at < 9))[where == FLOOR].all()
    assert ((at >= 0) & (at < robbers))[where == CARRIED].all()
    assert (at[(where == SUPPLY) | (where == STOLEN)] == -1).all()
    assert (s.bag_locked[where != FLOOR] == 0).all()
    assert s.stolen == (where == STOLEN).sum()
    for x in range(robbers):
        if not s.robber_awake[x]:
            assert not ((where == CARRIED) & (at == x)).any(), "unconscious robbers carry nothing"
    # 15 cards per deck: pool (hand + aside) + planned not yet played + played.
    for p in range(seats):
        planned = s.stack[p, s.n_revealed[p] : s.n_planned[p]]
        unplayed = np.bincount(planned, minlength=8)
        total = s.hand[p] + s.aside[p] + unplayed + s.played[p]
        assert (total == DECK_COUNTS[p]).all()
        assert (s.stack[p, s.n_planned[p] :] == -1).all() and s.n_planned[p] <= STACK_SIZE
    assert (s.hand[seats:] == 0).all() and (s.aside[seats:] == 0).all()
    # Every piece in play stands in a room; pieces not in play are nowhere.
    assert ((s.guard_room[:guards] >= 0) & (s.guard_room[:guards] < 9)).all()
    assert ((s.robber_room[:robbers] >= 0) & (s.robber_room[:robbers] < 9)).all()
    assert (s.guard_room[guards:] == -1).all() and (s.robber_room[robbers:] == -1).all()
    # The enclosure fix always leaves a connected bank.
    assert connected(s)
    if s.phase == ROB:
        assert 0 <= s.vehicle < 12
        if s.actor == 0:
            assert s.guard_awake[:guards].any(), "A4 leaves the bank a conscious guard"
    if s.status == RUNNING:
        assert 0 <= s.actor < seats
        assert s.stolen < s.target


def recompute_returns(s):
    """Team rewards from the final position, written out from the rulebook."""
    robbers_won = (s.bag_where == STOLEN).sum() >= s.target
    bank = -1.0 if robbers_won else 1.0
    return [bank] + [-bank] * (int(s.n_seats) - 1)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), num_players=st.integers(2, 4))
def test_random_playouts_keep_every_invariant_and_end(seed, num_players):
    state = random_playout(GAME, num_players, seed, on_step=check_invariants)
    s = state[0]
    assert s.status == TERMINATED and s.phase == GAME_OVER and s.actor == -1
    if s.winner == ROBBERS_WIN:
        assert s.stolen >= s.target
    else:
        assert s.stolen < s.target and s.round_num == NUM_ROUNDS
        assert (s.n_revealed[: s.n_seats] == NUM_ROUNDS * NUM_CYCLES).all()
    out = np.zeros(int(s.n_seats), np.float32)
    GAME.returns(s, out)
    assert out.tolist() == recompute_returns(s)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), num_players=st.integers(2, 4))
def test_early_end_only_ends_lost_causes(seed, num_players):
    """With the D26 option the bank may win early, and only when the target is out of reach."""
    state = random_playout(GAME, num_players, seed, options={"early_end": True})
    s = state[0]
    if s.winner != ROBBERS_WIN and s.round_num < NUM_ROUNDS:
        rounds_left = NUM_ROUNDS - int(s.round_num)
        assert s.stolen + s.bags_per_round * rounds_left < s.target
