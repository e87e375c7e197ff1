"""Many games of one kind in one record array, stepped in compiled loops.

One implementation serves every game: the loops are compiled once per game and process,
around that game's kernel functions. Games that end are dealt anew at
once (auto-reset); the step that ended them reports their rewards and flags, and the
observation and mask returned for them are those of the new game's first actor.
"""

from __future__ import annotations

import os

import numba as nb
import numpy as np

from heist_envs.core.errors import IllegalActionError
from heist_envs.core.game import RUNNING, TERMINATED, TRUNCATED, Game, SeedStream
from heist_envs.core.playout import random_legal_actions, random_legal_actions_parallel


@nb.njit(cache=True)
def _episode_seed(base_seed, game_index, episode, num_envs):
    return base_seed + np.uint64(game_index) + np.uint64(num_envs) * np.uint64(episode)


@nb.njit(cache=True)
def is_illegal(actions, active, masks, i):
    """Whether game i is active and its action is out of range or masked out."""
    a = actions[i]
    return active[i] and (a < 0 or a >= masks.shape[1] or masks[i, a] == 0)


@nb.njit(cache=True)
def first_illegal(actions, active, masks):
    """The first active game whose action is out of range or masked out, or -1."""
    for i in range(len(actions)):
        if is_illegal(actions, active, masks, i):
            return i
    return -1


_GAME_FUNCTIONS = {}


def game_functions(game):
    """The game's (reset_game, step_game), built once per process (see
    :func:`build_game_functions`)."""
    if game.name not in _GAME_FUNCTIONS:
        _GAME_FUNCTIONS[game.name] = build_game_functions(game)
    return _GAME_FUNCTIONS[game.name]


