"""Potentials for potential-based reward shaping, one per game that needs it.

Shaping (Ng, Harada and Russell 1999) adds ``gamma * Phi(s') - Phi(s)`` to the learner's
reward between two of its decisions, with ``Phi = 0`` once the game is over. Over an
episode the added rewards telescope to ``-Phi(s_0)`` (discounted: the sum of
``gamma**t`` times them is ``-Phi(s_0)`` exactly), so the optimal policies are those of the
unshaped game: shaping only says earlier which moves lead toward a win.
:class:`heist_envs.core.sb3_vec.SelfPlayVecEnv` applies it with its ``shaping`` hook;
``python -m experiments.train.sb3 --shaping SCALE`` picks the game's potential here.

A potential is a function ``(states, seats) -> float32[num_envs]``: the batched state
records of :class:`heist_envs.core.vector.VectorGames` and one seat per game, giving that
seat's potential. In the two-sided games here it is zero-sum: one side's potential is the
negative of the other's, so self-play stays a zero-sum game.
"""

from __future__ import annotations

import numpy as np

from heist_envs.how_to_rob_a_bank.components import SPACE_ROOM
from heist_envs.how_to_rob_a_bank.state import CARRIED, GAME_OVER

#: How much one carried bag is worth against a stolen one in How to Rob a Bank's
#: potential: ``carried_weight`` anywhere, up to ``near_weight`` more next to the vehicle.
BANK_CARRIED_WEIGHT = 0.5
BANK_NEAR_WEIGHT = 0.3


def bank_potential(states, seats, carried_weight=BANK_CARRIED_WEIGHT, near_weight=BANK_NEAR_WEIGHT):
    """How to Rob a Bank: the robbers' progress toward their target.

    ``(stolen + sum over carried bags of (carried_weight + near_weight * closeness)) /
    target`` for every robber seat, where a carried bag's closeness is ``1 - d / 4`` for
    the grid distance ``d`` from its carrier's room to the room next to the vehicle (bags
    carried are lost at the round's end unless thrown); the bank's seat (0) gets the
    negative. Games over have potential 0.
    """
    carried = states["bag_where"] == CARRIED
    carrier = np.clip(states["bag_at"], 0, states["robber_room"].shape[1] - 1)
    room = np.take_along_axis(states["robber_room"], carrier.astype(np.int64), axis=1)
    vehicle = states["vehicle"].astype(np.int64)
    throw_room = np.where(vehicle >= 0, SPACE_ROOM[np.clip(vehicle, 0, None)], -1)[:, None]
    distance = np.abs(room // 3 - throw_room // 3) + np.abs(room % 3 - throw_room % 3)
    closeness = np.where(throw_room >= 0, 1.0 - distance / 4.0, 0.0)
    bags = (carried * (carried_weight + near_weight * closeness)).sum(axis=1)
    progress = (states["stolen"] + bags) / states["target"]
    progress = np.where(states["phase"] == GAME_OVER, 0.0, progress)
    sign = np.where(np.asarray(seats) == 0, -1.0, 1.0)
    return (sign * progress).astype(np.float32)


#: The potential of each game that has one (by ``Game.name``).
POTENTIALS = {"how_to_rob_a_bank": bank_potential}


def scaled_potential(game_name, scale):
    """The game's potential times ``scale``, or None when ``scale`` is 0 (no shaping)."""
    if not scale:
        return None
    if game_name not in POTENTIALS:
        raise ValueError(
            f"no shaping potential for {game_name}; games with one: {sorted(POTENTIALS)}"
        )
    potential = POTENTIALS[game_name]

    def shaped(states, seats):
        return np.float32(scale) * potential(states, seats)

    shaped.__name__ = f"{potential.__name__}_x{scale:g}"
    return shaped
