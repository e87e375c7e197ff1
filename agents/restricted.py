"""Restricted play: an agent that may not use some actions (Jaffe et al., AIIDE 2012).

Forbid action ids, action kinds (each game's ``Game.action_kinds``, e.g. ``"play the Greedy
Thief"``) or, through a rule that reads the observation, actions that depend on the position
(``rule(observation) -> ids``, e.g. "never reveal a 4th card"). The wrapped agent chooses
among what is left; when a restriction would forbid every legal action, the decision is played
unrestricted (a player cannot pass where the rules give no pass) and counted in
``unrestricted_decisions``.

    agent = RestrictedAgent(make_agent("heuristic", game_name), game_name,
                            forbid=["play the Greedy Thief"])  # a kind of Art Robbery's
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

import heist_envs


def action_kinds(game_name: str) -> Mapping[str, Sequence[int]]:
    """The game's action kinds: kind name -> its action ids (every id in exactly one kind)."""
    return heist_envs.get_game(game_name).action_kinds


def kind_of_action(game_name: str) -> list[str]:
    """The kind name of every action id, indexed by id."""
    kinds = [""] * heist_envs.get_game(game_name).num_actions
    for kind, ids in action_kinds(game_name).items():
        for a in ids:
            kinds[a] = kind
    return kinds


def forbidden_ids(game_name: str, forbid: Iterable) -> np.ndarray:
    """The action ids named by ``forbid`` (ids and kind names), as a sorted array.

    Raises a ValueError for an id outside the game's range, an unknown kind, nothing to
    forbid, or every action forbidden.
    """
    game = heist_envs.get_game(game_name)
    kinds = action_kinds(game.name)
    if isinstance(forbid, (str, int, np.integer)):
        forbid = [forbid]
    ids = set()
    for item in forbid:
        if isinstance(item, str):
            if item not in kinds:
                raise ValueError(
                    f"{game.name}: unknown action kind {item!r}; kinds: {', '.join(kinds)}"
                )
            ids.update(kinds[item])
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if not 0 <= item < game.num_actions:
                raise ValueError(
                    f"{game.name}: action id {item} is out of range; "
                    f"allowed: 0 to {game.num_actions - 1}"
                )
            ids.add(int(item))
        else:
            raise ValueError(
                f"{game.name}: forbid takes action ids and action kind names, got {item!r}"
            )
    if not ids:
        raise ValueError(f"{game.name}: nothing to forbid: give action ids or kind names")
    if len(ids) == game.num_actions:
        raise ValueError(f"{game.name}: every action is forbidden; nothing is left to play")
    return np.array(sorted(ids), np.int64)


class RestrictedAgent:
    """``agent`` with the ``forbid`` actions (ids, kind names) and the actions ``rule`` names
    for each observation taken out of its action mask."""

    def __init__(self, agent, game_name: str, forbid: Iterable = (), rule: Callable | None = None):
        self.agent = agent
        self.forbidden = forbidden_ids(game_name, forbid) if forbid or rule is None else None
        self.rule = rule
        self.wants_info_set = getattr(agent, "wants_info_set", False)
        self.decisions = 0
        self.unrestricted_decisions = 0

    def allowed(self, observation, action_mask) -> np.ndarray:
        """The mask left after the restriction (the full mask if nothing legal is left)."""
        mask = np.array(action_mask, copy=True)
        if self.forbidden is not None:
            mask[self.forbidden] = 0
        if self.rule is not None:
            mask[list(self.rule(observation))] = 0
        self.decisions += 1
        if not mask.any():
            self.unrestricted_decisions += 1
            return np.asarray(action_mask)
        return mask

    def act(self, observation, action_mask, info_set=None) -> int:
        mask = self.allowed(observation, action_mask)
        if self.wants_info_set:
            return self.agent.act(observation, mask, info_set)
        return self.agent.act(observation, mask)


def make_restricted(game_name, seed=None, agent="random", forbid=(), rule=None):
    """A :class:`RestrictedAgent` around the registry agent ``agent`` (a name or
    ``name:key=value`` spec, see :func:`agents.arena.parse_entrant`); a module-level factory,
    so arena workers can build it."""
    from .arena import parse_entrant

    return RestrictedAgent(
        parse_entrant(agent).build(game_name, seed=seed), game_name, forbid, rule
    )
