"""Vault's actions: take one or two bars."""

from .components import TAKES

NUM_ACTIONS = len(TAKES)


def action_name(action, s=None):
    return f"take {TAKES[action]} bar{'s' if TAKES[action] > 1 else ''}"
