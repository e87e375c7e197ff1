"""Games at the web table: who plays each seat, every position so far, and what a browser
may see of them.

A :class:`Table` is one game in one of three modes: ``watch`` (agents in every seat),
``play`` (the browser's person holds one or more seats, agents the rest) and ``replay`` (a
saved :class:`~heist_envs.core.record.GameRecord`). Every move goes through
``HeistEnv.step``, so the browser gets exactly the Python API's checks. Tables live in memory,
per browser session (:class:`SessionStore`). A game the person plays is saved for rating when
it ends only where the server saves games and the person asked to
(:mod:`experiments.web.saved_games`).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

import heist_envs
from agents.arena import agent_seed, parse_entrant
from agents.base import InfoSet
from agents.registry import ready_agent_names
from experiments.tools.protocol import POOL
from experiments.web.saved_games import HUMAN
from experiments.web.views import table_view
from heist_envs.core.game import normalize_seed
from heist_envs.core.record import GameRecord

MAX_RECORD_BYTES = 1 << 20  # a record of a long game is a few kB
MAX_RECORD_ACTIONS = 20_000
LOG_LENGTH = 12  # moves listed beside the table
DEFAULT_SEAT = "default"


class TableError(ValueError):
    """A request the table refuses; the message is shown in the page."""


class NoSuchTable(TableError):
    """A table id this browser session does not hold (or no longer: the oldest go)."""


class NotAllowed(TableError):
    """A view or download that would show a player what their seats cannot see."""


@dataclass
class Move:
    seat: int
    action: int
    name: str  # named on the position before the move, as the mover saw it


@dataclass
class Table:
    id: str
    mode: str  # "watch", "play" or "replay"
    env: object  # the HeistEnv at the latest position
    players: list[str]  # per seat: HUMAN or an agent's registry name
    agents: list = field(default_factory=list)  # per seat: the agent, None for a human
    history: list = field(default_factory=list)  # 1-element state arrays, position 0 first
    moves: list[Move] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: where the game is saved when it ends (a GameSaver), None: it is not saved
    saver: object = None
    #: what became of saving it: None (not saved), "pending", "saved" or why it failed
    saved: str | None = None

    @property
    def game(self):
        return self.env.game

    @property
    def over(self) -> bool:
        agent = self.env.agent_selection
        return self.env.terminations[agent] or self.env.truncations[agent]

    def human_seats(self) -> list[int]:
        """The seats the browser's person plays (none in a replay, whoever played them)."""
        if self.mode != "play":
            return []
        return [k for k, who in enumerate(self.players) if who == HUMAN]

    def actor(self) -> int | None:
        return None if self.over else self.env.possible_agents.index(self.env.agent_selection)

    def summary(self) -> dict:
        return {
            "id": self.id,
            "mode": self.mode,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.players,
            "steps": len(self.moves),
            "over": self.over,
            "saved": self.saved,
        }

    # Moves ----------------------------------------------------------------------------------

    def play(self, action):
        """The person's move for the acting seat; an illegal one raises and changes nothing."""
        actor = self.actor()
        if actor is None:
            raise TableError("the game is over")
        if actor not in self.human_seats():
            raise TableError(f"{self.env.agent_selection} is played by {self.players[actor]}")
        try:
            self._step(actor, action)
        except TypeError as e:  # not an action id at all (text, a fraction, null)
            raise TableError(str(e)) from None

    def advance(self):
        """One move by the agent whose seat acts."""
        actor = self.actor()
        if actor is None:
            raise TableError("the game is over")
        agent = self.agents[actor]
        if agent is None:
            raise TableError(f"{self.env.agent_selection} waits for your move")
        observation = self.env.observe(self.env.agent_selection)
        args = (observation["observation"], observation["action_mask"])
        if getattr(agent, "wants_info_set", False):
            state = self.game.new_states(1)
            state[0] = self.env.state_record
            args += (InfoSet(self.game, state, actor),)
        self._step(actor, agent.act(*args))

    def _step(self, actor, action):
        before = self.history[-1][0]
        self.env.step(action)  # raises IllegalActionError (a ValueError) and changes nothing
        self.moves.append(Move(actor, int(action), self.game.action_name(int(action), before)))
        self._snapshot()
        if self.saver is not None and self.over:
            self._save()

    def _save(self):
        """Append the finished game to the saver's file; a failed write is said in the page
        (the game stays at the table, and its record can be downloaded)."""
        outcome = self.outcome()
        try:
            self.saver.save(self.record(), outcome["rewards"], outcome["truncated"])
            self.saved = "saved"
        except OSError as error:
            self.saved = (
                f"not saved: cannot write {self.saver.path.name}: {error.strerror or error}"
            )

    def _snapshot(self):
        state = self.game.new_states(1)
        state[0] = self.env.state_record
        self.history.append(state)

    # What a browser may see -----------------------------------------------------------------

    def check_view(self, seat):
        """While a person plays, only their own seats' views are shown until the game ends."""
        if self.mode == "play" and not self.over and seat not in self.human_seats():
            mine = ", ".join(self.env.possible_agents[k] for k in self.human_seats())
            raise NotAllowed(f"while you play, the table is shown from your seats only ({mine})")

    def default_seat(self):
        """Your acting seat (or your first) in a game you play, else the spectator's view."""
        mine = self.human_seats()
        if self.mode != "play" or self.over:
            return None
        return self.actor() if self.actor() in mine else mine[0]

    def view(self, seat=DEFAULT_SEAT, step=None) -> dict:
        """The table after ``step`` moves (default: the latest) from ``seat``'s view (None:
        the spectator's; by default :meth:`default_seat`)."""
        seat = self.default_seat() if seat is DEFAULT_SEAT else seat
        self.check_view(seat)
        latest = len(self.moves)
        step = latest if step is None else step
        if not 0 <= step <= latest:
            raise TableError(f"step must be 0 to {latest}, got {step}")
        s = self.history[step][0]
        names = self.env.possible_agents
        running = step < latest or not self.over
        actor = int(s.actor) if running else None
        legal = []
        if step == latest and actor is not None and actor == seat and actor in self.human_seats():
            legal = [
                {"action": a, "name": self.env.action_name(a)} for a in self.env.legal_actions()
            ]
        return {
            **self.summary(),
            "agents": names,
            "seat": seat,
            "step": step,
            "actor": actor,
            "log": [
                {"step": i + 1, "seat": self.moves[i].seat, "name": self.moves[i].name}
                for i in range(max(0, step - LOG_LENGTH), step)
            ],
            "last": {"seat": self.moves[step - 1].seat, "name": self.moves[step - 1].name}
            if step
            else None,
            "legal": legal,
            "outcome": self.outcome() if not running else None,
            "table": table_view(self.game, s, seat),
        }

    def outcome(self) -> dict:
        """The rewards, and who won and why (the game's score breakdown)."""
        names = self.env.possible_agents
        return {
            "rewards": [float(self.env.rewards[a]) for a in names],
            "truncated": any(self.env.truncations[a] for a in names),
            "breakdown": self.game.score_breakdown(self.env.state_record),
        }

    def record(self) -> GameRecord:
        """The game record, with who played each seat."""
        record = self.env.game_record()
        record.players = self.players
        return record

    def record_json(self) -> str:
        if self.mode == "play" and not self.over:
            raise NotAllowed("a game you play can be downloaded once it is over")
        return self.record().to_json()


