"""Small helpers for the notebooks' plots."""

import numpy as np


def interval_errors(rate, low, high) -> np.ndarray:
    """Matplotlib ``yerr`` (2 rows: below, above) for rates with intervals [low, high]."""
    rate, low, high = (np.asarray(x, np.float64) for x in (rate, low, high))
    return np.array([rate - low, high - rate])
