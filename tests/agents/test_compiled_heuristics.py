"""Each game's compiled heuristic (``agents.<game>.compiled``) makes the decision its Python
agent makes, ties included, on every position of seeded games at every player count."""

import importlib

import numpy as np
import pytest

import heist_envs
from agents.compiled import rng_state
from agents.profiles import make_heuristic

#: positions compared per game, over its player counts: the tuned weights in the default suite,
#: every game in the slow one (CI runs both)
POSITIONS = 1_000
SLOW_POSITIONS = 10_000
#: the share of moves played at random instead of the heuristic's, to reach varied positions
EXPLORE = 0.25


def compare_on_positions(game_name, positions, weights=None, seed=0):
    """Play seeded games in which both forms of the heuristic decide at every seat; return
    the number of positions compared (both forms must agree at each)."""
    game = heist_envs.get_game(game_name)
    compiled = importlib.import_module(f"agents.{game_name}.compiled")
    params = compiled.params(weights)
    counts = range(game.min_players, game.max_players + 1)
    explore = np.random.default_rng(seed)
    compared = 0
    for index in range(10**6):
        num_players = counts[index % len(counts)]
        env = heist_envs.make(game_name, num_players=num_players)
        env.reset(seed=seed + index)
        seeds = {agent: seed * 7919 + index * 31 + k for k, agent in enumerate(env.agents)}
        python = {a: make_heuristic(game_name, seed=s, weights=weights) for a, s in seeds.items()}
        rngs = {a: rng_state(s) for a, s in seeds.items()}
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            obs, mask = observation["observation"], observation["action_mask"]
            expected = python[agent].act(obs, mask)
            got = compiled.act(obs, mask, params, rngs[agent])
            assert got == expected, (
                f"{game_name}, {num_players} players, game {index}, "
                f"{env.unwrapped.game.action_name(int(expected))!r} expected, got {got}"
            )
            compared += 1
            if explore.random() < EXPLORE:
                expected = int(explore.choice(np.flatnonzero(mask)))
            env.step(int(expected))
        if compared >= positions:
            return compared
    return compared


GAMES = ["art_robbery", "how_to_rob_a_bank", "thiefs_market", "toits_de_paris"]


@pytest.mark.parametrize(("game_name", "weights"), [("toits_de_paris", "tuned")])
def test_compiled_heuristic_decides_as_the_python_agent_with_weights(game_name, weights):
    assert compare_on_positions(game_name, POSITIONS, weights=weights) >= POSITIONS


@pytest.mark.slow
@pytest.mark.parametrize("game_name", GAMES)
def test_compiled_heuristic_decides_as_the_python_agent_on_10000_positions(game_name):
    assert compare_on_positions(game_name, SLOW_POSITIONS, seed=1) >= SLOW_POSITIONS


@pytest.mark.parametrize("game_name", [g for g in GAMES if g != "toits_de_paris"])
def test_weights_for_a_game_without_them_are_refused_as_the_python_agent_refuses_them(game_name):
    compiled = importlib.import_module(f"agents.{game_name}.compiled")
    assert compiled.params().shape == (0,)
    with pytest.raises(ValueError) as python_error:
        make_heuristic(game_name, weights="tuned")
    with pytest.raises(ValueError, match="has no weights to replace") as compiled_error:
        compiled.params("tuned")
    assert str(compiled_error.value) == str(python_error.value)


def test_toits_de_paris_weights_become_params_in_the_heuristic_s_order():
    from agents.toits_de_paris import compiled
    from agents.toits_de_paris.heuristic import WEIGHTS, load_weights

    assert compiled.params().tolist() == [float(WEIGHTS[name]) for name in compiled.WEIGHT_NAMES]
    tuned = load_weights("tuned")
    assert compiled.params("tuned").tolist() == [tuned[name] for name in compiled.WEIGHT_NAMES]
    with pytest.raises(ValueError, match="unknown heuristic weight"):
        compiled.params({"no_such_weight": 1.0})


@pytest.mark.parametrize("game_name", GAMES)
def test_batch_labels_mark_every_move_the_heuristic_may_play(game_name):
    # imitation learning labels decisions with best_actions: the heuristic's ties, all of them
    from agents.compiled import best_actions
    from heist_envs.core.vector import VectorGames

    game = heist_envs.get_game(game_name)
    compiled = importlib.import_module(f"agents.{game_name}.compiled")
    games = VectorGames(game, 16, game.max_players)
    games.reset(seed=4)
    label = best_actions(game_name)
    ties = 0
    for step in range(60):
        best = label(games.obs, games.masks)
        assert (best <= games.masks.astype(bool)).all() and best.any(axis=1).all()
        for i in range(len(best)):
            chosen = {
                int(compiled.act(games.obs[i], games.masks[i], compiled.params(), rng_state(s)))
                for s in range(12)
            }
            assert chosen <= set(np.flatnonzero(best[i]).tolist())
            ties += best[i].sum() > 1
        games.step(games.random_actions(step))
    assert ties > 0  # the positions include ties, so the labels hold more than one move
