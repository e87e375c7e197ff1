"""Who plays a tournament and where: its entrants, their seats in every rotation, each game's
and each agent's seed, and the plan of its games (:func:`plan_tournament`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np

import heist_envs
from heist_envs.core.game import Game, normalize_seed

from .. import isolation
from ..registry import error_text, is_outside, make_agent, parse_spec
from .games import forfeit_result, game_record


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


def seat_entrants(sides, seating) -> list[int]:
    """The entrant index of each seat, for a seating (entrant index per side)."""
    owner = {k: seating[i] for i, seats in enumerate(sides) for k in seats}
    return [owner[k] for k in range(len(owner))]


def agent_seed(game_seed, seat) -> int:
    return int(np.random.SeedSequence([game_seed, seat]).generate_state(1)[0])


# Plans ----------------------------------------------------------------------------------------


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
        """What a table of its games is built from: the game, players, options, entrants."""
        return (self.game.name, self.num_players, self.options, self.entrants)

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
