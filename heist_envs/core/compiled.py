"""Fast entry points into a game's kernel for Python callers.

Calling a jitted function with a numpy record costs microseconds of argument typing; with a
plain 1-element array it costs a fraction of one. These wrappers take the plain array view
of a state (:meth:`Game.kernel_view`) and fuse the calls a step needs. They are compiled once
per game and process (about half a second) on first use.
"""

from types import SimpleNamespace

import numba as nb
import numpy as np

from heist_envs.core.game import RUNNING
from heist_envs.core.playout import random_legal_action


def build_entry_points(game) -> SimpleNamespace:
    init, apply, legal_mask = game.init, game.apply, game.legal_mask
    observe, returns, num_actions = game.observe, game.returns, game.num_actions

    @nb.njit
    def refresh(state, mask):
        """Write the actor's legal mask (zeros once the game is over); -> (actor, status)."""
        s = state[0]
        if s.status == RUNNING:
            legal_mask(s, mask)
        else:
            mask[:] = 0
        return s.actor, s.status

    @nb.njit
    def advance(state, action, mask):
        """Apply a legal action, then refresh; -> (actor, status)."""
        apply(state[0], action)
        return refresh(state, mask)

    @nb.njit
    def advance_observe(state, action, mask, obs):
        """Advance, then write the new actor's observation (a gym-style step)."""
        actor, status = advance(state, action, mask)
        if status == RUNNING:
            observe(state[0], actor, obs)
        return actor, status

    @nb.njit
    def restart(state, seed, mask, obs):
        """Deal a new game with the same configuration, refresh and observe the actor."""
        init(state[0], seed)
        actor, status = refresh(state, mask)
        observe(state[0], actor, obs)
        return actor, status

    @nb.njit
    def random_playouts(state, num_games, seed):
        """Play ``num_games`` games of random legal moves from fresh deals of the state's
        configuration; returns the number of decisions. The state ends as the last game."""
        s = state[0]
        mask = np.zeros(num_actions, np.int8)
        np.random.seed(seed)
        steps = 0
        for k in range(num_games):
            init(s, seed + k)
            while s.status == RUNNING:
                legal_mask(s, mask)
                apply(s, random_legal_action(mask, num_actions))
                steps += 1
        return steps

    @nb.njit
    def observe_seat(state, seat, out):
        observe(state[0], seat, out)

    @nb.njit
    def final_returns(state, out):
        returns(state[0], out)

    return SimpleNamespace(
        refresh=refresh,
        advance=advance,
        advance_observe=advance_observe,
        restart=restart,
        random_playouts=random_playouts,
        observe=observe_seat,
        returns=final_returns,
    )
