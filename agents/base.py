"""The agent protocol and the random baseline."""

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Anything that picks a legal action from an observation and its action mask."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


class RandomAgent:
    """Uniformly random among the legal actions; reproducible from ``seed``."""

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])
