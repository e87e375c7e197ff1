"""Batched ISMCTS: many searches in lockstep, their leaves evaluated together.

:class:`BatchSearch` runs B single-observer ISMCTS searches (B games, or B decisions) side
by side, one simulation step at a time, as DeepMind's mctx batches its searches: compiled
code walks every tree to a leaf (each simulation in a world sampled afresh from the
searching seat's information by the kernel's ``determinize``), hands the B leaves to an
**evaluator** in one call, and backs up what it returns. The tree, its descent and its
backup are :mod:`agents.ismcts`'s own compiled pieces; what is new is the step, and the
evaluator that replaces the rollout.

**The evaluator** (:class:`Evaluator`) takes :class:`Leaves` (the leaves' observations,
each from the seat to move there, and their legal masks) and returns move priors and
per-seat values:

- ``priors``: float, ``(n, num_actions)``, the probability of each legal move at the leaf
  (the search reads only the legal ones);
- ``values``: float, ``(n, num_seats)``, every seat's expected return on the scale of the
  game's ``returns``, **relative to the observer**: ``values[j, k]`` is the return of seat
  ``(observer + k) % num_seats``, ``observer = leaves.observers[j]`` (the seat to move at the
  leaf, whose observation ``leaves.observations[j]`` is). So column 0 is the observer's own
  value, as observations put the observer first, and a team game backs up every seat's
  return (a seat's return is its team's outcome). A network's value head writes these
  columns; the search rotates them back to seats.

The search calls it once per simulation step with every search's leaf (and once more, with
the roots, where the prior is read), so a network evaluates all of them in one forward pass.
Leaves where the game ended are scored by the game's ``returns`` and not handed over, unless
the evaluator sets ``scores_finished``. :class:`RolloutEvaluator` needs no network: a uniform
prior, and values from the game's rollouts (full, or cut after ``rollout_depth`` moves and
scored by the game's ``evaluate``), as :class:`agents.ismcts.ISMCTSAgent` scores its leaves.

**Selection**: "puct" chooses moves at every node by PUCT on the prior the evaluator gave
when the node was added (:func:`agents.ismcts.puct`; a move its world did not allow counts
as uniform); "gumbel" chooses the root's moves by Gumbel sampling and sequential halving
(:class:`GumbelRoot`), PUCT below; "uct" is ISMCTS's rule (each move tried once, then UCT
with availability counts), which ignores the prior: with the rollout evaluator and one
search it makes :class:`~agents.ismcts.ISMCTSAgent`'s moves, seed for seed.

Honesty: beyond its public header (who moves, the player count, whether the game runs),
the search reads a root only by copying and determinizing it, and the evaluator sees
sampled worlds only (a network: the observations in them; a rollout: the world itself).
Rollouts and UCT's first tries draw from numba's ``np.random``, seeded once per batch from
the first search's seed.
"""

from __future__ import annotations

from functools import cached_property
from types import SimpleNamespace
from typing import NamedTuple, Protocol

import numba as nb
import numpy as np

import heist_envs
from heist_envs.core.game import RUNNING

from .ismcts import (
    UNEXPANDED,
    Tree,
    backup,
    check_cuts,
    checked_rollout,
    child_of,
    compiled_descend,
    compiled_playout,
    with_defaults,
)

#: what one search may ask for, and one batch hold
MAX_SIMULATIONS = 100_000
MAX_BATCH = 4096
#: tree nodes of a whole batch (batch × (simulations + 1)): about 2.6 GB in the largest game
MAX_NODES = 1 << 22
SELECTIONS = ("puct", "gumbel", "uct")
#: Gumbel's transform of the root's completed Q values (mctx's defaults): ``sigma(q) =
#: (MAXVISIT_INIT + the most visits of a root move) * VALUE_SCALE * q``, q rescaled to [0, 1]
MAXVISIT_INIT = 50.0
VALUE_SCALE = 0.1


