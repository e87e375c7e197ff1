"""The batched route of a tournament: a table whose every agent is compiled (the heuristic,
with any weights) or a network (``ppo``), or ``random``, plays its games many at once in
compiled loops over one array of game records, with the serial arena's seats, seeds and
records (:func:`agents.arena.play_tournaments` picks the route).

Each game is dealt from its seed as the serial route deals it, and each seat's agent draws
from the state the serial route builds it with (``agent_seed(game seed, seat)``): the
heuristic's xorshift state, random's numpy generator. So a game plays the same moves on
both routes wherever its agents are deterministic given their generators. A compiled agent
plays every move it owns inside one compiled call, until its game ends or waits for a
network or random; a network plays all the games waiting on it in one forward pass.
"""

from __future__ import annotations

import functools
import logging
import time

import numba as nb
import numpy as np

from heist_envs.core.game import RUNNING, TRUNCATED
from heist_envs.core.rng import mix_seed

from .games import GameResult, forfeit_result, game_record, illegal_fields
from .seating import seat_entrants

log = logging.getLogger(__package__)  # the arena's logger, agents.arena

#: where a command's games play (``--route``) -> the ``batched`` argument of
#: :func:`agents.arena.play_tournaments` and :func:`takes_batched_route`
ROUTES = {"auto": None, "batched": True, "serial": False}
#: the agent specs whose agents play in the batched route
BATCHED_AGENTS = ("heuristic", "ppo", "random")
#: the most games of a table in play at once
MAX_BATCH = 4096
#: the most moves logged between two reads of the log (:func:`play_batched`'s ``on_moves``)
LOG_SIZE = 1 << 15

_M32 = np.uint64(0xFFFFFFFF)
_INIT_A, _MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
_INIT_B, _MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
_MIX_L, _MIX_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
_S16, _S32 = np.uint64(16), np.uint64(32)


@nb.njit(cache=True)
def _hashmix(value, hash_const):
    value = (value ^ hash_const[0]) & _M32
    hash_const[0] = (hash_const[0] * _MULT_A) & _M32
    value = (value * hash_const[0]) & _M32
    return value ^ (value >> _S16)


@nb.njit(cache=True)
def _mix(x, y):
    result = (_MIX_L * x - _MIX_R * y) & _M32
    return result ^ (result >> _S16)


@nb.njit(cache=True)
def seed_sequence_words(words, count, n_out):
    """``np.random.SeedSequence(entropy).generate_state(n_out // 2, np.uint64)`` as 32-bit
    words (``n_out`` of them, little end first), for an entropy of ``count`` (at most 4)
    32-bit ``words``: numpy's hash, in compiled code."""
    pool = np.zeros(4, np.uint64)
    hash_const = np.array([_INIT_A], np.uint64)
    for i in range(4):
        pool[i] = _hashmix(words[i] if i < count else np.uint64(0), hash_const)
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], hash_const))
    out = np.zeros(n_out, np.uint64)
    const = _INIT_B
    for i in range(n_out):
        value = (pool[i % 4] ^ const) & _M32
        const = (const * _MULT_B) & _M32
        value = (value * const) & _M32
        out[i] = value ^ (value >> _S16)
    return out


@nb.njit(cache=True)
def _int_words(value, words, at):
    """Write ``value``'s 32-bit words (numpy's coercion of an int: little end first, one
    word for 0) from ``words[at]``; returns the index after them."""
    words[at] = value & _M32
    at += 1
    high = value >> _S32
    if high != 0:
        words[at] = high
        at += 1
    return at


@nb.njit(cache=True)
def seat_seeds(rows, game_seeds, agent_seeds, rngs):
    """For game ``rows[j]`` of seed ``game_seeds[j]``, each seat's ``agent_seed(game_seed,
    seat)`` (:func:`agents.arena.agent_seed`) into ``agent_seeds[rows[j], seat]`` and the
    compiled policies' random state from it (:func:`heist_envs.core.policy_rng.rng_state`)
    into ``rngs[rows[j], seat, 0]``."""
    words = np.zeros(4, np.uint64)
    for j in range(len(rows)):
        for seat in range(agent_seeds.shape[1]):
            at = _int_words(game_seeds[j], words, 0)
            at = _int_words(np.uint64(seat), words, at)
            seed = seed_sequence_words(words, at, 1)[0]
            agent_seeds[rows[j], seat] = seed
            words[0] = seed
            state = seed_sequence_words(words, 1, 2)
            rngs[rows[j], seat, 0] = mix_seed(state[0] | (state[1] << _S32))


_LOOPS = {}


