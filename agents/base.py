"""The agent protocol, the information-set handle for search agents, and the random baseline."""

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Anything that picks a legal action from an observation and its action mask.

    Search agents set ``wants_info_set = True``; they are then called as
    ``act(observation, action_mask, info_set=...)`` with an :class:`InfoSet`.
    """

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


class InfoSet:
    """A seat's information set: worlds sampled consistently with what the seat knows.

    The true state stays private: every sample re-deals what the seat cannot see
    (``Game.determinize``), and carries a fresh RNG, so it does not reveal the future either.
    """

    def __init__(self, game, state, seat):
        self.game = game
        self.seat = seat
        self._state = state

    def kernel_state(self):
        """The state for compiled search code that determinizes every world it starts from
        before reading it (as ``sample`` does); the array view that compiled code takes."""
        return self.game.kernel_view(self._state)

    def sample(self, seed) -> np.recarray:
        """A 1-element state array: one world consistent with the seat's information."""
        world = self._state.copy()
        self.game.determinize(world[0], self.seat, np.uint64(seed))
        return world


class RandomAgent:
    """Uniformly random among the legal actions; reproducible from ``seed``."""

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])


def make_random(game_name, seed=None):
    return RandomAgent(seed)