def build_game_functions(game):
    """Compiled functions that reset and step game i of a batch, as the CPU loops below do:
    the CUDA kernels of :mod:`heist_envs.core.gpu` run them, one game per thread. (The CPU
    loops keep their own body: calling these from them, inlined by numba, cost 2-14% of the
    CPU engine's speed, and sharing only the end of a step 2-8%, per game; 256 games of
    random moves, median of 11 interleaved runs of thread CPU time. tests/test_gpu.py checks
    that both give the same games.)

    They close over the game's kernel functions rather than taking them as arguments:
    numba cannot cache functions with function arguments safely across games.
    """
    init, apply, legal_mask = game.init, game.apply, game.legal_mask
    observe, returns = game.observe, game.returns

    @nb.njit
    def reset_game(states, i, base_seed, episodes, actors, obs, masks):
        s = states[i]
        episodes[i] = 0
        init(s, _episode_seed(base_seed, i, 0, len(states)))
        actors[i] = s.actor
        legal_mask(s, masks[i])
        observe(s, s.actor, obs[i])

    @nb.njit
    def step_game(
        states,
        i,
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
        if not active[i]:
            for p in range(rewards.shape[1]):
                rewards[i, p] = 0.0
            terminated[i] = False
            truncated[i] = False
            return
        s = states[i]
        apply(s, actions[i])
        terminated[i] = s.status == TERMINATED
        truncated[i] = s.status == TRUNCATED
        if s.status != RUNNING:
            returns(s, rewards[i])
            episodes[i] += 1
            init(s, _episode_seed(base_seed, i, episodes[i], len(states)))
        else:
            for p in range(rewards.shape[1]):
                rewards[i, p] = 0.0
        actors[i] = s.actor
        legal_mask(s, masks[i])
        observe(s, s.actor, obs[i])

    return reset_game, step_game


_OPPONENT_LOOPS = {}


def opponent_loop(game, act):
    """The compiled loop in which the policy ``act`` plays opponents' seats of ``game`` (see
    :func:`build_opponent_loop`), built once per (game, policy) and process."""
    key = (game.name, act)
    if key not in _OPPONENT_LOOPS:
        _OPPONENT_LOOPS[key] = build_opponent_loop(game, act)
    return _OPPONENT_LOOPS[key]


def build_opponent_loop(game, act):
    """A compiled loop that plays, in a batch of games, the seats that the compiled policy
    ``act(obs, mask, params, rng) -> int`` owns, until each game waits for its learner.

    ``slots[i, seat]`` is the row of ``params`` (and the first index of ``rngs``, whose rows
    are ``[slot, game, seat]``) of the opponent playing that seat of game i, -1 where
    ``act`` plays no part. The loop goes in rounds, one decision per game that waits for one
    of its seats (neither the learner's, nor its team's with ``team_play``, nor another
    player's), as the Python opponents play; it returns after the round in which an
    episode ended, so that the caller draws the next episode's learner and opponents before
    calling again, or when no game has a seat of its to play. A game that ended has its
    ``terminated``/``truncated`` flag, the final returns in ``rewards``, the learner's last
    observation in ``last_obs``, and is dealt its next episode (as the step loop deals it);
    the other games' flags and rewards are cleared.

    Returns (game, action, decisions): the first game whose opponent chose an illegal
    action (not played) and that action, else (-1, 0); and the decisions played.
    """
    init, apply, legal_mask = game.init, game.apply, game.legal_mask
    observe, returns = game.observe, game.returns

    @nb.njit
    def play_opponents(
        states,
        base_seed,
        episodes,
        actors,
        obs,
        masks,
        rewards,
        terminated,
        truncated,
        learner_seat,
        team_of_seat,
        team_play,
        slots,
        params,
        rngs,
        last_obs,
    ):
        n = len(states)
        rewards[:, :] = 0.0
        terminated[:] = False
        truncated[:] = False
        decisions = 0
        while True:
            played = False
            ended = False
            for i in range(n):
                seat, learner = actors[i], learner_seat[i]
                if seat == learner or (team_play and team_of_seat[seat] == team_of_seat[learner]):
                    continue
                slot = slots[i, seat]
                if slot < 0:
                    continue
                action = np.int64(act(obs[i], masks[i], params[slot], rngs[slot, i, seat]))
                if action < 0 or action >= masks.shape[1] or masks[i, action] == 0:
                    return i, action, decisions
                s = states[i]
                apply(s, action)
                decisions += 1
                played = True
                if s.status != RUNNING:
                    terminated[i] = s.status == TERMINATED
                    truncated[i] = s.status == TRUNCATED
                    observe(s, learner, last_obs[i])
                    returns(s, rewards[i])
                    episodes[i] += 1
                    init(s, _episode_seed(base_seed, i, episodes[i], n))
                    ended = True
                actors[i] = s.actor
                legal_mask(s, masks[i])
                observe(s, s.actor, obs[i])
            if ended or not played:
                return -1, 0, decisions

    return play_opponents


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
#: The largest batch accepted (its arrays take about num_envs * obs_size * 4 bytes).
MAX_ENVS = 1 << 22
_LOOPS = {}
#: The process whose threads ran a parallel loop (None: none has run). Numba's OpenMP
#: threads do not survive a fork: a forked child that ran a parallel loop would be killed
#: ("fork() called from a process already using GNU OpenMP"), so a child steps its batches
#: with the serial loops instead.
_threads_started_in = None


def batch_loops(game, parallel):
    """The (reset_all, step_all) loops of ``game``; the serial ones in a forked child whose
    parent already ran parallel loops."""
    global _threads_started_in
    parallel = bool(parallel)
    if parallel:
        if _threads_started_in not in (None, os.getpid()):
            parallel = False
        else:
            _threads_started_in = os.getpid()
    key = (game.name, parallel)
    if key not in _LOOPS:
        _LOOPS[key] = _build_loops(game, parallel)
    return _LOOPS[key]


def check_num_envs(num_envs) -> int:
    """``num_envs`` as an int (any integer type), or a ValueError saying what is allowed."""
    if isinstance(num_envs, (bool, np.bool_)) or not isinstance(num_envs, (int, np.integer)):
        raise ValueError(f"num_envs must be an integer, got {num_envs!r:.80}")
    if not 1 <= num_envs <= MAX_ENVS:
        raise ValueError(f"num_envs must be 1 to {MAX_ENVS}, got {num_envs}")
    return int(num_envs)


class VectorGames:
    """``num_envs`` games of ``game`` with ``num_players`` players each, stepped together.

    After :meth:`reset` and each :meth:`step`, ``actors[i]`` is the seat to act in game i,
    ``obs[i]`` its observation and ``masks[i]`` its legal actions. The arrays are reused
    between calls: copy them to keep them. :class:`heist_envs.core.gpu.CudaVectorGames` plays
    the same games on a GPU; :func:`heist_envs.core.engines.vector_games` picks either by
    device.
    """

    device = "cpu"

    def __init__(self, game: Game, num_envs: int, num_players=None, options=None):
        template = self.configure(game, num_envs, num_players, options)
        self.parallel = self.num_envs >= PARALLEL_MIN_BATCH
        for name, values in self.buffers(template).items():
            setattr(self, name, values)

    def buffers(self, template) -> dict:
        """The batch's arrays, by attribute name, each game's record a copy of ``template``."""
        n, game = self.num_envs, self.game
        return {
            "states": self.new_states(template),
            "episodes": np.zeros(n, np.int64),
            "actors": np.zeros(n, np.int8),
            "obs": np.zeros((n, game.obs_size), game.obs_dtype),
            "masks": np.zeros((n, game.num_actions), np.int8),
            "rewards": np.zeros((n, self.num_seats), np.float32),
            "terminated": np.zeros(n, np.bool_),
            "truncated": np.zeros(n, np.bool_),
            "all_games": np.ones(n, np.bool_),
            "actions": np.zeros(n, np.int64),
        }

    def new_states(self, template) -> np.ndarray:
        """``num_envs`` copies of the 1-record array ``template``, as the loops take them."""
        return np.repeat(self.game.kernel_view(template), self.num_envs)

    def configure(self, game, num_envs, num_players, options):
        """Check and keep the batch's configuration; returns the template record."""
        if not isinstance(game, Game):
            raise ValueError(f"game must be a heist_envs Game (get_game(name)), got {game!r:.80}")
        self.num_envs = check_num_envs(num_envs)
        self.game = game
        self.num_players = game.check_players(num_players)
        self.options = game.check_options(options)
        self.num_seats = game.num_seats(self.num_players)
        self.base_seed = np.uint64(0)
        self.seeds = SeedStream()
        return game.new_state(self.num_players, 0, self.options)

    def _loops(self):
        """Looked up at each call: after a fork the child gets the serial loops."""
        return batch_loops(self.game, self.parallel)

    def reset(self, seed=None):
        """Deal every game anew; game i's k-th episode is seeded ``seed + i + k * num_envs``.

        Without a seed, ``seed`` is drawn from a generator seeded by the last seeded reset (a
        fresh OS seed if there was none), as Gymnasium's envs do.
        """
        self.base_seed = np.uint64(self.seeds.next(seed))
        reset_all, _ = self._loops()
        reset_all(self.states, self.base_seed, self.episodes, self.actors, self.obs, self.masks)
        self.rewards[:] = 0
        self.terminated[:] = False
        self.truncated[:] = False
        return self.actors, self.obs, self.masks

    def step(self, actions, active=None):
        """Apply one action per game (each legal for its actor); returns (actors, obs, masks,
        rewards[num_envs, num_seats], terminated, truncated).

        ``active`` (bool per game) steps only those games; the others' actions are ignored.
        """
        active = self.all_games if active is None else self.check_active(active)
        actions = self.check_actions(actions, active)
        _, step_all = self._loops()
        step_all(*self.step_arguments(actions, active))
        return self.actors, self.obs, self.masks, self.rewards, self.terminated, self.truncated

    def step_arguments(self, actions, active):
        """The arguments of the step loop (and of the GPU's step kernel)."""
        return (
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

    def random_actions(self, seed):
        """One uniformly random legal action per game, drawn from (``seed``, game index)
        alone (:func:`heist_envs.core.playout.random_legal_actions`); reused between calls."""
        pick = random_legal_actions_parallel if self.parallel else random_legal_actions
        pick(self.masks, seed, self.actions)
        return self.actions

    def check_active(self, active) -> np.ndarray:
        """``active`` as a bool array, or a ValueError unless it is one flag per game."""
        flags = np.asarray(active)
        ok = flags.shape == (self.num_envs,) and (
            flags.dtype == np.bool_
            or (np.issubdtype(flags.dtype, np.integer) and np.isin(flags, (0, 1)).all())
        )
        if not ok:
            raise ValueError(
                f"active must be {self.num_envs} bools (one per game), "
                f"got {flags.dtype} of shape {flags.shape}"
            )
        return flags.astype(np.bool_)

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
            self.raise_illegal(int(actions[i]), i, int(self.actors[i]), self.masks[i])
        return actions

    def raise_illegal(self, action, i, actor, mask):
        """The IllegalActionError for ``action`` in game i, whose actor and mask are given."""
        in_range = 0 <= action < self.game.num_actions
        name = f" ({self.game.action_name(action)})" if in_range else ""
        raise IllegalActionError(
            f"{self.game.name}: action {action}{name} is not legal in game {i} for seat "
            f"{actor}; legal: {np.flatnonzero(mask).tolist()}"
        )
