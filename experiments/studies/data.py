"""Games as tables: play N games and get tidy pandas DataFrames, savable as Parquet.

``play_games`` returns a :class:`GameData` with

- ``decisions``: one row per decision: ``game``, ``decision`` (its index in the game),
  ``seat``, ``agent``, ``phase``, ``legal_actions`` (how many were legal), ``action``,
  ``action_name``, ``action_kind`` (the game's ``action_kinds``), the game's own columns
  (its ``study``, :class:`~heist_envs.core.study.GameStudy`: e.g. ``raid`` in Art Robbery,
  ``revealed`` in Les Toits de Paris) and, where the game has a running score, ``score_k``
  for every seat k (the score seat k would have if the game ended at that decision);
- ``games``: one row per game: ``game``, ``seed`` (replays it with the decisions' actions),
  ``options`` (JSON), ``players``, ``agent_k``, ``decisions``, ``rounds``, ``terminated``,
  ``truncated``, ``reward_k``, ``won_k``, ``winning_sides``, ``shared_win``, and every numeric
  per-seat result the game reports (``Game.scores``: ``score_k``, ``alibis_k``, ...).

Where they play (``route``): games between random agents only run in the batched engine
(compiled, many games at once, random legal moves from the engine's own stream); a table of
the heuristic (any weights, or restricted), ``ppo`` and ``random`` plays in the arena's
batched route (:mod:`agents.arena.batched`), the same games as one at a time; any other
agents play through the arena's game loop, one game at a time.

    data = play_games(game_name, ["heuristic"], games=200, num_players=4, seed=1)
    data.games.groupby("agent_0")["won_0"].mean()
    data.save(f"out/{game_name}")
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

import heist_envs
from agents.arena import (
    TournamentPlan,
    agent_seed,
    as_entrant,
    rotations,
    run_game,
    seat_agents,
)
from agents.arena.batched import ROUTES, play_batched, takes_batched_route
from agents.restricted import kind_of_action
from experiments.common import Interrupted
from experiments.studies.games import score_states
from heist_envs.core.game import normalize_seed
from heist_envs.core.playout import random_legal_actions
from heist_envs.core.vector import VectorGames

#: Games stepped together by the batched engine.
BATCH = 1024
TABLES = ("decisions", "games")
METADATA_KEY = b"heist_envs"  # the Parquet schema metadata naming the game and player count


@dataclass
class GameData:
    """Played games as two tables (see the module docstring)."""

    game: str
    num_players: int
    decisions: pd.DataFrame
    games: pd.DataFrame

    @property
    def num_seats(self) -> int:
        return heist_envs.get_game(self.game).num_seats(self.num_players)

    def seats(self) -> pd.DataFrame:
        """One row per game and seat: ``game``, ``seat``, ``agent``, ``reward``, ``won`` and
        the game's per-seat results (``score``, ...)."""
        per_seat = sorted({c.rsplit("_", 1)[0] for c in self.games.columns if c.endswith("_0")})
        rows = []
        for k in range(self.num_seats):
            part = self.games[["game"]].copy()
            part["seat"] = k
            for name in per_seat:
                if f"{name}_{k}" in self.games:
                    part[name] = self.games[f"{name}_{k}"]
            rows.append(part)
        return pd.concat(rows, ignore_index=True).sort_values(["game", "seat"], ignore_index=True)

    def save(self, directory) -> list[Path]:
        """Write ``decisions.parquet`` and ``games.parquet`` into ``directory``; on failure
        nothing is left half-written."""
        out = Path(directory)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ValueError(f"cannot write game data to {str(out)!r}: {error}") from error
        written = []
        for name in TABLES:
            table = pa.Table.from_pandas(getattr(self, name), preserve_index=False)
            metadata = {**(table.schema.metadata or {}), METADATA_KEY: self._metadata()}
            table = table.replace_schema_metadata(metadata)
            path = out / f"{name}.parquet"
            write_whole(path, lambda temp, table=table: pq.write_table(table, temp))
            written.append(path)
        return written

    @classmethod
    def load(cls, directory) -> GameData:
        """The data :meth:`save` wrote into ``directory``."""
        out = Path(directory)
        missing = [n for n in TABLES if not (out / f"{n}.parquet").is_file()]
        if missing:
            raise ValueError(f"{str(out)!r} holds no saved game data (missing {missing})")
        games = pq.read_table(out / "games.parquet")
        about = json.loads(games.schema.metadata[METADATA_KEY])
        decisions = pd.read_parquet(out / "decisions.parquet")
        return cls(about["game"], about["players"], decisions, games.to_pandas())

    def _metadata(self) -> bytes:
        return json.dumps({"game": self.game, "players": self.num_players}).encode()


