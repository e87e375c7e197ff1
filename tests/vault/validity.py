"""Vault's state check."""

from heist_envs.core.validity import in_range

from .components import MAX_BARS


def validate(s):
    in_range("bars", s.bars, 0, MAX_BARS)
    in_range("last_taker", s.last_taker, -1, int(s.num_players) - 1)
