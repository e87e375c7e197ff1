"""Games between agents: one game (:func:`play`), and tournaments with ratings (:func:`tournament`).

A tournament seats its entrants on the game's sides (seats, or teams: How to Rob a Bank's
robbers are one side) in every rotation, gives each game its own seed, plays the games in
worker processes, and summarises every entrant: win rate and mean reward (and score, where the
game reports one) with 95% intervals, an OpenSkill rating, and how much the first seat helps.
For any ``game_name`` of ``heist_envs.game_names()``:

    result = tournament(game_name, ["random", "heuristic"], games=200, num_players=4)
    print(result.table())
    result.write("out/")  # summary.csv, games.csv, tournament.json
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import json
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import time
import warnings
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import combinations
from multiprocessing.connection import wait
from pathlib import Path
from typing import NamedTuple

import numpy as np
from openskill.models import PlackettLuce
from tqdm import tqdm

import heist_envs
from heist_envs.core.game import Game, normalize_seed

from . import isolation
from .base import InfoSet
from .batched_arena import batch_reason, play_batched
from .isolation import (
    STOP_GRACE,
    SeatFailure,
    SeatProcess,
    SeatProcesses,
    ctrl_c_ignored,
    numbers,
)
from .registry import AgentBuildError, error_text, is_outside, make_agent, parse_spec
from .stats import interval_text, mean_interval, wilson_interval

log = logging.getLogger(__name__)


@dataclass
class GameResult:
    """One finished game: per-seat rewards and results, and whether it was truncated.

    ``seat_decisions`` and ``act_cpu_seconds`` count each seat's decisions and the CPU time
    of this process in its agent's ``act`` calls (CPU time, so that other processes on the
    machine do not slow the count down). ``forfeit`` describes how a seat lost the game, when
    it was played with ``forfeit=True`` and ended that way (that seat's side gets -1, the
    others +1): the seat, its name (``agent``), the ``decision`` number (the game's seed and
    this number find the position again), the ``reason`` (one of :data:`FORFEIT_REASONS`) and
    a ``detail``; an illegal action adds the ``action`` and its ``action_name``.
    """

    rewards: list[float]
    results: list[dict] = field(default_factory=list)
    truncated: bool = False
    num_decisions: int = 0
    forfeit: dict | None = None
    seat_decisions: list[int] = field(default_factory=list)
    act_cpu_seconds: list[float] = field(default_factory=list)


def play(game_name, agents, num_players=None, seed=None, options=None, on_step=None):
    """Play one game; ``agents[k]`` plays seat k.

    ``on_step(env, agent_name, action)`` is called before each action is applied, and once
    more with ``None, None`` when the game is over (the demo prints from it).
    """
    env = heist_envs.make(game_name, num_players=num_players)
    return run_game(env, agents, seed, options, on_step)


#: how a seat can lose a game by forfeit: in the game's process (the first three) or as seen
#: by the tournament's parent process, which stops a worker whose decision overruns its time
#: limit (``timeout`` too) and replaces one that died (``crash``)
FORFEIT_REASONS = ("illegal action", "error", "timeout", "crash")


def run_game(
    env,
    agents,
    seed=None,
    options=None,
    on_step=None,
    forfeit=False,
    time_limits=None,
    watch=None,
    owners=None,
):
    """Play one game in ``env`` (reset first); ``agents[k]`` plays seat k.

    An illegal action raises :class:`~heist_envs.core.errors.IllegalActionError` and an
    exception from an agent propagates; with ``forfeit=True`` either ends the game as a loss
    for that seat's side (see :class:`GameResult`), as does a decision of seat k that takes
    longer than ``time_limits[k]`` seconds (None: no limit). ``owners`` (who holds each seat,
    e.g. an entrant's index) makes a forfeit lose every seat of the offender's owner too.
    ``watch``, a shared array (see :data:`WATCH`), is kept up to date for a parent process:
    the seat deciding, the decision number, when the decision began (``time.monotonic()``; 0
    between decisions), and each seat's decisions so far.
    """
    if len(agents) != len(env.possible_agents):
        raise ValueError(
            f"{env.game.name} with {env.num_players} players has {len(env.possible_agents)} "
            f"seats ({', '.join(env.possible_agents)}), got {len(agents)} agents"
        )
    env.reset(seed=seed, options=options)
    seat_of = {name: k for k, name in enumerate(env.possible_agents)}
    rewards = [0.0] * len(agents)
    truncated = False
    decisions = 0
    seat_decisions = [0] * len(agents)
    act_cpu_seconds = [0.0] * len(agents)
    for name in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        seat = seat_of[name]
        if termination or truncation:
            rewards[seat] = reward
            truncated = truncated or truncation
            env.step(None)
            continue
        if watch is not None:
            watch[WATCH_SEAT], watch[WATCH_DECISION] = seat, decisions
            watch[WATCH_BEGAN] = time.monotonic()
        started, wall = time.process_time(), time.perf_counter()
        try:
            action = decide(agents[seat], observation, env, seat)
            failure = None
        except (Exception, SystemExit) as error:  # sys.exit in an agent is its failure too
            if not forfeit:
                raise
            failure = {"reason": "error", "detail": f"{type(error).__name__}: {error}"}
            if isinstance(error, SeatFailure):  # an agent in a process of its own
                failure = {"reason": error.reason, "detail": error.detail}
        elapsed = time.perf_counter() - wall
        act_cpu_seconds[seat] += time.process_time() - started
        seat_decisions[seat] += 1
        if watch is not None:
            watch[WATCH_BEGAN], watch[WATCH_DECISIONS + seat] = 0.0, seat_decisions[seat]
        limit = time_limits[seat] if time_limits else None
        if forfeit and not failure:
            if limit and elapsed > limit:
                failure = {"reason": "timeout", "detail": f"a decision took {elapsed:.1f} s"}
            elif not is_legal(action, observation["action_mask"]):
                failure = illegal_action(env, action)
        if failure:
            game, players = env.game, env.num_players
            return forfeit_result(
                game, players, seat, decisions, **failure, owners=owners,
                seat_decisions=seat_decisions, act_cpu_seconds=act_cpu_seconds,
            )  # fmt: skip
        if on_step:
            on_step(env, name, action)
        env.step(action)
        decisions += 1
    if on_step:
        on_step(env, None, None)
    results = env.outcome()["results"]  # the full results, text included (infos: numbers)
    return GameResult(
        rewards,
        [results[a] for a in env.possible_agents],
        truncated,
        decisions,
        seat_decisions=seat_decisions,
        act_cpu_seconds=act_cpu_seconds,
    )


#: the parts of a ``watch`` array (:func:`run_game`): the seat deciding (-1: none), the
#: decision number (-1: building seat's agent), when it began, then each seat's decisions
WATCH_SEAT, WATCH_DECISION, WATCH_BEGAN, WATCH_DECISIONS = 0, 1, 2, 3


def is_action_id(action) -> bool:
    """An integer, not a bool (``True`` is no action id, though Python counts it as 1)."""
    return isinstance(action, (int, np.integer)) and not isinstance(action, bool)


def is_legal(action, mask) -> bool:
    return is_action_id(action) and 0 <= action < len(mask) and bool(mask[action])


def decide(agent, observation, env, seat):
    """The agent's action for the observation (search agents get the seat's information set)."""
    if getattr(agent, "wants_info_set", False):
        info_set = InfoSet(env.game, env._state, seat)
        return agent.act(observation["observation"], observation["action_mask"], info_set)
    return agent.act(observation["observation"], observation["action_mask"])


def illegal_action(env, action) -> dict:
    """The forfeit fields of an illegal ``action``: reason, detail, the action and its name."""
    return {"reason": "illegal action", **illegal_fields(env.game, env._state[0], action)}


def illegal_fields(game, state, action) -> dict:
    """The detail, the action and its name of an illegal ``action`` in the record ``state``."""
    in_range = is_action_id(action) and 0 <= action < game.num_actions
    described = {
        "action": int(action) if in_range else repr(action)[:100],
        "action_name": game.action_name(int(action), state) if in_range else "not an action id",
    }
    return {"detail": f"{described['action']} ({described['action_name']})", **described}


def forfeit_result(
    game,
    num_players,
    seat,
    decision,
    reason,
    detail,
    owners=None,
    seat_decisions=None,
    act_cpu_seconds=None,
    **extra,
) -> GameResult:
    """The result of a game that ``seat`` lost at decision number ``decision`` for ``reason``
    (one of :data:`FORFEIT_REASONS`), described by ``detail``: -1 to the seats of its side
    and, with ``owners`` (who holds each seat), to every other seat its owner holds; +1 to
    the others. ``seat_decisions`` and ``act_cpu_seconds`` (default 0 each) are per seat."""
    teams = game.teams(num_players)
    owners = owners or list(range(len(teams)))
    lost = [teams[k] == teams[seat] or owners[k] == owners[seat] for k in range(len(teams))]
    rewards = [-1.0 if lose else 1.0 for lose in lost]
    described = {
        "seat": seat,
        "agent": game.agent_names(num_players)[seat],
        "decision": decision,
        "reason": reason,
        "detail": detail,
        **extra,
    }
    return GameResult(
        rewards,
        [{} for _ in rewards],
        False,
        decision,
        described,
        seat_decisions=list(seat_decisions or [0] * len(rewards)),
        act_cpu_seconds=list(act_cpu_seconds or [0.0] * len(rewards)),
    )


def rotations(num_seats):
    """Every cyclic seat rotation: rotation r seats agent k at seat (k + r) mod n."""
    return [[(k + r) % num_seats for k in range(num_seats)] for r in range(num_seats)]


def seat_agents(agents, rotation):
    """The agent list in seat order for a rotation from :func:`rotations`."""
    seated = [None] * len(agents)
    for k, seat in enumerate(rotation):
        seated[seat] = agents[k]
    return seated


# Entrants -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """A tournament entry: its label in the results and what builds its agents.

    ``agent`` is an agent spec's target (:func:`agents.registry.parse_spec`: a registry
    name, ``module:Name`` or ``/path/file.py:Name``) or a factory called as
    ``factory(game_name, seed=..., **kwargs)``. Agents are built inside the worker that plays
    the game, one per seat and game, so they need not pickle (the factory must, to run in
    parallel: a module-level function or ``functools.partial`` does). ``time_limit`` is the
    most seconds one of its decisions may take (None: no limit); past it, the game is lost.
    ``spec`` is the spec as the user wrote it, for messages.

    An outside agent (a spec naming a module, a file or an installed package's agent) is
    :attr:`isolated`: it plays in a process of its own, which is sent only its seat's
    observations and action masks (:mod:`agents.isolation`), unless ``trusted``: then it
    plays in the game's process, like the built-in agents and factories, where it could
    read the whole game.
    """

    label: str
    agent: str | Callable
    kwargs: dict = field(default_factory=dict)
    time_limit: float | None = None
    spec: str | None = None
    trusted: bool = False

    def __post_init__(self):
        check_time_limit(self.time_limit, f"agent {self.label!r}: ")

    @property
    def isolated(self) -> bool:
        """Whether its agents play in processes of their own (see the class docstring)."""
        return not self.trusted and isinstance(self.agent, str) and is_outside(self.agent)

    def build(self, game_name, seed=None, num_players=None):
        """One agent, built in this process."""
        if isinstance(self.agent, str):
            target, spec, kwargs = self.made_by
            return make_agent(target, game_name, seed, num_players, spec=spec, **kwargs)
        return self.agent(game_name, seed=seed, **self.kwargs)

    @property
    def made_by(self) -> tuple:
        """What :func:`~agents.registry.make_agent` builds its agents from: the spec's target,
        the spec as written and the parameters."""
        return self.agent, self.spec or self.label, self.kwargs

    def check(self, game_name, num_players=None):
        """Raise what building one of its agents would (a ValueError saying what is wrong,
        or the agent's own error); an isolated entrant is built in a process of its own."""
        if self.isolated:
            isolation.check(self.made_by, game_name, num_players)
        else:
            self.build(game_name, seed=0, num_players=num_players)


def check_time_limit(seconds, whose=""):
    """A ValueError unless ``seconds`` is None (no limit) or a positive number."""
    if seconds is not None and not seconds > 0:
        raise ValueError(
            f"{whose}the time limit must be a positive number of seconds, got {seconds}"
        )


def parse_entrant(text: str, trusted: bool = False) -> Entrant:
    """An entrant from an agent spec (:mod:`agents.registry`): ``name`` or
    ``name:key=value,key=value`` (values as Python literals, else strings), e.g.
    ``ismcts:simulations=200``, ``package.module:Name[:key=value,...]`` or
    ``path/to/file.py:Name[:key=value,...]``; a bad spec raises a ValueError. An outside
    agent's code is loaded here only if it is ``trusted`` (see :class:`Entrant`): an isolated
    one's is loaded in its own processes (:meth:`Entrant.check` checks it there)."""
    target, kwargs = parse_spec(text, load_code=trusted)
    return Entrant(text, target, kwargs, spec=text, trusted=trusted)


def _same_instance(instance, game_name, seed=None):
    return instance


def as_entrant(entry) -> Entrant:
    """An :class:`Entrant` from a registry name (or ``name:key=value`` spec), an agent
    instance (which then plays every seat it is given, in every game) or a factory."""
    if isinstance(entry, Entrant):
        return entry
    if isinstance(entry, str):
        return parse_entrant(entry)
    if hasattr(entry, "act") and not isinstance(entry, type):
        return Entrant(type(entry).__name__, functools.partial(_same_instance, entry))
    if callable(entry):
        return Entrant(getattr(entry, "__name__", type(entry).__name__), entry)
    raise ValueError(f"not an agent, agent name or agent factory: {entry!r}")


def unique_labels(entrants: list[Entrant]) -> list[Entrant]:
    """The entrants with repeated labels numbered: ``random``, ``random_2``, ..."""
    seen: dict[str, int] = {}
    result = []
    for entrant in entrants:
        seen[entrant.label] = seen.get(entrant.label, 0) + 1
        if seen[entrant.label] > 1:
            entrant = replace(entrant, label=f"{entrant.label}_{seen[entrant.label]}")
        result.append(entrant)
    return result


# Schedule -------------------------------------------------------------------------------------


def schedule(num_entrants, num_sides) -> list[tuple[int, ...]]:
    """Seatings (entrant index per side) that a tournament cycles through.

    With at least as many entrants as sides, every group of ``num_sides`` entrants plays in
    every rotation (a round robin); with fewer, the entrants fill the sides in turn (A B A B),
    starting from each entrant, in every rotation, so each holds every side equally often.
    """
    if num_entrants >= num_sides:
        lineups = list(combinations(range(num_entrants), num_sides))
    else:
        lineups = [
            [(start + k) % num_entrants for k in range(num_sides)] for start in range(num_entrants)
        ]
    seatings = []
    for lineup in lineups:
        for rotation in rotations(num_sides):
            seating = tuple(seat_agents(list(lineup), rotation))
            if seating not in seatings:
                seatings.append(seating)
    return seatings


# Playing --------------------------------------------------------------------------------------


def seat_entrants(sides, seating) -> list[int]:
    """The entrant index of each seat, for a seating (entrant index per side)."""
    owner = {k: seating[i] for i, seats in enumerate(sides) for k in seats}
    return [owner[k] for k in range(len(owner))]


def agent_stats(agents) -> list[dict | None]:
    """Each seat's agent's own counts after a game (:func:`agents.isolation.numbers` of its
    ``stats()``, from its process for an isolated one); None for an agent without them."""
    stats = []
    for agent in agents:
        if isinstance(agent, SeatProcess):
            stats.append(agent.stats())
        elif hasattr(agent, "stats"):
            stats.append(numbers(agent.stats()))
        else:
            stats.append(None)
    return stats


def game_record(task, labels, result: GameResult) -> dict:
    """A tournament game's record: the task that played it (index, seed, seating), the
    labels of its seats, and its result."""
    index, seed, seating = task
    if result.forfeit:
        result.forfeit["entrant"] = labels[result.forfeit["seat"]]
    return {
        "game": index,
        "seed": seed,
        "seating": list(seating),
        "agents": labels,
        "rewards": result.rewards,
        "scores": [info.get("score") for info in result.results],
        "truncated": result.truncated,
        "decisions": result.num_decisions,
        "seat_decisions": result.seat_decisions,
        "act_cpu_seconds": result.act_cpu_seconds,
        "forfeit": result.forfeit,
    }


class _Table:
    """Plays tournament games: one environment, reused, in this process or a worker (whose
    ``watch`` array tells the parent which seat is busy, see :func:`run_game`). Isolated
    entrants play through ``processes`` (:mod:`agents.isolation`); building one of their
    agents may take ``build_limit`` seconds where the entrant has a time limit."""

    def __init__(
        self, game_name, num_players, options, entrants, build_limit, watch=None, processes=None
    ):
        self.env = heist_envs.make(game_name, num_players=num_players, **(options or {}))
        self.entrants = entrants
        self.sides = self.env.game.side_seats(self.env.num_players)
        self.build_limit = build_limit
        self.watch = watch
        self.processes = processes

    def play(self, task) -> dict:
        if self.watch is not None:
            self.watch[WATCH_DECISIONS:] = [0] * (len(self.watch) - WATCH_DECISIONS)
        try:
            return self._play(task)
        finally:
            if self.watch is not None:  # between games: a crash now is no seat's
                self.watch[WATCH_SEAT], self.watch[WATCH_BEGAN] = -1, 0.0

    def _play(self, task) -> dict:
        game, num_players = self.env.game, self.env.num_players
        owners = seat_entrants(self.sides, task[2])
        labels = [self.entrants[i].label for i in owners]
        agents = []
        for k, owner in enumerate(owners):
            if self.watch is not None:  # decision -1: building seat k's agent
                self.watch[WATCH_SEAT], self.watch[WATCH_DECISION] = k, -1
                self.watch[WATCH_BEGAN] = time.monotonic()
            try:
                agents.append(self._build(self.entrants[owner], owners[:k].count(owner), task, k))
            except (Exception, SystemExit) as error:  # the agent's own: its loss, not the run's
                if isinstance(error, SeatFailure):
                    reason, detail = error.reason, error.detail
                else:
                    why = error.reason if isinstance(error, AgentBuildError) else None
                    reason, detail = "error", f"building the agent: {why or error_text(error)}"
                lost = forfeit_result(game, num_players, k, 0, reason, detail, owners)
                return game_record(task, labels, lost)
        if self.watch is not None:
            self.watch[WATCH_BEGAN] = 0.0
        limits = [self.entrants[i].time_limit for i in owners]
        result = run_game(
            self.env, agents, task[1], forfeit=True, time_limits=limits, watch=self.watch,
            owners=owners,
        )  # fmt: skip
        return game_record(task, labels, result) | {"agent_stats": agent_stats(agents)}

    def _build(self, entrant, slot, task, seat):
        """Seat ``seat``'s agent: the entrant's ``slot``-th seat of this game."""
        game, num_players = self.env.game, self.env.num_players
        seed = agent_seed(task[1], seat)
        if not entrant.isolated:
            return entrant.build(game.name, seed, num_players)
        limit = entrant.time_limit
        process = self.processes.get(entrant.label, slot)
        return process.build(
            entrant.made_by, game.name, seed, num_players, seat, limit,
            limit and max(limit, self.build_limit),
        )  # fmt: skip


def agent_seed(game_seed, seat) -> int:
    return int(np.random.SeedSequence([game_seed, seat]).generate_state(1)[0])


def _shippable(value) -> bool:
    """Whether ``value`` can reach a spawned worker: it pickles, and names nothing from an
    interactive ``__main__`` (a notebook's or a shell's), which a worker cannot import."""
    try:
        data = pickle.dumps(value)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    interactive = not getattr(sys.modules["__main__"], "__file__", None)
    return not (interactive and b"__main__" in data)


#: the progress bar until the first game is in: each process (every worker) loads the agents'
#: compiled code first, or compiles it on the first use after installing
STARTING = "first game: loading or compiling the agents' code"


@dataclass
class TournamentPlan:
    """What a tournament plays: its table, its entrants and sides, and its games as tasks
    (index, seed, seating). :func:`plan_tournament` makes one, :func:`play_tournaments`
    plays several on one set of workers."""

    game: Game
    num_players: int
    options: dict | None
    seed: int
    entrants: list[Entrant]
    sides: list[list[int]]
    tasks: list[tuple]

    @property
    def table_args(self) -> tuple:
        return (self.game.name, self.num_players, self.options, self.entrants, BUILD_TIME_LIMIT)

    @property
    def num_seats(self) -> int:
        return self.game.num_seats(self.num_players)

    def time_limit(self, task, seat) -> float | None:
        """The limit the parent process watches ``seat``'s decisions for: none for an
        isolated entrant, whose game's process stops its agent's process itself."""
        entrant = self.entrants[seat_entrants(self.sides, task[2])[seat]]
        return None if entrant.isolated else entrant.time_limit

    def lost(self, task, seat, decision, reason, detail, seat_decisions) -> dict:
        """The record of a game that ``seat`` lost where its worker could not say so (it died,
        or was stopped), with each seat's decisions until then."""
        owners = seat_entrants(self.sides, task[2])
        labels = [self.entrants[i].label for i in owners]
        result = forfeit_result(
            self.game, self.num_players, seat, decision, reason, detail, owners, seat_decisions
        )
        return game_record(task, labels, result)


def check_count(name, value, allow_none=False):
    """A ValueError unless ``value`` is a whole number of at least 1 (or None, if allowed)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be at least 1 (a whole number), got {value!r:.40}")


def plan_tournament(
    game_name, agents, games=100, num_players=None, seed=None, options=None
) -> TournamentPlan:
    """The games of a :func:`tournament`, checked and seeded, not yet played (bad numbers are
    refused before any agent is loaded)."""
    game = heist_envs.get_game(game_name)
    num_players = game.check_players(num_players)
    game.check_options(options)
    check_count("games", games)
    seed = normalize_seed(seed)
    entrants = unique_labels([as_entrant(a) for a in agents])
    if not entrants:
        raise ValueError("a tournament needs at least one agent")
    for entrant in entrants:  # fail here, not in a worker, if one cannot be built
        try:
            entrant.check(game.name, num_players)
        except ValueError:
            raise
        except Exception as error:
            why = error_text(error)
            raise ValueError(f"agent {entrant.label!r} cannot be built: {why}") from error
    sides = game.side_seats(num_players)
    seatings = schedule(len(entrants), len(sides))
    total = -(-games // len(seatings)) * len(seatings)
    seeds = np.random.SeedSequence(seed).generate_state(total, np.uint64).tolist()
    tasks = [(i, seeds[i], seatings[i % len(seatings)]) for i in range(total)]
    return TournamentPlan(game, num_players, options, seed, entrants, sides, tasks)


def tournament(
    game_name,
    agents,
    games=100,
    num_players=None,
    seed=None,
    options=None,
    workers=None,
    progress=True,
    batched=None,
) -> TournamentResult:
    """Play ``games`` games between ``agents`` (see :func:`as_entrant`) and summarise them.

    The games cycle through :func:`schedule`'s seatings (the count is rounded up to a whole
    number of them, so every entrant holds every side equally often); game i's seed is drawn
    from ``seed``. See :func:`play_tournaments` for who plays them where (``batched``: the
    route), how a failing agent loses a game, and what Ctrl-C keeps.
    """
    check_count("workers", workers, allow_none=True)
    plan = plan_tournament(game_name, agents, games, num_players, seed, options)
    try:
        return play_tournaments([plan], workers, progress, batched)[0]
    except TournamentInterrupted as stop:
        raise TournamentInterrupted(stop.results) from None


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`play_tournaments`: ``results`` holds every tournament's games
    finished so far, summarised (each :attr:`TournamentResult.partial`)."""

    def __init__(self, results):
        played = sum(len(result.games) for result in results)
        planned = sum(result.planned_games for result in results)
        super().__init__(f"{played} of {planned} games finished")
        self.results = results


def play_tournaments(plans, workers=None, progress=True, batched=None) -> list[TournamentResult]:
    """Play the games of several :class:`TournamentPlan` on one set of workers, the
    tournaments' games interleaved (each advances at the same pace, so the progress bar's
    estimate holds for all of them).

    A tournament whose every entrant is the heuristic, ``ppo`` or ``random`` (without a time
    limit) plays in the batched route instead (:mod:`agents.batched_arena`), first, in this
    process: its games many at once, each as the serial route plays it. ``batched=False``
    plays every game one at a time; ``batched=True`` asks for the batched route and logs
    one line for each tournament that cannot take it (None: the same, silently).

    ``workers`` processes play them (default: one per core); 1 plays here, unless an entrant
    that plays in the game's process has a time limit (a decision past it can only be
    stopped in another process); entrants that cannot reach a worker (unpicklable, or
    defined in a notebook) play here too. Isolated entrants (:attr:`Entrant.isolated`) play
    in processes of their own wherever the game is. An agent that gives an illegal action,
    raises, overruns its time limit or ends its process loses that game
    (:data:`FORFEIT_REASONS`), which is logged and listed in the result; a dead or stopped
    worker is replaced. Ctrl-C stops the games: :class:`TournamentInterrupted` then holds
    those finished so far.
    """
    check_count("workers", workers, allow_none=True)
    fast = []  # the tournaments of the batched route
    for which, plan in enumerate(plans):
        reason = "the serial route was asked for" if batched is False else batch_reason(plan)
        if reason is None:
            fast.append(which)
        elif batched:
            log.warning("%s: not batched, one game at a time: %s", plan.game.name, reason)
    jobs = [(w, task) for w, plan in enumerate(plans) if w not in fast for task in plan.tasks]
    jobs.sort(key=lambda job: job[1][0] / len(plans[job[0]].tasks))
    workers = min(workers or os.cpu_count() or 1, max(len(jobs), 1))
    serial = [plan for which, plan in enumerate(plans) if which not in fast]
    limited = any(
        entrant.time_limit and not entrant.isolated for plan in serial for entrant in plan.entrants
    )
    if (workers > 1 or limited) and not _shippable([plan.entrants for plan in serial]):
        log.warning("some agents cannot be sent to worker processes: playing in this one")
        workers, limited = 1, False
    records = [[] for _ in plans]
    desc = plans[0].game.name if len({plan.game.name for plan in plans}) == 1 else "games"
    total = sum(len(plan.tasks) for plan in plans)
    bar = tqdm(total=total, desc=desc, unit="game", disable=not progress, postfix=STARTING)
    if not jobs:
        played = (job for job in ())
    elif workers == 1 and not limited:
        played = _play_here(plans, jobs)
    else:
        played = _play_in_workers(plans, jobs, workers, limited)
    played = _batched_first(plans, fast, played)
    try:
        with bar, contextlib.closing(played):
            for k, (which, record) in enumerate(played):
                records[which].append(_tick(bar, record, k == 0))
    except KeyboardInterrupt:
        raise TournamentInterrupted(_summaries(plans, records)) from None
    return _summaries(plans, records)


def _batched_first(plans, fast, played):
    """The games of the batched route's tournaments (plan indices ``fast``), a game of each
    in turn, then ``played``; yields (plan index, record)."""
    with contextlib.closing(played):
        going = [(which, play_batched(plans[which])) for which in fast]
        while going:
            for entry in list(going):
                record = next(entry[1], None)
                if record is None:
                    going.remove(entry)
                else:
                    yield entry[0], record
        yield from played


def _summaries(plans, records) -> list[TournamentResult]:
    results = []
    for plan, played in zip(plans, records, strict=True):
        played.sort(key=lambda r: r["game"])
        results.append(
            TournamentResult.build(
                plan.game,
                plan.num_players,
                plan.seed,
                plan.entrants,
                plan.sides,
                played,
                len(plan.tasks),
            )  # fmt: skip
        )
    return results


def _play_here(plans, jobs):
    """Play ``jobs`` (plan index, task) in this process, one after another; yields (plan
    index, record) as games end."""
    seats = max(plan.num_seats for plan in plans)
    watch = multiprocessing.RawArray("d", [-1.0, 0.0, 0.0] + [0.0] * seats)
    processes = SeatProcesses()
    tables = {}
    with _told_if_this_process_ends(plans, jobs, watch) as playing:
        try:
            for k, (which, task) in enumerate(jobs):
                if which not in tables:
                    tables[which] = _Table(*plans[which].table_args, watch, processes)
                playing(k)
                yield which, tables[which].play(task)
        finally:
            processes.stop()


@contextlib.contextmanager
def _told_if_this_process_ends(plans, jobs, watch):
    """Say what happened if this process ends in a game, as an agent playing in it can make
    it (``os._exit``, a crash in compiled code): nothing of it can speak then, so a forked
    process waits for its end and, if that comes before the games', prints the game, seat
    and decision, and how to keep a crash to its game. Yields a function that notes which
    job plays (where there is no ``os.fork``, the function does nothing)."""
    if not hasattr(os, "fork"):
        yield lambda k: None
        return
    playing = multiprocessing.RawValue("q", -1)
    read, write = os.pipe()
    with ctrl_c_ignored(), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the fork only waits and writes
        pid = os.fork()
        if pid == 0:
            try:
                os.close(write)
                if not os.read(read, 1) and watch[WATCH_SEAT] >= 0:  # ended, in a game
                    os.write(2, _ended_text(plans, jobs[playing.value], watch).encode())
            finally:
                os._exit(0)
    os.close(read)
    try:
        yield lambda k: setattr(playing, "value", k)
    finally:
        os.write(write, b"done")
        os.close(write)
        os.waitpid(pid, 0)


def _ended_text(plans, job, watch) -> str:
    which, (index, seed, seating) = job
    plan = plans[which]
    seat, decision = int(watch[WATCH_SEAT]), int(watch[WATCH_DECISION])
    label = plan.entrants[seat_entrants(plan.sides, seating)[seat]].label
    at = "while its agent was built" if decision < 0 else f"at decision {decision}"
    return (
        f"{Path(sys.argv[0]).name}: the games were playing in this process (one worker, no time "
        "limit), and it ended in "
        f"game {index} of {plan.game.name} at {plan.num_players} players (seed {seed}), seat "
        f"{seat} ({label}) {at}: an agent playing in it exited or crashed. A time limit "
        "(--time-limit) or a second worker (--workers 2) plays the games in worker processes, "
        "where a crash loses only its game.\n"
    )


#: how often (seconds) the parent looks at its workers' decisions when some have time limits
WATCH_INTERVAL = 0.1
#: the most seconds building an agent that has a time limit may take (loading a network can
#: take longer than a decision may)
BUILD_TIME_LIMIT = 60.0


def _work(conn, watch, tables):
    """A worker's loop: play the games it is sent (table index, task), send back their
    records; it ends when sent None, or when the parent ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    isolation.end_with_parent()
    made = {}
    processes = SeatProcesses()
    try:
        while (job := conn.recv()) is not None:
            which, task = job
            if which not in made:
                made[which] = _Table(*tables[which], watch, processes)
            conn.send(made[which].play(task))
    except (EOFError, OSError):  # the parent ended
        pass
    finally:
        processes.stop()


class _Worker:
    """A worker process, the games sent to it (the first one is playing), and its ``watch``
    array (see :func:`run_game`). Not a daemon: it starts the processes of isolated agents,
    so whoever starts one (:meth:`start`) stops it (:meth:`stop`) however the games end."""

    def __init__(self, context, tables, seats):
        self.watch = context.RawArray("d", [-1.0, 0.0, 0.0] + [0.0] * seats)
        self.conn, self.child = context.Pipe()
        self.process = context.Process(target=_work, args=(self.child, self.watch, tables))
        self.jobs = deque()

    def start(self):
        with ctrl_c_ignored():
            self.process.start()
        self.child.close()

    def give(self, job):
        self.jobs.append(job)
        with contextlib.suppress(OSError):  # a dead worker: finished() tells
            self.conn.send(job)

    def finished(self, plans) -> tuple | None:
        """(job, record) of the game this worker plays, if it ended: played, or lost by the
        seat whose decision overran its time limit (the worker is stopped) or that ended the
        worker; None while it plays on."""
        try:
            if self.conn.poll():
                record = self.conn.recv()
                return self.jobs.popleft(), record
        except (EOFError, OSError):  # it died: the pipe is closed, or reset with games unread
            pass
        job = self.jobs[0]
        plan, task = plans[job[0]], job[1]
        seat, decision = int(self.watch[WATCH_SEAT]), int(self.watch[WATCH_DECISION])
        began = self.watch[WATCH_BEGAN]
        if self.process.is_alive():
            limit = plan.time_limit(task, seat) if seat >= 0 else None
            if limit and decision < 0:
                limit = max(limit, BUILD_TIME_LIMIT)
            overrun = time.monotonic() - began if began else 0.0
            if not limit or overrun <= limit + STOP_GRACE:
                return None
            what = "building the agent" if decision < 0 else "a decision"
            reason, detail = "timeout", f"{what} ran past {limit:g} s and was stopped"
        else:
            code = self.process.exitcode
            reason, detail = "crash", f"the worker process ended (exit code {code})"
        made = [int(d) for d in self.watch[WATCH_DECISIONS : WATCH_DECISIONS + plan.num_seats]]
        self.stop()
        if seat < 0:
            raise RuntimeError(f"a worker process ended between games ({detail})")
        if decision >= 0 and began:  # the decision it was in counts, as a forfeit's does
            made[seat] += 1
        lost = plan.lost(task, seat, max(decision, 0), reason, detail, made)
        return self.jobs.popleft(), lost

    def stop(self):
        if self.process.pid is not None:  # started
            if self.process.is_alive():
                self.process.kill()
            self.process.join()
        self.conn.close()


#: games sent ahead to each worker, so that it need not wait for the parent between games
IN_FLIGHT = 2


def _play_in_workers(plans, jobs, workers, limited):
    """Play ``jobs`` (plan index, task) in ``workers`` processes; yields (plan index, record)
    as games end, replacing a worker that died or was stopped (the games sent ahead to it go
    to the others). ``limited``: some entrant has a time limit, so the workers' decisions are
    watched every :data:`WATCH_INTERVAL` seconds."""
    context = multiprocessing.get_context("spawn")
    tables = [plan.table_args for plan in plans]
    seats = max(plan.num_seats for plan in plans)
    pending = deque(jobs)
    pool = []

    def hire():
        pool.append(worker := _Worker(context, tables, seats))
        worker.start()
        return worker

    def feed(worker):
        while pending and len(worker.jobs) < IN_FLIGHT:
            worker.give(pending.popleft())

    try:
        for _ in range(workers):
            feed(hire())
        while busy := [worker for worker in pool if worker.jobs]:
            waits = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            wait(waits, timeout=WATCH_INTERVAL if limited else None)
            for worker in busy:
                ended = worker.finished(plans)
                if ended is None:
                    continue
                yield ended[0][0], ended[1]
                if not worker.process.is_alive():
                    pool.remove(worker)
                    pending.extendleft(reversed(worker.jobs))
                    worker.jobs.clear()
                    if pending:
                        worker = hire()
                feed(worker)
    finally:
        for worker in pool:
            if not worker.jobs and worker.process.is_alive():
                worker.conn.send(None)  # done: let it leave on its own
                worker.process.join(timeout=5)
            worker.stop()


def _tick(bar, record, first):
    if first and not bar.disable:  # the wait was the start, not a game: out of the pace
        started = bar.start_t
        bar.unpause()
        bar.start_t = started
        bar.set_postfix_str("", refresh=False)
    bar.update()
    forfeit = record["forfeit"]
    if forfeit:
        log.warning(
            "game %d: %s (seat %d) forfeits at decision %d: %s: %s",
            record["game"], forfeit["entrant"], forfeit["seat"], forfeit["decision"],
            forfeit["reason"], forfeit["detail"],
        )  # fmt: skip
    return record


# Results --------------------------------------------------------------------------------------


class Outcome(NamedTuple):
    """How one side did in one game."""

    reward: float
    won: bool  # the best reward of the game, and positive (a truncated game has no winner)
    score: float | None  # None where the game reports no score


def side_outcomes(record, sides) -> list[Outcome]:
    """Each side's :class:`Outcome` in one game (a team's: its seats' mean)."""
    rewards = [_mean([record["rewards"][k] for k in seats]) for seats in sides]
    best = max(rewards)
    outcomes = []
    for seats, reward in zip(sides, rewards, strict=True):
        scores = [record["scores"][k] for k in seats]
        score = None if None in scores else _mean(scores)
        outcomes.append(Outcome(reward, reward == best and reward > 0, score))
    return outcomes


def _mean(values) -> float:
    """The mean of a few numbers, as ``float(np.mean(values))`` gives it, without numpy's
    cost per call (the same sum, in order, for up to 8 of them)."""
    total = 0.0
    for value in values:
        total += value
    return float(total) / len(values)


def rate(labels, records, frozen=None, drift=None) -> dict[str, dict]:
    """OpenSkill (Plackett-Luce) ratings from the games in order, sides ranked by reward.

    An entrant holding several sides of one game is rated once per side, and keeps the mean
    of those updates. ``frozen`` maps labels to (mu, sigma) ratings that the games leave as
    they are: the other entrants are rated against them (an anchored rating). ``drift``:
    OpenSkill's tau, the sigma added before every game (None: OpenSkill's default, 25/300)."""
    model = PlackettLuce() if drift is None else PlackettLuce(tau=drift)
    frozen = frozen or {}
    ratings = {label: model.rating(*frozen.get(label, ()), name=label) for label in labels}
    for record in records:
        seated = [labels[i] for i in record["seating"]]
        rewards = [outcome.reward for outcome in record["outcomes"]]
        updated = model.rate([[ratings[label]] for label in seated], scores=rewards)
        for label in set(seated) - set(frozen):
            mine = [team[0] for name, team in zip(seated, updated, strict=True) if name == label]
            ratings[label] = model.rating(
                mu=float(np.mean([r.mu for r in mine])),
                sigma=float(np.mean([r.sigma for r in mine])),
                name=label,
            )
    return {
        label: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        for label, r in ratings.items()
    }


def rate_summary(wins, games) -> dict:
    low, high = wilson_interval(wins, games)
    return {"win_rate": wins / games if games else None, "win_low": low, "win_high": high}


def mean_summary(name, values) -> dict:
    if not values:
        return {f"mean_{name}": None, f"{name}_low": None, f"{name}_high": None}
    mean, low, high = mean_interval(values)
    return {f"mean_{name}": mean, f"{name}_low": low, f"{name}_high": high}


def entrant_summary(index, label, records, rating, num_sides) -> dict:
    """One row of the summary: how entrant ``index`` did over every side it held, and its
    fair share: the win rate per side held of an entrant as strong as the others, one win
    in ``num_sides``."""
    held = [
        (side, record["outcomes"][side])
        for record in records
        for side, entrant in enumerate(record["seating"])
        if entrant == index
    ]
    wins = sum(outcome.won for _, outcome in held)
    first = [outcome.won for side, outcome in held if side == 0]
    other = [outcome.won for side, outcome in held if side != 0]
    first_rate = sum(first) / len(first) if first else None
    other_rate = sum(other) / len(other) if other else None
    return {
        "agent": label,
        "games": sum(index in record["seating"] for record in records),
        "seat_games": len(held),
        "wins": wins,
        **rate_summary(wins, len(held)),
        "fair_share": 1 / num_sides,
        **mean_summary("reward", [outcome.reward for _, outcome in held]),
        **mean_summary("score", [o.score for _, o in held if o.score is not None]),
        **rating,
        "first_seat_games": len(first),
        "first_seat_win_rate": first_rate,
        "other_seat_win_rate": other_rate,
        "first_seat_advantage": first_rate - other_rate if first and other else None,
        "forfeits": sum(
            1 for record in records if record["forfeit"] and record["forfeit"]["entrant"] == label
        ),
    }


@dataclass
class TournamentResult:
    """A finished tournament: every game, and the per-entrant and per-seat summaries.

    ``summary`` holds one dict per entrant (columns of ``summary.csv``): ``games`` counts the
    games it sat in, ``seat_games`` the sides it held in them (the count behind its rates: an
    entrant holding two seats of a game plays two seat-games), ``win_rate`` per side held,
    with its Wilson interval (``win_low``, ``win_high``) and its ``fair_share`` (the win
    rate of an entrant as strong as the others: 1 / the number of sides, How to Rob a Bank's
    bank and robbers being two), ``mean_reward`` and ``mean_score`` with normal intervals,
    the OpenSkill ``mu``, ``sigma``
    and ``ordinal`` (mu - 3 sigma), its win rate in the first seat (the side holding seat 0)
    and elsewhere, their difference ``first_seat_advantage``, and its ``forfeits``.
    ``seats`` holds each side's win rate whoever held it; ``first_seat_advantage`` is the
    first side's win rate minus the mean over sides. A tournament stopped by Ctrl-C is
    :attr:`partial`: ``games`` holds those finished of its ``planned_games``, and the seat
    rotations may not be complete.
    """

    game: str
    num_players: int
    seed: int
    agents: list[str]
    side_agents: list[list[str]]
    games: list[dict]
    summary: list[dict]
    seats: list[dict]
    first_seat_advantage: float | None
    planned_games: int

    @property
    def partial(self) -> bool:
        return len(self.games) < self.planned_games

    @classmethod
    def build(cls, game, num_players, seed, entrants, sides, records, planned_games=None):
        labels = [e.label for e in entrants]
        for record in records:
            record["outcomes"] = side_outcomes(record, sides)
        ratings = rate(labels, records)
        summary = [
            entrant_summary(index, label, records, ratings[label], len(sides))
            for index, label in enumerate(labels)
        ]
        names = game.agent_names(num_players)
        seats = []
        for side, seat_list in enumerate(sides):
            wins = sum(record["outcomes"][side].won for record in records)
            seats.append(
                {
                    "seat": side,
                    "agents": [names[k] for k in seat_list],
                    "games": len(records),
                    "wins": wins,
                    **rate_summary(wins, len(records)),
                }
            )
        advantage = None
        if records:
            advantage = seats[0]["win_rate"] - float(np.mean([s["win_rate"] for s in seats]))
        return cls(
            game=game.name,
            num_players=num_players,
            seed=seed,
            agents=labels,
            side_agents=[[names[k] for k in seat_list] for seat_list in sides],
            games=records,
            summary=summary,
            seats=seats,
            first_seat_advantage=advantage,
            planned_games=len(records) if planned_games is None else planned_games,
        )

    @property
    def forfeits(self) -> list[dict]:
        """The forfeited games: game index, offending entrant, seat, decision, reason, detail."""
        return [{"game": r["game"], **r["forfeit"]} for r in self.games if r["forfeit"]]

    def to_dict(self) -> dict:
        """The tournament as JSON-compatible data, the same for the same seed: without the
        times of the agents' decisions and their own counts (in ``games``), which vary from
        run to run."""
        left_out = ("outcomes", "act_cpu_seconds", "agent_stats")
        games = [{k: v for k, v in r.items() if k not in left_out} for r in self.games]
        return {
            "game": self.game,
            "num_players": self.num_players,
            "seed": self.seed,
            "agents": self.agents,
            "sides": self.side_agents,
            "summary": self.summary,
            "seats": self.seats,
            "first_seat_advantage": self.first_seat_advantage,
            "planned_games": self.planned_games,
            "partial": self.partial,
            "forfeits": self.forfeits,
            "games": games,
        }

    def summary_csv(self) -> str:
        return _csv(self.summary)

    def games_csv(self) -> str:
        rows = []
        for r in self.games:
            row = {"game": r["game"], "seed": r["seed"], "truncated": r["truncated"]}
            row["decisions"] = r["decisions"]
            forfeit = r["forfeit"]
            row["forfeit"] = (
                f"{forfeit['entrant']} (seat {forfeit['seat']}, decision {forfeit['decision']}): "
                f"{forfeit['reason']}: {forfeit['detail']}"
                if forfeit
                else ""
            )
            for k, label in enumerate(r["agents"]):
                row[f"seat{k}_agent"] = label
                row[f"seat{k}_reward"] = r["rewards"][k]
                row[f"seat{k}_score"] = r["scores"][k]
            rows.append(row)
        return _csv(rows)

    def write(self, out_dir) -> list[Path]:
        """Write ``summary.csv``, ``games.csv`` and ``tournament.json`` into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        files = {
            "summary.csv": self.summary_csv(),
            "games.csv": self.games_csv(),
            "tournament.json": json.dumps(self.to_dict(), indent=1) + "\n",
        }
        for name, text in files.items():
            (out / name).write_text(text)
        return [out / name for name in files]

    def table(self) -> str:
        """The summary as text: one line per entrant (with its fair share: the win rate of an
        entrant as strong as the others), then the seats and any forfeits."""
        columns = [
            ("agent", f"<{max(12, *(len(label) for label in self.agents))}"),
            ("games", ">5"),
            ("seat-games", ">10"),
            ("win rate [95% CI]", "<20"),
            ("fair share", ">10"),
            ("mean reward [95% CI]", "<23"),
            ("score", ">7"),
            ("rating mu ± sigma", "<17"),
            ("1st-seat adv", ">12"),
        ]

        def row(values):
            return "  ".join(f"{v:{fmt}}" for v, (_, fmt) in zip(values, columns, strict=True))

        played = f"{len(self.games)} games"
        if self.partial:
            played = (
                f"{len(self.games)} of {self.planned_games} games, partial: interrupted, the seat "
                "rotations not all complete"
            )
        lines = [f"{self.game}, {self.num_players} players, {played} (seed {self.seed})"]
        if not self.games:
            return "\n".join(lines)
        lines.append(row([name for name, _ in columns]))
        for s in self.summary:
            advantage = s["first_seat_advantage"]
            values = [
                s["agent"],
                s["games"],
                s["seat_games"],
                interval_text(s["win_rate"], s["win_low"], s["win_high"]),
                f"{s['fair_share']:.3f}",
                interval_text(s["mean_reward"], s["reward_low"], s["reward_high"], "+.3f"),
                "" if s["mean_score"] is None else f"{s['mean_score']:.1f}",
                f"{s['mu']:6.2f} ± {s['sigma']:5.2f}",
                "" if advantage is None else f"{advantage:+.3f}",
            ]
            lines.append(row(values))
        seats = ", ".join(
            f"{'+'.join(s['agents'])} {interval_text(s['win_rate'], s['win_low'], s['win_high'])}"
            for s in self.seats
        )
        lines.append(f"win rate by seat: {seats}")
        lines.append(f"first-seat advantage: {self.first_seat_advantage:+.3f}")
        for f in self.forfeits:
            lines.append(
                f"forfeit: game {f['game']}, {f['entrant']} as {f['agent']}, decision "
                f"{f['decision']}: {f['reason']}: {f['detail']}"
            )
        return "\n".join(lines)


def _csv(rows) -> str:
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]) if rows else [], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return text.getvalue()
