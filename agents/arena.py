"""Games between agents."""

from __future__ import annotations

from dataclasses import dataclass, field

import heist_envs
from agents.base import InfoSet


@dataclass
class GameResult:
    """One finished game: per-seat rewards and results, and whether it was truncated."""

    rewards: list[float]
    results: list[dict] = field(default_factory=list)
    truncated: bool = False
    num_decisions: int = 0


def play(game_name, agents, num_players=None, seed=None, options=None, on_step=None):
    """Play one game; ``agents[k]`` plays seat k.

    ``on_step(env, agent_name, action)`` is called before each action is applied, and once
    more with ``None, None`` when the game is over (the demo prints from it).
    """
    env = heist_envs.make(game_name, num_players=num_players)
    if len(agents) != len(env.possible_agents):
        raise ValueError(
            f"{game_name} with {env.num_players} players has {len(env.possible_agents)} seats "
            f"({', '.join(env.possible_agents)}), got {len(agents)} agents"
        )
    env.reset(seed=seed, options=options)
    seat_of = {name: k for k, name in enumerate(env.possible_agents)}
    rewards = [0.0] * len(agents)
    results = [{} for _ in agents]
    truncated = False
    decisions = 0
    for name in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        seat = seat_of[name]
        if termination or truncation:
            rewards[seat] = reward
            results[seat] = info
            truncated = truncated or truncation
            env.step(None)
            continue
        agent = agents[seat]
        if getattr(agent, "wants_info_set", False):
            info_set = InfoSet(env.game, env._state, seat)
            action = agent.act(observation["observation"], observation["action_mask"], info_set)
        else:
            action = agent.act(observation["observation"], observation["action_mask"])
        if on_step:
            on_step(env, name, action)
        env.step(action)
        decisions += 1
    if on_step:
        on_step(env, None, None)
    return GameResult(rewards, results, truncated, decisions)


def rotations(num_seats):
    """Every cyclic seat rotation: rotation r seats agent k at seat (k + r) mod n."""
    return [[(k + r) % num_seats for k in range(num_seats)] for r in range(num_seats)]


def seat_agents(agents, rotation):
    """The agent list in seat order for a rotation from :func:`rotations`."""
    seated = [None] * len(agents)
    for k, seat in enumerate(rotation):
        seated[seat] = agents[k]
    return seated


__all__ = ["GameResult", "play", "rotations", "seat_agents"]
