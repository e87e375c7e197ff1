"""Information-set Monte Carlo tree search (single-observer ISMCTS), generic over kernels.

Each simulation samples a world consistent with the searching seat's information
(``determinize``), walks one shared tree by UCT among the actions legal in that world (a
child's exploration term counts how often it was available, not its parent's visits), expands
one node, plays a rollout to the end (random legal moves, or the game's compiled rollout
policy, ``agents/<game>/rollout.py`` as :mod:`agents.profiles` describes it; optionally cut
short after ``rollout_depth`` moves and scored by the game's ``evaluate``) and backs up every
seat's return. Each node keeps the return of the seat that chose it, so every player is
modelled as playing for its own (or its team's) outcome; where hidden cards decide who acts,
one action has a child per acting seat. ``tree_depth`` can hold the tree to the first moves
below the root (1: flat UCB over the root's moves, the rollout policy after them). A trained
policy (``prior``) can choose the root's moves by PUCT on its move probabilities instead, as
the apprentice guides the expert's search in expert iteration (Anthony, Tian and Barber 2017).
The search runs in compiled code, built once per game and process.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search".
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numba as nb
import numpy as np

import heist_envs
from heist_envs.core.game import RUNNING
from heist_envs.core.playout import random_legal_action

from .profiles import profile

UNEXPANDED = -1


class Tree(NamedTuple):
    """A search tree in flat arrays. ``children[n, a]`` is the first child of node n by
    action a; the children by one action in worlds where different seats act there (an
    actor can depend on hidden cards) are chained through ``sibling``, and each node
    records the seat whose move it is (``mover``) and that seat's summed return."""

    children: np.ndarray
    sibling: np.ndarray
    visits: np.ndarray
    avail: np.ndarray
    value: np.ndarray
    mover: np.ndarray

    @classmethod
    def empty(cls, nodes, num_actions):
        return cls(
            np.full((nodes, num_actions), UNEXPANDED, np.int32),
            np.full(nodes, UNEXPANDED, np.int32),
            np.zeros(nodes, np.int32),
            np.zeros(nodes, np.int32),
            np.zeros(nodes, np.float64),
            np.zeros(nodes, np.int8),
        )


@nb.njit(cache=True)
def child_of(children, sibling, mover, node, action, actor):
    """The child of ``node`` by ``actor`` playing ``action``, or UNEXPANDED."""
    c = children[node, action]
    while c != UNEXPANDED and mover[c] != actor:
        c = sibling[c]
    return c


@nb.njit(cache=True)
def add_child(tree, size, node, action, actor):
    """Grow ``tree`` by the child of ``node`` by ``actor`` playing ``action``; its index."""
    children, sibling, _, avail, _, mover = tree
    child = size[0]
    size[0] += 1
    sibling[child] = children[node, action]
    children[node, action] = child
    mover[child] = actor
    avail[child] = 1
    return child


@nb.njit(cache=True)
def puct(children, sibling, mover, visits, value, node, mask, actor, prior, prior_c):
    """The move at ``node`` by PUCT (Silver et al. 2017): the highest ``Q + prior_c * P *
    sqrt(N) / (1 + n)`` among the moves legal in this world, N their summed visits (what
    stands for an availability count here), a move not tried yet valued at the tried moves'
    mean return. A prior of NaN (a move its world did not allow) counts as uniform over this
    world's moves. Returns the move and its child, or UNEXPANDED."""
    total = 0
    summed = 0.0
    legal = 0
    for a in range(len(mask)):
        if mask[a]:
            legal += 1
            c = child_of(children, sibling, mover, node, a, actor)
            if c >= 0:
                total += visits[c]
                summed += value[c]
    first = summed / total if total > 0 else 0.0
    scale = prior_c * np.sqrt(total + 1.0)
    best, best_child, best_score = -1, UNEXPANDED, -np.inf
    for a in range(len(mask)):
        if mask[a]:
            c = child_of(children, sibling, mover, node, a, actor)
            n = visits[c] if c >= 0 else 0
            q = value[c] / n if n > 0 else first
            p = prior[a] if not np.isnan(prior[a]) else 1.0 / legal
            score = q + scale * p / (1.0 + n)
            if score > best_score:
                best, best_child, best_score = a, c, score
    return best, best_child


