"""The compiled policies' random numbers are numpy's default generator, draw for draw, and a
game's compiled heuristic is found by name."""

import types

import numba as nb
import numpy as np
import pytest

from agents.compiled import (
    TIE,
    best_with_ties_at_random,
    compiled_heuristic,
    next_double,
    next_uint64,
    rng_state,
)
from agents.profiles import profile
from experiments.train.evaluate import make_opponents
from heist_envs.core.single_agent import CompiledOpponent


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 + 5])
def test_draws_equal_default_rng(seed):
    generator, rng = np.random.default_rng(seed), rng_state(seed)
    raw = [int(generator.bit_generator.random_raw()) for _ in range(200)]
    assert raw == [int(next_uint64(rng)) for _ in range(200)]
    assert (generator.random(500) == [next_double(rng) for _ in range(500)]).all()


def test_ties_broken_by_noise_below_tie():
    legal = np.array([3, 5, 8, 9], np.int64)
    for seed in range(50):
        scores = np.array([1.0, 2.0, 2.0, 2.0])
        noisy = scores + TIE * np.random.default_rng(seed).random(len(legal))
        expected = legal[np.argmax(noisy)]
        assert best_with_ties_at_random(legal, scores, rng_state(seed)) == expected
    picks = {int(best_with_ties_at_random(legal, np.full(4, 1.0), rng_state(s))) for s in range(40)}
    assert picks == {3, 5, 8, 9}


@nb.njit
def lowest_legal(obs, mask, params, rng):
    return np.flatnonzero(mask)[0]


def test_a_games_compiled_heuristic_is_found_by_name(monkeypatch):
    asked = []

    def params(weights=None):
        asked.append(weights)
        return np.array([1.0, 2.0])

    module = types.SimpleNamespace(act=lowest_legal, params=params, scores=None)
    monkeypatch.setattr(profile("toits_de_paris"), "compiled", module)
    opponent = compiled_heuristic("toits_de_paris_v0", "tuned", seed=3)
    assert isinstance(opponent, CompiledOpponent) and opponent.act is lowest_legal
    assert asked == ["tuned"] and opponent.params.tolist() == [1.0, 2.0] and opponent.seed == 3
    assert opponent.name == "heuristic:weights=tuned"
    (played,) = make_opponents("heuristic:weights=tuned", "toits_de_paris")
    assert isinstance(played, CompiledOpponent) and played.act is lowest_legal


def test_a_game_without_a_heuristic_has_no_compiled_one_and_the_spec_is_refused(monkeypatch):
    monkeypatch.setattr(profile("art_robbery"), "compiled", None)  # a game without one
    assert compiled_heuristic("art_robbery") is None
    with pytest.raises(ValueError, match="no heuristic agent for game 'art_robbery'"):
        make_opponents("heuristic", "art_robbery", seed=2)