class Leaves:
    """The leaves of one simulation step that an evaluator scores, a row each.

    ``masks``: the legal moves at each leaf (int8, ``(n, num_actions)``); ``observers``: the
    seat to move at each leaf (the searching seat where the game ended); ``observations``:
    each observer's observation (the kernel's dtype, ``(n, obs_size)``, computed on first
    use); ``worlds``: the sampled worlds themselves (for evaluators that stand for the game's
    own knowledge, like rollouts, which may play them on; the rows ``rows`` of ``worlds``
    where given, copied on first use); ``num_seats``: the values' width.
    """

    def __init__(self, game, worlds, masks, observers, num_seats, rows=None):
        self.game = game
        self.all_worlds, self.rows = worlds, rows
        self.masks = masks
        self.observers = observers
        self.num_seats = num_seats

    def __len__(self):
        return len(self.masks)

    @cached_property
    def worlds(self) -> np.ndarray:
        return self.all_worlds if self.rows is None else self.all_worlds[self.rows]

    @cached_property
    def observations(self) -> np.ndarray:
        out = np.zeros((len(self), self.game.obs_size), self.game.obs_dtype)
        rows = np.arange(len(self)) if self.rows is None else self.rows
        compiled_steps(self.game).observe_all(self.all_worlds, rows, self.observers, out)
        return out


class Evaluator(Protocol):
    """Scores a batch of leaves: ``(priors, values)`` as the module's docstring sets out.

    ``scores_finished``: whether leaves where the game ended are handed over too (else the
    search scores them with the game's returns)."""

    scores_finished: bool

    def __call__(self, leaves: Leaves) -> tuple[np.ndarray, np.ndarray]: ...