@nb.njit(cache=True)
def backup(tree, path, depth, ret):
    """Add one simulation's returns (``ret``, a value per seat) to the nodes of ``path``:
    each node keeps the return of the seat that chose it."""
    for i in range(depth):
        n = path[i]
        tree.visits[n] += 1
        tree.value[n] += ret[tree.mover[n]]


def _build_descend(game):
    apply, legal_mask, num_actions = game.apply, game.legal_mask, game.num_actions

    @nb.njit
    def descend(
        tree, size, s, mask, path, uct_c, tree_depth, priors, puct_depth, prior_c, root_action
    ):
        """Walk one simulation down ``tree`` in the world ``s`` (played on as it goes),
        adding at most one node; ``path`` gets the nodes passed. The root's move is
        ``root_action`` unless that is -1. At depths below ``puct_depth`` (-1: every depth)
        moves are chosen by :func:`puct` on ``priors[node]``, elsewhere each legal move is
        tried once (at random) and then chosen by UCT, whose exploration term counts how
        often a child was available. The tree stops ``tree_depth`` moves below the root (-1:
        no limit). Returns the path's length and the node added (UNEXPANDED if none: the
        tree is full, or the walk stopped in it)."""
        children, sibling, visits, avail, value, mover = tree
        node = 0
        depth = 0
        while s.status == RUNNING and depth != tree_depth:
            legal_mask(s, mask)
            actor = s.actor
            forced = depth == 0 and root_action >= 0
            if forced or depth < puct_depth or puct_depth < 0:
                if forced:
                    action = root_action
                    child = child_of(children, sibling, mover, 0, action, actor)
                else:
                    prior = priors[node]
                    action, child = puct(
                        children, sibling, mover, visits, value, node, mask, actor, prior, prior_c
                    )
                if child == UNEXPANDED:
                    if size[0] == len(visits):
                        break
                    child = add_child(tree, size, node, action, actor)
                    apply(s, action)
                    path[depth] = child
                    return depth + 1, child
                node = child
                apply(s, action)
                path[depth] = child
                depth += 1
                continue
            fresh = 0
            for a in range(num_actions):
                if mask[a] and child_of(children, sibling, mover, node, a, actor) < 0:
                    fresh += 1
            if fresh > 0 and size[0] < len(visits):
                pick = np.random.randint(fresh)
                action = -1
                for a in range(num_actions):
                    if mask[a] and child_of(children, sibling, mover, node, a, actor) < 0:
                        if pick == 0:
                            action = a
                            break
                        pick -= 1
                child = add_child(tree, size, node, action, actor)
                apply(s, action)
                path[depth] = child
                return depth + 1, child
            if fresh > 0:
                break  # the tree is full: finish this simulation by rollout
            best = -1
            best_score = -np.inf
            for a in range(num_actions):
                if mask[a]:
                    c = child_of(children, sibling, mover, node, a, actor)
                    avail[c] += 1
                    score = value[c] / visits[c] + uct_c * np.sqrt(np.log(avail[c]) / visits[c])
                    if score > best_score:
                        best_score = score
                        best = a
            node = child_of(children, sibling, mover, node, best, actor)
            apply(s, best)
            path[depth] = node
            depth += 1
        return depth, UNEXPANDED

    return descend


def _build_playout(game, rollout_action=None, evaluate=None):
    apply, legal_mask, returns = game.apply, game.legal_mask, game.returns
    num_actions = game.num_actions
    if rollout_action is None:

        @nb.njit
        def rollout_action(s, mask):
            return random_legal_action(mask, num_actions)

    if evaluate is None:
        evaluate = returns  # never called: cuts and evaluate_end are allowed only with one

    @nb.njit
    def playout(s, mask, ret, rollout_depth, evaluate_end):
        """Play ``s`` on by rollout moves, for at most ``rollout_depth`` of them (-1: to the
        end), and write each seat's return into ``ret``: the game's returns if it finished
        (its ``evaluate`` with ``evaluate_end``), else its ``evaluate``."""
        moves = 0
        while s.status == RUNNING and moves != rollout_depth:
            legal_mask(s, mask)
            apply(s, rollout_action(s, mask))
            moves += 1
        if s.status == RUNNING or evaluate_end:
            evaluate(s, ret)
        else:
            returns(s, ret)

    return playout


