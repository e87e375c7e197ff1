"""The compiled policies' random numbers and tie-breaks, and a game's compiled heuristic found by
name."""

import types

import numba as nb
import numpy as np
import pytest

from agents.compiled import (
    TIE,
    best_with_ties_at_random,
    compiled_heuristic,
    next_below,
    next_double,
    next_uint64,
    rng_state,
)
from agents.profiles import profile
from experiments.train.evaluate import make_opponents
from heist_envs.core.policy_rng import seat_rng_rows
from heist_envs.core.single_agent import CompiledOpponent


def test_a_seed_fixes_the_stream_and_different_seeds_give_different_ones():
    first = [int(next_uint64(rng_state(5))) for _ in range(3)]
    assert first == [int(next_uint64(rng_state(5))) for _ in range(3)]
    rng = rng_state(5)
    stream = [int(next_uint64(rng)) for _ in range(100)]
    assert len(set(stream)) == 100 and 0 not in stream
    assert stream[:3] != [int(next_uint64(rng_state(6))) for _ in range(3)]
    assert (rng_state(None) != rng_state(None)).any()  # fresh entropy
    rows = seat_rng_rows(5, 4, 3).reshape(-1)
    assert len(set(rows.tolist())) == 12  # every (game, seat) its own stream


def test_draws_are_uniform():
    rng = rng_state(1)
    below = np.array([next_below(rng, 6) for _ in range(60_000)])
    assert below.min() == 0 and below.max() == 5
    assert np.abs(np.bincount(below) / len(below) - 1 / 6).max() < 0.01
    doubles = np.array([next_double(rng) for _ in range(20_000)])
    assert doubles.min() >= 0 and doubles.max() < 1 and abs(doubles.mean() - 0.5) < 0.01


def test_the_best_action_is_played_and_ties_within_tie_are_broken_uniformly():
    legal = np.array([3, 5, 8, 9], np.int64)
    for seed in range(20):
        assert best_with_ties_at_random(legal, np.array([1.0, 2.0, 0.5, 1.9]), rng_state(seed)) == 5
    scores = np.array([1.0, 2.0, 2.0 - TIE / 2, 2.0 - 2 * TIE])  # 5 and 8 tie, 9 does not
    picks = [int(best_with_ties_at_random(legal, scores, rng_state(s))) for s in range(2000)]
    assert set(picks) == {5, 8}
    assert abs(picks.count(5) / len(picks) - 0.5) < 0.05
    level = [int(best_with_ties_at_random(legal, np.zeros(4), rng_state(s))) for s in range(2000)]
    assert np.abs(np.bincount(level, minlength=10)[legal] / len(level) - 0.25).max() < 0.04


def test_one_state_plays_on_from_draw_to_draw():
    legal = np.arange(4, dtype=np.int64)
    rng = rng_state(3)
    picks = {int(best_with_ties_at_random(legal, np.zeros(4), rng)) for _ in range(50)}
    assert picks == {0, 1, 2, 3}


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