def table_loops(game, act):
    """The compiled loops of a batched table of ``game`` whose compiled agents play ``act``
    (built once per game, policy and process): ``deal``, ``advance``, ``play`` and ``pick``.

    ``deal`` deals game ``rows[j]`` anew from ``seeds[j]`` (from ``template``'s
    configuration; with ``dealt``, the records are already dealt) and clears its counts;
    ``advance`` plays, in every live game, the moves of the seats a compiled agent holds
    (``slots[i, seat]``: its row of ``params`` and of ``forbid``, the actions it may not
    take unless nothing legal is left; -1: another agent's seat) until the game ends or
    waits for another agent; ``play`` plays ``actions[j]`` in game ``rows[j]``; ``pick``
    puts into ``actions[j]`` the compiled agent's choice (its ``params``) in game ``rows[j]``
    among the actions ``masks[j]`` allows. An illegal action is not played: the game is
    marked ``illegal`` and keeps it in ``bad``.
    With a ``moves`` log (rows: game row, decision, seat, legal actions, action; ``logged[0]``
    of them filled), every move is logged there, the state before it in ``before``, and
    ``advance`` returns when the log is full.
    """
    key = (game.name, act)
    if key in _LOOPS:
        return _LOOPS[key]
    init, apply, legal_mask, observe = game.init, game.apply, game.legal_mask, game.observe

    @nb.njit
    def move(s, i, seat, action, actors, obs, masks, counts, illegal, bad, before, moves, logged):
        counts[i, 0] += 1
        counts[i, 1 + seat] += 1
        if action < 0 or action >= masks.shape[1] or masks[i, action] == 0:
            illegal[i] = True
            bad[i] = action
            return
        if len(moves):
            n = logged[0]
            before[n] = s
            moves[n, 0], moves[n, 1], moves[n, 2] = i, counts[i, 0] - 1, seat
            moves[n, 3], moves[n, 4] = masks[i].sum(), action
            logged[0] = n + 1
        apply(s, action)
        actors[i] = s.actor
        if s.status == RUNNING:
            legal_mask(s, masks[i])
            observe(s, s.actor, obs[i])

    @nb.njit
    def deal(states, rows, seeds, template, dealt, actors, obs, masks, counts, illegal):
        for j in range(len(rows)):
            i = rows[j]
            s = states[i]
            if not dealt:
                states[i] = template[0]
                init(s, seeds[j])
            counts[i, :] = 0
            illegal[i] = False
            actors[i] = s.actor
            legal_mask(s, masks[i])
            observe(s, s.actor, obs[i])

    @nb.njit
    def advance(
        states, live, actors, obs, masks, slots, params, forbid, rngs, counts, illegal, bad,
        before, moves, logged,
    ):  # fmt: skip
        allowed = np.empty(masks.shape[1], np.int8)
        for i in range(len(states)):
            if not live[i]:
                continue
            s = states[i]
            while s.status == RUNNING and not illegal[i]:
                seat = actors[i]
                slot = slots[i, seat]
                if slot < 0:
                    break
                if len(moves) and logged[0] == len(moves):
                    return
                left = 0
                for a in range(masks.shape[1]):
                    allowed[a] = masks[i, a] if forbid[slot, a] == 0 else 0
                    left += allowed[a]
                mask = allowed if left > 0 else masks[i]
                action = np.int64(act(obs[i], mask, params[slot], rngs[i, seat]))
                move(s, i, seat, action, actors, obs, masks, counts, illegal, bad, before, moves,
                     logged)  # fmt: skip

    @nb.njit
    def play(
        states, rows, actions, actors, obs, masks, counts, illegal, bad, before, moves, logged
    ):
        for j in range(len(rows)):
            i = rows[j]
            move(states[i], i, actors[i], actions[j], actors, obs, masks, counts, illegal, bad,
                 before, moves, logged)  # fmt: skip

    @nb.njit
    def pick(rows, actors, obs, masks, params, rngs, actions):
        for j in range(len(rows)):
            i = rows[j]
            actions[j] = act(obs[i], masks[j], params, rngs[i, actors[i]])

    _LOOPS[key] = (deal, advance, play, pick)
    return _LOOPS[key]


def unbatched_reason(entrant) -> str | None:
    """Why ``entrant`` cannot play in the batched route (None: it can): it plays there if it
    is one of :data:`BATCHED_AGENTS`, or one of them restricted
    (:func:`agents.restricted.make_restricted`, by forbidden actions or a rule)."""
    if isinstance(entrant.agent, str) and entrant.agent in BATCHED_AGENTS:
        return None
    if _restricted_batched(entrant.agent):
        return None
    return f"{entrant.label} is none of {', '.join(BATCHED_AGENTS)}"


