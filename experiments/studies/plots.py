"""Small helpers for the notebooks' plots."""

import numpy as np


def interval_errors(rate, low, high) -> np.ndarray:
    """Matplotlib ``yerr`` (2 rows: below, above) for rates with intervals [low, high]; never
    negative, even where rounding puts a bound a hair past its rate."""
    rate, low, high = (np.asarray(x, np.float64) for x in (rate, low, high))
    return np.clip([rate - low, high - rate], 0.0, None)
