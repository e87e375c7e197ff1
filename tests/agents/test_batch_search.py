"""The batched search: ISMCTS's moves where configured as ISMCTS, honest, and strict on input."""

import numpy as np
import pytest

import heist_envs
from agents.arena import play
from agents.base import InfoSet
from agents.batch_search import (
    MAX_BATCH,
    MAX_NODES,
    MAX_SIMULATIONS,
    BatchSearch,
    BatchSearchAgent,
    RolloutEvaluator,
    considered_visits,
)
from agents.ismcts import ISMCTSAgent
from agents.registry import make_agent
from heist_envs.core.game import RUNNING


def decision_states(name, num_players, count, seed=0):
    """States of decisions with a choice, from games of random moves."""
    game = heist_envs.get_game(name)
    rng = np.random.default_rng(seed)
    mask = np.zeros(game.num_actions, np.int8)
    states = []
    while len(states) < count:
        state = game.kernel_view(game.new_state(num_players, seed + len(states)))
        _, status = game.entry.refresh(state, mask)
        while status == RUNNING and len(states) < count:
            legal = np.flatnonzero(mask)
            if len(legal) > 1:
                states.append(state.copy())
            _, status = game.entry.advance(state, legal[rng.integers(len(legal))], mask)
    return np.concatenate(states)