def _restricted_batched(factory) -> bool:
    from ..registry import parse_spec
    from ..restricted import make_restricted

    if not isinstance(factory, functools.partial) or factory.func is not make_restricted:
        return False
    agent = factory.keywords.get("agent", "random")
    return isinstance(agent, str) and parse_spec(agent)[0] in BATCHED_AGENTS


def batch_reason(plan) -> str | None:
    """Why the tournament ``plan`` cannot play in the batched route (None: it can)."""
    for entrant in plan.entrants:
        if reason := unbatched_reason(entrant):
            return reason
    return None


def takes_batched_route(plan, batched) -> bool:
    """Whether ``plan`` plays in the batched route: where it can unless ``batched`` is False;
    with ``batched`` True, a table that cannot is said in one line (it plays one game at a
    time)."""
    reason = "the serial route was asked for" if batched is False else batch_reason(plan)
    if reason is not None and batched:
        log.warning("%s: not batched, one game at a time: %s", plan.game.name, reason)
    return reason is None


class _Network:
    """A ``ppo`` entrant's networks: one forward pass per side's network for all the games
    waiting on it, the best legal action of each (the agent's deterministic play)."""

    def __init__(self, agent, game, num_players):
        import torch

        self.torch = torch
        self.policies = agent.policies
        self.team_of_seat = np.array(game.teams(num_players))

    def act(self, rows, actors, obs, masks, generators):
        from ..ppo import masked_logits

        torch = self.torch
        actions = np.empty(len(rows), np.int64)
        teams = self.team_of_seat[actors[rows]] if len(self.policies) > 1 else np.zeros(len(rows))
        for team in np.unique(teams).astype(int):
            mine = np.flatnonzero(teams == team)
            picked = rows[mine]
            with torch.no_grad():
                logits = masked_logits(
                    self.policies[team],
                    torch.as_tensor(obs[picked].astype(np.float32)),
                    torch.as_tensor(masks[picked] != 0),
                )
            actions[mine] = logits.argmax(dim=1).numpy()
        return actions


class _Random:
    """The ``random`` agent: each (game, seat) its own numpy generator, as the serial route
    builds it (:class:`agents.base.RandomAgent`)."""

    def act(self, rows, actors, obs, masks, generators):
        actions = np.empty(len(rows), np.int64)
        for j, i in enumerate(rows):
            legal = np.flatnonzero(masks[i])
            actions[j] = legal[generators[i][actors[i]].integers(len(legal))]
        return actions


class _Compiled:
    """The heuristic (its row ``params``) deciding the games given it, among the actions
    their ``masks`` allow: a seat the compiled loop does not play (see :class:`_Restricted`)."""

    def __init__(self, pick, params, rngs):
        self.pick, self.params, self.rngs = pick, params, rngs

    def act(self, rows, actors, obs, masks, generators):
        actions = np.empty(len(rows), np.int64)
        self.pick(rows, actors, obs, masks[rows], self.params, self.rngs, actions)
        return actions


class _Restricted:
    """A restricted agent outside the compiled loop (by a rule, or around ``ppo`` or
    ``random``): each game's mask cut down by its :class:`agents.restricted.RestrictedAgent`
    (from the observation the serial route gives it; it counts the decisions it leaves
    unrestricted), then the wrapped ``player``'s choice among what is left."""

    def __init__(self, restricted, player):
        self.restricted, self.player = restricted, player

    def act(self, rows, actors, obs, masks, generators):
        from heist_envs.core.aec import OBS_DTYPE

        allowed = masks.copy()
        for i in rows:
            allowed[i] = self.restricted.allowed(obs[i].astype(OBS_DTYPE), masks[i])
        return self.player.act(rows, actors, obs, allowed, generators)


