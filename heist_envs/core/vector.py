"""Many games of one kind in one record array, stepped in compiled loops.

One implementation serves every game: the jitted loops take the game's kernel functions as
arguments, and numba compiles one specialisation per game. Games that end are dealt anew at
once (auto-reset); the step that ended them reports their rewards and flags, and the
observation and mask returned for them are those of the new game's first actor.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from heist_envs.core.errors import IllegalActionError
from heist_envs.core.game import RUNNING, TERMINATED, TRUNCATED, Game, normalize_seed


@nb.njit(cache=True)
def _episode_seed(base_seed, game_index, episode, num_envs):
    return base_seed + np.uint64(game_index) + np.uint64(num_envs) * np.uint64(episode)


def _reset_all(states, base_seed, episodes, init, legal_mask, observe, actors, obs, masks):
    n = len(states)
    for i in nb.prange(n):
        s = states[i]
        episodes[i] = 0
        init(s, _episode_seed(base_seed, i, 0, n))
        actors[i] = s.actor
        legal_mask(s, masks[i])
        observe(s, s.actor, obs[i])


def _step_all(
    states, actions, active, base_seed, episodes, init, apply, legal_mask, observe, returns,
    actors, obs, masks, rewards, terminated, truncated,
):  # fmt: skip
    n = len(states)
    for i in nb.prange(n):
        if not active[i]:
            rewards[i, :] = 0.0
            terminated[i] = False
            truncated[i] = False
            continue
        s = states[i]
        apply(s, actions[i])
        terminated[i] = s.status == TERMINATED
        truncated[i] = s.status == TRUNCATED
        if s.status != RUNNING:
            returns(s, rewards[i])
            episodes[i] += 1
            init(s, _episode_seed(base_seed, i, episodes[i], n))
        else:
            rewards[i, :] = 0.0
        actors[i] = s.actor
        legal_mask(s, masks[i])
        observe(s, s.actor, obs[i])


# Each loop is compiled twice: threads pay only for large batches (starting them costs more
# than stepping a few games, and far more while other processes load the cores). numba's
# cache keys ignore the parallel flag, so only the serial variant is cached.
PARALLEL_MIN_BATCH = 256
_RESET = {False: nb.njit(cache=True)(_reset_all), True: nb.njit(parallel=True)(_reset_all)}
_STEP = {False: nb.njit(cache=True)(_step_all), True: nb.njit(parallel=True)(_step_all)}


class VectorGames:
    """``num_envs`` games of ``game`` with ``num_players`` players each, stepped together.

    After :meth:`reset` and each :meth:`step`, ``actors[i]`` is the seat to act in game i,
    ``obs[i]`` its observation and ``masks[i]`` its legal actions. The arrays are reused
    between calls: copy them to keep them.
    """

    def __init__(self, game: Game, num_envs: int, num_players=None, options=None):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.game = game
        self.num_envs = num_envs
        self.num_players = game.check_players(num_players)
        self.options = game.check_options(options)
        template = game.new_state(self.num_players, 0, self.options)
        self.states = np.repeat(template.view(np.ndarray), num_envs)
        self.episodes = np.zeros(num_envs, np.int64)
        self.actors = np.zeros(num_envs, np.int8)
        self.obs = np.zeros((num_envs, game.obs_size), game.obs_dtype)
        self.masks = np.zeros((num_envs, game.num_actions), np.int8)
        self.num_seats = game.num_seats(self.num_players)
        self.rewards = np.zeros((num_envs, self.num_seats), np.float32)
        self.terminated = np.zeros(num_envs, np.bool_)
        self.truncated = np.zeros(num_envs, np.bool_)
        self.base_seed = np.uint64(0)
        self.parallel = num_envs >= PARALLEL_MIN_BATCH
        self.all_games = np.ones(num_envs, np.bool_)

    def reset(self, seed=None):
        """Deal every game anew; game i's k-th episode is seeded ``seed + i + k * num_envs``."""
        g = self.game
        self.base_seed = np.uint64(normalize_seed(seed))
        _RESET[self.parallel](self.states, self.base_seed, self.episodes, g.init, g.legal_mask,
                   g.observe, self.actors, self.obs, self.masks)  # fmt: skip
        self.rewards[:] = 0
        self.terminated[:] = False
        self.truncated[:] = False
        return self.actors, self.obs, self.masks

    def step(self, actions, active=None):
        """Apply one action per game (each legal for its actor); returns (actors, obs, masks,
        rewards[num_envs, num_seats], terminated, truncated).

        ``active`` (bool per game) steps only those games; the others' actions are ignored.
        """
        active = self.all_games if active is None else np.asarray(active, np.bool_)
        actions = self.check_actions(actions, active)
        g = self.game
        _STEP[self.parallel](self.states, actions, active, self.base_seed, self.episodes,
                             g.init, g.apply, g.legal_mask, g.observe, g.returns, self.actors,
                             self.obs, self.masks, self.rewards, self.terminated,
                             self.truncated)  # fmt: skip
        return self.actors, self.obs, self.masks, self.rewards, self.terminated, self.truncated

    def check_actions(self, actions, active) -> np.ndarray:
        """The actions as int64, or an error naming the first bad game and action."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be an integer array of shape ({self.num_envs},), "
                f"got {actions.dtype} of shape {actions.shape}"
            )
        actions = actions.astype(np.int64, copy=False)
        in_range = (actions >= 0) & (actions < self.game.num_actions)
        chosen = self.masks[np.arange(self.num_envs), np.where(in_range, actions, 0)]
        legal = (in_range & (chosen == 1)) | ~active
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            a = int(actions[i])
            name = f" ({self.game.action_name(a)})" if in_range[i] else ""
            raise IllegalActionError(
                f"{self.game.name}: action {a}{name} is not legal in game {i} for seat "
                f"{int(self.actors[i])}; legal: {np.flatnonzero(self.masks[i]).tolist()}"
            )
        return actions
