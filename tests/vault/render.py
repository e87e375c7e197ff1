"""Vault as text."""


def render(s, seat=None):
    return f"Vault: {int(s.bars)} bars left, player {int(s.actor)} to take"
