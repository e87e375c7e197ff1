"""Compiled opponents, played inside the batched engine's loop: the same games as the Python
opponents that decide alike, in any pool, reproducibly."""

import numba as nb
import numpy as np
import pytest

import heist_envs
from heist_envs.core.errors import IllegalActionError
from heist_envs.core.policy_rng import next_double, rng_state, seat_rng_rows
from heist_envs.core.single_agent import (
    AgentOpponent,
    CompiledOpponent,
    RandomOpponent,
    SelfPlayGames,
)


@nb.njit
def tiny_policy(obs, mask, params, rng):
    """With ``params[0] == 1`` the lowest legal action, else a uniformly random legal one."""
    legal = np.flatnonzero(mask)
    if params[0] == 1.0:
        return legal[0]
    return legal[int(next_double(rng) * len(legal))]


@nb.njit
def illegal_policy(obs, mask, params, rng):
    for a in range(len(mask)):
        if mask[a] == 0:
            return a
    return len(mask)


class LowestLegal:
    """The tiny policy with ``params[0] == 1`` as a Python agent."""

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])


class RandomTwin:
    """The tiny policy's random part in Python, drawing from one random state per (game,
    seat) as a compiled opponent seeded alike does; it finds the (game, seat) of each row it
    is asked about from the games, as pool member ``index``."""

    def __init__(self, games: SelfPlayGames, index, seed):
        self.games, self.index = games, index
        self.rngs = seat_rng_rows(seed, games.num_envs, games.num_seats)

    def act_batch(self, obs, masks):
        g = self.games
        owner = g.opponent_of[np.arange(g.num_envs), g.games.actors]
        rows = np.flatnonzero(~g._learner_to_act() & (owner == self.index))
        actions = []
        for i, mask in zip(rows, masks, strict=True):
            legal = np.flatnonzero(mask)
            rng = self.rngs[i, g.games.actors[i]]
            actions.append(legal[int(next_double(rng) * len(legal))])
        return np.array(actions, np.int64)


def trace(games: SelfPlayGames, steps, seed=0):
    """Random learner moves: after each step, every game's state, the learner's observations,
    rewards, dones and terminal observations (each game must wait for its learner)."""
    obs = games.reset()
    rng = np.random.default_rng(seed)
    out = [games.games.states.tobytes(), obs.tobytes()]
    for _ in range(steps):
        actions = [rng.choice(np.flatnonzero(mask)) for mask in games.action_masks()]
        obs, rewards, dones, infos = games.step(np.array(actions))
        learner_team = games.team_of_seat[games.learner_seat]
        assert (games.team_of_seat[games.games.actors] == learner_team).all()
        if not games.team_play:
            assert (games.games.actors == games.learner_seat).all()
        terminal = [info["terminal_observation"].tobytes() for info in infos if info]
        out.append((games.games.states.tobytes(), obs.tobytes(), rewards.tobytes()))
        out.append((dones.tobytes(), terminal, games.learner_seat.tobytes()))
    return out


def counts():
    for name in heist_envs.game_names():
        game = heist_envs.get_game(name)
        for n in (game.min_players, game.max_players):
            yield name, n, True
    yield "how_to_rob_a_bank", 4, False


@pytest.mark.parametrize("name, num_players, team_play", list(counts()))
def test_compiled_opponents_play_the_games_of_the_python_ones(name, num_players, team_play):
    """A pool of the lowest-legal policy and the random one (one compiled policy, params
    stacked) against its Python twins: the same games, decision for decision."""
    game = heist_envs.get_game(name)

    def games(opponents):
        return SelfPlayGames(game, 6, num_players, opponents, seed=4, team_play=team_play)

    compiled = games(
        [CompiledOpponent(tiny_policy, [1.0]), CompiledOpponent(tiny_policy, [0.0], seed=9)]
    )
    python = games([AgentOpponent(LowestLegal())])
    python.set_opponents([AgentOpponent(LowestLegal()), RandomTwin(python, 1, seed=9)])
    compiled.set_opponents(compiled.opponents)  # the same draws of the pool as python's
    assert len(compiled.compiled) == 1 and compiled.compiled[0].params.shape == (2, 1)
    expected = trace(python, 200)
    assert trace(compiled, 200) == expected
    assert any(np.frombuffer(dones, bool).any() for dones, _, _ in expected[3::2])


