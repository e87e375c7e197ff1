"""Restricted-play rules for Thief's Market that read the observation
(:func:`experiments.studies.restricted.restricted_play`'s ``rule``)."""

from dataclasses import dataclass

import numpy as np

from heist_envs.thiefs_market.actions import BUY_0
from heist_envs.thiefs_market.components import CARD_NAMES
from heist_envs.thiefs_market.observation import LAYOUT


@dataclass(frozen=True)
class NeverBuy:
    """Never buy a card called ``card`` (every copy of it)."""

    card: str

    def __post_init__(self):
        if self.card not in CARD_NAMES:
            cards = ", ".join(dict.fromkeys(CARD_NAMES))
            raise ValueError(f"thiefs_market: no card is called {self.card!r}; cards: {cards}")

    def __call__(self, observation):
        ids = [i + 1 for i, name in enumerate(CARD_NAMES) if name == self.card]
        slots = np.flatnonzero(np.isin(observation[LAYOUT["market_card"]], ids))
        return (BUY_0 + slots).tolist()

    def __str__(self):
        return f"buying {self.card}"
