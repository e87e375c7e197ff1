"""ISMCTS: legal, reproducible, honest, and better than random."""

import numpy as np
import pytest

import heist_envs
from agents.arena import play
from agents.base import InfoSet, RandomAgent
from agents.ismcts import UNEXPANDED, ISMCTSAgent, Tree, child_of, compiled_search
from heist_envs.how_to_rob_a_bank.state import PLAN, ROB, SETUP_CORNER, SETUP_STREET


@pytest.mark.slow  # compiles the search of every game (a minute and a half on a cold cache)
@pytest.mark.parametrize("name", heist_envs.game_names())
def test_ismcts_plays_legal_moves_in_every_game_and_player_count(name):
    game = heist_envs.get_game(name)
    for n in (game.min_players, game.max_players):
        seats = game.num_seats(n)
        agents = [ISMCTSAgent(name, simulations=30, seed=s) for s in range(seats)]
        result = play(name, agents, n, seed=3)  # the env raises on an illegal action
        assert len(result.rewards) == seats


def test_ismcts_is_reproducible_from_its_seed():
    def run():
        agents = [ISMCTSAgent("art_robbery", simulations=50, seed=s) for s in range(3)]
        return play("art_robbery", agents, 3, seed=8).rewards

    assert run() == run()


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_ismcts_decision_ignores_hidden_information(name):
    """Worlds of one information set give the same decision (same seed)."""
    game = heist_envs.get_game(name)
    env = heist_envs.make(name)
    env.reset(seed=12)
    for _ in range(6):
        env.step(env.legal_actions()[0])
    seat = env.possible_agents.index(env.agent_selection)
    mask = env.observe(env.agent_selection)["action_mask"]
    other = env._state.copy()
    game.determinize(other[0], seat, np.uint64(5))
    decisions = []
    for state in (env._state, other):
        agent = ISMCTSAgent(name, simulations=200, seed=1)
        decisions.append(agent.act(None, mask, InfoSet(game, state, seat)))
    assert decisions[0] == decisions[1]


def test_ismcts_beats_random_at_art_robbery():
    wins = 0
    for k in range(8):
        agents = [RandomAgent(k * 10 + s) for s in range(3)]
        agents[k % 3] = ISMCTSAgent("art_robbery", simulations=300, seed=k)
        wins += play("art_robbery", agents, 3, seed=100 + k).rewards[k % 3] > 0
    assert wins >= 6  # a random seat wins about a third of the time


def test_ismcts_time_budget():
    agent = ISMCTSAgent("toits_de_paris", seconds=0.05, seed=0)
    play("toits_de_paris", [agent] + [RandomAgent(s) for s in range(3)], 4, seed=2)
    assert agent.simulations_run > 0


def test_ismcts_rejects_unknown_rollouts_and_cuts_it_cannot_score():
    with pytest.raises(ValueError, match="unknown rollout 'greedy'; choose one of policy, random"):
        ISMCTSAgent("art_robbery", rollout="greedy")
    with pytest.raises(ValueError, match="art_robbery has no rollout policy"):
        ISMCTSAgent("art_robbery", rollout="policy")
    with pytest.raises(ValueError, match="rollout_depth and evaluate_end need rollout=.policy."):
        ISMCTSAgent("art_robbery", rollout="random", rollout_depth=5)
    with pytest.raises(ValueError, match="setting.s. depth; settings: simulations, seconds, .*uct"):
        ISMCTSAgent("art_robbery", depth=3)


def test_children_are_keyed_by_the_seat_that_moves():
    """Where hidden cards decide who acts, one action leads to one child per acting seat."""
    tree = Tree.empty(4, 3)
    children, sibling, mover = tree.children, tree.sibling, tree.mover
    for child, actor in ((1, 2), (2, 0)):  # seat 2, then seat 0, play action 1 at the root
        sibling[child], children[0, 1], mover[child] = children[0, 1], child, actor
    assert child_of(children, sibling, mover, 0, 1, 2) == 1
    assert child_of(children, sibling, mover, 0, 1, 0) == 2
    assert child_of(children, sibling, mover, 0, 1, 1) == UNEXPANDED
    assert child_of(children, sibling, mover, 0, 0, 2) == UNEXPANDED


@pytest.mark.parametrize("tree_depth, grows_deeper", [(1, False), (-1, True)])
def test_tree_depth_one_searches_only_the_root_moves(tree_depth, grows_deeper):
    game = heist_envs.get_game("art_robbery")
    env = heist_envs.make("art_robbery")
    env.reset(seed=4)
    legal = env.legal_actions()
    tree = Tree.empty(301, game.num_actions)
    size = np.ones(1, np.int64)
    state = game.kernel_view(env._state)
    search = compiled_search(game)
    no_prior = np.zeros(game.num_actions)
    search(state, state.copy(), 0, 1, 300, 1.4, tree, size, 4, -1, tree_depth, False, no_prior, 0.0)
    assert (size[0] > 1 + len(legal)) == grows_deeper
    assert tree.visits[1 : 1 + len(legal)].sum() == 300