def write_whole(path, write):
    """Call ``write(temp)`` on a file beside ``path``, then move it to ``path``: a failure
    leaves nothing half-written. OSErrors become a ValueError naming the path."""
    path = Path(path)
    try:
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise ValueError(f"cannot write {str(path)!r}: {error}") from error
    os.close(fd)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)  # mkstemp makes it private; give it a normal file's mode
        write(temp)
        os.replace(temp, path)
    except OSError as error:
        raise ValueError(f"cannot write {str(path)!r}: {error}") from error
    finally:
        if os.path.exists(temp):
            os.remove(temp)


def play_games(
    game_name,
    agents=("random",),
    games=100,
    num_players=None,
    seed=None,
    options=None,
    rotate=True,
    progress=True,
    route="auto",
) -> GameData:
    """Play ``games`` games and return them as tables.

    ``agents``: one agent for every seat, or one per seat (registry names, ``name:key=value``
    specs, instances or factories: :func:`agents.arena.as_entrant`); with ``rotate`` game i
    seats them in rotation i mod seats, so each agent holds every seat equally often. Game i
    is dealt from seed ``seed + i``. ``route``: ``auto`` (the fastest route that plays the
    table), ``batched`` (the same, saying why a table cannot batch) or ``serial`` (one game
    at a time; see the module docstring); every route plays the same games, but for random
    agents alone, whom ``auto`` and ``batched`` play in the engine's own random stream.
    Ctrl-C raises :class:`~experiments.common.Interrupted`, its ``kept`` the games finished by
    then (None if none was).
    """
    game = heist_envs.get_game(game_name)
    num_players = game.check_players(num_players)
    options = game.check_options(options) if options else {}
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    if route not in ROUTES:
        raise ValueError(f"route must be one of {', '.join(ROUTES)}, got {route!r}")
    if isinstance(agents, str):
        agents = [agents]
    entrants = [as_entrant(a) for a in agents]
    seats = game.num_seats(num_players)
    if len(entrants) == 1:
        entrants = entrants * seats
    if len(entrants) != seats:
        raise ValueError(
            f"{game.name} with {num_players} players has {seats} seats: give one agent for "
            f"all of them or one per seat, got {len(entrants)}"
        )
    seed = normalize_seed(seed)
    random_only = all(e.agent == "random" and not e.kwargs for e in entrants)
    frames, finals = [], []  # each decision's columns, and each game's end, as they come
    try:
        with tqdm(total=games, desc=game.name, unit="game", disable=not progress) as bar:
            plan = _plan(game, num_players, entrants, games, seed, options, rotate)
            batched = takes_batched_route(plan, ROUTES[route])
            if random_only and not options and batched:
                _play_random(game, num_players, games, seed, bar, frames, finals)
            elif batched:
                _play_plan(plan, bar, frames, finals)
            else:
                _play_arena(game, num_players, plan, bar, frames, finals)
    except KeyboardInterrupt:
        kept = _finished(game, num_players, options, frames, finals)
        raise Interrupted(f"{len(finals)} of {games} games played", kept) from None
    finals.sort(key=lambda final: final.index)
    return _tables(game, num_players, options, _concat(frames), finals)


def _finished(game, num_players, options, frames, finals) -> GameData | None:
    """The tables of the games that finished (of an interrupted run), or None if none did."""
    if not finals:
        return None
    columns = _concat(frames)
    done = np.isin(columns["game"], [final.index for final in finals])
    finals = sorted(finals, key=lambda final: final.index)
    return _tables(game, num_players, options, {k: v[done] for k, v in columns.items()}, finals)


# Playing ----------------------------------------------------------------------------------------


@dataclass
class _Final:
    """What a finished game leaves for the games table."""

    index: int
    seed: int
    agents: list[str]
    record: np.record
    rewards: np.ndarray
    truncated: bool
    decisions: int