def test_mixed_pools_play_and_repeat_for_a_seed():
    """Compiled (two policies), Python and random opponents in one pool; SelfPlayGames.reseed
    repeats the games."""
    game = heist_envs.get_game("art_robbery")

    @nb.njit
    def highest_legal(obs, mask, params, rng):
        return np.flatnonzero(mask)[-1]

    pool = [
        CompiledOpponent(tiny_policy, [0.0], seed=1),
        AgentOpponent(LowestLegal()),
        RandomOpponent(2),
        CompiledOpponent(highest_legal, np.zeros(0), seed=3),
        CompiledOpponent(tiny_policy, [1.0], seed=4),
    ]
    games = SelfPlayGames(game, 8, 5, pool, seed=0)
    assert sorted(len(group.opponents) for group in games.compiled) == [1, 2]

    def run(seed):
        games.reseed(seed)
        return trace(games, 80)

    first = run(11)
    assert run(11) == first
    assert run(12) != first
    owners = {int(k) for k in np.unique(games.opponent_of)}
    assert owners == {0, 1, 2, 3, 4}


def test_each_game_and_seat_draws_from_its_own_stream_carried_on_between_pools():
    opponent = CompiledOpponent(tiny_policy, [0.0], seed=7)
    rows = opponent.seat_rngs(3, 2)
    assert (rows[2, 1] == rng_state([7, 2, 1])).all()
    assert len({row.tobytes() for row in rows.reshape(-1, rows.shape[-1])}) == 6
    games = SelfPlayGames(heist_envs.get_game("toits_de_paris"), 3, 2, [opponent], seed=0)
    trace(games, 20)
    played = opponent.rngs.copy()
    assert not (played == seat_rng_rows(7, 3, 2)).all()
    games.set_opponents([opponent, RandomOpponent(1)])
    assert (opponent.rngs == played).all()  # a new pool carries on
    games.reseed(5)
    assert (opponent.rngs == seat_rng_rows(5 + 1, 3, 2)).all()  # reseed_opponents: seed + 1


def test_an_illegal_compiled_action_is_named_and_not_played():
    games = SelfPlayGames(
        heist_envs.get_game("art_robbery"), 2, 3, [CompiledOpponent(illegal_policy, [], "bad")]
    )
    games.games.reset(0)
    games.learner_seat[:] = (games.games.actors + 1) % 3  # the opponents' turn
    before = games.games.states.tobytes()
    rewards, dones, truncated = games._outcome_buffers()
    with pytest.raises(IllegalActionError, match="compiled opponent 'bad'.*not legal in game 0"):
        games._play_opponents(rewards, dones, truncated)
    assert games.games.states.tobytes() == before


def test_bad_compiled_opponents_are_refused():
    with pytest.raises(ValueError, match=r"act must be a numba.njit function"):
        CompiledOpponent(tiny_policy.py_func, [1.0])
    with pytest.raises(ValueError, match=r"params must be a vector"):
        CompiledOpponent(tiny_policy, [[1.0]])
    with pytest.raises(ValueError, match=r"seed must be an integer >= 0"):
        CompiledOpponent(tiny_policy, [1.0], seed=-1)
    games = SelfPlayGames(heist_envs.get_game("art_robbery"), 2, 3)
    pool = games.opponents
    mismatched = [CompiledOpponent(tiny_policy, [1.0], "a"), CompiledOpponent(tiny_policy, [], "b")]
    with pytest.raises(ValueError, match=r"params of one length; got a: 1, b: 0"):
        games.set_opponents(mismatched)
    assert games.opponents == pool