class _Table:
    """The arrays of a batched table: ``batch`` games in play, each with its task, its
    seats' owners, seeds and random states, and its counts (decisions, then each seat's);
    with ``logged``, a log of ``LOG_SIZE`` moves (:func:`table_loops`), else an empty one."""

    def __init__(self, plan, batch, logged=False):
        game, seats = plan.game, plan.num_seats
        self.template = game.kernel_view(game.new_state(plan.num_players, 0, plan.options))
        self.states = np.repeat(self.template, batch)
        self.records = self.states.view(np.recarray)
        self.actors = np.zeros(batch, np.int8)
        self.obs = np.zeros((batch, game.obs_size), game.obs_dtype)
        self.masks = np.zeros((batch, game.num_actions), np.int8)
        self.counts = np.zeros((batch, 1 + seats), np.int64)
        self.illegal = np.zeros(batch, np.bool_)
        self.late = np.full(batch, -1, np.int64)  # the seat whose decision overran its limit
        self.late_by = np.zeros(batch)
        self.bad = np.zeros(batch, np.int64)
        self.rngs = np.zeros((batch, seats, 1), np.uint64)
        self.agent_seeds = np.zeros((batch, seats), np.uint64)
        self.slots = np.full((batch, seats), -1, np.int64)
        self.owners = np.zeros((batch, seats), np.int64)
        self.live = np.zeros(batch, np.bool_)
        self.tasks = [None] * batch
        self.index = np.zeros(batch, np.int64)  # each row's game index (its task's first)
        self.generators = [None] * batch
        size = max(LOG_SIZE, batch) if logged else 0
        self.before = np.zeros(size, self.states.dtype)
        self.moves = np.zeros((size, 5), np.int64)
        self.logged = np.zeros(1, np.int64)
        self.log = (self.before, self.moves, self.logged)