# Making tables ------------------------------------------------------------------------------


def menu_players(agents=()) -> list[str]:
    """Who a seat may take: the person, the registry's agents that need no parameter, the
    benchmark protocol's reference pool (so that a person's games can be rated on its
    scale), and ``agents``, the agent specs the server offers besides (``heist serve
    --agents``)."""
    return list(dict.fromkeys([HUMAN, *ready_agent_names(), *POOL, *agents]))


def new_table(game_name, num_players=None, players=(), seed=None, agents=(), saver=None) -> Table:
    """A game with ``players[k]`` in seat k, one of :func:`menu_players`; ``saver`` (a
    :class:`~experiments.web.saved_games.GameSaver`) saves it when it ends, for a game the
    person plays only."""
    if game_name not in heist_envs.game_names():
        raise TableError(f"unknown game {game_name!r}; games: {', '.join(heist_envs.game_names())}")
    env = heist_envs.make(game_name, num_players=num_players)
    names = env.possible_agents
    if not isinstance(players, (list, tuple)) or len(players) != len(names):
        raise TableError(
            f"players must be a list with a player for each of the {len(names)} seats "
            f"({', '.join(names)}), got {players!r:.80}"
        )
    choices = menu_players(agents)
    for k, who in enumerate(players):
        if not isinstance(who, str) or who not in choices:
            raise TableError(f"{names[k]}: unknown player {who!r}; choose one of {choices}")
    players = list(players)
    seed = normalize_seed(seed)
    count = env.num_players
    seated = [
        None
        if who == HUMAN
        else parse_entrant(who, trusted=True).build(
            game_name, seed=agent_seed(seed, k), num_players=count
        )
        for k, who in enumerate(players)
    ]
    env.reset(seed=seed)
    mode = "play" if HUMAN in players else "watch"
    if saver is not None and mode != "play":
        raise TableError("only a game you play is saved: set a seat to you")
    table = Table(secrets.token_urlsafe(8), mode, env, players, seated, saver=saver)
    table.saved = None if saver is None else "pending"
    table._snapshot()
    return table