def _plan(game, num_players, entrants, games, seed, options, rotate) -> TournamentPlan:
    """The games as a tournament plan whose sides are the seats: game i (seed ``seed + i``)
    seats ``entrants`` in rotation i mod seats (if ``rotate``)."""
    seats = len(entrants)
    turns = rotations(seats)
    tasks = []
    for index in range(games):
        seating = seat_agents(list(range(seats)), turns[index % seats]) if rotate else range(seats)
        tasks.append((index, (seed + index) % (1 << 64), tuple(seating)))
    sides = [[k] for k in range(seats)]
    return TournamentPlan(game, num_players, options or None, seed, entrants, sides, tasks)


def _play_arena(game, num_players, plan, bar, frames, finals):
    """Each game through :func:`agents.arena.run_game`, reading every decision's state."""
    env = heist_envs.make(game.name, num_players=num_players)
    seat_of = {name: k for k, name in enumerate(env.possible_agents)}
    for index, game_seed, seating in plan.tasks:
        seated = [plan.entrants[e] for e in seating]
        agents = [
            e.build(game.name, agent_seed(game_seed, k), num_players) for k, e in enumerate(seated)
        ]
        recorder = _Recorder(seat_of)
        result = run_game(env, agents, game_seed, plan.options, recorder.on_step)
        columns = recorder.columns(game, index)
        frames.append(columns)
        labels = [e.label for e in seated]
        rewards = np.array(result.rewards, np.float64)
        final = env.state_record.copy()
        finals.append(
            _Final(index, game_seed, labels, final, rewards, result.truncated, recorder.count)
        )
        bar.update()


def _play_plan(plan, bar, frames, finals):
    """The games of ``plan`` in the arena's batched route, every decision logged."""
    game = plan.game

    def on_moves(games, decisions, seats, legal, actions, states):
        columns = _decision_columns(game, states, actions)
        columns.update(seat=seats, legal_actions=legal, game=games, decision=decisions)
        frames.append(columns)

    for record in play_batched(plan, on_moves):
        rewards = np.array(record["rewards"], np.float64)
        finals.append(
            _Final(
                record["game"],
                record["seed"],
                record["agents"],
                record["state"],
                rewards,
                record["truncated"],
                record["decisions"],
            )
        )
        bar.update()


class _Recorder:
    """Collects a game's decisions from :func:`agents.arena.run_game`'s ``on_step``."""

    def __init__(self, seat_of):
        self.seat_of = seat_of
        self.states, self.seats, self.legal, self.actions = [], [], [], []

    @property
    def count(self) -> int:
        return len(self.actions)

    def on_step(self, env, name, action):
        if name is not None:
            self.states.append(env.state_record.copy())
            self.seats.append(self.seat_of[name])
            self.legal.append(len(env.legal_actions()))
            self.actions.append(action)

    def columns(self, game, index) -> dict[str, np.ndarray]:
        states = np.array(self.states, dtype=game.state_dtype)
        columns = _decision_columns(game, states, np.array(self.actions, np.int64))
        columns["seat"] = np.array(self.seats, np.int64)
        columns["legal_actions"] = np.array(self.legal, np.int64)
        columns["game"] = np.full(self.count, index, np.int64)
        columns["decision"] = np.arange(self.count)
        return columns


def _play_random(game, num_players, games, seed, bar, frames, finals):
    """Random legal play, ``BATCH`` games at a time in the compiled batched engine."""
    for start in range(0, games, BATCH):
        count = min(BATCH, games - start)
        vec = VectorGames(game, count, num_players)
        _, _, masks = vec.reset((seed + start) % (1 << 64))
        active = np.ones(count, np.bool_)
        played = np.zeros(count, np.int64)
        actions = np.zeros(count, np.int64)
        step = 0
        while active.any():
            rows = np.flatnonzero(active)
            step_seed = np.uint64((seed + start * 7919 + step * 0x9E3779B9) % (1 << 64))
            random_legal_actions(masks, step_seed, actions)
            before = vec.states.copy()
            columns = _decision_columns(game, before[rows], actions[rows])
            columns.update(seat=vec.actors[rows].astype(np.int64), game=start + rows)
            columns["legal_actions"] = masks[rows].sum(axis=1).astype(np.int64)
            columns["decision"] = played[rows].copy()
            frames.append(columns)
            played[rows] += 1
            _, _, masks, rewards, terminated, truncated = vec.step(actions, active)
            for i in np.flatnonzero(active & (terminated | truncated)):
                final = before[i : i + 1].copy()
                game.entry.advance(final, int(actions[i]), np.zeros(game.num_actions, np.int8))
                record = final.view(np.recarray)[0]
                labels = ["random"] * vec.num_seats
                finals.append(
                    _Final(
                        start + int(i),
                        (seed + start + int(i)) % (1 << 64),
                        labels,
                        record,
                        rewards[i].astype(np.float64),
                        bool(truncated[i]),
                        int(played[i]),
                    )
                )
                active[i] = False
                bar.update()
            step += 1


