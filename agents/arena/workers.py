"""Playing tournaments: the games of several plans in worker processes (or here, or in the
batched route), a worker that dies or overruns its time limit replaced and its game lost,
and Ctrl-C keeping the games finished.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import time
import warnings
from collections import deque
from multiprocessing.connection import wait
from pathlib import Path

from tqdm import tqdm

import heist_envs

from .. import isolation
from ..isolation import STOP_GRACE, SeatFailure, SeatProcesses, ctrl_c_ignored
from ..registry import AgentBuildError, error_text
from .batched import play_batched, takes_batched_route
from .games import (
    WATCH_BEGAN,
    WATCH_DECISION,
    WATCH_DECISIONS,
    WATCH_SEAT,
    agent_stats,
    forfeit_result,
    game_record,
    run_game,
)
from .results import TournamentResult
from .seating import agent_seed, check_count, plan_tournament, seat_entrants

log = logging.getLogger(__package__)  # the arena's logger, agents.arena


#: the progress bar until the first game is in: each process (every worker) loads the agents'
#: compiled code first, or compiles it on the first use after installing
STARTING = "first game: loading or compiling the agents' code"


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
    limit) plays in the batched route instead (:mod:`agents.arena.batched`), first, in this
    process: its games many at once, each as the serial route plays it. ``batched=False``
    plays every game one at a time; ``batched=True`` asks for the batched route and logs
    one line for each tournament that cannot take it (None: the same, silently).

    ``workers`` processes play them (default: one per core); 1 plays here, unless an entrant
    that plays in the game's process has a time limit (a decision past it can only be
    stopped in another process); entrants that cannot reach a worker (unpicklable, or
    defined in a notebook) play here too. Isolated entrants (:attr:`Entrant.isolated`) play
    in processes of their own wherever the game is. An agent that gives an illegal action,
    raises, overruns its time limit or ends its process loses that game
    (:data:`~agents.arena.games.FORFEIT_REASONS`), which is logged and listed in the result; a
    dead or stopped worker is replaced. Ctrl-C stops the games: :class:`TournamentInterrupted`
    then holds those finished so far.
    """
    check_count("workers", workers, allow_none=True)
    fast = [which for which, plan in enumerate(plans) if takes_batched_route(plan, batched)]
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


def _shippable(value) -> bool:
    """Whether ``value`` can reach a spawned worker: it pickles, and names nothing from an
    interactive ``__main__`` (a notebook's or a shell's), which a worker cannot import."""
    try:
        data = pickle.dumps(value)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    interactive = not getattr(sys.modules["__main__"], "__file__", None)
    return not (interactive and b"__main__" in data)


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
                    made_from = (*plans[which].table_args, BUILD_TIME_LIMIT)
                    tables[which] = _Table(*made_from, watch, processes)
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
    tables = [(*plan.table_args, BUILD_TIME_LIMIT) for plan in plans]
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
