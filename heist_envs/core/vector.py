"""Many games of one kind in one record array, stepped in compiled loops.

One implementation serves every game: the loops are compiled once per game and process,
around that game's kernel functions. Games that end are dealt anew at
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


@nb.njit(cache=True)
def first_illegal(actions, active, masks):
    """The first active game whose action is out of range or masked out, or -1."""
    for i in range(len(actions)):
        a = actions[i]
        if active[i] and (a < 0 or a >= masks.shape[1] or masks[i, a] == 0):
            return i
    return -1


def _build_loops(game, parallel):
    """The batched reset and step loops for one game, compiled on first use.

    They close over the game's kernel functions rather than taking them as arguments:
    numba cannot cache functions with function arguments safely across games.
    """
    init, apply, legal_mask = game.init, game.apply, game.legal_mask
    observe, returns = game.observe, game.returns

    @nb.njit(parallel=parallel)
    def reset_all(states, base_seed, episodes, actors, obs, masks):
        n = len(states)
        for i in nb.prange(n):
            s = states[i]
            episodes[i] = 0
            init(s, _episode_seed(base_seed, i, 0, n))
            actors[i] = s.actor
            legal_mask(s, masks[i])
            observe(s, s.actor, obs[i])

    @nb.njit(parallel=parallel)
    def step_all(
        states,
        actions,
        active,
        base_seed,
        episodes,
        actors,
        obs,
        masks,
        rewards,
        terminated,
        truncated,
    ):
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

    return reset_all, step_all


# Threads pay only for large batches: starting them costs more than stepping a few games,
# and far more while other processes load the cores.
PARALLEL_MIN_BATCH = 1024
_LOOPS = {}


def batch_loops(game, parallel):
    key = (game.name, parallel)
    if key not in _LOOPS:
        _LOOPS[key] = _build_loops(game, parallel)
    return _LOOPS[key]


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
        self.states = np.repeat(game.kernel_view(template), num_envs)
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
        self._reset_all, self._step_all = batch_loops(game, self.parallel)
        self.all_games = np.ones(num_envs, np.bool_)

    def reset(self, seed=None):
        """Deal every game anew; game i's k-th episode is seeded ``seed + i + k * num_envs``."""
        self.base_seed = np.uint64(normalize_seed(seed))
        self._reset_all(
            self.states, self.base_seed, self.episodes, self.actors, self.obs, self.masks
        )
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
        self._step_all(
            self.states,
            actions,
            active,
            self.base_seed,
            self.episodes,
            self.actors,
            self.obs,
            self.masks,
            self.rewards,
            self.terminated,
            self.truncated,
        )
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
        i = first_illegal(actions, active, self.masks)
        if i >= 0:
            a = int(actions[i])
            in_range = 0 <= a < self.game.num_actions
            name = f" ({self.game.action_name(a)})" if in_range else ""
            raise IllegalActionError(
                f"{self.game.name}: action {a}{name} is not legal in game {i} for seat "
                f"{int(self.actors[i])}; legal: {np.flatnonzero(self.masks[i]).tolist()}"
            )
        return actions
