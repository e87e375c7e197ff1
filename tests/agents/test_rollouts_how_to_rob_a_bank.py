"""How to Rob a Bank's ISMCTS rollout policy: legal, reproducible, sensible values, and a search
that uses it finds the winning throw."""

import numba as nb
import numpy as np
import pytest

import heist_envs
from agents.base import InfoSet
from agents.how_to_rob_a_bank import rollout as policy
from agents.ismcts import ISMCTSAgent
from heist_envs.how_to_rob_a_bank import actions as A
from heist_envs.how_to_rob_a_bank.components import SPACE_ROOM, SPACE_SIDE
from heist_envs.how_to_rob_a_bank.state import CARRIED, ROB, STOLEN

GAME = heist_envs.get_game("how_to_rob_a_bank")


def mask_of(state):
    mask = np.zeros(GAME.num_actions, np.int8)
    GAME.legal_mask(GAME.kernel_view(state)[0], mask)
    return mask


def policy_action(state):
    return int(policy.rollout_action(GAME.kernel_view(state)[0], mask_of(state)))


def play_out(state, seed, chooser):
    """Play ``state`` to the end with ``chooser``; the actions taken."""
    rng = np.random.default_rng(seed)
    taken = []
    while state[0].status == 0:
        mask = mask_of(state)
        a = chooser(state, mask, rng)
        assert mask[a], f"illegal action {GAME.action_name(a)} in phase {state[0].phase}"
        taken.append(a)
        GAME.apply(GAME.kernel_view(state)[0], a)
    return taken


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_rollout_action_is_legal_in_random_and_policy_games(num_players):
    np.random.seed(0)
    for k in range(6):
        # random playouts: the policy's action is checked at every state they reach
        def random_but_check(state, mask, rng):
            assert mask[policy_action(state)]
            return int(rng.choice(np.flatnonzero(mask)))

        play_out(GAME.new_state(num_players, seed=k), k, random_but_check)
        # the policy playing every seat
        play_out(GAME.new_state(num_players, seed=100 + k), k, lambda st, m, r: policy_action(st))


@nb.njit
def seed_numba(seed):
    np.random.seed(seed)  # numba's generator, the one the search seeds


def test_rollout_action_is_reproducible_from_numbas_seed():
    def run():
        seed_numba(5)
        state = GAME.new_state(4, seed=3)
        return play_out(state, 0, lambda st, m, r: policy_action(st))

    first = run()
    assert len(first) > 50 and first == run()


def test_policy_robbers_steal_bags():
    """Random robbers almost never steal; the policy's robbers do (the point of the policy)."""
    stolen = 0
    for k in range(10):
        state = GAME.new_state(4, seed=200 + k)
        play_out(state, k, lambda st, m, r: policy_action(st))
        stolen += int((state[0].bag_where == STOLEN).sum())
    assert stolen >= 20  # about 4 a game; random robbers steal about 0


def rob_state(num_players, seed):
    """A state at a robber's first decision of a ROB turn, reached by policy play."""
    state = GAME.new_state(num_players, seed=seed)
    while not (state[0].phase == ROB and state[0].actor > 0):
        GAME.apply(GAME.kernel_view(state)[0], policy_action(state))
    return state


@pytest.mark.parametrize("num_players", [3, 4])
def test_evaluate_gives_opposite_team_values_within_the_return_scale(num_players):
    state = GAME.new_state(num_players, seed=1)
    seats = GAME.num_seats(num_players)
    out = np.full(seats, 9.0, np.float32)
    policy.evaluate(GAME.kernel_view(state.copy())[0], out)  # from setup: plays on to ROB
    assert np.all(np.abs(out) <= 1.0)
    assert np.allclose(out[1:], -out[0])
    # a team one bag short of the target with a bag in hand is far more likely to win
    rob = rob_state(num_players, seed=1)
    fresh = np.zeros(seats, np.float32)
    policy.evaluate(GAME.kernel_view(rob.copy())[0], fresh)
    near = winning_throw_state(num_players)
    close = np.zeros(seats, np.float32)
    policy.evaluate(GAME.kernel_view(near.copy())[0], close)
    assert close[1] > fresh[1] + 0.5


def winning_throw_state(num_players):
    """A robber's turn in which THROW reaches the target and wins at once."""
    state = rob_state(num_players, seed=4)
    s = state[0]
    me = s.actor - 1
    space = next(sp for sp in range(12) if s.wall[SPACE_ROOM[sp]] != SPACE_SIDE[sp])
    s.vehicle = space
    s.robber_room[me] = SPACE_ROOM[space]
    for g in range(s.n_guards):
        if s.guard_room[g] == s.robber_room[me]:
            s.guard_awake[g] = 0
    bags = list(range(7))
    for b in bags[: s.target - 1]:
        s.bag_where[b], s.bag_at[b] = STOLEN, -1
    s.stolen = s.target - 1
    b = bags[s.target - 1]
    s.bag_where[b], s.bag_at[b] = CARRIED, me
    return state


@pytest.mark.parametrize("num_players", [3, 4])
def test_policy_and_search_take_the_winning_throw(num_players):
    state = winning_throw_state(num_players)
    mask = mask_of(state)
    assert mask[A.THROW] and mask.sum() > 1
    seed_numba(0)  # the policy plays a random move with chance EPSILON
    assert policy_action(state) == A.THROW
    seat = int(state[0].actor)
    agent = ISMCTSAgent("how_to_rob_a_bank", simulations=200, seed=0)
    assert (
        agent.rollout == "policy"
        and agent.settings["rollout_depth"] == policy.SEARCH_DEFAULTS["rollout_depth"]
    )
    assert agent.act(None, mask, InfoSet(GAME, state, seat)) == A.THROW


def test_search_with_the_policy_robs_a_random_bank():
    """Searching robbers beat a random bank (random robbers steal almost nothing)."""
    from agents.arena import play
    from agents.base import RandomAgent

    wins = 0
    for k in range(2):
        agents = [RandomAgent(k)]
        agents += [
            ISMCTSAgent("how_to_rob_a_bank", simulations=100, seed=10 * k + s) for s in (1, 2)
        ]
        wins += play("how_to_rob_a_bank", agents, 3, seed=300 + k).rewards[1] > 0
    assert wins == 2