class RolloutEvaluator:
    """A uniform prior over the legal moves, and values from rollouts: ``rollout`` moves
    ("policy": the game's compiled rollout policy, the default where it has one; "random"),
    to the game's end or for ``rollout_depth`` moves and then scored by the game's
    ``evaluate`` (``evaluate_end``: finished games as well), as ISMCTS scores its leaves."""

    def __init__(self, game, rollout=None, rollout_depth=-1, evaluate_end=False):
        self.rollout = checked_rollout(game, rollout)
        cuts = {"rollout_depth": rollout_depth, "evaluate_end": evaluate_end}
        check_cuts(game, self.rollout, cuts)
        self.game = game
        self.rollout_depth = int(rollout_depth)
        self.evaluate_end = bool(evaluate_end)
        self.scores_finished = self.evaluate_end  # finished games are scored by evaluate too

    def __call__(self, leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
        priors = np.zeros(leaves.masks.shape, np.float32)
        values = np.zeros((len(leaves), leaves.num_seats), np.float32)
        compiled_rollout_evaluator(self.game, self.rollout)(
            leaves.worlds,
            leaves.masks,
            leaves.observers,
            self.rollout_depth,
            self.evaluate_end,
            priors,
            values,
        )
        return priors, values


class SearchResult(NamedTuple):
    """What a batch of searches found, a row per search: ``actions``, the move each chose
    (the most visited, ties broken by the search's seeded generator); ``visits``, how often
    each root move of the searching seat was chosen (0 for moves never tried or illegal);
    ``q``, the searching seat's mean return after each move tried (NaN elsewhere)."""

    actions: np.ndarray
    visits: np.ndarray
    q: np.ndarray
    #: the Gumbel root's improved policy, ``softmax(log prior + sigma(completed q))`` over
    #: the legal moves (Danihelka et al. 2022), the target its paper trains on; None for
    #: the other selections
    improved: np.ndarray | None = None

    @property
    def policy(self) -> np.ndarray:
        """The visit distribution over the moves: the target expert iteration trains on."""
        return self.visits / self.visits.sum(1, keepdims=True)


class BatchSearch:
    """B ISMCTS searches at once, ``simulations`` each, their leaves scored by ``evaluator``
    (default: :class:`RolloutEvaluator` with the game's default rollouts) in one call per
    simulation step. ``selection`` is "puct" (``puct_c``: its exploration weight), "gumbel"
    (the root's moves by Gumbel sampling and sequential halving among ``considered`` of
    them, Danihelka et al. 2022, PUCT below it) or "uct" (``uct_c``); the tree stops
    ``tree_depth`` moves below the root (-1: no limit). ``seed`` seeds the generator that
    draws each search's seed, the Gumbel noise and the ties broken.

    :meth:`search` takes the states of B decisions: each search is for the seat to move.
    """

    def __init__(
        self,
        game,
        evaluator=None,
        simulations=100,
        selection="puct",
        uct_c=1.4,
        puct_c=1.0,
        tree_depth=-1,
        seed=None,
        considered=16,
    ):
        self.game = heist_envs.get_game(game) if isinstance(game, str) else game
        if isinstance(simulations, (bool, np.bool_)) or not isinstance(
            simulations, (int, np.integer)
        ):
            raise ValueError(f"simulations must be an integer, got {simulations!r:.80}")
        if not 1 <= simulations <= MAX_SIMULATIONS:
            raise ValueError(
                f"simulations must be 1 to {MAX_SIMULATIONS:,} per search, got {simulations}"
            )
        if selection not in SELECTIONS:
            raise ValueError(
                f"unknown selection {selection!r}; choose one of {', '.join(SELECTIONS)}"
            )
        for name, value in (("uct_c", uct_c), ("puct_c", puct_c)):
            if not isinstance(value, (int, float)) or not value >= 0:
                raise ValueError(f"{name} must be a number of at least 0, got {value!r:.80}")
        if not isinstance(tree_depth, (int, np.integer)) or not (
            tree_depth == -1 or tree_depth >= 1
        ):
            raise ValueError(
                f"tree_depth must be -1 (no limit) or at least 1, got {tree_depth!r:.80}"
            )
        if (
            isinstance(considered, (bool, np.bool_))
            or not isinstance(considered, (int, np.integer))
            or not considered >= 2
        ):
            raise ValueError(f"considered must be an integer of at least 2, got {considered!r:.80}")
        self.considered = int(considered)
        self.evaluator = RolloutEvaluator(self.game) if evaluator is None else evaluator
        self.simulations = int(simulations)
        self.selection = selection
        self.uct_c = float(uct_c)
        self.puct_c = float(puct_c)
        self.tree_depth = int(tree_depth)
        self.rng = np.random.default_rng(seed)

    def checked_states(self, states) -> np.ndarray:
        """``states`` as the plain array of records compiled code takes, or a ValueError
        naming what a batch must be."""
        game = self.game
        states = np.asarray(states)
        if states.dtype != game.state_dtype or states.ndim != 1:
            raise ValueError(
                f"states must be a 1-d array of {game.name} states, got {states.dtype} "
                f"of shape {states.shape}"
            )
        batch = len(states)
        if not 1 <= batch <= MAX_BATCH:
            raise ValueError(f"a batch holds 1 to {MAX_BATCH} searches, got {batch}")
        nodes = batch * (self.simulations + 1)
        if nodes > MAX_NODES:
            raise ValueError(
                f"{batch} searches of {self.simulations} simulations need {nodes:,} tree nodes; "
                f"at most {MAX_NODES:,} (batch × (simulations + 1))"
            )
        finished = np.flatnonzero(states["status"] != RUNNING)
        if len(finished):
            raise ValueError(f"state {finished[0]} is of a finished game: nothing to search")
        counts = np.unique(states["num_players"])
        if len(counts) > 1:
            raise ValueError(f"a batch is of one player count, got {', '.join(map(str, counts))}")
        return states.view(game.state_dtype, np.ndarray)

    def search(self, states) -> SearchResult:
        """Search the decision of the seat to move in each of ``states`` (a 1-d array of
        the game's records, as :class:`heist_envs.core.vector.VectorGames` holds them; read
        only through worlds determinized from that seat's information)."""
        roots = self.checked_states(states)
        guided = self.selection != "uct"  # reads the evaluator's priors
        batch = Batch.start(self.game, roots, self.simulations, guided, self.rng)
        steps = compiled_steps(self.game)
        rules = (self.uct_c, -1 if guided else 0, self.puct_c)
        steps.seed_rollouts(batch.seeds[0])
        steps.descend_all(batch, self.simulations, 0, *rules)  # the roots: their legal moves
        root_masks = batch.masks.copy()
        if guided:
            rows, priors, values = self._evaluate(batch)
            steps.store_priors(batch, rows, np.zeros(len(roots), np.int64), priors)
        if self.selection == "gumbel":
            root = GumbelRoot(self, batch, root_masks, values[:, 0])
        for k in range(self.simulations):
            if self.selection == "gumbel":
                root.choose(k)
            steps.descend_all(batch, k, self.tree_depth, *rules)
            rows, priors, values = self._evaluate(batch)
            if guided:
                steps.store_priors(batch, rows, batch.grown, priors)
            steps.absorb(batch, rows, values)
        visits = np.zeros(root_masks.shape, np.int32)
        q = np.full(root_masks.shape, np.nan)
        steps.root_statistics(batch, root_masks, visits, q)
        if self.selection == "gumbel":
            return SearchResult(root.choose(None), visits, q, root.improved())
        actions = np.zeros(len(roots), np.int64)
        for i, mask in enumerate(root_masks):
            legal = np.flatnonzero(mask)
            counts = visits[i, legal]
            best = legal[counts == counts.max()]
            actions[i] = best[self.rng.integers(len(best))]
        return SearchResult(actions, visits, q)

    def _evaluate(self, batch):
        """The evaluator's ``(rows, priors, values)`` for the leaves it scores."""
        num_actions, num_seats = self.game.num_actions, batch.returns.shape[1]
        if self.evaluator.scores_finished or not batch.finished.any():
            rows = np.arange(len(batch.roots))
            leaves = Leaves(self.game, batch.worlds, batch.masks, batch.observers, num_seats)
        else:
            rows = np.flatnonzero(~batch.finished)
            masks, observers = batch.masks[rows], batch.observers[rows]
            leaves = Leaves(self.game, batch.worlds, masks, observers, num_seats, rows)
        if not len(rows):
            return rows, np.zeros((0, num_actions)), np.zeros((0, num_seats))
        priors, values = self.evaluator(leaves)
        priors, values = np.asarray(priors), np.asarray(values)
        if priors.shape != (len(rows), num_actions) or values.shape != (len(rows), num_seats):
            raise ValueError(
                f"the evaluator must return priors of shape {(len(rows), num_actions)} and "
                f"values of shape {(len(rows), num_seats)}, got {priors.shape} and "
                f"{values.shape}"
            )
        return rows, priors, values


def considered_visits(considered, simulations):
    """Sequential halving's schedule (Danihelka et al. 2022, as mctx writes it): at
    simulation k, the root moves with ``schedule[k]`` visits compete. ``considered`` moves
    get the budget's first share, evenly; then the better half, and so on down to two."""
    if considered <= 1:
        return np.arange(simulations)
    phases = int(np.ceil(np.log2(considered)))
    schedule, visits = [], [0] * considered
    while len(schedule) < simulations:
        for _ in range(max(1, simulations // (phases * considered))):
            schedule.extend(visits[:considered])
            visits[:considered] = [v + 1 for v in visits[:considered]]
        considered = max(2, considered // 2)
    return np.array(schedule[:simulations])


class GumbelRoot:
    """The Gumbel root of a batch: each search's Gumbel noise plus log prior over its legal
    moves, the sequential-halving schedule of each (its ``considered`` moves, or all of its
    legal ones if fewer), and the root values the completed Q values mix in."""

    def __init__(self, search, batch, masks, root_values):
        self.batch, self.masks, self.game = batch, masks, search.game
        self.values = np.asarray(root_values, np.float64)
        priors = np.where(masks > 0, batch.priors[:, 0], 0.0)
        with np.errstate(divide="ignore"):
            self.logits = np.where(masks > 0, np.log(priors), -np.inf)
        self.noisy = self.logits + search.rng.gumbel(size=masks.shape)
        counts, rows = np.unique(np.minimum(masks.sum(1), search.considered), return_inverse=True)
        schedules = np.stack([considered_visits(m, search.simulations) for m in counts])
        self.schedule = schedules[rows.reshape(-1)]  # one schedule per count of moves
        self.sigma = np.zeros(masks.shape)

    def choose(self, k):
        """Write each search's root move for simulation ``k`` (among the moves with
        ``schedule[k]`` visits) into the batch; k None: the move played (among the most
        visited), returned."""
        wanted = np.full(len(self.masks), -1) if k is None else self.schedule[:, k]
        compiled_steps(self.game).gumbel_choice(
            self.batch, self.masks, self.noisy, self.values, wanted, self.sigma
        )
        return self.batch.root_actions.copy()

    def improved(self):
        """``softmax(log prior + sigma(completed q))`` over each search's legal moves."""
        scores = self.logits + self.sigma
        scores = np.exp(scores - scores.max(1, keepdims=True))
        return scores / scores.sum(1, keepdims=True)


class Batch(NamedTuple):
    """A batch of searches in flat arrays, a row per search, as compiled code takes them:
    the trees (:class:`agents.ismcts.Tree`'s arrays with a row each, ``sizes`` their node
    counts), each root's state, seat, seed and move to play (-1: chosen by the rule), the
    prior kept at each node (PUCT), and the
    current simulation's world, path, node added, leaf mask, mover (``observers``), whether
    its game ended and every seat's return."""

    trees: Tree
    sizes: np.ndarray
    roots: np.ndarray
    seats: np.ndarray
    seeds: np.ndarray
    root_actions: np.ndarray
    priors: np.ndarray
    worlds: np.ndarray
    paths: np.ndarray
    depths: np.ndarray
    grown: np.ndarray
    masks: np.ndarray
    observers: np.ndarray
    finished: np.ndarray
    returns: np.ndarray

    @classmethod
    def start(cls, game, roots, simulations, keeps_priors, rng):
        """Empty trees for ``roots``, room for ``simulations`` each, the seeds from ``rng``."""
        batch, nodes, num_actions = len(roots), simulations + 1, game.num_actions
        tree = Tree.empty(nodes, num_actions)
        return cls(
            trees=Tree(*(np.repeat(part[None], batch, 0) for part in tree)),
            sizes=np.ones(batch, np.int64),
            roots=roots,
            seats=roots["actor"].astype(np.int64),
            seeds=rng.integers(1 << 31, size=batch),
            root_actions=np.full(batch, -1, np.int64),
            priors=np.full((batch, nodes if keeps_priors else 1, num_actions), np.nan, np.float32),
            worlds=roots.copy(),
            paths=np.zeros((batch, nodes), np.int64),
            depths=np.zeros(batch, np.int64),
            grown=np.zeros(batch, np.int64),
            masks=np.zeros((batch, num_actions), np.int8),
            observers=np.zeros(batch, np.int64),
            finished=np.zeros(batch, np.bool_),
            returns=np.zeros((batch, game.num_seats(int(roots[0]["num_players"]))), np.float32),
        )


@nb.njit(cache=True)
def tree_of(batch, i):
    """Search ``i``'s tree, as :mod:`agents.ismcts`'s compiled pieces take one."""
    t = batch.trees
    return Tree(t.children[i], t.sibling[i], t.visits[i], t.avail[i], t.value[i], t.mover[i])


def _build_steps(game):
    determinize, legal_mask = game.determinize, game.legal_mask
    returns, observe = game.returns, game.observe
    descend = compiled_descend(game)

    @nb.njit
    def descend_all(batch, k, tree_depth, uct_c, puct_depth, puct_c):
        """Simulation ``k`` of every search down to its leaf (see
        :func:`agents.ismcts.compiled_descend`): ``worlds[i]`` becomes the leaf's world,
        ``masks[i]`` and ``observers[i]`` its legal moves and mover; a finished game's
        returns go to ``returns[i]``."""
        b = batch
        for i in range(len(b.roots)):
            b.worlds[i] = b.roots[i]
            s = b.worlds[i]
            determinize(s, b.seats[i], np.uint64(b.seeds[i]) * np.uint64(1000003) + np.uint64(k))
            tree, size = tree_of(b, i), b.sizes[i : i + 1]
            b.depths[i], b.grown[i] = descend(
                tree, size, s, b.masks[i], b.paths[i], uct_c, tree_depth, b.priors[i],
                puct_depth, puct_c, b.root_actions[i],
            )  # fmt: skip
            b.finished[i] = s.status != RUNNING
            if b.finished[i]:
                b.masks[i, :] = 0
                b.observers[i] = b.seats[i]
                returns(s, b.returns[i])
            else:
                legal_mask(s, b.masks[i])
                b.observers[i] = s.actor

    @nb.njit
    def observe_all(worlds, rows, observers, out):
        for j in range(len(rows)):
            observe(worlds[rows[j]], observers[j], out[j])

    return SimpleNamespace(descend_all=descend_all, observe_all=observe_all, **_SHARED_STEPS)


@nb.njit(cache=True)
def seed_rollouts(seed):
    """Seed numba's ``np.random``, from which rollouts and UCT's first tries draw."""
    np.random.seed(seed)


@nb.njit(cache=True)
def store_priors(batch, rows, nodes, leaf_priors):
    """Keep each evaluated leaf's prior at its node (``nodes[i]``, none where UNEXPANDED):
    NaN for the moves its world did not allow."""
    for j in range(len(rows)):
        i = rows[j]
        node = nodes[i]
        if node != UNEXPANDED:
            for a in range(batch.masks.shape[1]):
                batch.priors[i, node, a] = leaf_priors[j, a] if batch.masks[i, a] else np.nan


@nb.njit(cache=True)
def absorb(batch, rows, values):
    """Turn the evaluated rows' values (relative to their observers) into every seat's
    return, then back up each search's simulation."""
    num_seats = batch.returns.shape[1]
    for j in range(len(rows)):
        i = rows[j]
        for m in range(num_seats):
            batch.returns[i, (batch.observers[i] + m) % num_seats] = values[j, m]
    for i in range(len(batch.roots)):
        backup(tree_of(batch, i), batch.paths[i], batch.depths[i], batch.returns[i])


@nb.njit(cache=True)
def root_statistics(batch, masks, visits, q):
    """Each search's visits and mean return of the seat's legal root moves."""
    for i in range(len(batch.roots)):
        tree = tree_of(batch, i)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                c = child_of(tree.children, tree.sibling, tree.mover, 0, a, batch.seats[i])
                if c != UNEXPANDED and tree.visits[c] > 0:
                    visits[i, a] = tree.visits[c]
                    q[i, a] = tree.value[c] / tree.visits[c]


@nb.njit(cache=True)
def gumbel_choice(batch, masks, noisy, root_values, wanted, sigma):
    """Each search's root move: the highest ``noisy + sigma(completed q)`` among its legal
    moves with ``wanted[i]`` visits (-1: the most), into ``batch.root_actions``; ``sigma``
    gets each move's ``sigma(completed q)``. A move not tried is valued at the root value
    mixed with the tried moves' prior-weighted mean return (mctx's completed Q by mixed
    value); all are rescaled to [0, 1]."""
    num_actions = masks.shape[1]
    counts = np.zeros(num_actions, np.int64)
    q = np.zeros(num_actions)
    for i in range(len(batch.roots)):
        tree = tree_of(batch, i)
        prior = batch.priors[i, 0]
        total, most, weight, weighted = 0, 0, 0.0, 0.0
        for a in range(num_actions):
            counts[a] = 0
            if masks[i, a]:
                c = child_of(tree.children, tree.sibling, tree.mover, 0, a, batch.seats[i])
                if c != UNEXPANDED and tree.visits[c] > 0:
                    counts[a] = tree.visits[c]
                    q[a] = tree.value[c] / tree.visits[c]
                    total += counts[a]
                    most = max(most, counts[a])
                    p = max(prior[a], 1e-30)
                    weight += p
                    weighted += p * q[a]
        tried = weighted / weight if weight > 0 else 0.0
        mixed = (root_values[i] + tried * total) / (total + 1)
        low, high = np.inf, -np.inf
        for a in range(num_actions):
            if masks[i, a]:
                if counts[a] == 0:
                    q[a] = mixed
                low, high = min(low, q[a]), max(high, q[a])
        scale = (MAXVISIT_INIT + most) * VALUE_SCALE / max(high - low, 1e-8)
        visits = most if wanted[i] < 0 else wanted[i]
        best, best_score = -1, -np.inf
        for a in range(num_actions):
            sigma[i, a] = 0.0
            if masks[i, a]:
                sigma[i, a] = (q[a] - low) * scale
                score = noisy[i, a] + sigma[i, a]
                if counts[a] == visits and score > best_score:
                    best, best_score = a, score
        batch.root_actions[i] = best


_SHARED_STEPS = {
    "seed_rollouts": seed_rollouts,
    "store_priors": store_priors,
    "absorb": absorb,
    "root_statistics": root_statistics,
    "gumbel_choice": gumbel_choice,
}
_STEPS = {}
_ROLLOUT_EVALUATORS = {}


def compiled_steps(game):
    """The compiled parts of a simulation step for ``game`` (built once per process)."""
    if game.name not in _STEPS:
        _STEPS[game.name] = _build_steps(game)
    return _STEPS[game.name]


def compiled_rollout_evaluator(game, rollout):
    """Compiled ``(worlds, masks, observers, rollout_depth, evaluate_end, priors, values)``:
    a uniform prior over each leaf's legal moves, and each world played out by ``rollout``
    moves (:func:`agents.ismcts.compiled_playout`), its returns written relative to its
    observer."""
    key = (game.name, rollout)
    if key not in _ROLLOUT_EVALUATORS:
        playout, num_actions = compiled_playout(game, rollout), game.num_actions

        @nb.njit
        def rollout_evaluator(worlds, masks, observers, depth, evaluate_end, priors, values):
            num_seats = values.shape[1]
            mask = np.zeros(num_actions, np.int8)
            ret = np.zeros(num_seats, np.float32)
            for j in range(len(worlds)):
                legal = masks[j].sum()
                for a in range(num_actions):
                    priors[j, a] = masks[j, a] / legal if legal > 0 else 0.0
                playout(worlds[j], mask, ret, depth, evaluate_end)
                for m in range(num_seats):
                    values[j, m] = ret[(observers[j] + m) % num_seats]

        _ROLLOUT_EVALUATORS[key] = rollout_evaluator
    return _ROLLOUT_EVALUATORS[key]


#: the batched agent's settings and their defaults; a game's ``SEARCH_DEFAULTS`` (policy
#: rollouts) supply the ones it names. ``selection``: "puct", "gumbel" or "uct" (ISMCTS's
#: rule); ``uct_c``, ``puct_c``: their exploration weights; ``considered``: the root moves
#: a Gumbel root samples; ``rollout_depth``, ``tree_depth``, ``evaluate_end``: as
#: :data:`agents.ismcts.SEARCH_SETTINGS` says; ``mix``: with a network, the share of the
#: leaves' values that rollouts give (0 to 1; 0: the network's alone).
BATCH_SETTINGS = {
    "selection": "puct",
    "uct_c": 1.4,
    "puct_c": 1.0,
    "considered": 16,
    "rollout_depth": -1,
    "tree_depth": -1,
    "evaluate_end": False,
    "mix": 0.0,
}


class BatchSearchAgent:
    """The batched search as an agent (``ismcts:selection=puct``, ``gumbel`` or ``uct``): one
    search per decision, ``simulations`` each, its leaves scored by :class:`RolloutEvaluator`
    with ``rollout`` moves, or with ``network`` (a per-seat checkpoint,
    :func:`agents.network.load_network`) by the network (:class:`agents.network.NetworkEvaluator`,
    ``mix``: the rollouts' share of the values). The settings (:data:`BATCH_SETTINGS`) left as
    None take the game's ``SEARCH_DEFAULTS`` (policy rollouts only), else the defaults there;
    with ``selection="uct"`` and no network it plays as ``ismcts`` with the same settings and
    seed."""

    wants_info_set = True

    def __init__(
        self,
        game_name,
        simulations=1000,
        seed=None,
        rollout=None,
        network=None,
        num_players=None,
        **settings,
    ):
        game = heist_envs.get_game(game_name)
        rollout = checked_rollout(game, rollout)
        unknown = sorted(set(settings) - set(BATCH_SETTINGS))
        if unknown:
            allowed = ", ".join(["simulations", "rollout", "network", *BATCH_SETTINGS])
            raise ValueError(
                f"unknown batched search setting(s) {', '.join(unknown)}; settings: {allowed}"
            )
        self.settings = with_defaults(game, rollout, settings, BATCH_SETTINGS)
        evaluator = RolloutEvaluator(
            game, rollout, self.settings["rollout_depth"], self.settings["evaluate_end"]
        )
        if network is not None:
            from .network import NetworkEvaluator, load_network

            net, self.num_players = load_network(network, game.name, num_players)
            evaluator = NetworkEvaluator(net, self.settings["mix"], evaluator)
        elif self.settings["mix"]:
            raise ValueError("mix blends a network's values with rollouts: give network=PATH")
        self.searcher = BatchSearch(
            game,
            evaluator,
            simulations,
            self.settings["selection"],
            self.settings["uct_c"],
            self.settings["puct_c"],
            self.settings["tree_depth"],
            seed,
            self.settings["considered"],
        )

    def act(self, observation, action_mask, info_set) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        return int(self.searcher.search(info_set.kernel_state()).actions[0])