class Recorder(ISMCTSAgent):
    """ISMCTS that keeps the visit counts of every search it makes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.searches = []

    def visit_counts(self, legal, info_set, observation=None):
        counts = super().visit_counts(legal, info_set, observation)
        self.searches.append((legal, counts))
        return counts


@pytest.mark.parametrize(
    "name, settings",
    [(name, {}) for name in heist_envs.game_names()] + [("thiefs_market", {"rollout": "random"})],
)
def test_uct_selection_makes_the_moves_and_counts_of_ismcts_seed_for_seed(name, settings):
    """Configured as today's ISMCTS (UCT, uniform prior ignored, the game's rollouts, one
    search at a time) the batched search visits every root move as often as ISMCTS does,
    decision by decision through a whole game, and so plays the same game."""
    env = heist_envs.make(name, num_players=3)
    env.reset(seed=5)
    seats = len(env.possible_agents)
    ismcts = [Recorder(name, simulations=30, seed=s, **settings) for s in range(seats)]
    batched = [
        BatchSearchAgent(name, simulations=30, seed=s, selection="uct", **settings).searcher
        for s in range(seats)
    ]
    searched = 0
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        info_set = InfoSet(env.game, env._state, seat)
        action = ismcts[seat].act(obs["observation"], obs["action_mask"], info_set)
        if np.count_nonzero(obs["action_mask"]) > 1:
            result = batched[seat].search(info_set.kernel_state())
            legal, counts = ismcts[seat].searches[-1]
            assert list(result.visits[0, legal]) == list(np.maximum(counts, 0))
            assert result.actions[0] == action
            searched += 1
        env.step(action)
    assert searched > 50


def test_the_ismcts_spec_with_uct_selection_plays_the_games_of_ismcts():
    def game(**spec):
        agents = [make_agent("ismcts", "art_robbery", seed=s, **spec) for s in range(3)]
        actions = []
        play("art_robbery", agents, 3, seed=8, on_step=lambda env, name, a: actions.append(a))
        return type(agents[0]), actions

    plain, uct = game(simulations=40), game(simulations=40, selection="uct")
    assert plain[0] is ISMCTSAgent and uct[0] is BatchSearchAgent
    assert plain[1] == uct[1] and len(plain[1]) > 50


@pytest.mark.parametrize("selection", ["puct", "gumbel", "uct"])
@pytest.mark.parametrize("name", heist_envs.game_names())
def test_the_search_never_reads_what_the_searching_seat_cannot_see(name, selection):
    """A batch of decisions and the same decisions with everything the seat to move cannot
    see re-dealt (``determinize`` from that seat) give the same searches, row by row."""
    game = heist_envs.get_game(name)
    states = decision_states(name, min(4, game.max_players), 6)
    redealt = states.copy()
    for i in range(len(redealt)):
        game.determinize(redealt[i], int(redealt[i]["actor"]), np.uint64(99 + i))
    assert redealt.tobytes() != states.tobytes()
    results = [
        BatchSearch(game, simulations=40, selection=selection, seed=3).search(s)
        for s in (states, redealt)
    ]
    for found, other in zip(*results, strict=True):
        np.testing.assert_array_equal(found, other)


def test_values_are_relative_to_the_observer_and_backed_up_for_every_seat():
    """An evaluator that values each seat at its own number, written relative to each leaf's
    mover, leaves the searching seat its own number at the root, whoever moved at the leaves."""
    game = heist_envs.get_game("art_robbery")

    class SeatNumbers:
        scores_finished = False
        observers = set()

        def __call__(self, leaves):
            seats = (leaves.observers[:, None] + np.arange(leaves.num_seats)) % leaves.num_seats
            self.observers.update(leaves.observers.tolist())
            return np.ones(leaves.masks.shape), seats.astype(np.float32)

    states = decision_states("art_robbery", 4, 8)
    evaluator = SeatNumbers()
    result = BatchSearch(game, evaluator, simulations=60, seed=1).search(states)
    tried = ~np.isnan(result.q)
    assert evaluator.observers == {0, 1, 2, 3}  # the leaves' movers were every seat
    np.testing.assert_array_equal(
        result.q[tried], np.broadcast_to(states["actor"][:, None], result.q.shape)[tried]
    )


def test_puct_follows_the_prior_and_the_visits_are_the_policy_target():
    game = heist_envs.get_game("thiefs_market")
    states = decision_states("thiefs_market", 4, 4)

    class LastMove(RolloutEvaluator):
        """Rollout values, and a prior that puts everything on the highest legal move."""

        def __call__(self, leaves):
            _, values = super().__call__(leaves)
            priors = np.zeros(leaves.masks.shape)
            for j, mask in enumerate(leaves.masks):
                priors[j, np.flatnonzero(mask)[-1:]] = 1.0
            return priors, values

    guided = BatchSearch(game, LastMove(game), 50, puct_c=20.0, seed=0).search(states)
    uniform = BatchSearch(game, RolloutEvaluator(game), 50, seed=0).search(states)
    for i in range(len(states)):
        mask = np.zeros(game.num_actions, np.int8)
        game.entry.refresh(states[i : i + 1], mask)
        last = np.flatnonzero(mask)[-1]
        assert guided.actions[i] == last and guided.visits[i, last] >= 40
        assert uniform.visits[i].sum() == 50 and uniform.visits[i, mask == 0].sum() == 0
    np.testing.assert_allclose(uniform.policy.sum(1), 1.0)


def test_sequential_halving_spends_the_budget_on_ever_fewer_moves():
    assert list(considered_visits(4, 8)) == [0, 0, 0, 0, 1, 1, 2, 2]
    assert list(considered_visits(2, 5)) == [0, 0, 1, 1, 2]


def test_a_gumbel_root_halves_its_moves_and_improves_the_policy_with_their_values():
    game = heist_envs.get_game("art_robbery")
    states = decision_states("art_robbery", 4, 6)
    result = BatchSearch(game, simulations=16, selection="gumbel", seed=2).search(states)
    for i in range(len(states)):
        visits, q, improved = result.visits[i], result.q[i], result.improved[i]
        legal = np.flatnonzero(improved)
        assert visits.sum() == 16 and set(np.flatnonzero(visits)) <= set(legal)
        assert visits[result.actions[i]] == visits.max()  # the move played survived halving
        assert improved.sum() == pytest.approx(1.0)
        tried = np.flatnonzero(visits)
        best, worst = tried[np.argmax(q[tried])], tried[np.argmin(q[tried])]
        if q[best] > q[worst]:  # a uniform prior: the policy follows the values
            assert improved[best] > improved[worst]
    assert BatchSearch(game, simulations=16, seed=2).search(states).improved is None


class Counting(RolloutEvaluator):
    calls = 0

    def __call__(self, leaves):
        Counting.calls += 1
        return super().__call__(leaves)


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"simulations": 0}, f"simulations must be 1 to {MAX_SIMULATIONS:,} per search, got 0"),
        ({"simulations": 10**6}, "simulations must be 1 to 100,000 per search, got 1000000"),
        ({"simulations": True}, "simulations must be an integer, got True"),
        ({"simulations": "many"}, "simulations must be an integer, got 'many'"),
        ({"selection": "greedy"}, "unknown selection 'greedy'; choose one of puct, gumbel, uct"),
        ({"puct_c": -1.0}, "puct_c must be a number of at least 0, got -1.0"),
        ({"tree_depth": 0}, r"tree_depth must be -1 \(no limit\) or at least 1, got 0"),
        ({"considered": 1}, "considered must be an integer of at least 2, got 1"),
    ],
)
def test_a_search_out_of_range_is_refused_in_one_line(settings, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        BatchSearch("art_robbery", **settings)


def test_a_batch_out_of_range_is_refused_in_one_line_and_nothing_is_searched():
    game = heist_envs.get_game("art_robbery")
    states = decision_states("art_robbery", 4, 2)
    search = BatchSearch(game, Counting(game), simulations=10, seed=0)
    finished = states.copy()
    finished[1]["status"] = 1
    mixed = np.concatenate([states[:1], decision_states("art_robbery", 3, 1)])
    other_game = np.zeros(2, heist_envs.get_game("thiefs_market").state_dtype)
    too_many = np.repeat(states[:1], MAX_BATCH + 1)
    cases = [
        (states[:0], f"a batch holds 1 to {MAX_BATCH} searches, got 0"),
        (too_many, f"a batch holds 1 to {MAX_BATCH} searches, got {MAX_BATCH + 1}"),
        (finished, "state 1 is of a finished game: nothing to search"),
        (mixed, "a batch is of one player count, got 3, 4"),
        (other_game, "states must be a 1-d array of art_robbery states"),
    ]
    for bad, message in cases:
        with pytest.raises(ValueError, match=f"^{message}"):
            search.search(bad)
    big = BatchSearch(game, Counting(game), simulations=MAX_SIMULATIONS, seed=0)
    nodes = f"^42 searches of 100000 simulations need 4,200,042 tree nodes; at most {MAX_NODES:,} "
    with pytest.raises(ValueError, match=nodes):
        big.search(np.repeat(states[:1], 42))
    assert Counting.calls == 0
    before = search.rng.bit_generator.state
    with pytest.raises(ValueError):
        search.search(finished)
    assert search.rng.bit_generator.state == before


def test_an_evaluator_of_the_wrong_shape_is_named():
    game = heist_envs.get_game("art_robbery")

    def two_seats(leaves):
        return np.ones(leaves.masks.shape), np.zeros((len(leaves), 2))

    two_seats.scores_finished = False
    with pytest.raises(ValueError, match=r"values of shape \(3, 4\), got \(3, 20\) and \(3, 2\)$"):
        BatchSearch(game, two_seats, simulations=5).search(decision_states("art_robbery", 4, 3))


def test_the_agent_names_its_settings():
    with pytest.raises(ValueError, match="unknown batched search setting.s. depth; settings: simu"):
        BatchSearchAgent("art_robbery", depth=3)
    with pytest.raises(ValueError, match="rollout_depth and evaluate_end need rollout=.policy."):
        make_agent("ismcts", "thiefs_market", selection="puct", rollout="random", rollout_depth=4)
    with pytest.raises(ValueError, match="unknown ISMCTS setting.s. puct_c; .*selection"):
        ISMCTSAgent("art_robbery", puct_c=2.0)


def test_the_agent_plays_legal_moves_with_the_games_search_defaults():
    agent = make_agent("ismcts", "toits_de_paris", seed=0, simulations=20, selection="puct")
    assert agent.settings["tree_depth"] == 1 and agent.settings["evaluate_end"] is True
    others = [make_agent("random", "toits_de_paris", seed=s) for s in range(3)]
    result = play("toits_de_paris", [agent, *others], 4, seed=1)  # the env raises on illegal
    assert len(result.rewards) == 4
