"""Potential-based reward shaping with a game's potential.

Shaping (Ng, Harada and Russell 1999) adds ``gamma * Phi(s') - Phi(s)`` to the learner's
reward between two of its decisions, with ``Phi = 0`` once the game is over. Over an
episode the added rewards telescope to ``-Phi(s_0)`` (discounted: the sum of
``gamma**t`` times them is ``-Phi(s_0)`` exactly), so the optimal policies are those of the
unshaped game: shaping only says earlier which moves lead toward a win.
:class:`heist_envs.core.sb3_vec.SelfPlayVecEnv` applies it with its ``shaping`` hook;
``python -m experiments.train.sb3 --shaping SCALE`` scales the game's potential.

A game's potential is ``potential`` in ``agents/<game>/shaping.py`` (see
:mod:`agents.profiles`): a function ``(states, seats) -> float32[num_envs]`` of the batched
state records of :class:`heist_envs.core.vector.VectorGames` and one seat per game, giving
that seat's potential. In a two-sided game it is zero-sum (one side's potential is the
negative of the other's), so self-play stays a zero-sum game.
"""

from __future__ import annotations

import numpy as np

from agents.profiles import profile
from heist_envs.core.catalog import game_names


def scaled_potential(game_name, scale):
    """The game's potential times ``scale``, or None when ``scale`` is 0 (no shaping)."""
    if not scale:
        return None
    potential = profile(game_name).potential
    if potential is None:
        with_one = [name for name in game_names() if profile(name).potential is not None]
        raise ValueError(f"no shaping potential for {game_name}; games with one: {with_one}")

    def shaped(states, seats):
        return np.float32(scale) * potential(states, seats)

    shaped.__name__ = f"{profile(game_name).game_name}_potential_x{scale:g}"
    return shaped