def _root_visits(prior, prior_c, sims=60):
    game = heist_envs.get_game("art_robbery")
    env = heist_envs.make("art_robbery")
    env.reset(seed=4)
    legal = env.legal_actions()
    tree = Tree.empty(sims + 1, game.num_actions)
    size = np.ones(1, np.int64)
    state = game.kernel_view(env._state)
    search = compiled_search(game)
    search(state, state.copy(), 0, 1, sims, 1.4, tree, size, 4, -1, -1, False, prior, prior_c)
    roots = [child_of(tree.children, tree.sibling, tree.mover, 0, a, 0) for a in legal]
    return legal, [tree.visits[c] if c != UNEXPANDED else 0 for c in roots]


def test_a_prior_steers_the_root_search_by_puct():
    prior = np.zeros(heist_envs.get_game("art_robbery").num_actions)
    legal, plain = _root_visits(prior, 0.0)
    assert min(plain) >= 1  # UCT tries every root move first
    prior[legal[-1]] = 1.0
    _, guided = _root_visits(prior, 10.0)
    assert guided == [0] * (len(legal) - 1) + [60]  # PUCT need not try the moves it rates 0


def test_a_prior_policy_guides_the_agent_and_keeps_to_its_player_count():
    env = heist_envs.make("thiefs_market")
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)
    seat = env.possible_agents.index(env.agent_selection)
    info_set = InfoSet(env.game, env._state.copy(), seat)
    legal = np.flatnonzero(obs["action_mask"])
    guided = ISMCTSAgent("thiefs_market", simulations=60, seed=1, prior="shipped", num_players=4)
    probs = guided.prior_probabilities(obs["observation"], legal)
    assert probs.sum() == pytest.approx(1.0) and probs[legal].sum() == pytest.approx(1.0)
    plain = ISMCTSAgent("thiefs_market", simulations=60, seed=1)
    assert list(guided.visit_counts(legal, info_set, obs["observation"])) != list(
        plain.visit_counts(legal, info_set)
    )
    with pytest.raises(ValueError, match="observation"):
        guided.visit_counts(legal, info_set)
    with pytest.raises(ValueError, match="trained for how_to_rob_a_bank with 4 players, not"):
        ISMCTSAgent("how_to_rob_a_bank", prior="shipped", num_players=2)
    with pytest.raises(ValueError, match="prior_c needs a prior policy"):
        ISMCTSAgent("thiefs_market", prior_c=2.0)


def test_prior_alone_plays_the_prior_in_the_phases_the_game_names_and_searches_elsewhere():
    """How to Rob a Bank's setup and planning follow the prior alone; the Rob phase is searched."""
    env = heist_envs.make("how_to_rob_a_bank")
    env.reset(seed=3)
    simulations = 40
    agent = ISMCTSAgent(
        "how_to_rob_a_bank",
        simulations=simulations,
        seed=1,
        prior="shipped",
        prior_alone=True,
        num_players=4,
    )
    searched, unsearched = set(), set()
    for name in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        assert not (termination or truncation)
        legal = np.flatnonzero(obs["action_mask"])
        phase = int(env._state[0]["phase"])
        info_set = InfoSet(env.game, env._state, env.possible_agents.index(name))
        before = agent.simulations_run
        action = agent.act(obs["observation"], obs["action_mask"], info_set)
        if len(legal) > 1 and agent.simulations_run == before:
            probs = agent.prior_probabilities(obs["observation"], legal)
            assert action == legal[np.argmax(probs[legal])]
            unsearched.add(phase)
        elif len(legal) > 1:
            assert agent.simulations_run == before + simulations
            searched.add(phase)
        if ROB in searched:
            break
        env.step(action)
    assert unsearched == {SETUP_CORNER, SETUP_STREET, PLAN} and searched == {ROB}
    with pytest.raises(ValueError, match="prior_alone needs a prior policy"):
        ISMCTSAgent("how_to_rob_a_bank", prior_alone=True)
    with pytest.raises(ValueError, match="thiefs_market names no phases for a prior"):
        ISMCTSAgent("thiefs_market", prior="shipped", prior_alone=True, num_players=4)


def test_how_to_rob_a_bank_lets_a_prior_plan_alone_by_default():
    """The game's SEARCH_DEFAULTS: with a prior, the policy plans and the Rob phase is searched
    without its pull; without one, the search is unchanged; a setting given wins."""
    guided = ISMCTSAgent("how_to_rob_a_bank", prior="shipped", num_players=4)
    assert guided.prior_alone_phases == (SETUP_CORNER, SETUP_STREET, PLAN)
    assert guided.settings["prior_c"] == 0.0
    assert ISMCTSAgent("how_to_rob_a_bank").prior_alone_phases == ()
    pulled = ISMCTSAgent("how_to_rob_a_bank", prior="shipped", num_players=4, prior_alone=False)
    assert pulled.prior_alone_phases == ()
    assert ISMCTSAgent("thiefs_market", prior="shipped", num_players=4).prior_alone_phases == ()
