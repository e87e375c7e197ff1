"""Saving and replaying games: state dicts (a position, RNG included) and game records
(configuration + seed + actions, which replay a whole game exactly)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

import numpy as np

from heist_envs.core.errors import GameRecordError
from heist_envs.core.game import Game, normalize_seed, plain

RECORD_FORMAT = "heist-envs/game-record"
STATE_FORMAT = "heist-envs/state"
FORMAT_VERSION = 1
#: The longest game record text accepted (characters); real records are far shorter.
MAX_RECORD_CHARS = 1 << 25
MAX_PLAYER_LABELS, MAX_PLAYER_LABEL = 16, 100  # a record's optional seat labels


#: the keys of a saved state: required ones, then those that may be left out
STATE_KEYS = ("format", "version", "game", "fields")
STATE_OPTIONAL_KEYS = ("agent_selection", "illegal_agent")
#: the keys of a game record: required ones, then those that may be left out (a record
#: without ``illegal_action`` was played in the default mode, "raise")
RECORD_KEYS = ("format", "version", "game", "num_players", "seed", "options", "actions")
RECORD_OPTIONAL_KEYS = ("players", "illegal_action")


def state_dict(game: Game, state, agent_selection=None, illegal_agent=None) -> dict:
    """A JSON-compatible dict of every field of a 1-element state array, with the adapter's
    bookkeeping that the kernel record does not hold: the selected agent (which a finished
    game's ``last()`` reports on) and the agent whose illegal action ended the game."""
    s = state[0]
    fields = {}
    for name in game.state_dtype.names:
        value = s[name]
        fields[name] = value.tolist() if isinstance(value, np.ndarray) else int(value)
    return {
        "format": STATE_FORMAT,
        "version": FORMAT_VERSION,
        "game": game.env_name,
        "fields": fields,
        "agent_selection": agent_selection,
        "illegal_agent": illegal_agent,
    }


def check_keys(what, data, required, optional=()):
    """A GameRecordError unless ``data`` holds every ``required`` key and no other than
    ``optional`` ones."""
    missing = [k for k in required if k not in data]
    if missing:
        raise GameRecordError(f"{what} lacks {missing}")
    unexpected = sorted(set(data) - set(required) - set(optional), key=repr)
    if unexpected:
        allowed = ", ".join((*required, *optional))
        raise GameRecordError(f"{what} has unexpected key(s) {unexpected}; allowed: {allowed}")


def load_state_dict(game: Game, data, num_players: int | None = None):
    """The 1-element state array saved by :func:`state_dict`, after checking it fits and is a
    state of the game (:meth:`Game.check_state`); no kernel function sees it before. The
    adapter checks the bookkeeping keys (``agent_selection``, ``illegal_agent``)."""
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise GameRecordError(f"not a saved state: expected a dict with format {STATE_FORMAT!r}")
    check_version("saved state", data)
    check_keys("saved state", data, STATE_KEYS, STATE_OPTIONAL_KEYS)
    if data.get("game") != game.env_name:
        raise GameRecordError(f"saved state is for {data.get('game')!r}, not {game.env_name!r}")
    fields = data.get("fields")
    expected = set(game.state_dtype.names)
    if not isinstance(fields, dict) or set(fields) != expected:
        got = set(fields) if isinstance(fields, dict) else set()
        raise GameRecordError(
            f"saved state fields do not match {game.env_name}: missing "
            f"{sorted(expected - got)}, unexpected {sorted(got - expected)}"
        )
    state = np.zeros(1, game.state_dtype).view(np.recarray)
    for name in game.state_dtype.names:
        ftype = game.state_dtype.fields[name][0]
        try:
            value = np.asarray(fields[name])
            if value.shape != ftype.shape or not np.issubdtype(value.dtype, np.integer):
                raise ValueError
            cast = value.astype(ftype.base)
            if not np.array_equal(cast, value):
                raise ValueError
        except (ValueError, TypeError, OverflowError, RecursionError, MemoryError):
            raise GameRecordError(
                f"saved state field {name!r} must be {ftype.base} of shape {ftype.shape}"
            ) from None
        state[0][name] = cast
    n = int(state[0].num_players)
    if not game.min_players <= n <= game.max_players or (num_players and n != num_players):
        want = num_players or f"{game.min_players}-{game.max_players}"
        raise GameRecordError(f"saved state has {n} players; expected {want}")
    game.check_state(state[0])
    return state


def check_version(what, data):
    """A GameRecordError unless ``data`` is of this library's format version."""
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise GameRecordError(
            f"{what} has format version {version!r}; this version of heist-envs reads "
            f"version {FORMAT_VERSION}"
        )


@dataclass
class GameRecord:
    """A whole game as configuration, seed and actions."""

    game: str
    num_players: int
    seed: int
    options: dict = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)
    #: who played each seat (agent names), for people: a replay labels the seats with them
    players: list[str] | None = None
    #: the env's ``illegal_action`` mode: with "terminate" the last action may be the illegal
    #: one that ended the game
    illegal_action: str = "raise"

    def __post_init__(self):
        """Check the field types, so that a bad record fails here with a clear message."""
        if not isinstance(self.game, str):
            raise GameRecordError(f"game record 'game' must be a game name, got {self.game!r:.80}")
        for name in ("num_players", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise GameRecordError(f"game record {name!r} must be an integer, got {value!r:.80}")
        if not isinstance(self.options, dict) or not all(isinstance(k, str) for k in self.options):
            raise GameRecordError("game record 'options' must be a dict with string keys")
        if not isinstance(self.actions, list) or not all(
            isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in self.actions
        ):
            raise GameRecordError("game record 'actions' must be a list of integers")
        if self.players is not None and not (
            isinstance(self.players, list)
            and len(self.players) <= MAX_PLAYER_LABELS
            and all(isinstance(p, str) and len(p) <= MAX_PLAYER_LABEL for p in self.players)
        ):
            raise GameRecordError(
                f"game record 'players' must be a list of at most {MAX_PLAYER_LABELS} names "
                f"of at most {MAX_PLAYER_LABEL} characters"
            )
        if not isinstance(self.illegal_action, str):
            raise GameRecordError(
                f"game record 'illegal_action' must be a mode name, got {self.illegal_action!r:.80}"
            )
        try:
            normalize_seed(self.seed)
        except ValueError as e:
            raise GameRecordError(f"game record {e}") from None

    def to_json(self) -> str:
        data = {"format": RECORD_FORMAT, "version": FORMAT_VERSION, **asdict(self)}
        if self.players is None:
            del data["players"]
        return json.dumps(plain(data))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        if not isinstance(text, (str, bytes)) or len(text) > MAX_RECORD_CHARS:
            raise GameRecordError(
                f"a game record must be JSON text of at most {MAX_RECORD_CHARS} characters"
            )
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise GameRecordError(f"game record is not valid JSON: {e}") from None
        except RecursionError:
            raise GameRecordError("game record is nested too deeply to be a game record") from None
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise GameRecordError(f"not a game record: expected format {RECORD_FORMAT!r}")
        check_version("game record", data)
        check_keys("game record", data, RECORD_KEYS, RECORD_OPTIONAL_KEYS)
        return cls(**{k: v for k, v in data.items() if k not in ("format", "version")})

    def replay(self, **env_kwargs):
        """A fresh environment that has played this record's actions, each checked legal (in
        the "terminate" mode the last may be the illegal one that ended the game)."""
        from heist_envs.registry import make

        env_kwargs = {"illegal_action": self.illegal_action, **env_kwargs}
        try:
            # options go to the constructor, which refuses unknown ones (reset only warns)
            env = make(self.game, num_players=self.num_players, **env_kwargs, **self.options)
            env.reset(seed=self.seed)
        except ValueError as e:
            raise GameRecordError(f"game record does not set up a game: {e}") from None
        for i, action in enumerate(self.actions):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                raise GameRecordError(f"game record has actions after the game ended (at {i})")
            try:
                env.step(action)
            except ValueError as e:
                raise GameRecordError(f"game record action {i} does not replay: {e}") from None
        return env
