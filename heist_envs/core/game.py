"""The one interface every game kernel offers, and what the adapters build on.

A game is a numpy record dtype plus a handful of numba-jitted functions over one record
(``s``): ``init``, ``legal_mask``, ``apply``, ``observe``, ``returns``, ``determinize``. Every
record starts with the same header fields, so generic code reads whose turn it is and
whether the game is over without calling into the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from numba.core import config

from heist_envs.core.errors import InvalidStateError

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
