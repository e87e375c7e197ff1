"""The compiled policies' random numbers are numpy's default generator, draw for draw."""

import numpy as np
import pytest

from agents.compiled import best_with_ties_at_random, next_double, next_uint64, rng_state


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 + 5])
def test_draws_equal_default_rng(seed):
    generator, rng = np.random.default_rng(seed), rng_state(seed)
    raw = [int(generator.bit_generator.random_raw()) for _ in range(200)]
    assert raw == [int(next_uint64(rng)) for _ in range(200)]
    assert (generator.random(500) == [next_double(rng) for _ in range(500)]).all()


def test_ties_broken_as_the_python_heuristics_break_them():
    legal = np.array([3, 5, 8, 9], np.int64)
    for seed in range(50):
        scores = np.array([1.0, 2.0, 2.0, 2.0])
        noisy = scores + 1e-6 * np.random.default_rng(seed).random(len(legal))
        expected = legal[np.argmax(noisy)]
        assert best_with_ties_at_random(legal, scores, rng_state(seed)) == expected
    picks = {int(best_with_ties_at_random(legal, np.full(4, 1.0), rng_state(s))) for s in range(40)}
    assert picks == {3, 5, 8, 9}
