"""Restricted-play rules for Les Toits de Paris that read the observation
(:func:`experiments.studies.restricted.restricted_play`'s ``rule``)."""

from dataclasses import dataclass

import numpy as np

from heist_envs.toits_de_paris.actions import CONTINUE
from heist_envs.toits_de_paris.observation import LAYOUT


@dataclass(frozen=True)
class MaxReveals:
    """Never reveal more than ``cards`` cards in a theft."""

    cards: int

    def __call__(self, observation):
        revealed = int(np.argmax(observation[LAYOUT["revealed"]]))
        return [CONTINUE] if revealed >= self.cards else []

    def __str__(self):
        return f"revealing more than {self.cards} cards"
