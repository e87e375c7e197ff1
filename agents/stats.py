"""Confidence intervals for win rates, their differences, and means, and their text."""

import math

import numpy as np

Z95 = 1.959963984540054


def wilson_interval(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); (0, 1) with no games."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    # the interval holds p itself: at p = 0 or 1, rounding could put a bound a hair past it
    return min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def difference_interval(
    wins_a: float, games_a: int, wins_b: float, games_b: int, z: float = Z95
) -> tuple[float, float]:
    """Newcombe's hybrid score interval (1998, method 10) of the difference between two
    win rates from independent games, a minus b, built from their Wilson intervals."""
    rate_a, rate_b = wins_a / games_a, wins_b / games_b
    low_a, high_a = wilson_interval(wins_a, games_a, z)
    low_b, high_b = wilson_interval(wins_b, games_b, z)
    difference = rate_a - rate_b
    return (
        difference - math.hypot(rate_a - low_a, high_b - rate_b),
        difference + math.hypot(high_a - rate_a, rate_b - low_b),
    )


def paired_difference_interval(
    wins_a, seats_a, wins_b, seats_b, resamples: int = 4000, seed: int = 0
) -> tuple[float, float]:
    """A 95% percentile-bootstrap interval of the difference between two win rates,
    sum(wins_a) / sum(seats_a) - sum(wins_b) / sum(seats_b), where entry g of each array is
    one game. Whole games are resampled: two agents at one table do not win independently
    (one's win is the other's loss), which an interval for independent rates ignores."""
    counts = [np.asarray(x, np.float64) for x in (wins_a, seats_a, wins_b, seats_b)]
    picks = np.random.default_rng(seed).integers(len(counts[0]), size=(resamples, len(counts[0])))
    won_a, held_a, won_b, held_b = (x[picks].sum(axis=1) for x in counts)
    with np.errstate(divide="ignore", invalid="ignore"):  # a resample without a seat: dropped
        differences = won_a / held_a - won_b / held_b
    low, high = np.nanpercentile(differences, [2.5, 97.5])
    return float(low), float(high)


def mean_interval(values, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) with a normal-approximation interval of the mean."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def interval_text(value, low, high, fmt=".3f") -> str:
    """``value [low, high]`` in the format ``fmt``, or nothing for a figure without games."""
    return "" if value is None else f"{value:{fmt}} [{low:{fmt}}, {high:{fmt}}]"
