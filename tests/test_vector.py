"""The batched engine plays exactly the games the single-record kernel plays."""

import numpy as np
import pytest

import heist_envs
from heist_envs.core.errors import IllegalActionError
from heist_envs.core.game import RUNNING
from heist_envs.core.playout import random_legal_actions
from heist_envs.core.vector import PARALLEL_MIN_BATCH, VectorGames


def replay_single(game, num_players, seed, num_envs, actions_per_step):
    """What VectorGames should report, from one record per game driven in Python."""
    states = []
    for i in range(num_envs):
        st = game.new_state(num_players, 0)
        game.init(st[0], np.uint64(seed + i))
        states.append(st)
    episodes = [0] * num_envs
    obs = np.zeros(game.obs_size, game.obs_dtype)
    history = []
    for actions in actions_per_step:
        rows = []
        for i, st in enumerate(states):
            s = st[0]
            game.apply(s, int(actions[i]))
            rewards = np.zeros(game.num_seats(num_players), np.float32)
            ended = s.status != RUNNING
            if ended:
                game.returns(s, rewards)
                episodes[i] += 1
                game.init(s, np.uint64(seed + i + num_envs * episodes[i]))
            game.observe(s, s.actor, obs)
            rows.append((int(s.actor), obs.copy(), rewards, ended))
        history.append(rows)
    return history


@pytest.mark.parametrize("name", heist_envs.game_names())
# the threaded batch takes half a minute a game on 2 cores: slow suite (CI runs it)
@pytest.mark.parametrize("num_envs", [3, pytest.param(PARALLEL_MIN_BATCH, marks=pytest.mark.slow)])
def test_vector_engine_matches_the_single_game_kernel(name, num_envs):
    game = heist_envs.get_game(name)
    n = game.default_players
    vec = VectorGames(game, num_envs, n)
    actors, obs, masks = vec.reset(seed=11)
    chosen = []
    got = []
    actions = np.zeros(num_envs, np.int64)
    for k in range(3000):
        if k >= 150 and any(g[3].any() for g in got):
            break
        random_legal_actions(masks, k, actions)
        chosen.append(actions.copy())
        actors, obs, masks, rewards, terminated, truncated = vec.step(actions)
        got.append((actors.copy(), obs.copy(), rewards.copy(), terminated | truncated))
    want = replay_single(game, n, 11, num_envs, chosen)
    for k, (rows, (actors, obs, rewards, ended)) in enumerate(zip(want, got, strict=True)):
        for i in (0, num_envs - 1):
            actor, o, r, e = rows[i]
            assert actors[i] == actor and ended[i] == e, (k, i)
            np.testing.assert_array_equal(obs[i], o)
            np.testing.assert_array_equal(rewards[i], r)
    assert any(g[3].any() for g in got), "no game ended: auto-reset untested"


@pytest.mark.parametrize("name", heist_envs.game_names())
def test_vector_engine_rejects_bad_actions_naming_the_game(name):
    game = heist_envs.get_game(name)
    vec = VectorGames(game, 4)
    _, _, masks = vec.reset(seed=1)
    before = vec.states.tobytes()
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        vec.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="integer"):
        vec.step(np.zeros(4, np.float32))
    actions = np.zeros(4, np.int64)
    random_legal_actions(masks, 0, actions)
    actions[2] = int(np.flatnonzero(masks[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="in game 2"):
        vec.step(actions)
    actions[2] = game.num_actions
    with pytest.raises(IllegalActionError, match="in game 2"):
        vec.step(actions)
    assert vec.states.tobytes() == before


def test_random_legal_actions_are_legal_reproducible_and_the_same_on_every_core():
    from heist_envs.core.playout import random_legal_actions_parallel

    rng = np.random.default_rng(0)
    masks = (rng.random((3000, 20)) < 0.3).astype(np.int8)
    masks[:, 7] = 1
    serial, parallel, again = (np.zeros(3000, np.int64) for _ in range(3))
    random_legal_actions(masks, 5, serial)
    random_legal_actions_parallel(masks, 5, parallel)
    random_legal_actions(masks, 5, again)
    assert masks[np.arange(3000), serial].all()
    np.testing.assert_array_equal(serial, parallel)
    np.testing.assert_array_equal(serial, again)
    assert len(np.unique(serial)) > 10  # not always the same pick


def test_an_unseeded_reset_continues_the_last_seeded_one():
    """Gymnasium's seeding contract: ``reset(seed=s); reset()`` deals the same games in two
    fresh engines (the second reset draws its seed from a generator seeded by ``s``)."""
    game = heist_envs.get_game("art_robbery")
    deals = []
    for _ in range(2):
        games = VectorGames(game, 4, 3)
        games.reset(seed=1)
        first = games.states.tobytes()
        games.reset()
        deals.append(games.states.tobytes())
        assert deals[-1] != first
    assert deals[0] == deals[1]