def _decision_columns(game, states, actions) -> dict[str, np.ndarray]:
    """The state-derived columns of decisions taken in ``states`` (a plain record array)."""
    study = game.study
    states = states.view(game.state_dtype, np.ndarray)
    columns = {"phase": states[study.phase].astype(np.int64), "action": actions}
    for name, column in study.columns.items():
        columns[name] = column(states, actions)
    scores = score_states(game.name, states)
    if scores is not None:
        for k in range(int(states["num_players"][0]) if len(states) else 0):
            columns[f"score_{k}"] = scores[:, k]
    return columns


def _concat(frames) -> dict[str, np.ndarray]:
    return {name: np.concatenate([f[name] for f in frames]) for name in frames[0]}


# Tables -----------------------------------------------------------------------------------------


def _tables(game, num_players, options, columns, finals) -> GameData:
    study = game.study
    decisions = pd.DataFrame(columns)
    labels = {f.index: f.agents for f in finals}
    decisions["agent"] = [
        labels[g][s] for g, s in zip(decisions["game"], decisions["seat"], strict=True)
    ]
    decisions["phase"] = pd.Categorical.from_codes(decisions["phase"], study.phase_names)
    names = [game.action_name(a) for a in range(game.num_actions)]
    decisions["action_name"] = pd.Categorical.from_codes(decisions["action"], names)
    kinds = kind_of_action(game.name)
    kind_names = list(dict.fromkeys(kinds))
    kind_codes = np.array([kind_names.index(k) for k in kinds])
    decisions["action_kind"] = pd.Categorical.from_codes(
        kind_codes[decisions["action"]], kind_names
    )
    decisions["agent"] = decisions["agent"].astype("category")
    decisions = decisions.sort_values(["game", "decision"], ignore_index=True)
    first = ["game", "decision", "seat", "agent", "phase", "legal_actions", "action"]
    first += ["action_name", "action_kind"]
    decisions = decisions[first + [c for c in decisions.columns if c not in first]]
    options_json = json.dumps(game.check_options(options), default=_jsonable, sort_keys=True)
    sides = game.side_seats(num_players)
    rows = [_game_row(game, study, sides, options_json, num_players, f) for f in finals]
    return GameData(game.name, num_players, decisions, pd.DataFrame(rows))


def _game_row(game, study, sides, options_json, num_players, final: _Final) -> dict:
    best = final.rewards.max()
    won = (final.rewards == best) & (best > 0)
    row = {
        "game": final.index,
        "seed": final.seed,
        "options": options_json,
        "players": num_players,
        "decisions": final.decisions,
        "rounds": study.game_rounds(final.record, final.decisions),
        "terminated": not final.truncated,
        "truncated": final.truncated,
    }
    for k, label in enumerate(final.agents):
        row[f"agent_{k}"] = label
        row[f"reward_{k}"] = float(final.rewards[k])
        row[f"won_{k}"] = bool(won[k])
    row["winning_sides"] = sum(bool(won[seats[0]]) for seats in sides)
    row["shared_win"] = row["winning_sides"] > 1
    for name, values in game.scores(final.record).items():
        if all(isinstance(v, (int, float, np.integer, np.floating)) for v in values):
            for k, value in enumerate(values):
                row[f"{name}_{k}"] = value
    return row


def _jsonable(value):
    return value.tolist() if isinstance(value, np.ndarray) else str(value)
