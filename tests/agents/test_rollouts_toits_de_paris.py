"""The rollout policy and evaluation of Les Toits de Paris for ISMCTS."""

import numba as nb
import numpy as np
import pytest

import heist_envs
from agents.arena import play
from agents.base import RandomAgent
from agents.ismcts import ISMCTSAgent
from agents.toits_de_paris import rollout as tdp
from heist_envs.core.game import RUNNING
from heist_envs.toits_de_paris import rules
from heist_envs.toits_de_paris.actions import CONTINUE, NUM_ACTIONS, STOP, TAKE_SPACE_1
from heist_envs.toits_de_paris.components import NUM_PLAYERS_MAX, NUM_TOKEN_SETS

GAME = heist_envs.get_game("toits_de_paris")
legal_mask, apply = GAME.legal_mask, GAME.apply


@nb.njit
def _check_playout(st, seed, out):
    """Play a game with the rollout policy; count illegal picks and scoring mismatches with
    rules.tally; write each visited state's evaluation sums into ``out``."""
    s = st[0]
    np.random.seed(seed)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    values = np.zeros((NUM_PLAYERS_MAX, NUM_TOKEN_SETS), np.int64)
    vp = np.zeros(NUM_PLAYERS_MAX, np.int64)
    bells = np.zeros((NUM_PLAYERS_MAX, 5), np.int64)
    holder = np.zeros(NUM_TOKEN_SETS, np.int64)
    scores = np.zeros(NUM_PLAYERS_MAX, np.float64)
    scratch = np.zeros((NUM_PLAYERS_MAX, NUM_TOKEN_SETS), np.int8)
    awards = np.zeros_like(s.token_award)
    totals = np.zeros_like(s.score)
    chances = np.zeros(s.num_players, np.float32)
    illegal = mismatches = bad_eval = moves = 0
    while s.status == RUNNING:
        legal_mask(s, mask)
        action = tdp.rollout_action(s, mask)
        if action < 0 or action >= NUM_ACTIONS or mask[action] == 0:
            illegal += 1
            break
        tdp.collect(s, values, vp, bells, holder)
        tdp.score_now(s, values, vp, holder, scratch, scores)
        rules.tally(s, awards, totals)
        for p in range(s.num_players):
            if scores[p] != totals[p]:
                mismatches += 1
        tdp.evaluate(s, chances)
        total = 0.0
        for p in range(s.num_players):
            total += chances[p]
            if not 0.0 <= chances[p] <= 1.0:
                bad_eval += 1
        if abs(total - 1.0) > 1e-4:
            bad_eval += 1
        apply(s, action)
        moves += 1
    out[0], out[1], out[2], out[3] = illegal, mismatches, bad_eval, moves


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_rollout_policy_is_legal_and_scores_like_the_kernel(num_players):
    out = np.zeros(4, np.int64)
    for seed in range(40):
        state = GAME.new_state(num_players, seed=seed)
        _check_playout(GAME.kernel_view(state), seed, out)
        illegal, mismatches, bad_eval, moves = out
        assert illegal == 0, f"seed {seed}: illegal rollout action"
        assert mismatches == 0, f"seed {seed}: score_now differs from rules.tally"
        assert bad_eval == 0, f"seed {seed}: evaluate is not a distribution over seats"
        assert moves > 20
        assert state[0].status != RUNNING


@nb.njit
def _actions(st, seed, count):
    s = st[0]
    np.random.seed(seed)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    legal_mask(s, mask)
    out = np.zeros(count, np.int64)
    for i in range(count):
        out[i] = tdp.rollout_action(s, mask)
    return out


def test_rollout_policy_is_deterministic_given_the_seed_and_random_only_sometimes():
    state = GAME.new_state(4, seed=3)
    view = GAME.kernel_view(state)
    first = _actions(view, 11, 200)
    assert (first == _actions(view, 11, 200)).all()
    # at the first theft decision (one card, inspector far) the policy reveals on; the
    # epsilon-random part stops now and then
    assert state[0].phase == rules.THEFT and state[0].n == 1
    share = (first == CONTINUE).mean()
    assert 1 - tdp.EPSILON <= share < 1.0
    assert set(first.tolist()) <= {STOP, CONTINUE}


@nb.njit
def _policy(st):
    mask = np.zeros(NUM_ACTIONS, np.int8)
    legal_mask(st[0], mask)
    return tdp.policy_action(st[0], mask, tdp.WEIGHTS)


def _deck_with_draw(top_cards):
    """A deck order whose draw pile starts with ``top_cards``."""
    rest = [c for c in range(90) if c not in top_cards]
    return rest[:15] + list(top_cards) + rest[15:]


def test_policy_takes_the_valuable_card_and_presses_on_when_safe():
    # Draw: c0:P, c1:V2 (card 18 + 12 = 30), c2:P; no arrows, so the leader may continue.
    state = GAME.new_state(2, seed=0, options={"deck_order": _deck_with_draw([14, 30, 50])})
    view = GAME.kernel_view(state)
    assert _policy(view) == CONTINUE  # one card, inspector at its notch
    apply(view[0], CONTINUE)
    apply(view[0], CONTINUE)
    apply(view[0], STOP)  # three cards, the leader must take one
    assert _policy(view) == TAKE_SPACE_1 + 1  # the 2-point card on space 2


def test_evaluate_favours_the_leader_in_score_and_sharpens_with_fewer_cards_left():
    state = GAME.new_state(3, seed=5)
    s = state[0]
    s.card_loc[:] = np.where(s.card_loc >= 4, 3, s.card_loc)  # nobody holds a card...
    s.card_loc[30] = 4  # ...but seat 0 holds c1:V2
    out = np.zeros(3, np.float32)
    view = GAME.kernel_view(state)
    tdp.evaluate(view[0], out)
    assert out.sum() == pytest.approx(1.0)
    assert out[0] > out[1] == pytest.approx(out[2])
    early = out[0]
    s.draw_top = 88  # two cards left to draw
    s.reserve_top = 15
    tdp.evaluate(view[0], out)
    assert out[0] > early


def test_ismcts_with_the_policy_beats_random_players():
    wins = 0
    games = 6
    for k in range(games):
        agents = [RandomAgent(k * 10 + s) for s in range(3)]
        agents[k % 3] = ISMCTSAgent("toits_de_paris", simulations=150, seed=k)
        assert agents[k % 3].rollout == "policy"
        result = play("toits_de_paris", agents, 3, seed=200 + k)
        wins += result.rewards[k % 3] == max(result.rewards)
    assert wins >= 5  # a random seat wins about a third of the time
