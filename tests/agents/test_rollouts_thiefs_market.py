"""Thief's Market rollouts: legal, reproducible, on the returns' scale, and better than random."""

import numba as nb
import numpy as np
import pytest

import heist_envs
from agents.arena import play
from agents.base import RandomAgent
from agents.ismcts import ISMCTSAgent
from agents.profiles import profile
from agents.thiefs_market.rollout import SEARCH_DEFAULTS, evaluate, rollout_action
from heist_envs.core.game import RUNNING
from heist_envs.core.playout import random_legal_action

GAME = heist_envs.get_game("thiefs_market")
NUM_ACTIONS = GAME.num_actions
apply, legal_mask, returns = GAME.apply, GAME.legal_mask, GAME.returns


@nb.njit
def _seed(seed):
    np.random.seed(seed)


@nb.njit
def _check_random_playouts(root, world, games, seed):
    """Random playouts from ``root``; at every state the policy's move must be legal and
    ``evaluate`` a probability split on the +-1 scale. Returns (states, problems)."""
    np.random.seed(seed)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    out = np.zeros(5)
    n = root[0].num_players
    states = 0
    problems = 0
    for _ in range(games):
        world[0] = root[0]
        s = world[0]
        while s.status == RUNNING:
            legal_mask(s, mask)
            a = rollout_action(s, mask)
            states += 1
            if a < 0 or a >= NUM_ACTIONS or mask[a] == 0:
                problems += 1
            out[:] = 7.0
            evaluate(s, out)
            share = 0.0
            for q in range(n):
                if not -1.0 <= out[q] <= 1.0:
                    problems += 1
                share += (out[q] + 1.0) / 2.0
            for q in range(n, 5):
                if out[q] != 0.0:
                    problems += 1
            if abs(share - 1.0) > 1e-6:  # exactly one winner's worth of chances
                problems += 1
            apply(s, random_legal_action(mask, NUM_ACTIONS))
    return states, problems


@nb.njit
def _policy_game(root, world, policy_seats, seed):
    """One game from ``root``: seats flagged in ``policy_seats`` use the rollout policy, the
    others random moves. Returns (the seats' returns, the number of moves)."""
    np.random.seed(seed)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    world[0] = root[0]
    s = world[0]
    moves = 0
    while s.status == RUNNING:
        legal_mask(s, mask)
        if policy_seats[s.actor]:
            apply(s, rollout_action(s, mask))
        else:
            apply(s, random_legal_action(mask, NUM_ACTIONS))
        moves += 1
    out = np.zeros(5)
    returns(s, out)
    return out, moves


def _root(num_players, seed):
    return GAME.kernel_view(GAME.new_state(num_players, seed=seed))


def test_the_agent_finds_the_module_and_its_defaults():
    module = profile("thiefs_market").rollout
    assert module is not None and module.rollout_action is rollout_action
    agent = ISMCTSAgent("thiefs_market")
    assert agent.rollout == "policy"
    assert agent.settings["uct_c"] == SEARCH_DEFAULTS["uct_c"]
    assert agent.settings["rollout_depth"] == SEARCH_DEFAULTS["rollout_depth"] > 0


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_policy_moves_are_legal_and_evaluate_is_a_win_chance_split(num_players):
    root = _root(num_players, seed=num_players)
    states, problems = _check_random_playouts(root, root.copy(), 6, 11 * num_players)
    assert states > 1000
    assert problems == 0


@pytest.mark.parametrize("num_players", [3, 5])
def test_policy_playouts_are_legal_to_the_end(num_players):
    """Whole games of policy moves (the rollout's own states, not random ones)."""
    root = _root(num_players, seed=20 + num_players)
    for k in range(5):
        rewards, moves = _policy_game(root, root.copy(), np.ones(5, np.bool_), k)
        assert moves > 50
        assert sorted(set(rewards[:num_players])) in ([-1.0, 1.0], [1.0], [0.0])


def test_policy_is_reproducible_from_numbas_seed():
    root = _root(4, seed=3)
    runs = [_policy_game(root, root.copy(), np.ones(5, np.bool_), 42) for _ in range(2)]
    assert runs[0][1] == runs[1][1]
    assert np.array_equal(runs[0][0], runs[1][0])
    _seed(1)
    first = [rollout_action(root[0], _mask(root)) for _ in range(20)]
    _seed(1)
    again = [rollout_action(root[0], _mask(root)) for _ in range(20)]
    assert first == again


def _mask(root):
    mask = np.zeros(NUM_ACTIONS, np.int8)
    legal_mask(root[0], mask)
    return mask


def test_evaluate_favours_the_seat_that_is_ahead():
    state = GAME.new_state(4, seed=9)
    state[0].infamy[2] = 15
    out = np.zeros(5)
    evaluate(GAME.kernel_view(state)[0], out)
    assert out.argmax() == 2
    assert out[2] > 0 > out[0]
    assert np.allclose(out[0], out[[1, 3]])


def test_policy_beats_random_players():
    wins = 0
    for k in range(12):
        root = _root(4, seed=100 + k)
        seats = np.zeros(5, np.bool_)
        seats[k % 4] = True
        rewards, _ = _policy_game(root, root.copy(), seats, k)
        wins += rewards[k % 4] > 0
    assert wins >= 10  # a random seat wins about a quarter of the time


def test_ismcts_with_the_policy_beats_random_players():
    wins = 0
    for k in range(3):
        agents = [RandomAgent(k * 10 + s) for s in range(3)]
        agents[k] = ISMCTSAgent("thiefs_market", simulations=100, seed=k)
        wins += play("thiefs_market", agents, 3, seed=200 + k).rewards[k] > 0
    assert wins == 3
