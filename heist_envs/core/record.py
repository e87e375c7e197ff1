"""Saving and replaying games: state dicts (a position, RNG included) and game records
(configuration + seed + actions, which replay a whole game exactly)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

import numpy as np

from heist_envs.core.errors import GameRecordError
from heist_envs.core.game import Game

RECORD_FORMAT = "heist-envs/game-record"
STATE_FORMAT = "heist-envs/state"
FORMAT_VERSION = 1


def state_dict(game: Game, state) -> dict:
    """A JSON-compatible dict of every field of a 1-element state array."""
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
    }


def load_state_dict(game: Game, data, num_players: int | None = None):
    """The 1-element state array saved by :func:`state_dict`, after checking it fits."""
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise GameRecordError(f"not a saved state: expected a dict with format {STATE_FORMAT!r}")
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
            cast = value.astype(ftype.base)
            if value.shape != ftype.shape or not np.array_equal(cast, value):
                raise ValueError
        except (ValueError, TypeError, OverflowError):
            raise GameRecordError(
                f"saved state field {name!r} must be {ftype.base} of shape {ftype.shape}"
            ) from None
        state[0][name] = cast
    n = int(state[0].num_players)
    if not game.min_players <= n <= game.max_players or (num_players and n != num_players):
        want = num_players or f"{game.min_players}-{game.max_players}"
        raise GameRecordError(f"saved state has {n} players; expected {want}")
    return state


@dataclass
class GameRecord:
    """A whole game as configuration, seed and actions."""

    game: str
    num_players: int
    seed: int
    options: dict = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)

    def to_json(self) -> str:
        data = {"format": RECORD_FORMAT, "version": FORMAT_VERSION, **asdict(self)}
        data["options"] = {k: _jsonable(v) for k, v in self.options.items()}
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise GameRecordError(f"game record is not valid JSON: {e}") from None
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise GameRecordError(f"not a game record: expected format {RECORD_FORMAT!r}")
        missing = [
            k for k in ("game", "num_players", "seed", "options", "actions") if k not in data
        ]
        if missing:
            raise GameRecordError(f"game record lacks {missing}")
        if not isinstance(data["actions"], list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in data["actions"]
        ):
            raise GameRecordError("game record 'actions' must be a list of integers")
        if not isinstance(data["options"], dict):
            raise GameRecordError("game record 'options' must be a dict")
        return cls(
            data["game"], data["num_players"], data["seed"], data["options"], data["actions"]
        )

    def replay(self, **env_kwargs):
        """A fresh environment that has played this record's actions, each checked legal."""
        from heist_envs.registry import make

        try:
            env = make(self.game, num_players=self.num_players, **env_kwargs)
            env.reset(seed=self.seed, options=self.options)
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


def _jsonable(value):
    return value.tolist() if isinstance(value, np.ndarray) else value
