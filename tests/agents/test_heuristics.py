"""The heuristic agent of every game: one class playing each game's compiled heuristic, for one
decision or a batch, legal at every player count, reproducible, stronger than random play;
its weights; its batch labels. (Each game's rules of thumb, position by position:
tests/agents/test_heuristic_<game>.py.)

Strength is measured against random agents. In the free-for-all games the heuristic plays
one seat, rotated over every seat; in How to Rob a Bank it plays a whole side (the bank, or
every robber) against random agents on the other side, the sides alternating. A win is a
positive reward for the heuristic's seat.
"""

import math

import numpy as np
import pytest

from agents.arena import play, rotations, seat_agents
from agents.base import RandomAgent
from agents.compiled import HeuristicAgent, best_actions
from agents.profiles import heuristic_games, make_heuristic, profile
from agents.registry import make_agent
from heist_envs.core.vector import VectorGames
from heist_envs.registry import game_names, get_game
from tests.conftest import game_player_counts

TEAM_GAME = "how_to_rob_a_bank"


class CheckedAgent:
    """Wraps an agent and asserts that every action it picks is legal."""

    def __init__(self, agent):
        self.agent = agent
        self.decisions = 0

    def act(self, observation, action_mask):
        action = self.agent.act(observation, action_mask)
        assert isinstance(action, int)
        assert action_mask[action] == 1, f"illegal action {action}"
        self.decisions += 1
        return action


def heuristic_seated(game_name, num_players, game_index, seed):
    """(agents in seat order, the heuristic's seat) for one game of a seat-rotated series."""
    seats = get_game(game_name).num_seats(num_players)
    if game_name == TEAM_GAME:  # a whole side: the bank, or every robber
        bank_side = game_index % 2 == 0
        agents = [
            make_heuristic(game_name, seed + k)
            if (k == 0) == bank_side
            else RandomAgent(seed + seats + k)
            for k in range(seats)
        ]
        return agents, 0 if bank_side else 1
    rotation = rotations(seats)[game_index % seats]
    agents = [make_heuristic(game_name, seed)] + [RandomAgent(seed + k) for k in range(1, seats)]
    return seat_agents(agents, rotation), rotation[0]


def outcomes(game_name, num_games, first_seed):
    """(the heuristic's seat, whether it won) for each game, at the default player count."""
    num_players = get_game(game_name).default_players
    results = []
    for i in range(num_games):
        seed = first_seed + 1000 * i
        agents, seat = heuristic_seated(game_name, num_players, i, seed)
        results.append((seat, play(game_name, agents, num_players, seed=seed).rewards[seat] > 0))
    return results


def fair_share(game_name):
    game = get_game(game_name)
    return 0.5 if game_name == TEAM_GAME else 1 / game.num_seats(game.default_players)


def wilson(wins, games, z=1.96):
    """The Wilson score interval of a win rate (95% by default)."""
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    return centre - half / (1 + z * z / games), centre + half / (1 + z * z / games)


def test_one_heuristic_agent_plays_each_games_compiled_heuristic():
    assert heuristic_games() == game_names()
    for name in game_names():
        for agent in (make_heuristic(name), make_agent("heuristic", name, seed=3)):
            assert type(agent) is HeuristicAgent and profile(name).heuristic is HeuristicAgent
            assert agent.policy is profile(name).compiled.act
    assert make_heuristic("art_robbery_v0").policy is profile("art_robbery").compiled.act


def test_unknown_game_lists_the_games():
    with pytest.raises(ValueError, match="art_robbery, how_to_rob_a_bank") as error:
        make_heuristic("chess")
    assert "chess" in str(error.value)


@pytest.mark.parametrize(("game_name", "num_players"), game_player_counts())
def test_only_legal_actions(game_name, num_players):
    """The heuristic plays every seat in turn against random agents, and all seats at once."""
    seats = get_game(game_name).num_seats(num_players)
    series = [heuristic_seated(game_name, num_players, i, 17 + i)[0] for i in range(seats)]
    series.append([make_heuristic(game_name, 40 + k) for k in range(seats)])
    for i, agents in enumerate(series):
        checked = [CheckedAgent(a) for a in agents]
        result = play(game_name, checked, num_players, seed=100 + i)
        assert not result.truncated
        assert sum(c.decisions for c in checked if isinstance(c.agent, HeuristicAgent)) > 0


