"""Confidence intervals for win rates and means."""

import math

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
