"""Information-set Monte Carlo tree search (single-observer ISMCTS), generic over kernels.

Each simulation samples a world consistent with the searching seat's information
(``determinize``), walks one shared tree by UCT among the actions legal in that world (a
child's exploration term counts how often it was available, not its parent's visits),
expands one node, plays random moves to the end and backs up every seat's return. Each node
keeps the return of the seat that chose it, so every player is modelled as playing for its
own (or its team's) outcome. The search runs in compiled code, built once per game and
process.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search".
"""

from __future__ import annotations

import time

import numba as nb
import numpy as np

import heist_envs
from heist_envs.core.game import RUNNING
from heist_envs.core.playout import random_legal_action

UNEXPANDED = -1


def _build_search(game):
    determinize, apply, legal_mask = game.determinize, game.apply, game.legal_mask
    returns, num_actions = game.returns, game.num_actions

    @nb.njit
    def search(
        root,
        world,
        seat,
        seed,
        num_sims,
        uct_c,
        children,
        visits,
        avail,
        value,
        mover,
        size,
        num_seats,
    ):
        """Run ``num_sims`` simulations from ``root`` (never read undeterminized), growing
        the tree held in ``children``/``visits``/``avail``/``value``/``mover``; ``size[0]``
        is its node count."""
        mask = np.zeros(num_actions, np.int8)
        ret = np.zeros(num_seats, np.float32)
        path = np.zeros(len(visits), np.int64)
        np.random.seed(seed)
        for k in range(num_sims):
            world[0] = root[0]
            s = world[0]
            determinize(s, seat, np.uint64(seed) * np.uint64(1000003) + np.uint64(k))
            node = 0
            depth = 0
            while s.status == RUNNING:
                legal_mask(s, mask)
                fresh = 0
                for a in range(num_actions):
                    if mask[a] and children[node, a] == UNEXPANDED:
                        fresh += 1
                if fresh > 0 and size[0] < len(visits):
                    pick = np.random.randint(fresh)
                    action = -1
                    for a in range(num_actions):
                        if mask[a] and children[node, a] == UNEXPANDED:
                            if pick == 0:
                                action = a
                                break
                            pick -= 1
                    child = size[0]
                    size[0] += 1
                    children[node, action] = child
                    mover[child] = s.actor
                    avail[child] = 1
                    apply(s, action)
                    path[depth] = child
                    depth += 1
                    break
                if fresh > 0:
                    break  # the tree is full: finish this simulation by rollout
                best = -1
                best_score = -np.inf
                for a in range(num_actions):
                    if mask[a]:
                        c = children[node, a]
                        avail[c] += 1
                        score = value[c] / visits[c] + uct_c * np.sqrt(np.log(avail[c]) / visits[c])
                        if score > best_score:
                            best_score = score
                            best = a
                node = children[node, best]
                apply(s, best)
                path[depth] = node
                depth += 1
            while s.status == RUNNING:
                legal_mask(s, mask)
                apply(s, random_legal_action(mask, num_actions))
            returns(s, ret)
            for i in range(depth):
                n = path[i]
                visits[n] += 1
                value[n] += ret[mover[n]]

    return search


_SEARCHES = {}


def compiled_search(game):
    """The compiled search for ``game`` (built on first use in this process)."""
    if game.name not in _SEARCHES:
        _SEARCHES[game.name] = _build_search(game)
    return _SEARCHES[game.name]


class ISMCTSAgent:
    """ISMCTS with a budget of ``simulations`` per decision, or of ``seconds`` if given.

    ``max_nodes`` caps the tree under a time budget (beyond it, simulations only roll out).
    """

    wants_info_set = True

    def __init__(
        self, game_name, simulations=1000, seconds=None, uct_c=1.4, seed=None, max_nodes=200_000
    ):
        self.game = heist_envs.get_game(game_name)
        self.simulations = simulations
        self.seconds = seconds
        self.uct_c = uct_c
        self.max_nodes = max_nodes
        self.rng = np.random.default_rng(seed)
        self.simulations_run = 0
        self.search_seconds = 0.0

    def act(self, observation, action_mask, info_set) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        game = self.game
        nodes = self.max_nodes if self.seconds else self.simulations + 1
        children = np.full((nodes, game.num_actions), UNEXPANDED, np.int32)
        visits = np.zeros(nodes, np.int32)
        avail = np.zeros(nodes, np.int32)
        value = np.zeros(nodes, np.float64)
        mover = np.zeros(nodes, np.int8)
        size = np.ones(1, np.int64)
        root = info_set.kernel_state()
        world = root.copy()
        num_seats = game.num_seats(int(root[0]["num_players"]))
        search = compiled_search(game)
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
                self.uct_c,
                children,
                visits,
                avail,
                value,
                mover,
                size,
                num_seats,
            )
            done += chunk
            elapsed = time.perf_counter() - start
            if not self.seconds or elapsed >= self.seconds:
                break
        self.simulations_run += done
        self.search_seconds += time.perf_counter() - start
        counts = np.where(children[0, legal] >= 0, visits[np.maximum(children[0, legal], 0)], -1)
        best = legal[counts == counts.max()]
        return int(best[self.rng.integers(len(best))])


def make_ismcts(game_name, seed=None, **kwargs):
    return ISMCTSAgent(game_name, seed=seed, **kwargs)
