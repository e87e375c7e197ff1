"""Intervals of win-rate differences: Newcombe's for independent games, checked against the
published values, and the game bootstrap for two agents at the same tables."""

import numpy as np
import pytest

from agents.stats import Z95, difference_interval, paired_difference_interval

# Newcombe (1998), Statistics in Medicine 17:873-890, table II, method 10 (hybrid score)
NEWCOMBE_1998 = [
    ((56, 70, 48, 80), (0.0524, 0.3339)),
    ((9, 10, 3, 10), (0.1705, 0.8090)),
    ((6, 7, 2, 7), (0.0582, 0.8062)),
    ((5, 56, 0, 29), (-0.0381, 0.1926)),
    ((0, 10, 0, 20), (-0.1611, 0.2775)),
    ((0, 10, 0, 10), (-0.2775, 0.2775)),
    ((10, 10, 0, 20), (0.6791, 1.0000)),
    ((10, 10, 0, 10), (0.6075, 1.0000)),
]


@pytest.mark.parametrize("counts, published", NEWCOMBE_1998)
def test_difference_interval_matches_newcombe_1998(counts, published):
    assert difference_interval(*counts) == pytest.approx(published, abs=5e-5)


def test_the_game_bootstrap_keeps_the_dependence_of_one_table():
    """Two agents in 400 two-player games without ties: the difference of their win rates is
    2p - 1, so its interval is twice as wide as p's, not sqrt(2) times (as if independent)."""
    won = np.r_[np.ones(160), np.zeros(240)]
    seats = np.ones(400)
    low, high = paired_difference_interval(won, seats, 1 - won, seats)
    half = 2 * Z95 * np.sqrt(0.4 * 0.6 / 400)
    assert (low, high) == pytest.approx((-0.2 - half, -0.2 + half), abs=0.01)
    independent = difference_interval(160, 400, 240, 400)
    assert high - low > 1.3 * (independent[1] - independent[0])
