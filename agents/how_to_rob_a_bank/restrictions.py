"""Restricted-play rules for How to Rob a Bank that read the observation
(:func:`experiments.studies.restricted.restricted_play`'s ``rule``)."""

from dataclasses import dataclass

from heist_envs.how_to_rob_a_bank.actions import PLAN_0
from heist_envs.how_to_rob_a_bank.components import CARD_NAMES
from heist_envs.how_to_rob_a_bank.observation import LAYOUT


@dataclass(frozen=True)
class BankNeverPlans:
    """The bank never plans its card type ``card`` (the robbers are not restricted)."""

    card: int

    def __call__(self, observation):
        is_bank = observation[LAYOUT["observer"]][0] == 1
        return [PLAN_0 + self.card] if is_bank else []

    def __str__(self):
        return f"the bank planning {CARD_NAMES[0][self.card]}"
