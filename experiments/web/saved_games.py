"""A person's games at the web table, saved to rate them: ``heist serve --save-games FILE``
writes them, ``heist eval --human FILE`` rates them
(:func:`experiments.tools.protocol.rate_person`).

The file is JSON Lines, one finished game a line::

    {"format": "heist-envs/saved-game", "version": 1, "saved": "2025-01-31T12:00:00Z",
     "heist_envs": "0.2.0", "record": {GameRecord}, "outcome": {"rewards": [...],
     "truncated": false}}

The record's ``players`` names who sat in each seat: ``"human"`` for the person, else the
agent's spec (seeded, as at the table, by :func:`agents.arena.agent_seed` from the record's
seed); its seed and actions replay the game. A game is appended in one write and flushed to
the disk before the page hears it was saved; the file is never rewritten. A write cut short
(the machine stopped) leaves a last line without its newline: it is no whole JSON object, so
the reader refuses it, and the next game starts on a line of its own, so that no game is lost
or merged into another.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from heist_envs.core.errors import GameRecordError
from heist_envs.core.record import GameRecord, check_keys, check_version

FORMAT = "heist-envs/saved-game"
KEYS = ("format", "version", "saved", "heist_envs", "record", "outcome")
OUTCOME_KEYS = ("rewards", "truncated")
#: who sits in a seat the person holds, in a record's ``players``
HUMAN = "human"
#: the longest first line read to recognise a file of saved games (a game is a few kB)
FIRST_LINE_BYTES = 1 << 20


@dataclass
class SavedGame:
    """One saved game that passed its checks: its record replays to its outcome."""

    line: int
    record: GameRecord
    rewards: list[float]
    truncated: bool

    @property
    def person_seats(self) -> list[int]:
        return [k for k, who in enumerate(self.record.players) if who == HUMAN]


def package_version() -> str:
    """The installed heist-envs' version ("not installed" for a checkout on the path)."""
    try:
        return importlib.metadata.version("heist-envs")
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def entry(record: GameRecord, rewards, truncated) -> dict:
    """The line of a finished game: its record (with who sat where) and its outcome."""
    return {
        "format": FORMAT,
        "version": 1,
        "saved": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "heist_envs": package_version(),
        "record": json.loads(record.to_json()),
        "outcome": {"rewards": [float(r) for r in rewards], "truncated": bool(truncated)},
    }


class GameSaver:
    """Appends finished games to the file at ``path`` (created if missing). A file that
    holds something else than saved games is refused (a ValueError), so that a mistyped
    name never appends games to another file."""

    def __init__(self, path):
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            os.close(os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644))
            with self.path.open("rb") as file:
                first = file.readline(FIRST_LINE_BYTES)
        except OSError as error:
            raise ValueError(f"cannot save games to {path}: {error.strerror or error}") from None
        if first and not first.startswith(b'{"format": "%s"' % FORMAT.encode()):
            raise ValueError(
                f"{path} is not a file of saved games (its first line is no saved game); "
                "name a new file or one that heist serve --save-games wrote"
            )

    def save(self, record: GameRecord, rewards, truncated):
        """Append one game in one write, on a line of its own, and flush it to the disk; an
        OSError (the disk full, the file gone read-only) leaves the games saved before."""
        line = (json.dumps(entry(record, rewards, truncated)) + "\n").encode()
        with self._lock:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    line = b"\n" + line  # after a write cut short: a line of its own
                while line:
                    line = line[os.write(fd, line) :]
                os.fsync(fd)
            finally:
                os.close(fd)


def read_saved_games(path) -> tuple[list[SavedGame], list[str]]:
    """The games of a file of saved games that pass their checks, and a line for each line
    of the file that does not, naming it and what was wrong. An unreadable file raises a
    ValueError saying why."""
    try:
        lines = Path(path).read_bytes().split(b"\n")
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None
    games, problems = [], []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            games.append(check_line(number, text))
        except GameRecordError as error:
            problems.append(f"line {number}: {error}")
    return games, problems


def check_line(number, text: bytes) -> SavedGame:
    """The game of one line, after checking that it is a saved game whose record replays
    through the rules to the outcome saved; a GameRecordError says what was wrong."""
    try:
        data = json.loads(text.decode("utf-8"))
    except UnicodeDecodeError:
        raise GameRecordError("not UTF-8 text") from None
    except (json.JSONDecodeError, RecursionError):
        raise GameRecordError("not a whole JSON object (a write cut short, or an edit)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameRecordError(f"not a saved game: expected a JSON object of format {FORMAT!r}")
    check_version("saved game", data)
    check_keys("saved game", data, KEYS)
    record = GameRecord.from_json(json.dumps(data["record"]))
    seats = record.players or []
    if len(seats) != record.num_players or HUMAN not in seats:
        raise GameRecordError(
            f"its record must name who sat in each of its {record.num_players} seats, the "
            f"person as {HUMAN!r}; it names {seats}"
        )
    outcome = data["outcome"]
    if not isinstance(outcome, dict):
        raise GameRecordError("its outcome must be an object with rewards and truncated")
    check_keys("its outcome", outcome, OUTCOME_KEYS)
    env = record.replay()
    if not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        raise GameRecordError(f"its record stops after {len(record.actions)} actions, unfinished")
    replayed = [float(env.rewards[agent]) for agent in env.possible_agents]
    truncated = any(env.truncations[agent] for agent in env.possible_agents)
    if outcome != {"rewards": replayed, "truncated": truncated}:
        raise GameRecordError(
            f"its saved outcome {json.dumps(outcome)} is not the replay's "
            f"{json.dumps({'rewards': replayed, 'truncated': truncated})}"
        )
    return SavedGame(number, record, replayed, truncated)