def _build_search(game, descend, playout):
    determinize, num_actions = game.determinize, game.num_actions

    @nb.njit
    def search(
        root,
        world,
        seat,
        seed,
        num_sims,
        uct_c,
        tree,
        size,
        num_seats,
        rollout_depth,
        tree_depth,
        evaluate_end,
        prior,
        prior_c,
    ):
        """Run ``num_sims`` simulations from ``root`` (never read undeterminized), growing
        ``tree`` (see :class:`Tree`); ``size[0]`` is its node count. The tree stops
        ``tree_depth`` moves below the root, rollouts after ``rollout_depth`` moves (-1:
        no limit); ``evaluate_end`` scores finished rollouts with ``evaluate`` too. With
        ``prior_c > 0`` the root's moves are chosen by PUCT on ``prior`` (see
        :func:`puct`) instead of trying each once and then UCT."""
        mask = np.zeros(num_actions, np.int8)
        ret = np.zeros(num_seats, np.float32)
        path = np.zeros(len(tree.visits), np.int64)
        priors = prior.reshape((1, num_actions))
        puct_depth = 1 if prior_c > 0.0 else 0
        np.random.seed(seed)
        for k in range(num_sims):
            world[0] = root[0]
            s = world[0]
            determinize(s, seat, np.uint64(seed) * np.uint64(1000003) + np.uint64(k))
            depth, _ = descend(
                tree, size, s, mask, path, uct_c, tree_depth, priors, puct_depth, prior_c, -1
            )
            playout(s, mask, ret, rollout_depth, evaluate_end)
            backup(tree, path, depth, ret)

    return search


_DESCENDS = {}
_PLAYOUTS = {}
_SEARCHES = {}
ROLLOUTS = ("policy", "random")
#: Search settings and their defaults (-1: no limit). ``uct_c``: the exploration constant;
#: ``rollout_depth``: moves before a rollout is cut and scored by ``evaluate``;
#: ``tree_depth``: moves below the root the tree may grow (1: flat Monte Carlo over the
#: root's moves); ``evaluate_end``: score finished rollouts with ``evaluate`` as well, a
#: smoother signal than the win/loss returns.
#: ``prior_c``: the weight of a ``prior`` policy's probabilities in the root's PUCT rule.
#: ``prior_alone``: in the phases the game's rollout module names (``PRIOR_ALONE_PHASES``:
#: decisions its search judges worse than a trained policy), play the ``prior``'s most likely
#: move without searching.
SEARCH_SETTINGS = {
    "uct_c": 1.4,
    "rollout_depth": -1,
    "tree_depth": -1,
    "evaluate_end": False,
    "prior_c": 1.0,
    "prior_alone": False,
}


def rollout_parts(game, rollout):
    """The ``rollout_action`` and ``evaluate`` of ``rollout`` moves for ``game``: the game's
    rollout module's for "policy", None (random moves, no evaluate) for "random"."""
    module = profile(game.name).rollout if rollout == "policy" else None
    return getattr(module, "rollout_action", None), getattr(module, "evaluate", None)


def compiled_descend(game):
    """The compiled descent of a simulation for ``game`` (built once per process)."""
    if game.name not in _DESCENDS:
        _DESCENDS[game.name] = _build_descend(game)
    return _DESCENDS[game.name]


def compiled_playout(game, rollout="random"):
    """The compiled rollout of ``rollout`` moves for ``game`` (built once per process)."""
    key = (game.name, rollout)
    if key not in _PLAYOUTS:
        _PLAYOUTS[key] = _build_playout(game, *rollout_parts(game, rollout))
    return _PLAYOUTS[key]


