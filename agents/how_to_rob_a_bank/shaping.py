"""How to Rob a Bank's potential for reward shaping (:mod:`experiments.train.shaping`): the
robbers' progress toward their target."""

import numpy as np

from heist_envs.how_to_rob_a_bank.components import SPACE_ROOM
from heist_envs.how_to_rob_a_bank.state import CARRIED, GAME_OVER

#: How much one carried bag is worth against a stolen one: ``CARRIED_WEIGHT`` anywhere, up
#: to ``NEAR_WEIGHT`` more next to the vehicle.
CARRIED_WEIGHT = 0.5
NEAR_WEIGHT = 0.3


def potential(states, seats, carried_weight=CARRIED_WEIGHT, near_weight=NEAR_WEIGHT):
    """The robbers' progress toward their target.

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
