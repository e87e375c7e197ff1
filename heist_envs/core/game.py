"""The one interface every game kernel offers, and what the adapters build on.

A game is a numpy record dtype plus a handful of numba-jitted functions over one record
(``s``): ``init``, ``legal_mask``, ``apply``, ``observe``, ``returns``, ``determinize``. Every
record starts with the same header fields, so generic code reads whose turn it is and
whether the game is over without calling into the game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import NamedTuple

import numpy as np
from numba.core import config

from heist_envs.core.errors import InvalidStateError
from heist_envs.core.layout import Legend
from heist_envs.core.study import NO_STUDY, GameStudy

#: Header fields shared by every game's ``STATE_DTYPE`` (see :func:`state_dtype`).
HEADER_FIELDS = [
    ("rng", np.uint64),  # the RNG state (heist_envs.core.rng)
    ("num_players", np.int8),
    ("actor", np.int8),  # the seat whose decision it is; -1 once the game is over
    ("status", np.int8),  # RUNNING, TERMINATED or TRUNCATED
]

RUNNING = 0
TERMINATED = 1
TRUNCATED = 2


def state_dtype(fields) -> np.dtype:
    """A game's record dtype: the shared header followed by the game's own fields."""
    return np.dtype(HEADER_FIELDS + list(fields))  # packed: tobytes() is canonical


@dataclass(frozen=True)
class Option:
    """A ``reset`` option a game accepts: its default value and what it does."""

    default: object
    doc: str


class ComponentTable(NamedTuple):
    """One table of a game's components for its docs page: a caption, the column names and
    the rows (a value a column)."""

    caption: str
    header: Sequence[str]
    rows: Sequence[Sequence]


def text_table_view(render, s, seat=None) -> dict:
    """The web table of a game without a view of its own: its text render from ``seat``'s
    view, which shows that seat only what it may see."""
    return {"text": render(s, seat)}


@dataclass(frozen=True)
class Game:
    """Everything the adapters, agents and tools need to know about one game.

    Kernel functions (numba-jitted, each over one record ``s``):

    - ``init(s, seed)``: deal a new game from the configuration already in ``s``
      (``num_players`` and the game's own config fields), drawing from ``seed``.
    - ``legal_mask(s, out)``: write 1 for every legal action of ``s.actor`` into int8 ``out``.
    - ``apply(s, action)``: play one legal decision and every automatic step after it.
    - ``observe(s, seat, out)``: write what ``seat`` may know into ``out`` (``obs_size``).
    - ``returns(s, out)``: per-seat returns (float32, ``num_seats`` of them) of a finished
      game; seats are agents, ``s.actor`` is a seat.
    - ``determinize(s, seat, seed)``: re-deal in place what ``seat`` cannot see, reseed the RNG.

    Python functions:

    - ``setup(s, seed, options)``: validate option values, write the config into ``s``
      (``num_players`` is already set), call ``init``, then apply the options that fix chance.
    - ``action_name(action, s=None)``: a readable name, more specific when a state is given.
    - ``render(s, seat=None)``: the table as text from ``seat``'s view (None: spectator).
    - ``scores(s)``: a dict of per-seat results (scores, tie-breakers) for ``infos``.
    - ``score_breakdown(s)``: who won a finished game and why, for people: the scoring parts,
      the winners and a sentence (:mod:`heist_envs.core.breakdown`).
    - ``teams(num_players)``: each seat's team; seats of a team share one outcome (default:
      every seat on its own).
    - ``validate(s)``: raise :class:`InvalidStateError` unless every field of ``s`` lies in
      its range and the fields agree with each other as in a game of the rules (the header
      fields are already checked); see :meth:`check_state`.

    What describes the game to the floors above, each with a default for a game without it:

    - ``side_names``: the names of the sides, in team order, where the sides play different
      roles (How to Rob a Bank: the bank against the robbers); empty where every seat plays
      the same role, each on its own side or its team's (:meth:`side_seats`).
    - ``action_kinds``: kind name -> its action ids, every id in exactly one kind, for studies
      and for restricting agents (default: one kind per distinct ``action_name``).
    - ``study``: what the studies read from the states (:class:`GameStudy`; default
      :data:`~heist_envs.core.study.NO_STUDY`).
    - ``component_tables()``: the components as :class:`ComponentTable` rows for the docs
      (default: none).
    - ``table_view(s, seat=None)``: the table as JSON-ready data for the web, holding only
      what ``seat`` may see (None: the spectator, who sees everything); default: the text
      render from that view (:func:`text_table_view`).
    - ``obs_legend``: how each part of ``layout`` reads (:class:`~heist_envs.core.layout.Legend`),
      for the text view; default None: the parts are written as their values.

    :meth:`from_package` builds a game from the standard modules of its folder.
    """

    name: str
    title: str
    version: int
    min_players: int
    max_players: int
    default_players: int
    num_actions: int
    obs_size: int
    obs_dtype: type
    state_dtype: np.dtype
    layout: Mapping[str, slice]
    options: Mapping[str, Option]
    init: Callable
    legal_mask: Callable
    apply: Callable
    observe: Callable
    returns: Callable
    determinize: Callable
    setup: Callable
    action_name: Callable
    render: Callable
    scores: Callable
    validate: Callable
    score_breakdown: Callable
    agent_names: Callable[[int], list[str]] = field(
        default=lambda n: [f"player_{i}" for i in range(n)]
    )
    teams: Callable[[int], list[int]] = field(default=lambda n: list(range(n)))
    #: the largest observation value of a kernel that writes floats (integer kernels are
    #: bounded by their obs dtype); see :attr:`obs_bounds`
    obs_limit: float | None = None
    information: str = "imperfect"
    chance: bool = True
    description: str = ""
    side_names: tuple[str, ...] = ()
    action_kinds: Mapping[str, Sequence[int]] | None = None
    study: GameStudy = NO_STUDY
    component_tables: Callable[[], list[ComponentTable]] = field(default=lambda: [])
    table_view: Callable | None = None
    obs_legend: Legend | None = None

    def __post_init__(self):
        """Fill in the default action kinds and table view, and check the sides and kinds."""
        if self.action_kinds is None:
            kinds: dict[str, list[int]] = {}
            for a in range(self.num_actions):
                kinds.setdefault(self.action_name(a), []).append(a)
            object.__setattr__(self, "action_kinds", kinds)
        self.check_action_kinds()
        if self.table_view is None:
            object.__setattr__(self, "table_view", partial(text_table_view, self.render))
        for n in range(self.min_players, self.max_players + 1):
            teams = sorted(set(self.teams(n)))
            if self.side_names and teams != list(range(len(self.side_names))):
                raise ValueError(
                    f"{self.name}: side_names {list(self.side_names)} name the teams "
                    f"0 to {len(self.side_names) - 1}, but {n} players make teams {teams}"
                )

    def check_action_kinds(self) -> None:
        """A ValueError unless the action kinds hold every action id exactly once."""
        ids = sorted(int(a) for kind in self.action_kinds.values() for a in kind)
        if ids != list(range(self.num_actions)):
            raise ValueError(
                f"{self.name}: action_kinds must hold every action id 0 to "
                f"{self.num_actions - 1} exactly once; they hold {ids}"
            )

    @classmethod
    def from_package(cls, package: str, **metadata) -> Game:
        """The game that the folder ``package`` (``heist_envs.art_robbery``) describes, read
        from the names its modules define; the package's ``__init__`` calls it last, with
        ``__name__``.

        - the package itself: ``setup``, ``scores``, ``score_breakdown``; optionally
          ``OPTIONS``, ``agent_names`` and ``teams``; its docstring is the description;
        - ``rules``: ``init``, ``legal_mask``, ``apply``, ``returns``, ``determinize``;
        - ``state``: ``STATE_DTYPE``; ``observation``: ``observe``, ``LAYOUT``, ``OBS_SIZE``,
          ``OBS_DTYPE``, optionally ``LEGEND``; ``actions``: ``NUM_ACTIONS``,
          ``action_name``, optionally ``ACTION_KINDS``; ``render``: ``render``;
          ``validity``: ``validate``;
        - optionally ``components``: ``NUM_PLAYERS_MIN``, ``NUM_PLAYERS_MAX`` (the player
          counts) and ``component_tables``; ``study.STUDY``; ``table_view.table_view``.

        ``metadata`` gives what only the game's author can say: ``title``,
        ``default_players``, and where they apply ``side_names``, ``obs_limit``, ``version``
        (default 0), ...; it overrides what the modules say. The name is the package's last
        part.
        """
        parts = GamePackage(package)
        fields = {
            "name": package.rpartition(".")[2],
            "version": 0,
            "description": parts.package.__doc__ or "",
            "options": parts.optional("", "OPTIONS", {}),
            "setup": parts.required("", "setup"),
            "scores": parts.required("", "scores"),
            "score_breakdown": parts.required("", "score_breakdown"),
            "state_dtype": parts.required("state", "STATE_DTYPE"),
            "observe": parts.required("observation", "observe"),
            "layout": parts.required("observation", "LAYOUT"),
            "obs_size": parts.required("observation", "OBS_SIZE"),
            "obs_dtype": parts.required("observation", "OBS_DTYPE"),
            "num_actions": parts.required("actions", "NUM_ACTIONS"),
            "action_name": parts.required("actions", "action_name"),
            "render": parts.required("render", "render"),
            "validate": parts.required("validity", "validate"),
        }
        for name in ("init", "legal_mask", "apply", "returns", "determinize"):
            fields[name] = parts.required("rules", name)
        optional = {
            "min_players": parts.optional("components", "NUM_PLAYERS_MIN"),
            "max_players": parts.optional("components", "NUM_PLAYERS_MAX"),
            "agent_names": parts.optional("", "agent_names"),
            "teams": parts.optional("", "teams"),
            "action_kinds": parts.optional("actions", "ACTION_KINDS"),
            "component_tables": parts.optional("components", "component_tables"),
            "study": parts.optional("study", "STUDY"),
            "table_view": parts.optional("table_view", "table_view"),
            "obs_legend": parts.optional("observation", "LEGEND"),
        }
        fields.update({key: value for key, value in optional.items() if value is not None})
        fields.update(metadata)
        return cls(**fields)

    def kernel_view(self, state):
        """The view of a 1-element state array that the compiled entry points take.

        A plain array of this game's own dtype object: numba types an argument fastest when it
        has seen that very dtype object before (a record-array view makes a new one each time,
        and costs about a microsecond a call). Un-jitted code needs the record-array view
        itself, for attribute access.
        """
        return state if config.DISABLE_JIT else state.view(self.state_dtype, np.ndarray)

    @cached_property
    def entry(self):
        """Fused, fast-to-call kernel entry points (:mod:`heist_envs.core.compiled`)."""
        from heist_envs.core.compiled import build_entry_points

        return build_entry_points(self)

    def side_seats(self, num_players: int) -> list[list[int]]:
        """The seats of each side, in team order: one seat per side, or a team's seats
        (``teams``)."""
        teams = self.teams(num_players)
        return [[k for k, t in enumerate(teams) if t == team] for team in sorted(set(teams))]

    def num_seats(self, num_players: int) -> int:
        """How many agents (seats) a game of ``num_players`` has; a player may hold more
        than one seat (How to Rob a Bank: one player robs with two robbers)."""
        return len(self.agent_names(num_players))

    @property
    def obs_bounds(self) -> tuple[float, float]:
        """Finite bounds of every observation value: the integer obs dtype's range, or
        ``(-obs_limit, obs_limit)`` for a kernel that writes floats."""
        if np.issubdtype(self.obs_dtype, np.integer):
            info = np.iinfo(self.obs_dtype)
            return float(info.min), float(info.max)
        return -float(self.obs_limit), float(self.obs_limit)

    @property
    def env_name(self) -> str:
        return f"{self.name}_v{self.version}"

    def check_players(self, num_players: int | None) -> int:
        """The player count to use, or a ValueError saying which counts are allowed."""
        if num_players is None:
            return self.default_players
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise ValueError(f"{self.name}: num_players must be an integer, got {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(
                f"{self.name}: num_players={num_players} is out of range; "
                f"allowed: {self.min_players} to {self.max_players}"
            )
        return int(num_players)

    def options_dict(self, options: Mapping | None) -> dict:
        """``options`` as a new dict (None: empty), or a ValueError unless it is a mapping."""
        if options is not None and not isinstance(options, Mapping):
            raise ValueError(f"{self.name}: options must be a dict, got {options!r:.80}")
        return dict(options or {})

    def check_options(self, options: Mapping | None) -> dict:
        """The options with defaults filled in, or a ValueError naming the unknown ones.

        Values become plain Python data (numpy integers and arrays included), so that game
        records serialise; an option whose default is a bool takes only a bool. The game's
        ``setup`` checks the values themselves.
        """
        options = self.options_dict(options)
        unknown = sorted(set(options) - set(self.options), key=repr)
        if unknown:
            allowed = ", ".join(sorted(self.options)) or "none"
            raise ValueError(f"{self.name}: unknown option(s) {unknown}; allowed: {allowed}")
        result = {}
        for name, opt in self.options.items():
            try:
                value = plain(options.get(name, opt.default))
            except RecursionError:
                raise ValueError(f"{self.name}: option {name} is nested too deeply") from None
            if isinstance(opt.default, bool) and not isinstance(value, bool):
                raise ValueError(f"{self.name}: option {name} must be True or False, got {value!r}")
            result[name] = value
        return result

    def check_state(self, s) -> None:
        """Raise :class:`InvalidStateError` (a ValueError) naming the first bad field unless
        the record ``s`` is one the rules can reach: every field in range, the fields
        consistent, and a running game with a legal action. Only ``legal_mask`` runs, and only
        once everything else has passed, so no kernel function sees a bad record."""
        try:
            n = int(s.num_players)
            if not self.min_players <= n <= self.max_players:
                raise InvalidStateError(
                    f"field num_players = {n}; allowed: {self.min_players} to {self.max_players}"
                )
            if int(s.status) not in (RUNNING, TERMINATED, TRUNCATED):
                raise InvalidStateError(f"field status = {int(s.status)}; allowed: 0, 1, 2")
            if int(s.rng) == 0:
                raise InvalidStateError("field rng = 0; allowed: any nonzero 64-bit value")
            seats = self.num_seats(n)
            if s.status == RUNNING and not 0 <= s.actor < seats:
                raise InvalidStateError(
                    f"field actor = {int(s.actor)}; allowed in a running game: 0 to {seats - 1}"
                )
            if s.status != RUNNING and s.actor != -1:
                raise InvalidStateError(f"field actor = {int(s.actor)}; allowed once over: -1")
            self.validate(s)
            if s.status == RUNNING:
                mask = np.zeros(self.num_actions, np.int8)
                self.legal_mask(s, mask)
                if not mask.any():
                    raise InvalidStateError("the game is running but the actor has no legal action")
        except InvalidStateError as e:
            raise InvalidStateError(f"{self.name}: invalid state: {e}") from None

    def new_state(self, num_players=None, seed=None, options=None) -> np.recarray:
        """A new game as a 1-element record array (``state[0]`` is the record)."""
        num_players = self.check_players(num_players)
        options = self.check_options(options)
        state = np.zeros(1, self.state_dtype).view(np.recarray)
        state[0].num_players = num_players
        self.setup(state[0], np.uint64(normalize_seed(seed)), options)
        return state

    def new_states(self, n: int) -> np.recarray:
        """An empty batch of ``n`` records, for the batched engine."""
        return np.zeros(n, self.state_dtype).view(np.recarray)


class GamePackage:
    """The modules of a game's folder, for :meth:`Game.from_package`: each name it must
    define, or a clear error naming the module and the name."""

    def __init__(self, package: str):
        self.name = package
        self.package = importlib.import_module(package)  # being initialised: its names so far

    def module(self, part: str):
        """The package's module ``part`` ("": the package itself), or None if it has none
        (an import error inside the module is raised)."""
        if not part:
            return self.package
        name = f"{self.name}.{part}"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            return None

    def optional(self, part: str, name: str, default=None):
        return getattr(self.module(part), name, default)

    def required(self, part: str, name: str):
        value = self.optional(part, name)
        if value is None:
            where = f"{self.name}.{part}" if part else self.name
            raise ValueError(f"game package {self.name}: {where} must define {name}")
        return value


def plain(value):
    """``value`` as plain Python data: numpy scalars and arrays become ints, floats, bools
    and lists, inside lists, tuples and dicts too."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


class SeedStream:
    """Gymnasium's seeding contract for a sequence of games.

    ``next(seed)`` is the seed of the next game: ``seed`` itself when one is given (which also
    restarts the stream from it), else the next draw of a generator seeded by the last given
    seed, else (no seed ever given) a fresh one from the OS.
    """

    def __init__(self):
        self.rng = None

    def next(self, seed=None) -> int:
        if seed is not None:
            seed = normalize_seed(seed)
            self.rng = np.random.default_rng(seed)
            return seed
        if self.rng is not None:
            return int(self.rng.integers(1 << 64, dtype=np.uint64))
        return normalize_seed(None)


#: Seeds are 64-bit: a game's RNG state is one 64-bit word (:mod:`heist_envs.core.rng`).
SEED_LIMIT = 1 << 64


def normalize_seed(seed) -> int:
    """A 64-bit seed from an int in [0, 2**64), or a fresh random one for None. Larger and
    negative seeds are refused rather than reduced, so that different seeds never play the
    same game."""
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer or None, got {seed!r:.80}")
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be in [0, 2**64), got {seed!r:.80}")
    return int(seed)