def play_batched(plan, on_moves=None):
    """Play the games of ``plan`` (a :class:`agents.arena.TournamentPlan` that
    :func:`batch_reason` passes) in the batched route; yields each game's record as the
    serial route makes it (:func:`agents.arena.game_record`), in the order the games end.
    An agent's CPU time (``act_cpu_seconds``) is its share of the compiled calls and
    forward passes it played in, per decision.

    With ``on_moves``, every move is logged: ``on_moves(games, decisions, seats, legal,
    actions, states)`` gets arrays of the moves played since its last call (each game's in
    order; ``legal``: how many actions were legal; ``states``: the state record before the
    move), and each record has its game's final state record as ``state``."""
    from ..base import RandomAgent
    from ..compiled import HeuristicAgent
    from ..restricted import RestrictedAgent

    game, num_players, entrants = plan.game, plan.num_players, plan.entrants
    agents = [e.build(game.name, 0, num_players) for e in entrants]
    restricted = [a if isinstance(a, RestrictedAgent) else None for a in agents]
    agents = [a.agent if isinstance(a, RestrictedAgent) else a for a in agents]
    compiled = [  # the agents the compiled loop plays: the heuristic, restricted by no rule
        isinstance(a, HeuristicAgent) and (r is None or r.rule is None)
        for a, r in zip(agents, restricted, strict=True)
    ]
    heuristics = [a for a, c in zip(agents, compiled, strict=True) if c]
    act = (heuristics[0] if heuristics else HeuristicAgent(game.name, 0)).policy
    params = np.stack([a.params for a in heuristics]) if heuristics else np.zeros((1, 0))
    forbid = np.zeros((max(len(heuristics), 1), game.num_actions), np.int8)
    for slot, limit in enumerate(r for r, c in zip(restricted, compiled, strict=True) if c):
        if limit is not None:
            forbid[slot, limit.forbidden] = 1
    slot_of = (np.cumsum(compiled) - 1).tolist()
    draws = any(isinstance(a, RandomAgent) for a in agents)
    deal, advance, play, pick = table_loops(game, act)
    t = _Table(plan, min(len(plan.tasks), MAX_BATCH), on_moves is not None)

    def player(agent, limit):
        if isinstance(agent, HeuristicAgent):
            chooser = _Compiled(pick, agent.params, t.rngs)
        elif isinstance(agent, RandomAgent):
            chooser = _Random()
        else:
            chooser = _Network(agent, game, num_players)
        return chooser if limit is None else _Restricted(limit, chooser)

    players = [
        None if c else player(a, r) for a, r, c in zip(agents, restricted, compiled, strict=True)
    ]
    dealt = bool(plan.options)  # options may fix chance after the deal: deal as the env does
    returns = np.zeros(plan.num_seats, np.float32)
    cpu, made = np.zeros(len(agents)), np.zeros(len(agents))
    pending = list(reversed(plan.tasks))

    def fill(rows):
        rows = np.asarray(rows[: len(pending)], np.int64)
        tasks = [pending.pop() for _ in rows]
        seeds = np.array([task[1] for task in tasks], np.uint64)
        seat_seeds(rows, seeds, t.agent_seeds, t.rngs)
        for i, task in zip(rows, tasks, strict=True):
            t.tasks[i], t.index[i] = task, task[0]
            t.owners[i] = owner = seat_entrants(plan.sides, task[2])
            t.slots[i] = [slot_of[o] if compiled[o] else -1 for o in owner]
            if draws:
                t.generators[i] = [np.random.default_rng(int(s)) for s in t.agent_seeds[i]]
            if dealt:
                state = game.new_state(num_players, task[1], plan.options)
                t.states[i] = game.kernel_view(state)[0]
        deal(
            t.states, rows, seeds, t.template, dealt, t.actors, t.obs, t.masks, t.counts, t.illegal
        )
        t.live[rows] = True
        t.late[rows] = -1

    limits = np.array([e.time_limit or np.inf for e in entrants])

    def timed(call, *args):
        before, started = t.counts[:, 1:].copy(), time.perf_counter()
        cpu_started = time.process_time()
        result = call(*args)
        spent, wall = time.process_time() - cpu_started, time.perf_counter() - started
        moved = t.counts[:, 1:] - before
        by_owner = np.bincount(t.owners.ravel(), weights=moved.ravel(), minlength=len(agents))
        if by_owner.sum():
            cpu[:] += spent * by_owner / by_owner.sum()
            made[:] += by_owner
            share = wall / by_owner.sum()  # each decision's share of the call's wall time
            for i, seat in zip(*np.nonzero((moved > 0) & (share > limits[t.owners])), strict=True):
                t.late[i], t.late_by[i] = seat, share
        return result

    def external(player, rows):
        actions = player.act(rows, t.actors, t.obs, t.masks, t.generators)
        play(t.states, rows, actions, t.actors, t.obs, t.masks, t.counts, t.illegal, t.bad, *t.log)

    def read_log():
        n = int(t.logged[0])
        if n:
            moves = t.moves[:n].T
            on_moves(t.index[moves[0]], *moves[1:].copy(), t.before[:n].copy())
            t.logged[0] = 0

    def record(i):
        task, s, owner = t.tasks[i], t.records[i], t.owners[i].tolist()
        labels = [entrants[o].label for o in owner]
        per_decision = np.divide(cpu, made, out=np.zeros_like(cpu), where=made > 0)
        counts = t.counts[i, 1:].tolist()
        seconds = [float(per_decision[o] * n) for o, n in zip(owner, counts, strict=True)]
        decisions = int(t.counts[i, 0]) - int(t.illegal[i])
        if t.late[i] >= 0:
            result = forfeit_result(
                game, num_players, int(t.late[i]), decisions, "timeout",
                f"a decision took {t.late_by[i]:.1f} s (its share of a batch)", owners=owner,
                seat_decisions=counts, act_cpu_seconds=seconds,
            )  # fmt: skip
        elif t.illegal[i]:
            result = forfeit_result(
                game, num_players, int(t.actors[i]), decisions, "illegal action",
                **illegal_fields(game, s, int(t.bad[i])), owners=owner,
                seat_decisions=counts, act_cpu_seconds=seconds,
            )  # fmt: skip
        else:
            game.returns(t.states[i], returns)
            score = game.scores(s).get("score")  # of the results, what a record keeps
            result = GameResult(
                returns.tolist(),
                [{} if score is None else {"score": score[k]} for k in range(plan.num_seats)],
                int(s.status) == TRUNCATED,
                decisions,
                seat_decisions=counts,
                act_cpu_seconds=seconds,
            )
        t.live[i] = False
        row = game_record(task, labels, result)
        if on_moves is not None:
            row["state"] = t.records[i : i + 1].copy()[0]
        return row

    none = np.zeros(0, np.int64)  # compile the loops (first use in a process) before timing
    deal(t.states, none, none.astype(np.uint64), t.template, dealt, t.actors, t.obs, t.masks,
         t.counts, t.illegal)  # fmt: skip
    advance(t.states, t.live, t.actors, t.obs, t.masks, t.slots, params, forbid, t.rngs, t.counts,
            t.illegal, t.bad, *t.log)  # fmt: skip
    play(t.states, none, none, t.actors, t.obs, t.masks, t.counts, t.illegal, t.bad, *t.log)
    fill(np.arange(len(t.states)))
    while t.live.any():
        on_time = t.live & (t.late < 0)
        timed(advance, t.states, on_time, t.actors, t.obs, t.masks, t.slots, params, forbid, t.rngs,
              t.counts, t.illegal, t.bad, *t.log)  # fmt: skip
        if on_moves is not None:
            read_log()
        running = t.states["status"] == RUNNING
        ended = np.flatnonzero(t.live & (~running | t.illegal | (t.late >= 0)))
        for i in ended:
            yield record(i)
        fill(ended)
        waiting = np.flatnonzero(t.live & running & ~t.illegal & (t.late < 0))
        waiting = waiting[t.slots[waiting, t.actors[waiting]] < 0]  # not those a full log held
        owner = t.owners[waiting, t.actors[waiting]]
        for k in np.unique(owner):
            timed(external, players[k], waiting[owner == k])
            if on_moves is not None:
                read_log()
