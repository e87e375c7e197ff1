"""Shared test helpers: drive a kernel directly with random legal actions."""

import numpy as np

from heist_envs.core.game import RUNNING


def legal_actions(game, s):
    mask = np.zeros(game.num_actions, np.int8)
    game.legal_mask(s, mask)
    return np.flatnonzero(mask)


def random_playout(game, num_players, seed, options=None, on_step=None, max_steps=100_000):
    """Play one game with uniformly random legal actions; returns the final 1-element state.

    ``on_step(s)`` is called after the setup and after every action.
    """
    state = game.new_state(num_players, seed, options)
    s = state[0]
    rng = np.random.default_rng(seed)
    if on_step:
        on_step(s)
    for _ in range(max_steps):
        if s.status != RUNNING:
            return state
        legal = legal_actions(game, s)
        assert len(legal) > 0, f"empty mask for the acting seat {s.actor}"
        game.apply(s, int(rng.choice(legal)))
        if on_step:
            on_step(s)
    raise AssertionError(f"game did not end within {max_steps} steps")


def play(game, s, *actions):
    """Apply actions to a record, checking each is legal first."""
    for a in actions:
        legal = legal_actions(game, s)
        assert a in legal, f"action {a} ({game.action_name(a, s)}) not legal; legal: {legal}"
        game.apply(s, a)


def heuristic_moves(game, s, seeds=range(16), weights=None):
    """The actions the game's heuristic plays for the seat to act in the record ``s``, one per
    agent seeded with each of ``seeds`` (more than one where it sees a tie)."""
    from agents.profiles import make_heuristic

    obs = np.zeros(game.obs_size, game.obs_dtype)
    mask = np.zeros(game.num_actions, np.int8)
    game.observe(s, s.actor, obs)
    game.legal_mask(s, mask)
    return {make_heuristic(game.name, seed, weights).act(obs, mask) for seed in seeds}