def compiled_search(game, rollout="random"):
    """The compiled search for ``game`` with ``rollout`` moves (built once per process)."""
    key = (game.name, rollout)
    if key not in _SEARCHES:
        _SEARCHES[key] = _build_search(
            game, compiled_descend(game), compiled_playout(game, rollout)
        )
    return _SEARCHES[key]


def checked_rollout(game, rollout):
    """``rollout`` if ``game`` can play it, or the default for None: "policy" (the game's
    compiled rollout policy) where the game has one, else "random"."""
    module = profile(game.name).rollout
    if rollout is None:
        rollout = "policy" if module is not None else "random"
    if rollout not in ROLLOUTS:
        raise ValueError(f"unknown rollout {rollout!r}; choose one of {', '.join(ROLLOUTS)}")
    if rollout == "policy" and module is None:
        raise ValueError(f"{game.name} has no rollout policy; use rollout='random'")
    return rollout


def with_defaults(game, rollout, settings, table):
    """Every setting of ``table`` (name -> default): the one given (None: not given), else
    the rollout module's ``SEARCH_DEFAULTS`` (policy rollouts only), else the table's."""
    module = profile(game.name).rollout
    defaults = getattr(module, "SEARCH_DEFAULTS", {}) if rollout == "policy" else {}
    return {
        key: next(v for v in (settings.get(key), defaults.get(key), default) if v is not None)
        for key, default in table.items()
    }


def check_cuts(game, rollout, settings):
    """Refuse ``rollout_depth`` and ``evaluate_end`` where no ``evaluate`` can score them."""
    module = profile(game.name).rollout
    needs_evaluate = settings["rollout_depth"] >= 0 or settings["evaluate_end"]
    if needs_evaluate and (rollout != "policy" or not hasattr(module, "evaluate")):
        raise ValueError(
            "rollout_depth and evaluate_end need rollout='policy' and a game whose rollout "
            f"module defines evaluate; {game.name} with rollout={rollout!r} has none"
        )


