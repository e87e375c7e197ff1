"""Small helpers for the per-game validity checks (``heist_envs/<game>/validity.py``).

The compiled kernels index arrays without bounds checks, so a record from outside (a saved
state, a tampered copy) is checked field by field before any kernel function sees it. Each
helper raises :class:`InvalidStateError` naming the field, the bad value and what is allowed.
"""

import numpy as np

from heist_envs.core.errors import InvalidStateError


def _where(values, bad) -> str:
    """``[i, j]`` of the first True in ``bad`` ('' for a scalar), and that value."""
    if np.ndim(values) == 0:
        return "", int(values)
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return "[" + ", ".join(map(str, index)) + "]", np.asarray(values)[index].item()


def in_range(name, values, lo, hi):
    """Every element of ``values`` (field ``name``, or a part of it) lies in ``lo..hi``."""
    values = np.asarray(values, np.int64)
    bad = (values < lo) | (values > hi)
    if bad.any():
        index, value = _where(values, bad)
        raise InvalidStateError(f"field {name}{index} = {value}; allowed: {lo} to {hi}")


def one_of(name, values, allowed):
    """Every element of ``values`` is one of ``allowed``."""
    values = np.asarray(values, np.int64)
    bad = ~np.isin(values, list(allowed))
    if bad.any():
        index, value = _where(values, bad)
        choices = ", ".join(str(a) for a in allowed)
        raise InvalidStateError(f"field {name}{index} = {value}; allowed: {choices}")


def expect(ok, name, allowed):
    """``ok`` holds, or field ``name`` breaks the rule ``allowed`` (a phrase)."""
    if not ok:
        raise InvalidStateError(f"field {name}: {allowed}")