@pytest.mark.parametrize("game_name", game_names())
def test_reproducible_from_seeds(game_name):
    seats = get_game(game_name).num_seats(4)

    def decisions(seed):
        actions = []
        agents = [make_heuristic(game_name, seed + k) for k in range(seats)]
        play(game_name, agents, 4, seed=seed, on_step=lambda env, name, a: actions.append(a))
        return actions

    assert decisions(5) == decisions(5)
    assert decisions(5) != decisions(6)


def positions(game_name, num_envs=16, steps=40, seed=4):
    """(observations, masks) of the seats to act in seeded games of random moves, at the
    game's largest player count, step by step."""
    game = get_game(game_name)
    games = VectorGames(game, num_envs, game.max_players)
    games.reset(seed=seed)
    for step in range(steps):
        yield games.obs.copy(), games.masks.copy()
        games.step(games.random_actions(step))


@pytest.mark.parametrize("game_name", game_names())
def test_a_batch_is_played_as_its_rows_one_by_one(game_name):
    batch, single = make_heuristic(game_name, seed=7), make_heuristic(game_name, seed=7)
    aec = make_heuristic(game_name, seed=7)
    for obs, masks in positions(game_name):
        one_by_one = [single.act(o, m) for o, m in zip(obs, masks, strict=True)]
        assert batch.act_batch(obs, masks).tolist() == one_by_one
        # as the AEC env gives them: float32 observations, the same moves
        as_aec = [aec.act(o.astype(np.float32), m) for o, m in zip(obs, masks, strict=True)]
        assert as_aec == one_by_one


@pytest.mark.parametrize("game_name", game_names())
def test_batch_labels_mark_every_move_the_heuristic_may_play(game_name):
    # imitation learning labels decisions with best_actions: the heuristic's ties, all of them
    label = best_actions(game_name)
    agents = [make_heuristic(game_name, seed) for seed in range(64)]
    ties = 0
    for obs, masks in positions(game_name, steps=60):
        best = label(obs, masks)
        assert (best <= masks.astype(bool)).all() and best.any(axis=1).all()
        for i in range(len(best)):
            chosen = {agent.act(obs[i], masks[i]) for agent in agents}
            assert chosen == set(np.flatnonzero(best[i]).tolist())
            ties += best[i].sum() > 1
    assert ties > 0  # the positions include ties, so the labels hold more than one move


@pytest.mark.parametrize("game_name", [g for g in game_names() if not profile(g).weighted])
def test_weights_for_a_game_without_them_are_refused(game_name):
    assert make_heuristic(game_name).params.shape == (0,)
    with pytest.raises(ValueError, match=f"the {game_name} heuristic has no weights to replace"):
        make_heuristic(game_name, weights="tuned")


def test_toits_de_paris_weights_become_params_in_the_tables_order():
    from agents.toits_de_paris import compiled

    assert make_heuristic("toits_de_paris").params.tolist() == list(compiled.WEIGHTS.values())
    tuned = compiled.load_weights("tuned")
    assert compiled.params("tuned").tolist() == [tuned[name] for name in compiled.WEIGHT_NAMES]
    with pytest.raises(ValueError, match="unknown heuristic weight"):
        compiled.params({"no_such_weight": 1.0})


@pytest.mark.parametrize("game_name", game_names())
def test_beats_random_agents(game_name):
    """Over 100 fixed-seed games the heuristic wins at least 1.5 times its fair share."""
    games = 100
    wins = sum(won for _, won in outcomes(game_name, games, first_seed=1))
    assert wins / games >= 1.5 * fair_share(game_name), f"{wins} wins in {games} games"


@pytest.mark.slow
@pytest.mark.parametrize("game_name", game_names())
def test_beats_random_agents_over_1000_games(game_name):
    """The full check: 1000 seat-rotated games, the 95% Wilson interval's lower bound above
    1.5 times the fair share (printed with ``-s``)."""
    games = 1000
    results = outcomes(game_name, games, first_seed=1_000_000)
    wins = sum(won for _, won in results)
    low, high = wilson(wins, games)
    fair = fair_share(game_name)
    by_seat = {
        seat: sum(won for s, won in results if s == seat) / sum(s == seat for s, _ in results)
        for seat in sorted({s for s, _ in results})
    }
    print(
        f"\n{game_name}: {wins}/{games} = {wins / games:.3f} (95% CI {low:.3f}-{high:.3f}), "
        f"fair share {fair:.3f}, {wins / games / fair:.2f}x; by the heuristic's seat "
        + ", ".join(f"{seat}: {rate:.3f}" for seat, rate in by_seat.items())
    )
    assert low >= 1.5 * fair