def replay_table(text) -> Table:
    """A table holding a saved game record (JSON text), checked as ``GameRecord`` checks it:
    malformed records, unknown games or options and illegal actions are refused."""
    if isinstance(text, bytes):
        if len(text) > MAX_RECORD_BYTES:
            raise TableError(f"a game record may be at most {MAX_RECORD_BYTES} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise TableError("a game record must be UTF-8 JSON text") from None
    record = GameRecord.from_json(text)
    if len(record.actions) > MAX_RECORD_ACTIONS:
        raise TableError(f"a game record may hold at most {MAX_RECORD_ACTIONS} actions")
    record.replay()  # every check of the Python API, before anything is kept
    env = heist_envs.make(record.game, num_players=record.num_players)
    env.reset(seed=record.seed, options=record.options)
    seats = len(env.possible_agents)
    players = record.players if record.players and len(record.players) == seats else None
    table = Table(secrets.token_urlsafe(8), "replay", env, players or ["record"] * seats)
    table.agents = [None] * len(env.possible_agents)
    table._snapshot()
    for action in record.actions:
        table._step(table.actor(), action)
    return table


# Sessions -----------------------------------------------------------------------------------


class ServerFull(TableError):
    """No room for another browser session: every session held is in use."""


class SessionStore:
    """Tables per browser session, in memory, within limits: a session keeps its newest
    ``max_tables`` tables, and a new session takes the place of the one idle the longest
    only once that one has been idle for ``idle_seconds``; before, a new session is
    refused (:class:`ServerFull`). Other clients can so never push out a table in use."""

    def __init__(self, max_sessions=256, max_tables=16, idle_seconds=30 * 60, clock=time.monotonic):
        self.max_sessions = max_sessions
        self.max_tables = max_tables
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._sessions: OrderedDict[str, OrderedDict[str, Table]] = OrderedDict()
        self._last_used: dict[str, float] = {}  # session -> when it was last used (clock)
        self._lock = threading.Lock()

    def new_session(self) -> str:
        key = secrets.token_urlsafe(24)
        with self._lock:
            if len(self._sessions) >= self.max_sessions:
                oldest = next(iter(self._sessions))
                idle = self.clock() - self._last_used[oldest]
                if idle < self.idle_seconds:
                    raise ServerFull(
                        f"the server holds {self.max_sessions} browser sessions in use; "
                        f"try again once one has been idle for {self.idle_seconds} s"
                    )
                del self._sessions[oldest], self._last_used[oldest]
            self._sessions[key] = OrderedDict()
            self._last_used[key] = self.clock()
        return key

    def known(self, key) -> bool:
        with self._lock:
            return key in self._sessions

    def _use(self, key):
        """Mark session ``key`` (held, and the lock taken) as just used."""
        self._sessions.move_to_end(key)
        self._last_used[key] = self.clock()

    def tables(self, key) -> list[Table]:
        with self._lock:
            return list(self._sessions.get(key, {}).values())

    def add(self, key, table: Table):
        with self._lock:
            if key not in self._sessions:
                raise NoSuchTable("this browser session has expired; reload the page")
            tables = self._sessions[key]
            self._use(key)
            tables[table.id] = table
            while len(tables) > self.max_tables:
                tables.popitem(last=False)

    def get(self, key, table_id) -> Table:
        with self._lock:
            table = self._sessions.get(key, {}).get(table_id)
            if key in self._sessions:
                self._use(key)
        if table is None:
            raise NoSuchTable("no such table in this browser session (it may have expired)")
        return table
