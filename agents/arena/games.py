"""One game between agents (:func:`play`, :func:`run_game`), how a seat loses it by forfeit,
and the record a tournament keeps of it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

import heist_envs

from ..base import InfoSet
from ..isolation import SeatFailure, SeatProcess, numbers


@dataclass
class GameResult:
    """One finished game: per-seat rewards and results, and whether it was truncated.

    ``seat_decisions`` and ``act_cpu_seconds`` count each seat's decisions and the CPU time
    of this process in its agent's ``act`` calls (CPU time, so that other processes on the
    machine do not slow the count down). ``forfeit`` describes how a seat lost the game, when
    it was played with ``forfeit=True`` and ended that way (that seat's side gets -1, the
    others +1): the seat, its name (``agent``), the ``decision`` number (the game's seed and
    this number find the position again), the ``reason`` (one of
    :data:`~agents.arena.games.FORFEIT_REASONS`) and a ``detail``; an illegal action adds the
    ``action`` and its ``action_name``.
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
    (one of :data:`~agents.arena.games.FORFEIT_REASONS`), described by ``detail``: -1 to the
    seats of its side and, with ``owners`` (who holds each seat), to every other seat its
    owner holds; +1 to the others. ``seat_decisions`` and ``act_cpu_seconds`` (default 0
    each) are per seat."""
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