class ISMCTSAgent:
    """ISMCTS with a budget of ``simulations`` per decision, or of ``seconds`` if given.

    ``rollout`` is "policy" (the game's compiled rollout policy, the default where the game
    has one) or "random". The search settings (see :data:`SEARCH_SETTINGS`) left as None take
    the rollout module's ``SEARCH_DEFAULTS`` (policy rollouts only), else the defaults there.
    ``max_nodes`` caps the tree under a time budget (beyond it, simulations only roll out).
    ``prior`` is a trained policy (a checkpoint path, as ``ppo:path=`` takes, or "shipped"
    for the game's shipped prior, :func:`agents.ppo.shipped_prior`) whose move probabilities
    guide the root's moves by PUCT, as in expert iteration's apprentice-guided search; the
    tree below the root stays UCT.
    """

    wants_info_set = True

    def __init__(
        self,
        game_name,
        simulations=1000,
        seconds=None,
        seed=None,
        max_nodes=200_000,
        rollout=None,
        prior=None,
        num_players=None,
        **settings,
    ):
        self.game = heist_envs.get_game(game_name)
        module = profile(self.game.name).rollout
        rollout = checked_rollout(self.game, rollout)
        unknown = sorted(set(settings) - set(SEARCH_SETTINGS))
        if unknown:
            allowed = ["simulations", "seconds", "max_nodes", "rollout", "prior"]
            allowed += [*SEARCH_SETTINGS, "selection (the batched search's)"]
            raise ValueError(
                f"unknown ISMCTS setting(s) {', '.join(unknown)}; settings: {', '.join(allowed)}"
            )
        for key in ("prior_c", "prior_alone"):
            if key in settings and prior is None:
                raise ValueError(f"{key} needs a prior policy; name one with prior=PATH or shipped")
        self.prior = None
        if prior is not None:
            from .ppo import PPOAgent, shipped_prior

            path = shipped_prior(game_name, num_players) if prior == "shipped" else prior
            self.prior = PPOAgent(path, game_name, num_players).policy
        self.settings = with_defaults(self.game, rollout, settings, SEARCH_SETTINGS)
        self.prior_alone_phases = ()
        if self.settings["prior_alone"] and self.prior is not None:
            self.prior_alone_phases = getattr(module, "PRIOR_ALONE_PHASES", ())
            if not self.prior_alone_phases:
                raise ValueError(
                    f"prior_alone: {self.game.name} names no phases for a prior to play alone"
                )
        check_cuts(self.game, rollout, self.settings)
        self.rollout = rollout
        self.simulations = simulations
        self.seconds = seconds
        self.max_nodes = max_nodes
        self.rng = np.random.default_rng(seed)
        self.simulations_run = 0
        self.search_seconds = 0.0

    def act(self, observation, action_mask, info_set) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        counts = self.visit_counts(legal, info_set, observation)
        best = legal[counts == counts.max()]
        return int(best[self.rng.integers(len(best))])

    def prior_probabilities(self, observation, legal) -> np.ndarray:
        """The ``prior`` policy's probability of each action (0 for illegal ones)."""
        import torch

        from .ppo import masked_logits

        mask = np.zeros((1, self.game.num_actions), np.bool_)
        mask[0, legal] = True
        with torch.no_grad():
            obs = torch.as_tensor(np.asarray(observation, np.float32)[None])
            logits = masked_logits(self.prior, obs, torch.as_tensor(mask))
            return logits.softmax(1)[0].double().numpy()

    def visit_counts(self, legal, info_set, observation=None) -> np.ndarray:
        """Search from ``info_set`` and return how often the root chose each of the ``legal``
        actions (-1 for one never tried): the move is the most visited, and a teacher for
        imitation reads the whole ranking. A ``prior`` reads the seat's ``observation``."""
        game = self.game
        prior = np.zeros(game.num_actions, np.float64)
        prior_c = 0.0
        root = info_set.kernel_state()
        if self.prior is not None:
            if observation is None:
                raise ValueError("a search with a prior policy needs the seat's observation")
            prior = self.prior_probabilities(observation, legal)
            prior_c = float(self.settings["prior_c"])
            if self.prior_alone_phases and root[0]["phase"] in self.prior_alone_phases:
                return np.where(legal == legal[np.argmax(prior[legal])], 1, -1)  # unsearched
        nodes = self.max_nodes if self.seconds else self.simulations + 1
        tree = Tree.empty(nodes, game.num_actions)
        size = np.ones(1, np.int64)
        world = root.copy()
        num_seats = game.num_seats(int(root[0]["num_players"]))
        search = compiled_search(game, self.rollout)
        settings = self.settings
        start = time.perf_counter()
        done = 0
        while True:
            chunk = self.simulations - done if not self.seconds else 64
            seed = int(self.rng.integers(1 << 31))
            search(
                root,
                world,
                info_set.seat,
                seed,
                chunk,
                float(settings["uct_c"]),
                tree,
                size,
                num_seats,
                int(settings["rollout_depth"]),
                int(settings["tree_depth"]),
                bool(settings["evaluate_end"]),
                prior,
                prior_c,
            )
            done += chunk
            elapsed = time.perf_counter() - start
            if not self.seconds or elapsed >= self.seconds:
                break
        self.simulations_run += done
        self.search_seconds += time.perf_counter() - start
        seat = info_set.seat
        roots = [child_of(tree.children, tree.sibling, tree.mover, 0, a, seat) for a in legal]
        return np.array([tree.visits[c] if c >= 0 else -1 for c in roots])


def make_ismcts(game_name, seed=None, num_players=None, selection=None, **kwargs):
    """The ``ismcts`` agent: :class:`ISMCTSAgent`, or with a ``selection`` ("puct", "uct";
    "gumbel" too) or a ``network`` (a per-seat checkpoint guiding it, PUCT by default) the
    batched search's (:class:`agents.batch_search.BatchSearchAgent`)."""
    if selection is not None or "network" in kwargs:
        from .batch_search import BatchSearchAgent

        return BatchSearchAgent(
            game_name, seed=seed, num_players=num_players, selection=selection, **kwargs
        )
    return ISMCTSAgent(game_name, seed=seed, num_players=num_players, **kwargs)
